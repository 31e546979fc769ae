"""gameai engine: speak UCI/UCCI (Xiangqi, any game) or Gomocup (Gomoku) on stdin/stdout."""
from __future__ import annotations

import sys


def add_parser(sub):
    p = sub.add_parser("engine", help="run a player as a UCI/UCCI/Gomocup engine on stdin/stdout")
    p.add_argument("--game", default="xiangqi", help="game spec (default xiangqi)")
    p.add_argument("--protocol", choices=("uci", "ucci", "gomocup"), default=None,
                   help="default: gomocup for gomoku and renju, ucci for xiangqi, uci "
                        "otherwise; gomoku and renju refuse uci and ucci, xiangqi refuses gomocup")
    p.add_argument("--player", default=None,
                   help="preset, player or searcher spec (default strong for xiangqi, gomoku "
                        "and renju, used without its own time limit: the GUI's clock decides; "
                        "for other games NegaScout with TT, history, killers, iterative "
                        "deepening and quiescence)")
    p.add_argument("--seed", type=int, default=0, help="seed of the player's random choices (default 0)")
    return p


def run(args) -> int:
    protocol = args.protocol
    if protocol is None:
        base = args.game.split("(")[0]
        protocol = "gomocup" if base.startswith("gomoku") or base.startswith("renju") else \
            "ucci" if base == "xiangqi" else "uci"
    # one line per reply, even through a pipe; text we echo back can never fail to encode
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True, errors="backslashreplace")
    if protocol == "gomocup":
        from ..engine.gomocup import GomocupServer
        server = GomocupServer(args.game, args.player, out=sys.stdout, seed=args.seed)
    else:
        from ..engine.uci import UciServer
        server = UciServer(args.game, args.player, protocol, out=sys.stdout, seed=args.seed)
    server.serve(sys.stdin.buffer)
    return 0
