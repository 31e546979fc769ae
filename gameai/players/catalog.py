"""Player names for the registry (lazy targets; see gameai.registry).

Any searcher spec is also a player: ``make_player("alphabeta(depth=3)")`` wraps it in
the ``search`` player.
"""
from ..registry import PLAYERS
PLAYERS.register("pointweight", "gameai.players.pointweight:PointWeightPlayer", "002 one-shot point weighting without search (seeded random choice among the best points)")
PLAYERS.register("random", "gameai.players.random:RandomPlayer", "uniformly random legal moves (seeded per game)")
PLAYERS.register("search", "gameai.players.search:SearchPlayer", "any searcher spec: search(searcher=\"alphabeta(depth=3)\")")
PLAYERS.register("engine", "gameai.players.engine:EnginePlayer", "external program: engine(cmd=\"...\",protocol=uci|ucci|gomocup,depth,nodes,time,clock=BASE+INC,notation=auto|iccs|uci,option.NAME=VALUE,conf=NAME,engines=FILE,timeout,startup,pace,cwd,reuse,name)")
