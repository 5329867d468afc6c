"""The checker's rulebook mechanisms (M050-M055, M070-M073), on a small rulebook of our own.

`tests/rulebooks/pebble-race.txt` is written for these tests: a title, a table of contents with
nested entries, sections, a heading the contents do not list, list items, wrapped paragraphs, a
sentence said three times, flavour, two sentences that disagree ("ends after the fourth round"
and "ends when a runner reaches the last stone") and a variant's section. Nothing here needs a
publisher's rulebook, so the tests run on a fresh clone; the bundled games' own citations are
checked against the real rulebooks in test_citations.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import FIXTURES, found, line_of, only, run

import meeple
from meeple.interpreter.checks import CheckOptions, Report, run_checks
from meeple.interpreter.checks.rulebook import (
    MAX_QUOTE_WORDS,
    normalize,
    quote_parts,
    quote_words,
    read_rulebook,
)

BOOK = FIXTURES / "pebble-race.txt"
HEADER = 'game "Pebble Race":\n  players 2..4\n  rulebook "pebble-race.txt"\n'
GAME = (
    "zone bag\nzone kept per player\npiece pebble: 10 per player in bag\n\n"
    "rule take_pebbles(p: player):\n  move 3 pebble of p from bag to p.kept\n\n"
)


def rules(body: str = "", header: str = HEADER, play: str = 'log "race"') -> str:
    """A Pebble Race rules file: the header, the game's pieces, `body`, and a play block."""
    return f"{header}\n{GAME}{body}\nplay:\n  for each p in players:\n    take_pebbles(p)\n  {play}\n"


def write(tmp_path: Path, source: str, name: str = "pebble.rules") -> Path:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return path


def checks(tmp_path: Path, source: str, rulebook: Path | None = BOOK, coverage: bool = False) -> Report:
    path = write(tmp_path, source)
    return run_checks(meeple.check(path), str(path), CheckOptions(rulebook=rulebook, coverage=coverage))


# ===================================================================== reading a rulebook


def test_a_rulebook_is_read_as_sections_and_paragraphs() -> None:
    book = read_rulebook(BOOK, BOOK.read_text(encoding="utf-8"))
    assert book.title == "Pebble Race Rulebook"
    titles = [s.title for s in book.sections if not s.contents]
    assert titles[:4] == ["Components", "Setup", "Playing a Round", "Drawing"]
    assert next(s for s in book.sections if s.title == "Racing").level == 1  # indented in the contents
    unlisted = next(s for s in book.sections if s.title == "Fast Runners")
    assert not unlisted.listed  # a short line with no final stop is a heading, listed or not
    items = [p for p in book.paragraphs if p.text.startswith(("1. Each", "2. A player"))]
    assert len(items) == 2 and all(p.counted for p in items)  # each list item is a paragraph
    setup = next(p for p in book.paragraphs if p.text.startswith("Each player takes a runner"))
    assert setup.text.count("\n") == 1  # wrapped lines stay one paragraph
    assert not book.paragraphs[0].counted  # the title
    assert not any(p.counted for p in book.paragraphs if p.section == 0)  # the table of contents


def test_a_section_holds_the_sections_under_it_and_the_headings_the_contents_do_not_list() -> None:
    book = read_rulebook(BOOK, BOOK.read_text(encoding="utf-8"))
    playing = book.section_paragraphs("Playing a Round")
    assert playing is not None
    firsts = {book.paragraphs[i].text.split()[0] for i in playing if book.paragraphs[i].counted}
    assert {"A", "1.", "2.", "Each", "Pebbles"} <= firsts  # Drawing, Racing and Fast Runners too
    assert not any(book.paragraphs[i].text.startswith("The game ends") for i in playing)
    assert book.section_paragraphs("No Such Section") is None


# ===================================================================== quotes


def test_a_citation_that_is_not_in_the_rulebook_is_M050_with_the_closest_passage(tmp_path: Path) -> None:
    source = rules('cites "each player draw three pebble from the bag"\n')
    diag = only(checks(tmp_path, source), "M050")
    assert diag.line == line_of(source, "cites") and diag.severity == "warning"
    assert "pebble-race.txt line 35" in diag.hint
    assert "draws three pebbles from the bag" in diag.hint
    assert diag.data["closest_line"] == 35


def test_an_aside_that_is_not_in_the_rulebook_is_M050(tmp_path: Path) -> None:
    source = rules('aside "the river spirits love the slowest runner"\n')
    assert "aside" in only(checks(tmp_path, source), "M050").message


@pytest.mark.parametrize(
    "quote",
    [
        "draws three pebbles from the bag",
        "DRAWS three   PEBBLES from the BAG.",
        "\u201cThe youngest player starts.\u201d",  # curly quotes
        "A player who draws a pebble of their own colour keeps it",
        "it stops one stone short instead",
        "(two runners)".replace("(two runners)", "each player races two runners"),
        "The fastest runner is loved by the river spirits!",
        "Each player moves ... for each pebble they kept",
        "a runner tok-en of their colour",
        "Play four rounds. Drawing",  # across a paragraph break (and a heading)
    ],
)
def test_citations_are_compared_ignoring_case_space_quotes_dashes_and_end_punctuation(
    tmp_path: Path, quote: str
) -> None:
    report = checks(tmp_path, rules(f'cites "{quote}"\n'))
    assert found(report, "M050") == [], quote


def test_quotes_ignore_what_they_should_and_nothing_else() -> None:
    curly = "Owner\u2019s  choice \u2014 \u201cEpochs\u201d"
    assert normalize(curly) == normalize('owner\'s choice - "epochs"')
    assert normalize("one\u2013time") == normalize("one-time") == normalize("one time")
    assert quote_parts("...A, b ... c.") == ["a,b", "c"]
    assert normalize("ab") != normalize("a.b")
    assert quote_words("Each player ... moves, one stone!") == 5  # `...` and punctuation are no words


def test_a_short_citation_found_in_several_places_is_M052(tmp_path: Path) -> None:
    diag = only(checks(tmp_path, rules('cites "go back to the bag"\n')), "M052")
    assert "3 places" in diag.message and diag.data["lines"] == [36, 43, 54]


def test_a_citation_longer_than_twelve_words_is_M054_whatever_the_rulebook(tmp_path: Path) -> None:
    long = "Each player moves their runner one stone forward for each pebble they kept"  # 13 words
    short = "Each player moves their runner one stone forward for each pebble"  # 11 words
    assert quote_words(long) == MAX_QUOTE_WORDS + 1
    source = rules(f'cites "{long}"\ncites "{short}"\n')
    diag = only(checks(tmp_path, source), "M054")
    assert diag.line == line_of(source, long) and diag.data == {"words": 13, "limit": 12}
    assert only(checks(tmp_path, source, rulebook=None), "M054")  # found without the rulebook too
    assert only(checks(tmp_path, rules(f'aside "{long}"\n')), "M054")


# ===================================================================== finding the rulebook


def test_a_rulebook_that_cannot_be_found_is_a_note_at_the_rulebook_line(tmp_path: Path) -> None:
    source = rules('cites "The youngest player starts."\n', header=HEADER.replace("pebble-race", "no-such"))
    report = checks(tmp_path, source, rulebook=tmp_path)
    diag = only(report, "M051")
    assert (diag.line, diag.column, diag.severity) == (3, 3, "note")
    assert "citations not checked" in diag.message and "no-such.txt" in diag.message
    assert "--rulebook" in diag.hint and "MEEPLE_RULEBOOKS" in diag.hint
    assert report.problems == []  # a clean file stays clean without its rulebook


def test_a_missing_rulebook_never_fails_check_even_strict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEEPLE_RULEBOOKS", raising=False)
    path = write(tmp_path, rules('cites "The youngest player starts."\n'))
    result = run("check", "--strict", str(path))
    assert result.exit_code == 0, result.stdout
    assert "note: citations not checked" in result.stdout
    assert result.stdout.splitlines()[-1] == f"{path}: no problems (1 note)"


def test_a_rulebook_named_with_a_folder_or_quotes_without_a_rulebook_are_M053(tmp_path: Path) -> None:
    folder = rules(header=HEADER.replace('"pebble-race.txt"', '"books/pebble-race.txt"'))
    assert "without folders" in only(checks(tmp_path, folder), "M053").message
    unnamed = rules('cites "a rule"\n', header='game "Pebble Race":\n  players 2..4\n')
    diag = only(checks(tmp_path, unnamed, rulebook=None), "M053")
    assert "names none" in diag.message and diag.severity == "warning"


def test_the_rulebook_is_found_beside_the_rules_file_and_through_MEEPLE_RULEBOOKS(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = rules('cites "The youngest player starts."\n')
    monkeypatch.delenv("MEEPLE_RULEBOOKS", raising=False)
    assert only(checks(tmp_path, source, rulebook=None), "M051").severity == "note"
    monkeypatch.setenv("MEEPLE_RULEBOOKS", f"{tmp_path / 'elsewhere'}:{FIXTURES}")
    assert checks(tmp_path, source, rulebook=None).rulebook is not None
    monkeypatch.delenv("MEEPLE_RULEBOOKS")
    (tmp_path / "pebble-race.txt").write_text(BOOK.read_text(encoding="utf-8"), encoding="utf-8")
    book = checks(tmp_path, source, rulebook=None).rulebook
    assert book is not None and book.path.parent == tmp_path.resolve()


# ===================================================================== conflicts


CONFLICT = (
    'conflict "When the game ends":\n'
    '  cites "The game ends after the fourth round"\n'
    '  cites "The game ends when a runner reaches the last stone"\n'
    '  text "We follow the first: four rounds are always played."\n'
)


def test_a_conflict_quotes_two_passages_and_says_its_reading(tmp_path: Path) -> None:
    assert checks(tmp_path, rules(CONFLICT)).problems == []
    listed = checks(tmp_path, rules(CONFLICT)).diagnostics
    assert not [d for d in listed if d.code in {"M050", "M055"}]


@pytest.mark.parametrize(
    ("conflict", "words"),
    [
        ('conflict "The rulebook says 3 and 4; we follow 3."\n', "it quotes 0 passage(s)"),
        (
            CONFLICT.replace('  cites "The game ends when a runner reaches the last stone"\n', ""),
            "1 passage(s)",
        ),
        ("\n".join(CONFLICT.splitlines()[:3]) + "\n", "it says no reading"),
        (CONFLICT + '  assume "no rule says"\n', "'assume' has no place in it"),
    ],
)
def test_a_conflict_that_does_not_quote_two_passages_and_a_reading_is_an_error_M055(
    tmp_path: Path, conflict: str, words: str
) -> None:
    source = rules(conflict)
    diag = only(checks(tmp_path, source, rulebook=None), "M055")  # its shape needs no rulebook
    assert diag.severity == "error" and words in diag.message
    assert diag.line == line_of(source, "conflict")


def test_a_conflict_whose_passage_is_not_in_the_rulebook_is_refused(tmp_path: Path) -> None:
    source = rules(CONFLICT.replace("reaches the last stone", "reaches the far bank"))
    diag = only(checks(tmp_path, source), "M055")
    assert diag.severity == "error" and diag.line == line_of(source, "far bank")
    assert "a runner reaches the last" in diag.hint  # the closest passage, as for any quote
    assert not found(checks(tmp_path, source), "M050")
    result = run("check", str(write(tmp_path, source)), "--rulebook", str(BOOK))
    assert result.exit_code == 1


def test_a_conflict_can_stand_in_a_block_and_in_the_header(tmp_path: Path) -> None:
    indented = "\n".join("  " + line for line in CONFLICT.splitlines())
    in_play = rules(play=indented.strip() + '\n  log "race"')
    in_header = rules(header=HEADER + indented + "\n")
    for source in (in_play, in_header):
        report = checks(tmp_path, source)
        assert report.problems == [], [d.render(None) for d in report.problems]


# ===================================================================== coverage


def coverage(tmp_path: Path, body: str, **kwargs: str) -> tuple[Report, dict]:
    report = checks(tmp_path, rules(body, **kwargs), coverage=True)
    return report, report.coverage[-1].as_data()


def test_a_paragraph_is_covered_when_what_the_game_runs_cites_it(tmp_path: Path) -> None:
    body = 'rule start():\n  cites "The youngest player starts."\n  log "go"\n\n'
    _, total = coverage(tmp_path, body, play="start()")
    assert total["cited"] == 1
    assert not any(p["first_words"].startswith("The youngest") for p in total["uncovered"])


def test_a_paragraph_cited_only_by_an_example_or_an_unreachable_rule_is_not_covered(tmp_path: Path) -> None:
    body = (
        'rule fast(p: player):\n  cites "is a fast runner and moves one more stone"\n  take_pebbles(p)\n\n'
        'example "Drawing":\n  cites "Each player draws three pebbles from the bag."\n'
        "  do:\n    take_pebbles(players[0])\n    fast(players[0])\n  expect:\n    yes\n"
    )
    report, total = coverage(tmp_path, body)
    assert total["cited"] == 0
    assert [p["line"] for p in total["example_only"]] == [35]
    assert [p["line"] for p in total["unreachable_only"]] == [47]
    listed = {(d.line, d.message.split(":")[0]) for d in found(report, "M073")}
    assert listed == {
        (35, "cited only by an example"),
        (47, "cited only by a declaration the game never reaches"),
    }
    assert not {d.line for d in found(report, "M071")} & {35, 47}  # not "uncovered" either


def test_an_aside_marks_a_paragraph_as_not_a_rule(tmp_path: Path) -> None:
    _, total = coverage(tmp_path, 'aside "A race across the river, told in pebbles."\n')
    assert total["asides"] == 1
    assert total["rule_paragraphs"] == total["paragraphs"] - 1
    assert total["asides_percent"] == round(100 / total["paragraphs"], 1)


def test_the_passages_of_a_conflict_are_accounted_for(tmp_path: Path) -> None:
    _, total = coverage(tmp_path, CONFLICT)
    assert (total["cited"], total["in_conflicts"]) == (1, 1)  # both quotes are in one paragraph


def test_a_paragraph_quoted_only_by_a_conflict_is_reported_apart(tmp_path: Path) -> None:
    """A conflict settles a passage without implementing it: the coverage counts the paragraph as
    covered but lists it apart, in the figures, the JSON and the text."""
    _, total = coverage(tmp_path, CONFLICT)
    assert [p["first_words"][:12] for p in total["conflict_only"]] == ["The game end"]
    cited = 'rule start():\n  cites "The game ends after the fourth round"\n  log "go"\n\n' + CONFLICT
    _, both = coverage(tmp_path, cited, play="start()")
    assert both["conflict_only"] == [] and both["in_conflicts"] == 0  # a rule cites it too
    path = write(tmp_path, rules(CONFLICT))
    out = run("check", str(path), "--rulebook", str(BOOK), "--coverage").stdout
    assert "(1 only by a conflict)" in out
    assert "covered only by a conflict: pebble-race.txt:" in out


def test_sections_left_to_other_files_are_not_counted(tmp_path: Path) -> None:
    header = HEADER.replace('"pebble-race.txt"', '"pebble-race.txt" except "Two-Player Variant"')
    _, total = coverage(tmp_path, "", header=header)
    assert total["excluded"] == 2  # the variant's section and the one under it
    assert total["rule_paragraphs"] == total["paragraphs"] - 2
    missing = header.replace("Two-Player Variant", "Solo Variant")
    report, _ = coverage(tmp_path, "", header=missing)
    assert "no section 'Solo Variant'" in only(report, "M050").message


def test_the_coverage_figures_add_up(tmp_path: Path) -> None:
    body = (
        'aside "The fastest runner is loved by the river spirits!"\n'
        'rule start():\n  cites "The youngest player starts."\n  log "go"\n\n'
        'example "e":\n  cites "Unused pebbles go back"\n  expect:\n    yes\n'
    )
    report, _ = coverage(tmp_path, body, play="start()")
    *sections, total = report.coverage
    for s in [*sections, total]:
        parts = (
            s.covered
            + s.asides
            + s.excluded
            + len(s.uncovered)
            + len(s.example_only)
            + len(s.unreachable_only)
        )
        assert parts == s.paragraphs, s.title
    assert sum(s.paragraphs for s in sections) == total.paragraphs
    assert sum(s.words for s in sections) == total.words
    assert total.as_data()["cited_percent"] == round(100 * total.covered / total.rule_paragraphs, 1)


def test_the_coverage_reports_the_share_of_the_rulebooks_words_the_quotes_copy(tmp_path: Path) -> None:
    _, none = coverage(tmp_path, "")
    assert none["quoted_words"] == 0 and none["words"] > 100
    _, four = coverage(tmp_path, 'cites "The youngest player starts."\n')
    assert four["quoted_words"] == 4
    overlapping = 'cites "The youngest player starts."\ncites "youngest player"\n'
    assert coverage(tmp_path, overlapping)[1]["quoted_words"] == 4  # a word quoted twice counts once
    _, skipping = coverage(tmp_path, 'cites "Each player moves ... for each pebble they kept"\n')
    assert skipping["quoted_words"] == 3 + 5  # the words `...` skips are not copied
    assert four["quoted_percent"] == round(100 * 4 / four["words"], 1)


# ===================================================================== the command line


def test_check_json_carries_the_coverage_figures(tmp_path: Path) -> None:
    path = write(tmp_path, rules('cites "not in the book at all, surely"\n'))
    result = run("check", "--format", "json", "--rulebook", str(BOOK), "--coverage", "--play", "1", str(path))
    assert result.exit_code == 0
    entries = json.loads(result.stdout)
    keys = {"file", "line", "column", "severity", "code", "message", "hint", "end_column", "data"}
    assert all(set(e) == keys for e in entries)
    assert {e["code"] for e in entries} >= {"M050", "M069", "M070", "M071", "M072"}
    assert all(e["severity"] == "info" for e in entries if e["code"] >= "M069")
    total = next(e for e in entries if e["code"] == "M072")["data"]
    assert {"cited_percent", "rule_paragraphs", "quoted_percent", "example_only", "excluded"} <= set(total)


def test_check_text_reports_the_coverage_and_what_it_does_not_cover(tmp_path: Path) -> None:
    body = 'example "e":\n  cites "Unused pebbles go back"\n  expect:\n    yes\n'
    path = write(tmp_path, rules(body))
    result = run("check", str(path), "--rulebook", str(BOOK), "--coverage")
    assert result.exit_code == 0
    out = result.stdout
    assert "Rulebook coverage of " in out and "rule paragraphs covered by the rules" in out
    assert "the quotes copy" in out
    assert "uncovered: pebble-race.txt:24 (Setup): Each player takes a runner token" in out
    assert "cited only by an example: pebble-race.txt:54" in out
    assert out.splitlines()[-1] == f"{path}: no problems"
