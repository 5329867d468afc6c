"""Hostile input: a rules file or a log from somebody else may read nothing outside what it is
allowed, run no code, and never hang or end in a traceback.

Each case a hostile user found is written here by the test itself (a file outside the allowed
folder holds a secret line that no output may show). The fuzz test at the end throws random
deep nesting, huge numbers and long chains at `check`, `play` and `replay`. Hangs are caught by
a generous alarm: a guard against a run that never ends, not a measure of speed.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.codegen import render
from meeple.diagnostics import Diagnostic, _lines
from meeple.grammar import parser
from meeple.interpreter.checks import CheckOptions, run_checks
from meeple.limits import MAX_DEPTH, MAX_LIST, MAX_NUMBER, MAX_PIECES, MAX_SEATS

HEADER = 'game "Hostile":\n  players 2..3\n\n'
SECRET = "SECRET-FIRST-LINE: nobody may print this"
ERRORS = (meeple.RulesError, meeple.RuleRuntimeError, meeple.IllegalChoice)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the folder the hostile files live in: `tmp_path/outside/secret.rules`."""
    return write(tmp_path / "outside" / "secret.rules", SECRET + "\nmore private words\n")


@contextmanager
def no_hang(seconds: int = 30) -> Iterator[None]:
    """Fail instead of waiting for ever (SIGALRM: the main thread of a POSIX test run)."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ===================================================================== files outside the allowed folder


@pytest.mark.parametrize(
    "base",
    [
        "../outside/secret.rules",
        "../../../../../../etc/passwd",
        "/etc/passwd",
        "/proc/self/cmdline",
        "{secret}",
    ],
)
def test_a_variant_cannot_make_meeple_read_a_file_outside_its_folder(
    tmp_path: Path, secret: Path, base: str
) -> None:
    variant = write(
        tmp_path / "mine" / "v.rules", f'variant "V" of "{base.format(secret=secret)}":\n  players 2..2\n'
    )
    for command in (["check"], ["play"], ["docs", "-o", str(tmp_path / "docs"), "--format", "md"]):
        result = run(*command, str(variant))
        out = result.stdout + result.stderr
        assert result.exit_code == 1, out
        assert "[M091]" in out and "bundled game or a .rules file beside it" in out
        assert "SECRET" not in out and "root:" not in out


def test_a_variant_cannot_follow_a_link_out_of_its_folder(tmp_path: Path, secret: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "base.rules").symlink_to(secret)
    variant = write(tmp_path / "mine" / "v.rules", 'variant "V" of "base.rules":\n  players 2..2\n')
    out = run("check", str(variant)).stdout
    assert "[M091]" in out and "SECRET" not in out


def test_a_variant_may_name_a_rules_file_beside_it_or_below_its_folder(tmp_path: Path) -> None:
    base = HEADER + 'play:\n  log "base"\n'
    write(tmp_path / "games" / "base" / "b.rules", base)
    variant = write(tmp_path / "games" / "v.rules", 'variant "V" of "base/b.rules":\n  players 2..2\n')
    assert meeple.load(variant).new_game(2).log == ["base"]
    bundled = write(tmp_path / "w.rules", 'variant "W" of "dino_party":\n  players 2..2\n')
    assert meeple.load(bundled).max_players == 2


def logged(tmp_path: Path) -> dict[str, object]:
    log = tmp_path / "logs" / "game.json"
    log.parent.mkdir()
    assert run("play", "dino_party", "--log", str(log)).exit_code == 0
    return json.loads(log.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "rules", ["/etc/passwd", "../outside/secret.rules", "{secret}", "../../../etc/passwd"]
)
def test_a_log_cannot_make_replay_read_a_file_outside_its_folder(
    tmp_path: Path, secret: Path, rules: str
) -> None:
    entry = logged(tmp_path)
    hostile = write(
        tmp_path / "logs" / "hostile.json", json.dumps({**entry, "rules": rules.format(secret=secret)})
    )
    result = run("replay", str(hostile))
    out = result.stdout + result.stderr
    assert result.exit_code == 1 and "--rules FILE" in out
    assert "SECRET" not in out and "root:" not in out


def test_a_log_names_its_rules_so_that_both_can_move_together(tmp_path: Path) -> None:
    rules = write(
        tmp_path / "game" / "mine.rules", (meeple.resolve("dino_party")).read_text(encoding="utf-8")
    )
    log = tmp_path / "game" / "logs" / "one.json"
    log.parent.mkdir()
    assert run("play", str(rules), "--log", str(log)).exit_code == 0
    assert json.loads(log.read_text(encoding="utf-8"))["rules"] == str(rules.resolve())
    assert run("replay", str(log)).exit_code == 1  # above the log's folder: not read unless named
    elsewhere = tmp_path / "elsewhere.json"
    assert run("play", str(rules), "--log", str(elsewhere)).exit_code == 0
    assert json.loads(elsewhere.read_text(encoding="utf-8"))["rules"] == "game/mine.rules"
    assert run("replay", str(elsewhere)).exit_code == 0
    assert run("replay", str(log), "--rules", str(rules)).exit_code == 0  # the user names the rules


# ===================================================================== the parser's cache


def test_the_parser_cache_is_kept_where_only_its_user_can_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = parser.cache_file()
    assert isinstance(path, str) and Path(path).parent == tmp_path / "meeple"
    assert stat.S_IMODE((tmp_path / "meeple").stat().st_mode) == 0o700
    assert not str(path).startswith("/tmp/.lark")  # not Lark's shared, predictable name


def test_a_cache_folder_left_open_is_closed_and_a_planted_file_is_never_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "meeple"
    folder.mkdir(mode=0o777)
    os.chmod(folder, 0o777)
    path = parser.cache_file()
    assert path and stat.S_IMODE(folder.stat().st_mode) == 0o700
    planted = Path(str(path))
    planted.write_bytes(b"a pickle someone else wrote")
    os.chmod(planted, 0o666)  # writable by others: it may not be theirs to trust
    assert parser.cache_file() is False


def test_a_cache_folder_that_is_a_link_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "meeple").symlink_to(tmp_path / "elsewhere")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert parser.cache_file() is False


def test_the_parser_never_reads_the_shared_temp_folder() -> None:
    lark = parser._lark()
    assert lark.options.cache in (False, parser.cache_file())


# ===================================================================== writing the docs


def test_no_two_outputs_of_docs_share_a_path(tmp_path: Path) -> None:
    game = HEADER + 'play:\n  log "x"\n'
    index = write(tmp_path / "a" / "index.rules", game)
    other = write(tmp_path / "b" / "other.rules", game.replace("Hostile", "Other"))
    aid = write(tmp_path / "c" / "other-aid.rules", game.replace("Hostile", "Third"))
    out = tmp_path / "out"
    result = run(
        "docs", str(index), str(other), str(aid), "-o", str(out), "--format", "md", "--summary", "--reference"
    )
    assert result.exit_code == 0, result.stderr
    written = result.stdout.split()
    assert len(written) == len(set(written))
    assert "# Hostile" in (out / "index-2.md").read_text(encoding="utf-8")  # the game, not the index
    assert "Hostile" in (out / "index.md").read_text(encoding="utf-8")  # the index lists it


def test_docs_never_write_through_a_link_in_the_output_folder(tmp_path: Path, secret: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "g.md").symlink_to(secret)
    game = write(tmp_path / "g.rules", HEADER + 'play:\n  log "x"\n')
    assert run("docs", str(game), "-o", str(out), "--format", "md").exit_code == 0
    assert secret.read_text(encoding="utf-8").startswith(SECRET)  # untouched
    assert not (out / "g.md").is_symlink() and "# Hostile" in (out / "g.md").read_text(encoding="utf-8")


def test_a_hostile_docs_cache_is_no_cache(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write(out / ".meeple-docs.json", "[" * 100_000)
    game = write(tmp_path / "g.rules", HEADER + 'play:\n  log "x"\n')
    result = run("docs", str(game), "-o", str(out), "--format", "md")
    assert result.exit_code == 0 and "Traceback" not in result.stderr


def test_a_layout_is_recorded_only_once_its_file_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from meeple.codegen import render

    def cut_short(path: Path, data: str | bytes) -> None:
        if path.name.endswith("-aid.pdf"):
            raise OSError("the disk is full")
        path.write_text(data if isinstance(data, str) else "", encoding="utf-8")

    monkeypatch.setattr(render, "write_atomic", cut_short)
    game = write(tmp_path / "g.rules", HEADER + 'play:\n  log "x"\n')
    out = tmp_path / "out"
    result = run("docs", str(game), "-o", str(out), "--format", "pdf", "--summary", "--jobs", "1")
    assert result.exit_code == 1
    assert "g-aid.pdf" not in (out / ".meeple-docs.json").read_text(encoding="utf-8")


# ===================================================================== deep, huge and endless rules


def game_with(body: str) -> str:
    return HEADER + body


DEEP = {
    "a sum of 5,000 terms": game_with(
        "constant big = " + "+".join(["1"] * 5000) + '\n\nplay:\n  log "{big}"\n'
    ),
    "10,000 minus signs": game_with("constant big = " + "-" * 10_000 + '1\n\nplay:\n  log "{big}"\n'),
    "10,000 nots": game_with("constant big = " + "not " * 10_000 + 'yes\n\nplay:\n  log "{big}"\n'),
    "an 'and' of 20,000": game_with(
        "constant big = " + " and ".join(["yes"] * 20_000) + '\n\nplay:\n  log "x"\n'
    ),
    "lists 10,000 deep": game_with(
        "constant big = " + "[" * 10_000 + "]" * 10_000 + '\n\nplay:\n  log "x"\n'
    ),
    # 1,000: the indentation of 3,000 (9 MB) is over MAX_RULES_BYTES, refused before it is parsed
    "1,000 nested ifs": game_with(
        "play:\n" + "".join("  " * (i + 1) + "if yes:\n" for i in range(1000)) + "  " * 1001 + 'log "x"\n'
    ),
    "a chain inside a log text": game_with('play:\n  log "{' + "+".join(["1"] * 5000) + '}"\n'),
}


@pytest.mark.parametrize("source", DEEP.values(), ids=DEEP.keys())
def test_rules_nested_too_deeply_are_a_located_error_M007(tmp_path: Path, source: str) -> None:
    path = write(tmp_path / "deep.rules", source)
    for command in (["check"], ["play"], ["test"], ["docs", "-o", str(tmp_path / "out"), "--format", "md"]):
        result = run(*command, str(path))
        out = result.stdout + result.stderr
        assert result.exit_code == 1 and "Traceback" not in out
        assert "[M007]" in out and f"more than {MAX_DEPTH} levels" in out, command


def test_a_rules_file_nested_as_deep_as_any_real_game_is_fine() -> None:
    for path in meeple.bundled_games():
        parser.parse(path.read_text(encoding="utf-8"), str(path))  # our deepest nests 19 levels


TOO_BIG = {
    "a billion billion pieces": ("zone deck\npiece card: 999999999999999999 in deck\n", "M025"),
    "players in the quintillions": (None, "M020"),
    "a loop over a billion billion numbers": ("", "M025"),
    "a count of a huge range": ("constant c = count(1..999999999999999999)\n", "M025"),
}


def test_counts_no_machine_can_hold_are_refused_before_anything_runs(tmp_path: Path) -> None:
    pieces = game_with('zone deck\npiece card: 999999999999999999 in deck\n\nplay:\n  log "x"\n')
    players = 'game "G":\n  players 999999999999999998..999999999999999999\n\nplay:\n  log "x"\n'
    loop = game_with('play:\n  for each x in 1..999999999999999999:\n    log "{x}"\n')
    counted = game_with('constant c = count(1..999999999999999999)\n\nplay:\n  log "{c}"\n')
    for source, code, words in (
        (pieces, "M025", f"at most {MAX_PIECES:,} pieces"),
        (players, "M020", f"at most {MAX_SEATS} players"),
        (loop, "M025", f"at most {MAX_LIST:,}"),
        (counted, "M025", f"at most {MAX_LIST:,}"),
    ):
        path = write(tmp_path / "big.rules", source)
        with no_hang():
            result = run("check", str(path))
        assert result.exit_code == 1 and f"[{code}]" in result.stdout and words in result.stdout
        assert run("play", str(path)).exit_code == 1


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ('zone deck\nconstant n = 999999999\npiece card: n in deck\n\nplay:\n  log "x"\n', "pieces in all"),
        ('constant n = 999999999\n\nplay:\n  for each x in 1..n:\n    log "x"\n', "a list may hold"),
        ("play:\n  let s = sum([x for each x in 1..100000000 - 99999999 + 100000])\n", "a list may hold"),
        ("play:\n  let c = count([[x for each x in 1..90000] for each y in 1..90000])\n", "step budget"),
        ("var n: int = 2\n\nplay:\n  repeat 100 times:\n    set n to n * n\n", f"{MAX_NUMBER:,}"),
        ("var n: int = 2\n\nplay:\n  repeat 100 times:\n    add n to n\n", f"{MAX_NUMBER:,}"),
        ("var l: int = 0\n\nplay:\n  let xs = [1]\n  repeat 40 times:\n    set l to count(xs + xs)\n", ""),
        ("play:\n  let p = players[-1]\n", "numbered from 0"),
        ("value f(k: int) = if k < 0 then 0 else f(k + 1)\n\nplay:\n  let v = f(1)\n", "calls itself"),
    ],
)
def test_what_only_a_running_game_can_know_ends_in_a_rule_error_naming_the_place(
    tmp_path: Path, body: str, words: str
) -> None:
    path = write(tmp_path / "runaway.rules", game_with(body))
    with no_hang():
        played = run("play", str(path))
        checked = run("check", str(path), "--play", "1")
    out = played.stdout + played.stderr
    assert "Traceback" not in out + checked.stdout + checked.stderr
    if "count(xs + xs)" in body:  # 40 doublings of a list would not fit any memory: never made
        assert played.exit_code == 0
        return
    assert played.exit_code == 1 and words in out and "runaway.rules:" in out
    assert checked.exit_code == 1


def test_a_value_that_always_calls_itself_is_refused_M026(tmp_path: Path) -> None:
    source = game_with(
        'value f(k: int) = f(k + 1)\nvalue g() = h()\nvalue h() = g()\n\nplay:\n  log "x"\n\nscore p = f(1)\n'
    )
    out = run("check", str(write(tmp_path / "f.rules", source))).stdout
    assert out.count("[M026]") == 3 and "value 'g' always calls itself (through 'h')" in out


def test_a_value_with_a_way_out_is_not_refused(tmp_path: Path) -> None:
    source = game_with('value f(k: int) = if k > 3 then k else f(k + 1)\n\nplay:\n  log "{f(0)}"\n')
    assert meeple.load(write(tmp_path / "f.rules", source)).new_game(2).log == ["4"]


# ===================================================================== logs


def hostile_logs(entry: dict[str, object]) -> dict[str, str]:
    text = json.dumps(entry)
    return {
        "a 5,000-digit seed": text.replace('"seed": 0', '"seed": 1' + "0" * 5000),
        "a choice of 5,000 digits": text.replace('"choices": [', '"choices": [1' + "0" * 5000 + ", "),
        "choices nested 100,000 deep": text.replace('"choices": [', '"choices": [' + "[" * 100_000),
        "format true": json.dumps({**entry, "meeple": True}),
        "format 1.0": json.dumps({**entry, "meeple": 1.0}),
        "no format": json.dumps({k: v for k, v in entry.items() if k != "meeple"}),
        "format 2": json.dumps({**entry, "meeple": 2}),
        "players 2.0": json.dumps({**entry, "players": 2.0}),
        "a negative choice": json.dumps({**entry, "choices": [-1]}),
        "not an object": "[1, 2, 3]",
        "not JSON": "{nope",
        "100,000 brackets": "[" * 100_000,
    }


def test_a_corrupt_or_hostile_log_is_refused_with_a_message(tmp_path: Path) -> None:
    entry = logged(tmp_path)
    for name, text in hostile_logs(entry).items():
        path = write(tmp_path / "logs" / "bad.json", text)
        result = run("replay", str(path))
        out = result.stdout + result.stderr
        assert result.exit_code == 1, name
        assert "is not a meeple log" in out and "Traceback" not in out, (name, out)


def test_a_log_too_big_to_be_a_log_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import meeple.logs

    monkeypatch.setattr(meeple.logs, "MAX_LOG_BYTES", 100)
    path = write(tmp_path / "big.json", json.dumps(logged(tmp_path)))
    assert "larger than a log can be" in run("replay", str(path)).stderr


# ===================================================================== the API


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": "3"}, "players must be a whole number"),
        ({"players": 2.5}, "players must be a whole number"),
        ({"players": True}, "players must be a whole number"),
        ({"budget": None}, "budget must be a whole number"),
        ({"seed": "7"}, "seed must be a whole number"),
    ],
)
def test_the_api_says_which_argument_is_wrong(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(TypeError, match=words):
        meeple.load("dino_party").new_game(**kwargs)  # type: ignore[arg-type]


def test_replay_says_its_choices_must_be_a_list() -> None:
    with pytest.raises(TypeError, match="choices must be a list"):
        meeple.replay(meeple.load("dino_party"), 2, 0, None)  # type: ignore[arg-type]


# ===================================================================== what the user is shown


def test_diagnostics_count_lines_as_the_parser_does(tmp_path: Path) -> None:
    source = HEADER + 'play:\n  log "a\x0cb"\n  log "c\u2028d"\n  mvoe 3\n'
    out = run("check", str(write(tmp_path / "lines.rules", source))).stdout
    assert ":7:" in out.splitlines()[0] and out.splitlines()[1] == "      mvoe 3"


def test_a_file_is_split_into_lines_once_for_all_its_diagnostics() -> None:
    source = "x\n" * 10_000
    _lines.cache_clear()
    for line in range(1, 1001):
        Diagnostic("f", line, 1, "warning", "M000", "m").render(source)
    assert _lines.cache_info().misses == 1


def test_a_very_long_line_is_shown_around_the_caret() -> None:
    source = "constant big = " + "1+" * 20_000 + "x\n"
    column = source.index("x") + 1
    shown = Diagnostic("f", 1, column, "error", "M010", "unknown name x").render(source).splitlines()
    assert len(shown[1]) < 200 and "+x..." in shown[1]
    assert shown[2].index("^") == shown[1].index("x")


# ===================================================================== Ctrl-C


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")
@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "dino_party", "--games", "200000", "--jobs", "2"],
        ["simulate", "dino_party", "--games", "200000", "--jobs", "1"],
        [  # every document of every bundled game, twice: Typst takes about 15 s, still going at 5 s
            "docs",
            *(["dino_garden", "dino_garden_2p", "dino_garden_solo", "gods_love_dinosaurs", "dino_party"] * 2),
            "--format",
            "all",
            "--summary",
            "--reference",
            "--jobs",
            "2",
            "--force",
        ],
    ],
    ids=["simulate with workers", "simulate alone", "docs with workers"],
)
def test_ctrl_c_stops_a_command_and_its_workers_at_once_without_a_traceback(
    tmp_path: Path, command: list[str]
) -> None:
    if command[0] == "docs":
        if render.pdf_available() is not None:
            pytest.skip("no PDF on this machine")
        command = [*command, "-o", str(tmp_path / "out")]
    process = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches
        text=True,
    )
    time.sleep(5)  # started and working (not a measure: any moment would do)
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, err = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail("still running 15 s after Ctrl-C")
    assert process.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):
        os.killpg(process.pid, 0)  # no worker of its group is left
    assert not list(tmp_path.rglob("*.tmp"))  # nothing half-written is left behind


# ===================================================================== the limits, documented


def test_every_limit_is_in_the_language_reference_with_its_value() -> None:
    import meeple.limits

    reference = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    declared = {name: value for name, value in vars(meeple.limits).items() if name.isupper()}
    assert len(declared) >= 10
    for name, value in declared.items():
        assert f"| `{name}` | {value:,} |" in reference, name


# ===================================================================== fuzz


def _nested(depth: int, kind: str) -> str:
    return {
        "brackets": "(" * depth + "1" + ")" * depth,
        "lists": "count(" + "[" * depth + "]" * depth + ")",
        "sums": "+".join(["1"] * depth),
        "minus": "-" * depth + "1",
    }[kind]


fragments = st.one_of(
    st.builds(_nested, st.integers(1, 3000), st.sampled_from(["brackets", "lists", "sums", "minus"])),
    st.integers(0, 30).map(lambda digits: "9" * max(digits, 1)),
    st.builds(lambda a, b: f"{a}..{b}", st.integers(-(10**20), 10**20), st.integers(-(10**20), 10**20)),
    st.builds(lambda n: f"count([x for each x in 1..{n}])", st.integers(0, 10**9)),
)
places = st.sampled_from(
    [
        'constant c = {x}\n\nplay:\n  log "{{c}}"\n',
        'play:\n  log "{{{x}}}"\n',
        "var n: int = 1\n\nplay:\n  repeat 3 times:\n    set n to n * ({x})\n",
        'zone deck\npiece card: {x} in deck\n\nplay:\n  log "x"\n',
        'play:\n  for each i in 1..({x}):\n    log "i"\n',
        'play:\n  if {x} > 0:\n    log "yes"\n',
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(place=places, fragment=fragments)
def test_random_deep_huge_and_long_rules_get_diagnostics_never_a_traceback_or_a_hang(
    tmp_path: Path, place: str, fragment: str
) -> None:
    path = write(tmp_path / "fuzz.rules", HEADER + place.format(x=fragment))
    with no_hang():
        checked = meeple.check(path)
        run_checks(checked, str(path), CheckOptions(play=1, budget=20_000))
        if not checked.ok:
            return
        game = meeple.load(path)
        try:
            state = game.new_game(2, seed=0, budget=20_000)
            while not state.is_over:
                state.apply(0)
        except ERRORS:
            return
        again = meeple.replay(game, 2, 0, state.choices, budget=20_000)
        assert again.scores == state.scores


def test_ctrl_c_while_worker_processes_start_is_held_not_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that comes while the pool is still starting its processes (a loaded machine takes
    seconds) stops the command as soon as they are started; it was once ignored there, and the
    command ran on to the end."""
    from meeple import workers

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only, and this test runs in another")
    real = multiprocessing.get_context

    class Interrupting:
        def __init__(self, method: str | None) -> None:
            self.context = real(method)

        def Pool(self, *args: Any, **kwargs: Any) -> Any:  # multiprocessing's name
            # Ctrl-C, while the processes start, to the main thread: sent to the process, it may
            # reach another thread (pytest-xdist's), which does not hold it, and its handler ran
            # in the fork's after-hooks, which drop an exception (a failure under load)
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            return self.context.Pool(*args, **kwargs)

    monkeypatch.setattr(multiprocessing, "get_context", Interrupting)
    with pytest.raises(KeyboardInterrupt):
        list(workers.in_workers(abs, range(-100_000, 0), 2))
