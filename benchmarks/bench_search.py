"""Search speed: nodes/s and nodes per decision, with peers side by side on Connect Four.

Run: ``gameai bench search`` (or ``python -m benchmarks.bench_search``); options after
``--``: ``--depth N`` (Connect Four depth shared with easyAI, default 8), ``--deep N``
(depth for the OpenSpiel-only comparison, default 10), ``--repeat N`` (best of N timed
runs, default 3), ``--game-depth N`` (Xiangqi/Gomoku depth, default 4), ``--quick`` (fewer positions, no
minimax), ``--no-peers``, ``--skip-games``, ``--game xiangqi|gomoku`` (only that game's positions).

Connect Four, same algorithm on all sides: fail-soft negamax alpha-beta, columns in
order 0..6, value 0 at the horizon, wins and losses scored without a ply adjustment
(our ``alphabeta(eval=zero,mate_ply=false)`` against OpenSpiel's Python
``alpha_beta_search`` over its C++ ``connect_four`` with ``value_function=0``). Nodes
are every state the search visits, root included: OpenSpiel's are counted by wrapping
its recursive ``_alpha_beta`` (in a separate, untimed run); easyAI's by wrapping its
recursive ``negamax``. easyAI uses its own ConnectFour and ``Negamax`` (scoring -100 for
a lost position, as its documentation shows), with and without its transposition table.
Goals printed as ratios: >= 30x easyAI's nodes/s, >= 0.5x OpenSpiel's.

Then every searcher on fixed Xiangqi and Gomoku positions (when those games are
registered): nodes per decision and nodes/s of CPU time (best of ``--repeat``; CPU rather than wall
seconds because the machine is shared) at fixed depths,
beside the figures stored in ``bench_search_baseline.json`` (the search core before its
refactor, same machine; ``--save FILE`` writes a new one) with the ratio where the node
counts are equal. ``--skip-connect4`` runs only this part.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import gameai

OPENINGS = ["", "4", "4 4 3", "1 2 3 4 5", "4 4 4 4 3 5"]


def _best_time(fn, repeat: int, clock=time.perf_counter):
    best, out = float("inf"), None
    for _ in range(repeat):
        t = clock()
        out = fn()
        best = min(best, clock() - t)
    return best, out


def ours(opening: str, depth: int, repeat: int, spec: str = "alphabeta") -> dict:
    state = gameai.load_game("connect4", moves=opening)
    searcher = gameai.make_searcher(f"{spec}(depth={depth},eval=zero,mate_ply=false)")

    def run():
        searcher.new_game()
        return searcher.search(state)
    t, r = _best_time(run, repeat)
    return {"nodes": r.stats.nodes, "time": t, "nps": r.stats.nodes / t, "value": r.value,
            "move": r.move}


def openspiel(opening: str, depth: int, repeat: int) -> dict | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax as osm
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for m in gameai.load_game("connect4", moves=opening).stack:
        state.apply_action(m)

    def run():
        return osm.alpha_beta_search(game, state=state.clone(), value_function=lambda s: 0.0,
                                     maximum_depth=depth)
    t, (value, move) = _best_time(run, repeat)
    orig, count = osm._alpha_beta, [0]

    def counting(*a, **k):
        count[0] += 1
        return orig(*a, **k)
    osm._alpha_beta = counting
    try:
        run()
    finally:
        osm._alpha_beta = orig
    return {"nodes": count[0], "time": t, "nps": count[0] / t, "value": value, "move": move}


def easyai(opening: str, depth: int, tt: bool) -> dict | None:
    try:
        import importlib

        from easyAI import AI_Player, Negamax
        negamax_module = importlib.import_module("easyAI.AI.Negamax")  # the module, not the class
        from easyAI.AI.TranspositionTable import TranspositionTable
        from easyAI.games import ConnectFour
    except ImportError:
        return None

    class C4(ConnectFour):
        def ttentry(self):
            return self.board.tobytes() + bytes([self.current_player])

    game = C4([AI_Player(None), AI_Player(None)])
    for m in gameai.load_game("connect4", moves=opening).stack:
        game.make_move(m)
        game.switch_player()
    ai = Negamax(depth, scoring=lambda g: -100 if g.lose() else 0,
                 tt=TranspositionTable() if tt else None)
    orig, count = negamax_module.negamax, [0]

    def counting(*a, **k):
        count[0] += 1
        return orig(*a, **k)
    negamax_module.negamax = counting
    try:
        t = time.perf_counter()
        move = ai(game)
        t = time.perf_counter() - t
    finally:
        negamax_module.negamax = orig
    return {"nodes": count[0], "time": t, "nps": count[0] / t, "value": ai.alpha, "move": move}


def _row(label: str, r: dict | None, ref: dict | None = None) -> str:
    if r is None:
        return f"  {label:<28} not installed"
    ratio = f"  ours/this nps {ref['nps'] / r['nps']:8.2f}x" if ref is not None and ref is not r else ""
    return (f"  {label:<28} nodes {r['nodes']:>10,}  time {r['time']:8.3f}s  "
            f"nps {r['nps']:>10,.0f}  move {r['move']}{ratio}")


def connect4_section(args) -> dict:
    print(f"== Connect Four: alpha-beta, value 0 at the horizon, depth {args.depth} "
          f"(OpenSpiel also at depth {args.deep}) ==")
    ratios = {"easyai": [], "easyai_tt": [], "openspiel": []}
    same_nodes = True
    openings = OPENINGS[:3] if args.quick else OPENINGS
    for opening in openings:
        print(f"opening '{opening or '-'}':")
        mine = ours(opening, args.depth, args.repeat)
        print(_row(f"gameai alphabeta d{args.depth}", mine))
        if not args.no_peers:
            osr = openspiel(opening, args.depth, args.repeat)
            print(_row(f"OpenSpiel alpha_beta d{args.depth}", osr, mine))
            if osr is not None:
                same = osr["nodes"] == mine["nodes"]
                same_nodes &= same
                print(f"  {'':<28} same node count as OpenSpiel: {same}")
            for tt in (False, True):
                er = easyai(opening, args.depth, tt)
                print(_row(f"easyAI Negamax d{args.depth}{' +TT' if tt else ''}", er, mine))
                if er is not None:
                    ratios["easyai_tt" if tt else "easyai"].append(mine["nps"] / er["nps"])
            if args.deep and osr is not None:
                deep = ours(opening, args.deep, 1)
                osd = openspiel(opening, args.deep, 1)
                print(_row(f"gameai alphabeta d{args.deep}", deep))
                print(_row(f"OpenSpiel alpha_beta d{args.deep}", osd, deep))
                same_nodes &= osd["nodes"] == deep["nodes"]
                ratios["openspiel"].append(deep["nps"] / osd["nps"])
            elif osr is not None:
                ratios["openspiel"].append(mine["nps"] / osr["nps"])
    print("summary (geometric means of per-position nodes/s ratios, ours / theirs):")
    for name, goal in (("easyai", 30.0), ("easyai_tt", 30.0), ("openspiel", 0.5)):
        vals = ratios[name]
        if not vals:
            print(f"  {name:<10} not measured")
            continue
        g = 1.0
        for v in vals:
            g *= v
        g **= 1.0 / len(vals)
        print(f"  {name:<10} {g:8.2f}x   goal >= {goal}x   {'MET' if g >= goal else 'NOT MET'}")
    if not args.no_peers:
        print(f"  node counts identical to OpenSpiel on every position: {same_nodes}")
    return ratios


# (spec, depth offset from --game-depth or None for searchers with their own budget)
SEARCHERS = [
    ("minimax2", None),
    ("minimax", -1),
    ("alphabeta", 0),
    ("alphabeta(history=true)", 0),
    ("alphabeta(history=true,history_key=fromto)", 0),
    ("alphabeta(history=true,history_inc=square)", 0),
    ("alphabeta(tt=true,id=true,killers=true,history=true)", 0),
    ("negascout(history=true)", 0),
    ("negascout(tt=true,id=true,history=true)", 0),
    ("negascout(tt=true,id=true,aspiration=true,history=true)", 0),
    ("mtdf(history=true)", 0),
    ("alphabeta(quiescence=true,history=true)", -1),
    ("negascout(tt=true,id=true,history=true,nullmove=true,lmr=true)", 0),
    ("negascout(tt=true,id=true,history=true,killers=true,mvv_lva=true,mate_distance=true,"
     "quiescence=true,evasions=true,check_ext=true,nullmove=true,lmr=true)", -1),
    ("mcts(iterations=300)", None),
]
BASELINE = Path(__file__).with_name("bench_search_baseline.json")

POSITIONS = [
    ("xiangqi", {}, "start"),
    ("xiangqi", {"moves": "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"}, "opening"),
    ("gomoku", {"moves": "h8 h9 i9 g7 j10"}, "5 stones"),
]


def games_section(args) -> dict:
    """Nodes/s of every searcher (best of ``--repeat``), beside the stored pre-refactor figures."""
    path = Path(args.baseline) if args.baseline else BASELINE
    base = json.loads(path.read_text()) if path.exists() and not args.no_baseline else {}
    print("== every searcher on fixed positions (nodes per decision, nodes/s; "
          f"'base' = {base.get('_source', 'no stored figures')}) ==")
    out: dict = {}
    ratios: list = []
    for game, params, label in POSITIONS:
        if args.game and game != args.game:
            continue
        if game not in gameai.GAMES.names():
            print(f"{game}: not registered in this checkout")
            continue
        state = gameai.load_game(game, **params)
        print(f"{game} {label} ({len(state.legal_moves())} moves):")
        for spec, offset in SEARCHERS:
            depth = None if offset is None else args.game_depth + offset
            if spec == "minimax" and args.quick:
                continue
            try:
                searcher = gameai.make_searcher(spec, depth=depth) if depth else gameai.make_searcher(spec)
            except gameai.SpecError:          # a switch this checkout does not have
                continue

            def run():
                searcher.new_game()
                return searcher.search(state)
            t, r = _best_time(run, args.repeat, time.process_time)   # CPU s: the machine is shared
            st = r.stats
            label2 = spec if depth is None else f"{spec} d{depth}"
            nps = st.nodes / max(t, 1e-9)
            key = f"{game} {label} | {label2}"
            out[key] = {"nodes": st.nodes, "nps": nps}
            old = base.get(key)
            beside = ""
            if old is not None and old["nodes"] == st.nodes:
                ratios.append(nps / old["nps"])
                beside = f"  base {old['nps']:>9,.0f} ({nps / old['nps']:.2f}x)"
            elif old is not None:
                beside = f"  base nodes {old['nodes']:,} differ"
            print(f"  {label2[:70]:<70} nodes {st.nodes:>9,}  time {t:7.3f}s  "
                  f"nps {nps:>9,.0f}{beside}  move {r.move_str}  value {r.value:.6g}")
    if ratios and base.get("_source"):
        print(f"(base measured with --game-depth 3: {base['_source']})")
    if ratios:
        g = 1.0
        for v in ratios:
            g *= v
        print(f"nodes/s now / base, geometric mean over {len(ratios)} equal-node cases: "
              f"{g ** (1 / len(ratios)):.3f}x")
    if args.save:
        Path(args.save).write_text(json.dumps(out, indent=1) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gameai bench search", description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--deep", type=int, default=10)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--game-depth", type=int, default=4,
                   help="depth for the Xiangqi/Gomoku searchers (minimax and quiescence one less)")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--no-peers", action="store_true")
    p.add_argument("--skip-games", action="store_true")
    p.add_argument("--skip-connect4", action="store_true")
    p.add_argument("--game", choices=sorted({g for g, _, _ in POSITIONS}),
                   help="time only this game's positions (with --skip-connect4: e.g. Xiangqi alone)")
    p.add_argument("--no-baseline", action="store_true", help="do not print the stored figures")
    p.add_argument("--baseline", help="JSON figures to print beside (default: the stored file)")
    p.add_argument("--save", help="write this run's games figures as JSON (a new baseline)")
    args = p.parse_args(argv)
    if not args.skip_connect4:
        connect4_section(args)
    if not args.skip_games:
        games_section(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
