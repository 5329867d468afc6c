"""Fuzzing the whole pipeline with mutated rules files.

A designer's file is often half-edited: a word deleted, a line pasted twice, two names swapped.
Whatever the text, `meeple check` answers with diagnostics that point into the file, and a file
that checks clean loads and plays. The property, for any mutation of `games/dino_party.rules`:

- nothing but `meeple.RulesError` (from `load`), `meeple.RuleRuntimeError` or `meeple.IllegalChoice`
  ever escapes: no traceback reaches a user for bad input;
- every diagnostic has a line and a column of at least 1, and its line is in the file.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import meeple

GAME = Path(__file__).resolve().parent.parent / "games" / "dino_party.rules"
SOURCE = GAME.read_text(encoding="utf-8")

# Tokens of a rules file: runs of spaces and newlines (kept apart so that indentation mostly
# survives), words, quoted texts, two-character operators and single characters.
_TOKEN = re.compile(r"\n[ ]*|[ \t]+|[A-Za-z_0-9]+|\"(?:[^\"\\\n]|\\.)*\"|\.\.|==|!=|<=|>=|//|.")
TOKENS: list[str] = _TOKEN.findall(SOURCE)
assert "".join(TOKENS) == SOURCE
WORDS: list[str] = sorted({t for t in TOKENS if not t.isspace()})


def _sort(token: str) -> str:
    if token.isdigit():
        return "number"
    if token.startswith('"'):
        return "text"
    if token[0].isalpha() or token[0] == "_":
        return "word"
    return "mark"


SORTS: dict[str, list[str]] = {}
for _word in WORDS:
    SORTS.setdefault(_sort(_word), []).append(_word)
# Whitespace that may be inserted now and then: a new line, a deeper or shallower indentation.
SPACES: list[str] = [" ", "\n", "\n  ", "\n    ", "\n      "]

MAX_DECISIONS = 300
BUDGET = 20_000  # rule steps: a mutant that loops forever stops early with a RuleRuntimeError


@dataclass(frozen=True)
class Delete:
    """Delete the word at (or after) `at`."""

    at: int


@dataclass(frozen=True)
class Insert:
    """Insert `token` before the word at (or after) `at`, or whitespace right at `at`."""

    at: int
    token: str


@dataclass(frozen=True)
class Replace:
    """Replace the word at (or after) `at` by another of its sort (number, text, word or mark) from
    the file: a wrong name, a wrong number. These mutants often parse and reach analysis."""

    at: int
    pick: int


@dataclass(frozen=True)
class Swap:
    """Swap the words at (or after) `at` and `other`."""

    at: int
    other: int


@dataclass(frozen=True)
class DeleteLine:
    at: int


@dataclass(frozen=True)
class CopyLine:
    """Paste the line of `at` once more below itself."""

    at: int


Mutation = Delete | Insert | Replace | Swap | DeleteLine | CopyLine

_index = st.integers(min_value=0, max_value=len(TOKENS) - 1)
_keeps_structure = st.one_of(
    st.builds(Replace, _index, st.integers(min_value=0)),
    st.builds(DeleteLine, _index),
    st.builds(CopyLine, _index),
)
mutations = st.lists(
    st.one_of(
        st.builds(Delete, _index),
        st.builds(Insert, _index, st.sampled_from(WORDS)),
        st.builds(Insert, _index, st.sampled_from(SPACES)),
        st.builds(Swap, _index, _index),
        # Most raw token edits end at the parser; these reach analysis and play more often.
        _keeps_structure,
        _keeps_structure,
        _keeps_structure,
    ),
    min_size=1,
    max_size=3,
)


def mutate(tokens: list[str], changes: list[Mutation]) -> str:
    """Apply the changes in order. Word mutations skip whitespace (they pick the next word), so
    that most mutants keep their line structure and some get past the parser into analysis."""
    out = list(tokens)
    for change in changes:
        word = _next_word(out, change.at)
        if word is None:
            break
        match change:
            case Delete():
                del out[word]
            case Insert(at, token) if token.isspace():
                out.insert(at % (len(out) + 1), token)
            case Insert(_, token):
                out.insert(word, token + " ")
            case Replace(_, pick):
                same_sort = SORTS[_sort(out[word])]
                out[word] = same_sort[pick % len(same_sort)]
            case Swap(_, other):
                there = _next_word(out, other)
                if there is not None:
                    out[word], out[there] = out[there], out[word]
            case DeleteLine() | CopyLine():
                start, end = _line_of(out, word)
                line = out[start:end]
                if isinstance(change, DeleteLine):
                    del out[start:end]
                else:
                    out[end:end] = line
    return "".join(out)


def _next_word(tokens: list[str], at: int) -> int | None:
    for step in range(len(tokens)):
        i = (at + step) % len(tokens)
        if not tokens[i].isspace():
            return i
    return None


def _line_of(tokens: list[str], i: int) -> tuple[int, int]:
    """The tokens of the line holding token i: from its newline token up to the next one."""
    start = i
    while start > 0 and not tokens[start].startswith("\n"):
        start -= 1
    end = i + 1
    while end < len(tokens) and not tokens[end].startswith("\n"):
        end += 1
    return start, end


def assert_positioned(diagnostics: list[meeple.Diagnostic], text: str, path: Path) -> None:
    lines = max(1, len(text.splitlines()))
    for diag in diagnostics:
        assert diag.line >= 1, diag
        assert diag.column >= 1, diag
        assert diag.line <= lines + 1, diag
        assert diag.file == str(path), diag


def play_a_short_game(path: Path, text: str, seed: int) -> str:
    """Load the file and play one game with seeded random choices, up to MAX_DECISIONS.
    Returns how it went: "over", "cut short", "runtime error" or "not loaded"."""
    try:
        game = meeple.load(path)
    except meeple.RulesError as err:
        assert_positioned(err.diagnostics, text, path)
        return "not loaded"
    players = random.Random(seed).randint(game.min_players, game.max_players)
    chooser = random.Random(seed)
    try:
        state = game.new_game(players, seed=seed, budget=BUDGET)
        for _ in range(MAX_DECISIONS):
            if state.is_over:
                break
            decision = state.decision
            assert decision is not None, "a game that is not over waits for a decision"
            state.apply(chooser.randrange(len(decision.options)))
        assert len(state.scores) == players
    except (meeple.RuleRuntimeError, meeple.IllegalChoice):
        return "runtime error"
    return "over" if state.is_over else "cut short"


def check_and_play(text: str, path: Path, seed: int) -> str:
    """The whole pipeline on one text: check it, and play it when it checks clean."""
    path.write_text(text, encoding="utf-8")
    checked = meeple.check(path)
    assert_positioned(checked.diagnostics, text, path)
    if not checked.ok:
        return "not loaded"
    return play_a_short_game(path, text, seed)


@pytest.fixture(scope="module")
def mutant_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "mutant.rules"


def test_the_unchanged_game_checks_clean_and_plays_to_the_end(mutant_path: Path) -> None:
    assert mutate(TOKENS, []) == SOURCE
    assert check_and_play(SOURCE, mutant_path, seed=1) == "over"


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(changes=mutations, seed=st.integers(min_value=0, max_value=2**16))
@example(changes=[Delete(TOKENS.index(":"))], seed=0)
@example(changes=[Insert(TOKENS.index("play"), "\n    ")], seed=0)
def test_any_mutation_of_a_game_gives_diagnostics_or_a_playable_game(
    mutant_path: Path, changes: list[Mutation], seed: int
) -> None:
    check_and_play(mutate(TOKENS, changes), mutant_path, seed)
