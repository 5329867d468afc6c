"""The arithmetic of balance testing: proportions with their intervals, spreads, and paired differences.

A designer reads a simulation to decide whether a change mattered, so every figure comes with
how far chance alone could move it. Three tools, each the usual one for its question:

- a rate (how often a seat wins) gets Wilson's score interval, which stays inside 0..1 and keeps
  its coverage for a proportion near 0 or 1 and for a few dozen games, where the textbook "p ± 1.96 se"
  does neither;
- a mean (scores) gets Student's t interval; a mean of counts (turns, decisions, counters), which
  cannot be below zero, gets the same interval on the log scale (the Wald interval of a
  quasi-Poisson mean on its log link), which stays above zero and widens upward as counts do;
- a difference between two versions of a game played on the same seeds is a mean of per-seed
  differences, with Student's t interval: pairing removes the part of the spread both versions
  share (the same dice, the same random answers while the games agree), so a paired comparison
  sees a change that two independent runs of the same size would drown in noise;
- many differences looked at together (a comparison prints 30 figures and more) are judged with
  Holm's step-down correction, so that chance alone makes any of them stand out in fewer than 1
  comparison in 20, rather than 1 figure in 20.

Everything here is plain Python over lists of numbers: no game, no engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist, fmean, quantiles, stdev

CONFIDENCE = 0.95


def _z(confidence: float = CONFIDENCE) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """Student's t for `df` degrees of freedom at a two-sided `confidence`: exact at 1 and 2
    degrees of freedom (where t has closed forms), and from 3 on the normal quantile corrected by
    the Cornish-Fisher series (Abramowitz and Stegun 26.7.5), within 0.11% of the exact value."""
    if df < 1:
        return math.inf
    if df == 1:
        return math.tan(math.pi * confidence / 2)
    if df == 2:
        upper = 0.5 + confidence / 2
        return (2 * upper - 1) / math.sqrt(2 * upper * (1 - upper))
    z = _z(confidence)
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(term / df ** (k + 1) for k, term in enumerate(terms))


def wilson(successes: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson's score interval for a rate of `successes` in `n` trials. `successes` may be
    fractional (a win shared by two seats counts half to each): the interval then treats the
    shares as if they were whole, a close approximation when shared wins are rare."""
    if n == 0:
        return (0.0, 1.0)
    z = _z(confidence)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # The interval always holds the observed rate; min and max keep rounding from moving a bound
    # past it (at 0 successes the lower bound is exactly 0, not 1e-17).
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass(frozen=True)
class Spread:
    """How a number came out over the games: its mean with an interval, and its shape."""

    n: int
    mean: float
    low: float  # the mean's interval
    high: float
    sd: float
    minimum: float
    q1: float
    median: float
    q3: float
    maximum: float

    def as_json(self) -> dict[str, float | int | list[float]]:
        return {
            "n": self.n,
            "mean": self.mean,
            "interval": [self.low, self.high],
            "sd": self.sd,
            "min": self.minimum,
            "q1": self.q1,
            "median": self.median,
            "q3": self.q3,
            "max": self.maximum,
        }


def spread(values: Sequence[float], confidence: float = CONFIDENCE, count: bool = False) -> Spread:
    """The spread of some values (at least one). The quartiles are the "inclusive" ones
    (numpy's and a spreadsheet's default), so that one value is its own quartiles. `count`:
    the values count something (none below zero), and the mean's interval is `count_interval`."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to summarise")
    mean = fmean(values)
    sd = stdev(values) if n > 1 else 0.0
    q1, median, q3 = quantiles(values, n=4, method="inclusive") if n > 1 else (values[0],) * 3
    if count and min(values) >= 0:
        low, high = count_interval(n, mean, sd, confidence)
    else:
        half = t_quantile(n - 1, confidence) * sd / math.sqrt(n) if n > 1 else math.inf
        if sd == 0:
            half = 0.0  # every value the same: there is nothing chance could have moved
        low, high = mean - half, mean + half
    return Spread(n, mean, low, high, sd, min(values), q1, median, q3, max(values))


def count_interval(n: int, mean: float, sd: float, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The interval of a mean of `n` counts: Student's t interval of log(mean), whose standard
    error is sd / (mean * sqrt(n)) (the delta method; the Wald interval of a quasi-Poisson mean
    on its log link, which takes the spread from the data rather than assuming Poisson's).
    It never goes below zero, where the plain t interval of a rare count does."""
    if sd == 0 or mean == 0:
        return (mean, mean)  # every game the same count: there is nothing chance could have moved
    if n < 2:
        return (0.0, math.inf)
    factor = math.exp(t_quantile(n - 1, confidence) * sd / (mean * math.sqrt(n)))
    return (mean / factor, mean * factor)


@dataclass(frozen=True)
class Difference:
    """B minus A over paired games: the mean difference and its interval."""

    n: int
    a: float  # the two means
    b: float
    mean: float
    low: float
    high: float
    se: float = 0.0  # the mean difference's standard error

    @property
    def t(self) -> float:
        """How many standard errors the difference lies from zero (infinite where every pair
        differs by the same amount, other than nothing)."""
        if self.se == 0:
            return 0.0 if self.mean == 0 else math.inf
        return abs(self.mean) / self.se

    @property
    def distinguishable(self) -> bool:
        """The interval leaves out 0: chance alone would rarely (1 time in 20) give a difference
        this far from nothing."""
        return self.low > 0 or self.high < 0

    def as_json(self) -> dict[str, float | int | bool | list[float]]:
        return {
            "n": self.n,
            "a": self.a,
            "b": self.b,
            "difference": self.mean,
            "interval": [self.low, self.high],
            "distinguishable": self.distinguishable,
        }


def paired(a: Sequence[float], b: Sequence[float], confidence: float = CONFIDENCE) -> Difference:
    """The difference B - A of values measured on the same seeds, pair by pair."""
    if len(a) != len(b) or not a:
        raise ValueError("paired values need the same, non-zero number of games on both sides")
    d = spread([y - x for x, y in zip(a, b, strict=True)], confidence)
    return Difference(d.n, fmean(a), fmean(b), d.mean, d.low, d.high, d.sd / math.sqrt(d.n))


def holm(differences: Sequence[Difference], confidence: float = CONFIDENCE) -> list[bool]:
    """Which of several differences stand out from chance together: Holm's step-down method.
    The one furthest from zero (in standard errors) is tested at 1 - confidence split m ways,
    the next at m - 1 ways, and so on until one does not stand out; the rest do not either. The
    chance that any difference which is really nothing stands out stays under 1 - confidence
    (Holm 1979), for any dependence between them (the figures of one game are not independent).
    A t test per difference, on its own degrees of freedom, so no p-value needs computing."""
    alpha = 1 - confidence
    order = sorted(range(len(differences)), key=lambda i: -differences[i].t)
    out = [False] * len(differences)
    for k, i in enumerate(order):
        d = differences[i]
        if d.n < 2 or d.t <= t_quantile(d.n - 1, 1 - alpha / (len(differences) - k)):
            break
        out[i] = True
    return out
