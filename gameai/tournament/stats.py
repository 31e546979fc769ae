"""Match statistics: W/D/L, Elo difference with a 95% interval, LOS and SPRT.

Formulas (all Elo are *logistic* Elo: expected score ``s = 1 / (1 + 10**(-elo/400))``,
so ``elo(s) = -400 * log10(1/s - 1)``):

* **Trinomial** (as cutechess-cli prints it): over ``n = W + D + L`` games the mean
  score is ``mu = (W + D/2) / n``; the per-game variance is
  ``var = (W (1-mu)^2 + D (1/2-mu)^2 + L mu^2) / n`` and the standard error of the mean
  ``se = sqrt(var / n)``. The 95% interval of the score is ``mu +- z se`` with
  ``z = Phi^-1(0.975) = 1.95996``; it is mapped through ``elo()`` and the reported error
  is half its width, ``(elo(mu + z se) - elo(mu - z se)) / 2``.
* **Pentanomial** (as fishtest and fastchess): games are grouped in colour-swapped pairs
  (same opening, each side once); a pair scores 0, 1/2, 1, 3/2 or 2 points, counted in
  ``[p0, p1, p2, p3, p4]``. Each pair's score fraction ``x in {0, 1/4, 1/2, 3/4, 1}`` is
  one sample; mean, variance and interval as above but over pairs. Pairing removes the
  opening/colour noise, so the interval is usually narrower and more honest.
* **LOS** (likelihood of superiority, cutechess-cli): ``Phi((W - L) / sqrt(W + L))``.
* **Paired difference** (two players on the same games, e.g. two versions of a player
  against one opponent, opening by opening and colour by colour): the mean of the
  per-game differences ``d = a - b``, its 95% interval ``mean +- z sqrt((mean(d^2) -
  mean^2) / n)`` (for win/loss scores, the Wald interval for the difference of paired
  proportions, Agresti 2002, section 10.1), and the exact two-sided sign test over the
  games that differ (McNemar's exact test for win/loss scores).
* **SPRT** (fishtest's generalised SPRT, logistic Elo bounds): with ``s0 = s(elo0)``,
  ``s1 = s(elo1)`` and the sample mean/variance above (per game for trinomial, per pair
  for pentanomial), ``LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var)``; stop accepting H1
  when ``LLR >= log((1-beta)/alpha)``, accepting H0 when ``LLR <= log(beta/(1-alpha))``.
* **One-sided bounds.** When the normal interval of the score reaches 0 or 1 (a 0-20 or
  1-19 match) its Elo end is infinite and says nothing. The estimate then carries the
  one-sided 95% bound on the other side instead: Clopper & Pearson's (1934) exact binomial
  bound on the points ``k = mu n`` out of ``n`` (``Beta(0.95; k+1, n-k)`` above,
  ``Beta(0.05; k, n-k+1)`` below). A score bounded in [0, 1] spreads at most as a binomial
  one of the same mean (draws only narrow it), so the bound is conservative. With no
  point at all it is ``1 - 0.05**(1/n)``: 0-20 gives a score below 0.139, Elo below -318.
* **Undetermined.** Games with no spread at all (every game drawn, or every pair scoring
  the same) give ``var = 0`` and the formula's "+- 0", which would read as certainty
  from two draws. Such an estimate is *undetermined* instead: Elo and error NaN, printed
  ``undetermined``. Likewise the rating fit leaves undetermined (NaN) a player whose
  rating the games do not fix: one with no game left once the all-won and all-lost
  players are set aside, one who scored everything or nothing in what is left, and any
  player outside the largest group in which everyone took points from everyone else
  through some chain (the maximum-likelihood fit exists only inside such a group;
  Hunter 2004, assumption 1).

The unit tests compare these functions with figures published by cutechess-cli, fastchess
and fishtest runs (see tests/tournament/test_elo.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def score_to_elo(score: float) -> float:
    """Logistic Elo difference for an expected score in (0, 1); +-inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    """Expected score of the side that is ``elo`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference, its 95% error (half-width) and the interval it came from."""

    elo: float
    error: float
    low: float
    high: float
    score: float
    n: int  # games (trinomial) or pairs (pentanomial)
    #: True when the two-sided interval reached a score of 0 or 1: then only one of
    #: ``low``/``high`` is finite, the one-sided 95% bound (module docstring)
    one_sided: bool = False
    #: True when the games have no spread (all drawn, or all pairs alike): no interval
    #: can be sized from them, so elo, error, low and high are NaN (module docstring)
    undetermined: bool = False

    def __str__(self) -> str:
        if self.n == 0:
            return "n/a"
        if self.undetermined:
            return "undetermined"
        if self.one_sided:
            return self.bound_text()
        return f"{self.elo:+.1f} +/- {self.error:.1f}"

    def bound_text(self) -> str:
        """The one-sided bound as text, ``"< -318"`` or ``"> +224"`` (empty if two-sided)."""
        if not self.one_sided:
            return ""
        return f"< {self.high:+.0f}" if math.isfinite(self.high) else f"> {self.low:+.0f}"


def _estimate(values: tuple[float, ...], counts: list[int]) -> EloEstimate:
    n = sum(counts)
    if n == 0:
        return EloEstimate(math.nan, math.nan, math.nan, math.nan, math.nan, 0)
    mu = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mu) ** 2 for v, c in zip(values, counts)) / n
    if var == 0 and 0 < mu < 1:   # "+- 0" from two draws would read as certainty
        nan = math.nan
        return EloEstimate(nan, nan, nan, nan, mu, n, undetermined=True)
    se = math.sqrt(var / n)
    lo, hi = score_to_elo(mu - Z95 * se), score_to_elo(mu + Z95 * se)
    if math.isfinite(hi - lo):
        return EloEstimate(score_to_elo(mu), (hi - lo) / 2, lo, hi, mu, n)
    low, high = one_sided_bound(mu, n)
    return EloEstimate(score_to_elo(mu), math.inf, low, high, mu, n, one_sided=True)


def one_sided_bound(mu: float, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """``(low, high)`` Elo: the exact one-sided ``1 - alpha`` bound on the side away from
    the nearer end of the score range, the other side infinite (Clopper & Pearson 1934 on
    ``k = mu n`` points of ``n``; module docstring)."""
    from scipy.stats import beta
    k = mu * n
    if mu <= 0.5:
        return -math.inf, score_to_elo(float(beta.ppf(1 - alpha, k + 1, n - k)))
    return score_to_elo(float(beta.ppf(alpha, k, n - k + 1))), math.inf


def elo_trinomial(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo +- 95% error from W/D/L counts (cutechess-cli's formula; module docstring)."""
    return _estimate((1.0, 0.5, 0.0), [wins, draws, losses])


def elo_pentanomial(pairs: list[int] | tuple[int, ...]) -> EloEstimate:
    """Elo +- 95% error from pair counts ``[p0..p4]`` (pair points 0, 1/2, 1, 3/2, 2)."""
    if len(pairs) != 5:
        raise ValueError(f"pentanomial counts need 5 entries, got {len(pairs)}")
    return _estimate(PAIR_SCORES, list(pairs))


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority in [0, 1] (draws carry no information here)."""
    if wins + losses == 0:
        return 0.5
    return NormalDist().cdf((wins - losses) / math.sqrt(wins + losses))


def sign_test(k: int, n: int) -> float:
    """Exact two-sided sign test: the chance, with a fair coin, of ``min(k, n - k)`` or
    fewer heads in ``n`` tosses, doubled (at most 1)."""
    if not 0 <= k <= n:
        raise ValueError(f"sign test needs 0 <= k <= n, got k={k}, n={n}")
    low = min(k, n - k)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(low + 1)) / 2 ** n) if n else 1.0


@dataclass(frozen=True)
class PairedDifference:
    """Two players' scores on the same games (module docstring): how many games each
    scored more in, the mean difference ``a - b`` per game with its 95% interval, and the
    sign test's p-value over the games that differ."""

    games: int
    better_a: int
    better_b: int
    mean: float
    lo: float
    hi: float
    p_sign: float


def paired_difference(a, b) -> PairedDifference:
    """:class:`PairedDifference` of the per-game scores ``a`` and ``b`` (same games, same order)."""
    a, b = list(a), list(b)
    if len(a) != len(b) or not a:
        raise ValueError(f"paired scores need two equally long, non-empty lists, got {len(a)} "
                         f"and {len(b)}")
    n = len(a)
    d = [x - y for x, y in zip(a, b)]
    mean = sum(d) / n
    se = math.sqrt(max(0.0, sum(x * x for x in d) / n - mean * mean) / n)
    up, down = sum(x > 0 for x in d), sum(x < 0 for x in d)
    return PairedDifference(n, up, down, mean, mean - Z95 * se, mean + Z95 * se,
                            sign_test(up, up + down))


def _llr(values: tuple[float, ...], counts: list[int], elo0: float, elo1: float) -> float:
    n = sum(counts)
    if n == 0:
        return 0.0
    mu = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mu) ** 2 for v, c in zip(values, counts)) / n
    if var <= 0.0:
        return 0.0  # all samples equal: no evidence about spread yet
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


@dataclass(frozen=True)
class SPRT:
    """Sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError(f"SPRT alpha and beta must be in (0, 1), got {self.alpha}, {self.beta}")
        if self.elo1 <= self.elo0:
            raise ValueError(f"SPRT needs elo0 < elo1, got {self.elo0}, {self.elo1}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr_trinomial(self, wins: int, draws: int, losses: int) -> float:
        return _llr((1.0, 0.5, 0.0), [wins, draws, losses], self.elo0, self.elo1)

    def llr_pentanomial(self, pairs: list[int] | tuple[int, ...]) -> float:
        return _llr(PAIR_SCORES, list(pairs), self.elo0, self.elo1)

    def decide(self, llr: float) -> str | None:
        """``"H1"`` (elo1 accepted), ``"H0"`` or None to keep playing."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    @classmethod
    def parse(cls, text: str) -> "SPRT":
        """``"elo0,elo1[,alpha,beta]"`` from the command line."""
        try:
            parts = [float(x) for x in text.split(",")]
        except ValueError:
            raise ValueError(f"sprt {text!r}: expected numbers elo0,elo1[,alpha,beta]") from None
        if len(parts) not in (2, 4):
            raise ValueError(f"sprt {text!r}: expected elo0,elo1 or elo0,elo1,alpha,beta")
        return cls(*parts)


def _rated_group(games, won, candidates: list[int]) -> list[int]:
    """The players whose ratings the games fix: from ``candidates`` (neither all won nor
    all lost), repeatedly drop those with no game, no point or every point inside the
    group, then keep the largest strongly connected set of the graph "i took points
    from j" (ties: the one with the first player); repeat until nothing changes."""
    from scipy.sparse.csgraph import connected_components
    group = list(candidates)
    while group:
        g, w = games[np.ix_(group, group)], won[np.ix_(group, group)]
        n, pts = g.sum(axis=1), w.sum(axis=1)
        keep = [p for c, p in enumerate(group) if n[c] > 0 and 0 < pts[c] < n[c]]
        if len(keep) == len(group):
            count, label = connected_components(w > 0, directed=True, connection="strong")
            if count == 1:
                return group
            sizes = np.bincount(label)
            best = next(x for x in label if sizes[x] == sizes.max())   # first player's, on a tie
            keep = [p for c, p in enumerate(group) if label[c] == best]
        group = keep
    return group


def fit_ratings(results: dict[tuple[str, str], tuple[float, int]], iterations: int = 10000,
                tol: float = 1e-10) -> dict[str, tuple[float, float]]:
    """Logistic (Bradley-Terry) Elo ratings of many players, mean 0, with standard errors.

    ``results[(a, b)] = (points of a against b, games)``. Draws count half a point, and the
    maximum-likelihood ratings solve ``points_i = sum_j n_ij s(elo_i - elo_j)`` (Hunter's
    MM iteration). Standard errors come from the inverse Fisher information
    ``I_ij = -n_ij p_ij (1 - p_ij)`` (pseudo-inverse, since only differences are fixed),
    which ignores that draws lower the per-game variance, so they err on the wide side.
    A player with every or no point gets +-inf; a player whose rating the games do not fix
    (module docstring, "Undetermined") gets ``(nan, nan)``. With two players this is
    ``+-elo(score)/2``, the trinomial estimate split around 0.
    """
    import numpy as np

    names = sorted({n for pair in results for n in pair})
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    games = np.zeros((k, k))
    won = np.zeros((k, k))          # won[i, j]: points of i against j
    for (a, b), (pts, n) in results.items():
        i, j = idx[a], idx[b]
        games[i, j] += n
        games[j, i] += n
        won[i, j] += pts
        won[j, i] += n - pts
    points, total = won.sum(axis=1), games.sum(axis=1)
    out: dict[str, tuple[float, float]] = {}
    for i in range(k):
        if total[i] == 0:
            out[names[i]] = (math.nan, math.nan)
        elif points[i] == 0:
            out[names[i]] = (-math.inf, math.inf)
        elif points[i] == total[i]:
            out[names[i]] = (math.inf, math.inf)
    finite = _rated_group(games, won, [i for i in range(k) if names[i] not in out])
    for i in range(k):
        if names[i] not in out and i not in finite:
            out[names[i]] = (math.nan, math.nan)   # undetermined (module docstring)
    if not finite:
        return out
    f = np.array(finite)
    g = games[np.ix_(f, f)]
    w = won[np.ix_(f, f)].sum(axis=1)   # points won inside the group: the rest says nothing
    gamma = np.ones(len(f))
    for _ in range(iterations):
        denom = (g / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, w / np.where(denom > 0, denom, 1), gamma)
        new = new / np.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            break
        gamma = new
    theta = np.log(gamma)
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    info = -g * p * (1 - p)
    np.fill_diagonal(info, 0)
    np.fill_diagonal(info, -info.sum(axis=1))
    cov = np.linalg.pinv(info)
    scale = 400 / math.log(10)
    for c, i in enumerate(f):
        se = math.sqrt(max(cov[c, c], 0.0)) * scale
        out[names[i]] = (float(theta[c] * scale), se)
    return out
