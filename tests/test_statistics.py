"""The arithmetic behind `simulate` and `compare` (meeple/statistics.py), on cases whose answers
are known: published intervals, Student's t tables, a fair coin's exact binomial probabilities."""

from __future__ import annotations

import random
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.statistics import Difference, holm, paired, spread, t_quantile, wilson


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998), Statistics in Medicine 17, table I
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),  # no success: the interval still has room above 0
        (10, 10, 0.7225, 1.0),
    ],
)
def test_wilson_interval_matches_published_values(successes: int, n: int, low: float, high: float) -> None:
    got = wilson(successes, n)
    assert got == pytest.approx((low, high), abs=5e-5)


@pytest.mark.parametrize("tosses", [10, 20, 50, 100, 500])
def test_wilson_interval_covers_a_fair_coin_about_95_percent_of_the_time(tosses: int) -> None:
    """The exact coverage, from the binomial probabilities of every count of heads: Wilson's
    interval keeps close to its 95% even at 10 tosses (the textbook p ± 1.96 se does not)."""
    covered = sum(
        comb(tosses, heads) / 2**tosses
        for heads in range(tosses + 1)
        if wilson(heads, tosses)[0] <= 0.5 <= wilson(heads, tosses)[1]
    )
    assert 0.93 <= covered <= 0.98


@given(st.integers(0, 1000), st.integers(1, 1000))
def test_wilson_interval_is_a_range_of_rates_around_the_observed_one(successes: int, n: int) -> None:
    successes = min(successes, n)
    low, high = wilson(successes, n)
    assert 0 <= low <= successes / n <= high <= 1


@pytest.mark.parametrize(
    ("df", "t"), [(1, 12.706), (2, 4.303), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (1000, 1.962)]
)
def test_t_quantile_matches_the_tables(df: int, t: float) -> None:
    assert t_quantile(df) == pytest.approx(t, rel=1.2e-3)


def test_spread_of_known_values() -> None:
    s = spread([1, 2, 3, 4])
    assert (s.mean, s.minimum, s.q1, s.median, s.q3, s.maximum) == (2.5, 1, 1.75, 2.5, 3.25, 4)
    assert s.sd == pytest.approx(1.2910, abs=1e-4)
    assert (s.low, s.high) == pytest.approx((2.5 - 3.182 * 1.2910 / 2, 2.5 + 3.182 * 1.2910 / 2), abs=1e-2)


def test_mean_interval_covers_the_true_mean_about_95_percent_of_the_time() -> None:
    rng = random.Random(2)
    covered = 0
    for _ in range(2000):
        s = spread([rng.gauss(10, 3) for _ in range(8)])
        covered += s.low <= 10 <= s.high
    assert 0.93 <= covered / 2000 <= 0.97


def test_a_value_that_never_changes_has_no_room_for_chance() -> None:
    s = spread([7, 7, 7])
    assert (s.low, s.mean, s.high, s.sd) == (7, 7, 7, 0)


def test_paired_difference_of_identical_games_is_exactly_nothing() -> None:
    d = paired([3, 1, 4, 1, 5], [3, 1, 4, 1, 5])
    assert (d.mean, d.low, d.high, d.distinguishable) == (0, 0, 0, False)


def test_paired_difference_sees_a_shift_that_the_spread_of_each_side_would_hide() -> None:
    """Pairing: every game is 0.1 better in B, while games differ among themselves by far more."""
    rng = random.Random(3)
    a = [rng.gauss(50, 10) for _ in range(40)]
    d = paired(a, [x + 0.1 for x in a])
    assert d.mean == pytest.approx(0.1)
    assert d.distinguishable
    assert spread(a).high - spread(a).low > 5  # unpaired, 0.1 would be lost in the noise


def test_paired_difference_of_noise_is_usually_not_distinguishable() -> None:
    rng = random.Random(4)
    found = 0
    for _ in range(400):
        a = [rng.random() for _ in range(30)]
        b = [rng.random() for _ in range(30)]
        found += paired(a, b).distinguishable
    assert found / 400 <= 0.08  # about 5%: one false alarm in twenty


@given(st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=60))
def test_a_mean_of_counts_has_an_interval_that_never_goes_below_zero(counts: list[int]) -> None:
    s = spread(counts, count=True)
    assert 0 <= s.low <= s.mean <= s.high


def test_a_rare_count_gets_room_above_not_a_bound_below_zero() -> None:
    """A counter that fires in 3 games of 100: the t interval would reach below zero; the count's
    interval is above zero and wider above its mean than below."""
    counts = [1, 1, 1] + [0] * 97
    assert spread(counts).low < 0
    s = spread(counts, count=True)
    assert 0 < s.low < s.mean < s.high and s.high - s.mean > s.mean - s.low


def test_a_common_count_gets_about_the_t_interval() -> None:
    rng = random.Random(2)
    counts = [rng.randint(20, 40) for _ in range(400)]
    assert spread(counts, count=True).low == pytest.approx(spread(counts).low, rel=0.01)
    assert spread(counts, count=True).high == pytest.approx(spread(counts).high, rel=0.01)


def _null_differences(rng: random.Random, figures: int, pairs: int) -> list[Difference]:
    return [
        paired([rng.random() for _ in range(pairs)], [rng.random() for _ in range(pairs)])
        for _ in range(figures)
    ]


def test_holm_keeps_the_chance_that_any_of_thirty_figures_stands_out_under_one_in_twenty() -> None:
    """`compare` prints 30 figures and more: unadjusted, chance makes one of them stand out in most
    comparisons (1 - 0.95^30 = 79%); with Holm's correction, in fewer than 1 in 20."""
    rng = random.Random(7)
    trials, any_alone, any_together = 200, 0, 0
    for _ in range(trials):
        found = _null_differences(rng, 30, 40)
        any_alone += any(d.distinguishable for d in found)
        any_together += any(holm(found))
    assert any_alone / trials > 0.6
    assert any_together / trials <= 0.08


def test_holm_still_finds_a_real_difference_among_noise_and_steps_down() -> None:
    rng = random.Random(3)
    a = [rng.gauss(50, 10) for _ in range(200)]
    real = paired(a, [x + 3 + rng.gauss(0, 1) for x in a])
    noise = _null_differences(rng, 29, 200)
    flags = holm([*noise, real])
    assert flags[-1] and not any(flags[:-1])
    weak = paired(a, [x + rng.gauss(0.1, 5) for x in a])  # the strongest is not enough: none is
    assert holm([weak, *noise]) == [False] * 30
