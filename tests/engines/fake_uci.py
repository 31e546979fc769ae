"""A deliberately stateful UCI/UCCI engine for the engine-player tests (run as a script).

Its move depends on how many searches it has run since its last reset (``ucinewgame``,
UCCI ``setoption newgame`` when announced, or a new process), so a client that does not
start a fresh game for every game gets games that depend on the worker. Every line it
receives goes to the ``--log`` file. ``--mode`` makes it misbehave: ``eof`` closes its
output and stays alive, ``badbytes`` answers ``go`` with invalid UTF-8, ``stubborn``
ignores ``quit``, SIGTERM and end of input, ``deaf`` stops reading after the
handshake, ``grandchild`` also leaves a child process
that records its pid in ``--log``.pid.
"""
import argparse
import os
import signal
import subprocess
import sys
import time

import gameai

ap = argparse.ArgumentParser()
ap.add_argument("--protocol", default="uci")
ap.add_argument("--game", default="tictactoe")
ap.add_argument("--log", default=os.devnull)
ap.add_argument("--newgame", action="store_true", help="UCCI: announce option newgame")
ap.add_argument("--mode", default="normal")
args = ap.parse_args()
log = open(args.log, "a", buffering=1)
out = sys.stdout
if args.mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if args.mode == "grandchild":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    with open(args.log + ".pid", "w") as f:
        f.write(str(child.pid))

searches = 0
state = gameai.load_game(args.game)


def send(text):
    out.write(text + "\n")
    out.flush()


def option(name, rest):
    send(f"option name {name} {rest}" if args.protocol == "uci" else f"option {name} {rest}")


while True:
    line = sys.stdin.readline()
    if not line:
        if args.mode == "stubborn":
            time.sleep(600)
        break
    log.write(line)
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd in ("uci", "ucci"):
        send("id name fake")
        option("Hash", "type spin default 16 min 1 max 1024")
        option("Skill Level" if args.protocol == "uci" else "Skill_Level",
               "type spin default 20 min 0 max 20")
        option("UCI_Variant", f"type combo default chess var chess var {args.game}")
        if args.newgame:
            option("newgame", "type button")
        send(f"{cmd}ok")
        if args.mode == "deaf":  # never reads again
            time.sleep(600)
    elif cmd == "isready":
        send("readyok")
    elif cmd == "ucinewgame" or (cmd == "setoption" and words[1:2] == ["newgame"] and args.newgame):
        searches = 0
    elif cmd == "position":
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        if words[1] == "fen":
            end = words.index("moves") if "moves" in words else len(words)
            state = gameai.load_game(args.game, fen=" ".join(words[2:end]))
        else:
            state = gameai.load_game(args.game)
        for m in moves:
            state.push(state.parse_move(m))
    elif cmd == "go":
        if args.mode == "eof":
            os.close(1)
            time.sleep(600)
        if args.mode == "badbytes":
            sys.stdout.buffer.write(b"info depth 1\nbestmove \xff\xfe\n")
            sys.stdout.buffer.flush()
            continue
        legal = sorted(state.legal_moves(), key=state.move_str)
        move = legal[(7 * searches + 3) % len(legal)]
        searches += 1
        score = f"score {searches}" if args.protocol == "ucci" else f"score cp {searches}"
        send(f"info depth 2 seldepth 3 {score} nodes {100 + searches} time 1 pv {state.move_str(move)}")
        send(f"bestmove {state.move_str(move)}")
    elif cmd == "quit" and args.mode != "stubborn":
        break
