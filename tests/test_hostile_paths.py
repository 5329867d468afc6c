"""Hostile files and paths, round two: every file meeple opens goes through `meeple.paths`.

A path a file names (a variant's base, a table's CSV file, a log's rules, a rulebook found beside
a rules file) stays in that file's folder after every link; a path the user names may be
anywhere; either is a regular file (no FIFO, device or `/proc` file) read to a bounded size. Odd
names (too long, a loop of links, a NUL byte) are clear errors where the name is written; text
that is not UTF-8 is an error at its line and column, in the file that has it; control characters
in what a file says reach the terminal as visible text. The fuzz test at the end mutates every
bundled game, every test variant and a replay log, and asserts that nothing raises a traceback.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
from pathlib import Path

import pytest
from helpers import ROOT, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hostile import SECRET, logged, no_hang, write

import meeple
import meeple.interpreter.checks.rulebook as rulebook_module
import meeple.loader
from meeple import paths
from meeple.grammar.parser import parse
from meeple.interpreter.variants import apply_variant
from meeple.limits import MAX_JSON_DEPTH

HEADER = 'game "Hostile":\n  players 2..2\n\n'
PLAY = 'play:\n  log "x"\n'
LONG = "a" * 300  # over NAME_MAX (255 bytes): the system's "File name too long"
ERRORS = (meeple.RulesError, meeple.RuleRuntimeError, meeple.IllegalChoice)
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="links and FIFOs as POSIX makes them")


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the folder the hostile files live in (as test_hostile.py's)."""
    return write(tmp_path / "outside" / "secret.rules", SECRET + "\nmore private words\n")


def said(result: object) -> str:
    return result.stdout + result.stderr  # type: ignore[attr-defined]


def loop_of_links(folder: Path, name: str) -> None:
    """`name` in `folder` is a link to a link to itself: resolving it never ends."""
    (folder / name).symlink_to(folder / f"{name}.other")
    (folder / f"{name}.other").symlink_to(folder / name)


# ===================================================================== the one function


def test_a_name_written_in_a_file_stays_in_its_folder_after_every_link(tmp_path: Path, secret: Path) -> None:
    folder = tmp_path / "mine"
    write(folder / "below" / "ok.csv", "a\n")
    (folder / "out.csv").symlink_to(secret)
    assert paths.named_in("below/ok.csv", folder) == (folder / "below" / "ok.csv").resolve()
    for name in ("out.csv", "../outside/secret.rules", str(secret), "/etc/passwd"):
        with pytest.raises(paths.Outside):
            paths.named_in(name, folder)
    with pytest.raises(paths.Missing):
        paths.named_in("nothing.csv", folder)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_no_fifo_device_or_proc_file_is_opened_even_when_the_user_names_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with no_hang(30):
        for path in (fifo, Path("/dev/zero"), Path("/proc/self/environ"), tmp_path):
            with pytest.raises(paths.Refused):
                paths.read_user_bytes(path, 1024)


def test_a_file_is_read_to_its_limit_and_no_further(tmp_path: Path) -> None:
    big = write(tmp_path / "big.txt", "x" * 101)
    assert paths.read_user_bytes(write(tmp_path / "ok.txt", "x" * 100), 100) == b"x" * 100
    with pytest.raises(paths.TooLarge, match=r"larger than a log can be \(100 bytes\)"):
        paths.read_user_bytes(big, 100, "a log")


@pytest.mark.parametrize(
    ("name", "words"),
    [(LONG, "longer than 255 bytes"), ("a\0b", "NUL byte"), ("", "needs a name")],
)
def test_a_name_no_file_can_have_is_refused_before_anything_looks_for_it(name: str, words: str) -> None:
    with pytest.raises(paths.Refused, match=words):
        paths.named_in(name, Path("."))
    if name:  # the user's "" is Path(""), the current folder: no file either
        with pytest.raises(paths.Refused, match=words):
            paths.user_file(name)


def test_text_that_is_not_utf8_is_located_by_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes("one\ntwé ".encode() + b"\xff")
    with pytest.raises(paths.NotText) as caught:
        paths.read_text(paths.user_file(path), 1000)
    assert (caught.value.line, caught.value.column) == (2, 5)


# ===================================================================== odd paths, where they are named


def _variant(folder: Path, base: str) -> Path:
    return write(folder / "v.rules", f'variant "V" of "{base}":\n  players 2..2\n')


def _csv_table(folder: Path, name: str) -> Path:
    return write(folder / "t.rules", HEADER + f'table things (name, size: int) from "{name}"\n\n' + PLAY)


ODD = {
    "too long": "longer than 255 bytes",
    "a loop of links": "loop of symbolic links",
    "a FIFO": "not a regular file",
}


@pytest.mark.parametrize("odd", ODD)
@pytest.mark.parametrize("named_by", ["a variant", "a table"])
def test_an_odd_name_in_a_rules_file_is_an_error_at_its_line(tmp_path: Path, odd: str, named_by: str) -> None:
    suffix = ".rules" if named_by == "a variant" else ".csv"
    name = LONG + suffix if odd == "too long" else "odd" + suffix
    if odd == "a loop of links":
        loop_of_links(tmp_path, name)
    elif odd == "a FIFO":
        os.mkfifo(tmp_path / name)
    rules = _variant(tmp_path, name) if named_by == "a variant" else _csv_table(tmp_path, name)
    for command in ("check", "play"):
        with no_hang(60):
            result = run(command, str(rules))
        out = said(result)
        assert result.exit_code == 1, out
        assert "Traceback" not in out
        code, line = ("[M091]", ":1:1:") if named_by == "a variant" else ("[M008]", ":4:")
        assert code in out and line in out, out
        assert ODD[odd] in out, out


def test_a_nul_byte_in_the_name_of_a_csv_file_is_refused_where_it_is_written(tmp_path: Path) -> None:
    rules = _csv_table(tmp_path, "a\0b.csv")
    result = run("check", str(rules))
    assert result.exit_code == 1 and "[M008]" in result.stdout and "NUL byte" in result.stdout


@pytest.mark.parametrize("odd", ["too long", "a loop of links"])
def test_an_odd_name_as_a_logs_rules_is_a_message_about_the_log(tmp_path: Path, odd: str) -> None:
    entry = logged(tmp_path)
    name = LONG + ".rules" if odd == "too long" else "loop.rules"
    if odd == "a loop of links":
        loop_of_links(tmp_path / "logs", name)
    log = write(tmp_path / "logs" / "odd.json", json.dumps({**entry, "rules": name}))
    result = run("replay", str(log))
    out = said(result)
    assert result.exit_code == 1 and "Traceback" not in out
    assert "--rules FILE" in out
    assert ("longer than 255 bytes" if odd == "too long" else "loop of symbolic links") in out


def test_a_log_written_where_a_loop_of_links_stands_replaces_the_link(tmp_path: Path) -> None:
    rules = write(tmp_path / "g.rules", HEADER + PLAY)
    loop_of_links(tmp_path, "log.json")
    result = run("play", str(rules), "--log", str(tmp_path / "log.json"))
    assert result.exit_code == 0, said(result)
    assert not (tmp_path / "log.json").is_symlink()
    assert run("replay", str(tmp_path / "log.json")).exit_code == 0


def test_odd_paths_on_the_command_line_are_command_line_errors(tmp_path: Path) -> None:
    loop_of_links(tmp_path, "loop.rules")
    for args in (
        ["check", LONG],
        ["check", str(tmp_path / "loop.rules")],
        ["play", LONG + ".rules"],
        ["check", "dino_party", "--rulebook", LONG],
        ["replay", str(tmp_path / "loop.rules")],
    ):
        result = run(*args)
        out = said(result)
        assert result.exit_code in (1, 2) and "Traceback" not in out, (args, out)
        assert "error:" in out, (args, out)


# ===================================================================== rulebooks


def _rules_beside_rulebook(folder: Path) -> Path:
    return write(
        folder / "g.rules",
        'game "Book":\n  players 2..2\n  rulebook "book.txt"\n\nplay:\n  cites "take a token"\n  log "x"\n',
    )


def test_a_rulebook_beside_the_rules_that_links_out_of_the_folder_is_not_read(
    tmp_path: Path, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEEPLE_RULEBOOKS", raising=False)
    folder = tmp_path / "mine"
    rules = _rules_beside_rulebook(folder)
    for target in (secret, Path("/proc/self/environ")):
        (folder / "book.txt").unlink(missing_ok=True)
        (folder / "book.txt").symlink_to(target)
        result = run("check", str(rules), "--coverage")
        out = said(result)
        assert result.exit_code == 0, out
        assert "[M051]" in out and "beside the file that names it" in out
        assert "SECRET" not in out and "PATH=" not in out and "uncovered:" not in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_rulebook_that_is_a_fifo_is_not_waited_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEEPLE_RULEBOOKS", raising=False)
    rules = _rules_beside_rulebook(tmp_path)
    os.mkfifo(tmp_path / "book.txt")
    with no_hang(60):
        out = run("check", str(rules), "--coverage").stdout
    assert "[M051]" in out and "not a regular file" in out


def test_a_rulebook_the_user_names_may_be_anywhere_but_is_no_system_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = write(tmp_path / "elsewhere" / "real.txt", "Book\n\nOn your turn, take a token.\n")
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / "book.txt").symlink_to(elsewhere)  # a link in a folder the user names is followed
    rules = _rules_beside_rulebook(tmp_path / "game")
    monkeypatch.setenv("MEEPLE_RULEBOOKS", str(folder))
    out = run("check", str(rules), "--coverage").stdout
    assert "Rulebook coverage of" in out and "[M051]" not in out
    out = run("check", str(rules), "--rulebook", "/proc/self/environ").stdout
    assert "[M051]" in out and "a file of the system" in out and "PATH=" not in out


def test_a_rulebook_over_its_limit_is_not_read_and_the_note_says_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rulebook_module, "MAX_RULEBOOK_BYTES", 16)
    rules = _rules_beside_rulebook(tmp_path)
    write(tmp_path / "book.txt", "Book\n\nOn your turn, take a token.\n")
    out = run("check", str(rules), "--rulebook", str(tmp_path / "book.txt")).stdout
    assert "[M051]" in out and "larger than a rulebook can be (16 bytes)" in out


def test_a_rulebook_name_too_long_for_the_system_is_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEEPLE_RULEBOOKS", raising=False)
    rules = write(tmp_path / "g.rules", f'game "Book":\n  players 2..2\n  rulebook "{LONG}.txt"\n\n' + PLAY)
    result = run("check", str(rules))
    assert result.exit_code == 0 and "[M051]" in result.stdout and "longer than 255 bytes" in result.stdout


# ===================================================================== text that is not UTF-8, sizes


def test_a_rules_file_that_is_not_utf8_is_an_error_at_its_line_and_column(tmp_path: Path) -> None:
    base = tmp_path / "base.rules"
    base.write_bytes(HEADER.encode() + b'play:\n  log "caf\xe9"\n')
    variant = _variant(tmp_path, "base.rules")
    for path in (base, variant):
        for command in ("check", "play"):
            result = run(command, str(path))
            out = said(result)
            assert result.exit_code == 1, out
            # the base game has the byte: it is named, not the variant
            assert f"{base}:5:11: error:" in out.replace(str(base.resolve()), str(base)), out
            assert "[M009]" in out and "UTF-8" in out


def test_a_csv_file_that_is_not_utf8_is_an_error_at_its_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "things.csv").write_bytes(b"name,size\nrock,1\npaper\xff,2\n")
    result = run("check", str(_csv_table(tmp_path, "things.csv")))
    assert result.exit_code == 1
    assert "things.csv:3:6: error:" in result.stdout and "[M008]" in result.stdout


def test_a_rules_file_over_its_limit_is_refused_naming_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(meeple.loader, "MAX_RULES_BYTES", 64)
    base = write(tmp_path / "base.rules", HEADER + PLAY + "# " + "x" * 100 + "\n")
    for path in (base, _variant(tmp_path, "base.rules")):
        result = run("check", str(path))
        assert result.exit_code == 1
        assert "[M009]" in result.stdout and "larger than a rules file can be (64 bytes)" in result.stdout


def test_a_csv_file_over_its_limit_is_refused_naming_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(meeple.loader, "MAX_DATA_BYTES", 16)
    write(tmp_path / "things.csv", "name,size\nrock,1\npaper,2\n")
    out = run("check", str(_csv_table(tmp_path, "things.csv"))).stdout
    assert "[M008]" in out and "larger than a data file can be (16 bytes)" in out


def test_a_variant_of_a_file_without_a_game_header_is_an_error_in_that_file(tmp_path: Path) -> None:
    write(tmp_path / "base.rules", 'rule r():\n  log "x"\n\n' + PLAY)
    variant = _variant(tmp_path, "base.rules")
    for command in ("check", "play"):
        result = run(command, str(variant))
        out = said(result)
        assert result.exit_code == 1, out
        assert "[M020]" in out and "no game header" in out and "base.rules:1:1" in out


class Counted(list):  # type: ignore[type-arg]
    """A table's rows that count how often the whole list is gone through."""

    passes = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        Counted.passes += 1
        return super().__iter__()


def test_change_table_goes_through_the_table_a_fixed_number_of_times_however_long_the_patch() -> None:
    """A patch of 20,000 `add row` lines took a minute: each line listed the table's names again."""
    base = parse(HEADER + "table things (name, size: int):\n  a, 1\n  b, 2\n\n" + PLAY, "base.rules")
    lines = "".join(f"  add row t{i}, {i}\n" for i in range(500))
    variant = parse(
        'variant "V" of "base.rules":\n  players 2..2\n\nchange table things:\n'
        + lines
        + "  remove row a\n  replace row b, 5\n  add row a, 7\n  set t3.size to 9\n",
        "v.rules",
    )
    table = next(d for d in base.decls if getattr(d, "name", None) == "things")
    table.rows = Counted(table.rows)
    Counted.passes = 0
    merged, problems = apply_variant(base, variant)
    assert problems == []
    assert Counted.passes < 10
    rows = next(d for d in merged.decls if getattr(d, "name", None) == "things").rows
    cells = {r.cells[0]: r.cells[1] for r in rows}
    assert len(rows) == 502 and cells["a"] == 7 and cells["b"] == 5 and cells["t3"] == 9
    assert [r.cells[0] for r in rows][:2] == ["b", "t0"]  # a removed row leaves; an added one comes last


# ===================================================================== logs


def test_a_log_nested_too_deeply_is_refused_naming_the_file(tmp_path: Path) -> None:
    entry = logged(tmp_path)
    deep = "[" * 18_000 + "]" * 18_000
    log = write(
        tmp_path / "logs" / "deep.json",
        json.dumps(entry).replace('"options": {}', f'"x": {deep}, "options": {{}}'),
    )
    result = run("replay", str(log))
    assert result.exit_code == 1
    assert f"{log} is not a meeple log: brackets nested more than {MAX_JSON_DEPTH} deep" in said(result)


def test_a_negative_seed_is_no_seed(tmp_path: Path) -> None:
    """Python's generator plays seed -5 as 5: a log saying -5 would replay as another game."""
    entry = logged(tmp_path)
    log = write(tmp_path / "logs" / "negative.json", json.dumps({**entry, "seed": -5}))
    result = run("replay", str(log))
    assert result.exit_code == 1 and "same" not in said(result)
    assert "the field 'seed'" in said(result)
    with pytest.raises(ValueError, match="a seed is a whole number from 0"):
        meeple.load("dino_party").new_game(2, seed=-5)


# ===================================================================== what reaches the terminal

TITLE = "Evil\x1b[2J\x1b]0;pwned\x07\x9b"


def _controls_in(text: str) -> set[str]:
    return {c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0}


def test_control_characters_in_a_rules_file_print_as_visible_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = write(
        tmp_path / "evil.rules",
        f'game "{TITLE}":\n  players 2..2\n\nconstant unused = "\x1b]2;title\x07"\n\n'
        f'play:\n  log "line \x1b]0;x\x07 \r over"\n\n'
        f'example "ex \x1b]0;y\x07":\n  players 2\n  expect:\n    count(players) == 2\n',
    )
    log = tmp_path / "evil.json"
    assert run("play", str(rules), "--log", str(log)).exit_code == 0
    for args in (
        ["play", str(rules)],
        ["replay", str(log)],
        ["check", str(rules)],
        ["test", str(rules)],
        ["simulate", str(rules), "--games", "2", "--jobs", "1"],
    ):
        out = said(run(*args))
        assert not _controls_in(out), (args, out)
        assert "\\x1b]" in out or "\\x07" in out, (args, out)
    folder = tmp_path / "bundled"
    folder.mkdir()
    shutil.copy(rules, folder / "evil.rules")  # as it is: reading it as text would turn its \r into \n
    monkeypatch.setattr(meeple.loader, "bundled_dir", lambda: folder)
    out = said(run("list"))
    assert not _controls_in(out) and "\\x9b" in out, out


# ===================================================================== meeple lsp


@pytest.fixture(scope="module")
def editor():  # type: ignore[no-untyped-def]
    pytest.importorskip("pygls")
    from test_lsp import Editor

    started = Editor()
    yield started
    started.close()


def test_the_language_server_answers_nothing_for_a_document_it_was_not_sent(editor, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from lsprotocol import types as lsp
    from pygls.uris import from_fs_path

    on_disk = write(tmp_path / "never_opened.rules", HEADER + PLAY)
    for path in (on_disk, tmp_path / "missing.rules", tmp_path):
        uri = from_fs_path(str(path)) or ""
        document = lsp.TextDocumentIdentifier(uri)
        at = lsp.Position(0, 2)
        assert editor.hover(uri, 0, 2) is None
        assert not editor.definition(uri, 0, 2)
        assert not editor.symbols(uri)
        completion = editor.run(
            editor.client.text_document_completion_async(lsp.CompletionParams(document, at))
        )
        assert completion is None or not [i for i in completion.items if i.label == "Hostile"]


# ===================================================================== fuzz: every game, every variant, a log

GAMES = [*meeple.bundled_games(), *sorted((ROOT / "tests" / "variants").glob("*.rules"))]
INSERTS = ["\x00", "\x1b[2J", "\u202e", "\ufeff", "\udcff", "é", "\t", "\r", '"', "{", "[" * 50, "\\"]


def _mutate(data: bytes, rnd: random.Random) -> bytes:
    """A few edits a damaged or hostile file may have: byte flips, lines deleted or doubled, a
    truncation, inserted Unicode or control characters (some not UTF-8 at all)."""
    lines = data.split(b"\n")
    for _ in range(rnd.randint(1, 3)):
        kind = rnd.randrange(5)
        if kind == 0 and data:
            at = rnd.randrange(len(data))
            data = data[:at] + bytes([data[at] ^ (1 << rnd.randrange(8))]) + data[at + 1 :]
            continue
        if kind == 1 and len(lines) > 1:
            del lines[rnd.randrange(len(lines))]
        elif kind == 2:
            at = rnd.randrange(len(lines))
            lines.insert(at, lines[at])
        elif kind == 3:
            cut = rnd.randrange(len(data) + 1)
            data = data[:cut]
            lines = data.split(b"\n")
            continue
        else:
            at = rnd.randrange(len(lines))
            text = rnd.choice(INSERTS).encode("utf-8", "surrogatepass")
            where = rnd.randrange(len(lines[at]) + 1)
            lines[at] = lines[at][:where] + text + lines[at][where:]
        data = b"\n".join(lines)
    return data


@pytest.fixture(scope="module")
def fuzz_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the bundled games (and their data folders) and the test variants, to mutate."""
    folder = tmp_path_factory.mktemp("fuzz-games")
    for path in GAMES:
        shutil.copy(path, folder / path.name)
    for data in meeple.loader.bundled_dir().iterdir():
        if data.is_dir() and not data.name.startswith("__"):
            shutil.copytree(data, folder / data.name)
    return folder


def check_and_load_a_mutant(fuzz_folder: Path, which: int, seed: int) -> None:
    """A mutant of one game or variant: checked, and loaded and set up where it checks clean."""
    original = GAMES[which]
    path = fuzz_folder / f"mutant_{original.name}"
    path.write_bytes(_mutate(original.read_bytes(), random.Random(seed)))
    try:
        checked = meeple.check(path)
        for d in checked.diagnostics:
            assert d.line >= 0 and d.column >= 0, d
        if checked.ok:
            game = meeple.load(path)
            game.new_game(game.min_players, seed=seed % 1000, budget=20_000)
    except ERRORS:
        pass


# A mutant of a variant of Dino Dynasty takes seconds to check and load: a few in the default run,
# the sweep in the soak (CI runs it).
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(min_value=0, max_value=len(GAMES) - 1), seed=st.integers(0, 2**32))
def test_a_mutated_game_or_variant_gets_diagnostics_never_a_traceback(
    fuzz_folder: Path, which: int, seed: int
) -> None:
    check_and_load_a_mutant(fuzz_folder, which, seed)


@pytest.mark.soak
@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(min_value=0, max_value=len(GAMES) - 1), seed=st.integers(0, 2**32))
def test_many_mutated_games_and_variants_get_diagnostics_never_a_traceback(
    fuzz_folder: Path, which: int, seed: int
) -> None:
    check_and_load_a_mutant(fuzz_folder, which, seed)


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_a_mutated_log_is_replayed_or_refused_never_a_traceback(fuzz_folder: Path, seed: int) -> None:
    log = fuzz_folder / "game.json"
    if not log.exists():
        assert run("play", "dino_party", "--players", "2", "--log", str(log)).exit_code == 0
    mutant = fuzz_folder / "mutant.json"
    mutant.write_bytes(_mutate(log.read_bytes(), random.Random(seed)))
    result = run("replay", str(mutant))
    assert result.exit_code in (0, 1), said(result)
    assert "Traceback" not in said(result)


DATA = sorted((meeple.loader.bundled_dir() / "dino_dynasty").glob("*.csv"))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(min_value=0, max_value=max(0, len(DATA) - 1)), seed=st.integers(0, 2**32))
def test_a_mutated_csv_file_of_a_bundled_game_gets_diagnostics_never_a_traceback(
    fuzz_folder: Path, which: int, seed: int
) -> None:
    if not DATA:
        pytest.skip("no bundled game reads a CSV file")
    original = DATA[which]
    copy = fuzz_folder / original.parent.name / original.name
    copy.write_bytes(_mutate(original.read_bytes(), random.Random(seed)))
    try:
        checked = meeple.check(fuzz_folder / f"{original.parent.name}.rules")
        assert all(d.line >= 0 and d.column >= 0 for d in checked.diagnostics)
    finally:
        shutil.copy(original, copy)
