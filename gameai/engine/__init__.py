"""Engine mode: our players behind the standard text protocols (UCI/UCCI, Gomocup).

``gameai engine --game xiangqi --protocol ucci`` turns any player spec into a program
that GUIs and tournament managers can drive; :mod:`gameai.players.engine` is the other
side (it drives such programs).
"""
