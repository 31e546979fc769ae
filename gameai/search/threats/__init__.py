"""Threat-space search for Gomoku and Renju, as one part of the toolkit.

Four modules, one job each:

* :mod:`.facts` — what the line codes say: the points that make or stop a five, four or
  three, and the two move filters built on them (threats first, forced replies only);
* :mod:`.solver` — the VCF/VCT prover (:class:`~.solver.ThreatSolver`; the numba twin is
  :mod:`gameai.compiled.threats`) and the winning line played out to its five;
* :mod:`.searchers` — ``vcf`` and ``vct``, threat search on its own as a searcher;
* :mod:`.part` — :class:`~.part.ThreatPart`, what alpha-beta calls at its named steps
  (the driver's root proof and checks of the chosen move, the core's reply check at
  ply 1, the VCF at the horizon, and the move filters).

The generic negamax core and driver import none of this: the searcher gets the part from
the registry (``PARTS``) and the core calls its methods (see :mod:`gameai.search.parts`).
"""
from .facts import forced_replies, order_by_threat, scan, threat_scores
from .part import TIMED_VERIFY, ThreatMoves, ThreatPart
from .searchers import ThreatSearcher, solver_class, vcf, vct
from .solver import FAIL, WIN, ThreatSolver, complete_line

__all__ = ["FAIL", "TIMED_VERIFY", "WIN", "ThreatMoves", "ThreatPart", "ThreatSearcher",
           "ThreatSolver", "complete_line", "forced_replies", "order_by_threat", "scan",
           "solver_class", "threat_scores", "vcf", "vct"]
