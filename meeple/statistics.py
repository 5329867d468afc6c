"""The arithmetic of balance testing: proportions with their intervals, spreads, and paired differences.

A designer reads a simulation to decide whether a change mattered, so every figure comes with
how far chance alone could move it. Three tools, each the usual one for its question:

- a rate (how often a seat wins) gets Wilson's score interval, which stays inside 0..1 and keeps
  its coverage for a proportion near 0 or 1 and for a few dozen games, where the textbook "p ± 1.96 se"
  does neither;
- a mean (scores, lengths, counters) gets Student's t interval;
- a difference between two versions of a game played on the same seeds is a mean of per-seed
  differences, with Student's t interval: pairing removes the part of the spread both versions
  share (the same dice, the same random answers while the games agree), so a paired comparison
  sees a change that two independent runs of the same size would drown in noise.

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


def spread(values: Sequence[float], confidence: float = CONFIDENCE) -> Spread:
    """The spread of some values (at least one). The quartiles are the "inclusive" ones
    (numpy's and a spreadsheet's default), so that one value is its own quartiles."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to summarise")
    mean = fmean(values)
    sd = stdev(values) if n > 1 else 0.0
    half = t_quantile(n - 1, confidence) * sd / math.sqrt(n) if n > 1 else math.inf
    if sd == 0:
        half = 0.0  # every value the same: there is nothing chance could have moved
    q1, median, q3 = quantiles(values, n=4, method="inclusive") if n > 1 else (values[0],) * 3
    return Spread(n, mean, mean - half, mean + half, sd, min(values), q1, median, q3, max(values))


@dataclass(frozen=True)
class Difference:
    """B minus A over paired games: the mean difference and its interval."""

    n: int
    a: float  # the two means
    b: float
    mean: float
    low: float
    high: float

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
    return Difference(d.n, fmean(a), fmean(b), d.mean, d.low, d.high)
