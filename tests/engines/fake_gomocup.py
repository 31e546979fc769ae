"""A fake Gomocup engine for the engine-player tests (run as a script).

It behaves as the real engines the client must cope with: input that arrives within
``WINDOW`` seconds after it printed a move is dropped (logged as ``DROPPED``), its move
depends on how many moves it has made since ``START``/``RESTART`` (so a missing reset
changes the games), and every line it receives is appended to the ``--log`` file, so
the tests can check the limits (``INFO max_node``, ``max_depth``, ``timeout_turn``,
``rule``) it was given.
"""
import argparse
import os
import sys
import time

WINDOW = 0.02
ap = argparse.ArgumentParser()
ap.add_argument("--log", default=os.devnull)
ap.add_argument("--no-restart", action="store_true", help="answer RESTART with UNKNOWN")
args = ap.parse_args()
log = open(args.log, "a", buffering=1)
size, board, played, last_out, in_board = 15, {}, 0, 0.0, False


def send(text):
    global last_out
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    last_out = time.monotonic()


def move():
    global played
    empty = [(x, y) for y in range(size) for x in range(size) if (x, y) not in board]
    empty.sort(key=lambda p: (abs(p[0] - 7) + abs(p[1] - 7), p))
    x, y = empty[(3 * played) % min(len(empty), 9)]
    board[(x, y)] = 1
    played += 1
    send(f"{x},{y}")


while True:
    line = sys.stdin.readline()
    if not line:
        break
    arrived = time.monotonic()
    text = line.strip()
    if last_out and arrived - last_out < WINDOW:
        log.write(f"DROPPED {text}\n")
        continue
    log.write(text + "\n")
    words = text.replace(",", " ").split()
    cmd = words[0].upper() if words else ""
    if in_board:
        if cmd == "DONE":
            in_board = False
            move()
        else:
            board[(int(words[0]), int(words[1]))] = int(words[2])
    elif cmd == "START":
        size, board, played = int(words[1]), {}, 0
        send("OK")
    elif cmd == "RESTART":
        if args.no_restart:
            send("UNKNOWN RESTART")
        else:
            board, played = {}, 0
            send("OK")
    elif cmd == "INFO":
        pass
    elif cmd == "BEGIN":
        move()
    elif cmd == "TURN":
        board[(int(words[1]), int(words[2]))] = 2
        move()
    elif cmd == "BOARD":
        board, in_board = {}, True
    elif cmd == "END":
        break
    else:
        send(f"ERROR Unknown command {text}")
