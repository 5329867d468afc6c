"""Finding, reading and building a rules file: the pipeline grammar -> AST -> analysis -> program."""

from __future__ import annotations

import difflib
import gc
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from meeple import codes
from meeple.diagnostics import Diagnostic, RulesError
from meeple.grammar import ast
from meeple.grammar.parser import copied, parse
from meeple.grammar.tables import CODE as CSV_CODE
from meeple.grammar.tables import read_rows
from meeple.interpreter.analysis import Symbols, names_and_types
from meeple.interpreter.bounds import check_bounds
from meeple.interpreter.compiler import compile_program
from meeple.interpreter.engine import Game
from meeple.interpreter.program import Program
from meeple.interpreter.texts import fill_texts
from meeple.interpreter.variants import (
    apply_variant,
    combine_conflicts,
    misplaced_holds,
    patch_targets,
    variant_header,
)
from meeple.limits import MAX_DATA_BYTES, MAX_RULES_BYTES
from meeple.paths import (
    Missing,
    NotText,
    Outside,
    Refused,
    TooLarge,
    is_user_file,
    named_in,
    read_text,
    shown,
    user_file,
)

T = TypeVar("T")


def bundled_dir() -> Path:
    """Where the games that ship with meeple live (the `games/` folder, installed as meeple.games)."""
    from meeple import games

    return Path(games.__file__).resolve().parent


def bundled_games() -> list[Path]:
    return sorted(bundled_dir().glob("*.rules"))


def _unknown(name: str) -> str:
    """What follows "no rules file NAME" in a message: the closest bundled game's name when NAME
    is a bare name one slip of the keyboard away from it (so that a misspelt game is answered
    with the name to type), then every bundled game's."""
    games = [p.stem for p in bundled_games()]
    bare = Path(name).name == name
    close = difflib.get_close_matches(name.removesuffix(".rules"), games, n=1) if bare else []
    guess = f": did you mean '{close[0]}'?" if close else ""
    return f"{guess} (bundled games: {', '.join(games)})"


def resolve_named(name: str, folder: Path, by: str) -> Path:
    """A game named inside a file somebody else may have written (`by`: "a variant", "a log"): a
    `.rules` file in `folder` (the naming file's own) or below it, or a bundled game's name. A
    rules file from a forum must not be able to make meeple read `/etc/passwd`: what it names is
    opened through `meeple.paths.named_in` (inside the folder after every link, a regular file),
    and an absolute path is never followed. Raises Refused, naming what was asked for."""
    generic = f"{by} may name a bundled game or a .rules file beside it, not '{shown(name)}'"
    try:
        candidate = named_in(name, folder, "a game")
    except Outside:
        raise Refused(generic) from None
    except Missing:
        candidate = None
    except Refused as err:  # a name no file can have, a loop of links, a folder
        raise Refused(f"{by} names '{shown(name)}', which cannot be opened: {err}") from None
    if candidate is not None and candidate.suffix == ".rules":
        return candidate
    where = Path(name)
    if where.name == name:
        bundled = bundled_dir() / (name if where.suffix == ".rules" else f"{name}.rules")
        if is_user_file(bundled):
            return bundled
    if where.suffix not in {"", ".rules"} or candidate is not None:
        raise Refused(generic)
    raise Refused(
        f"no rules file '{shown(name)}' beside {by}, and no bundled game of that name{_unknown(name)}"
    )


def resolve_data(name: str, folder: Path) -> Path:
    """A data file a rules file names (`table ... from "FILE.csv"`): a `.csv` file in the rules
    file's folder or below it, and nowhere else (no absolute path, no `..` out of it, no symlink
    that leads out), so that a rules file from elsewhere cannot make meeple read another file.
    Opened through `meeple.paths.named_in`; raises Refused."""
    try:
        candidate = named_in(name, folder, "a data file")
    except Outside:
        raise Refused(
            f"a table may read a .csv file beside its rules file or below it, not '{shown(name)}'"
        ) from None
    except Missing:
        raise Refused(f"no data file '{shown(name)}' beside the rules file") from None
    if candidate.suffix != ".csv":
        raise Refused(f"a table reads its rows from a .csv file, not '{shown(name)}'")
    return candidate


TEXT_CODE = codes.BAD_RULES_FILE  # a rules file that is not text meeple reads: not UTF-8, or too large


def _rules_text(path: Path) -> str:
    """A rules file's text, read through `meeple.paths` (at most MAX_RULES_BYTES). What makes it
    no rules text (too large, a byte that is not UTF-8) is an error located in that file (M009):
    the file a variant names as its base is the one named, not the variant. A file that cannot
    be opened at all raises Refused."""
    try:
        return read_text(user_file(path, "a rules file"), MAX_RULES_BYTES, "a rules file")
    except NotText as err:
        where = Diagnostic(str(path), err.line, err.column, "error", TEXT_CODE, err.here, "save it as UTF-8")
        raise RulesError([where], {str(path): ""}) from None
    except TooLarge as err:
        raise RulesError(
            [Diagnostic(str(path), 1, 1, "error", TEXT_CODE, str(err))], {str(path): ""}
        ) from None


class Files:
    """Where the loader reads a game's files: here, the disk, under the rules of what a file may
    name (`meeple.paths`). Every read of a load goes through one of these methods, so that
    `meeple.ray_backend` can record what a load read and a worker on another machine can load
    the same game from those texts alone, with the same file names in its messages."""

    def find(self, name_or_path: str | Path) -> Path:
        """The rules file the user named (see `resolve`)."""
        return resolve(name_or_path)

    def rules(self, path: Path) -> str:
        """A rules file's text (see `_rules_text`): RulesError for one that is no rules text,
        Refused for one that cannot be opened."""
        return _rules_text(path)

    def base(self, name: str, folder: Path) -> Path:
        """The base game a variant in `folder` names (see `resolve_named`)."""
        return resolve_named(name, folder, "a variant")

    def data(self, name: str, folder: Path) -> tuple[Path, str]:
        """The path and text of the data file a table of a rules file in `folder` reads (at most
        MAX_DATA_BYTES). Refused for a file it may not read; NotText for one that is not UTF-8."""
        data = resolve_data(name, folder)
        return data, read_text(data, MAX_DATA_BYTES, "a data file")


DISK = Files()


def asked(kind: str, name: str | Path, folder: Path | None = None) -> str:
    """One question a load asks of its files, as the text its answer is kept under (by `Recorded`,
    and in a Ray task's bundle)."""
    return "\0".join((kind, str(name), str(folder or "")))


class Recorded(Files):
    """The disk, noting every file read and every name resolved: everything a load's result
    depends on. `meeple.ray_backend` sends what it noted to workers on other machines; the
    loader's own cache (`load`, `check`) asks the disk the same questions again before it hands
    out a game it loaded before."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.found: dict[str, str] = {}
        self.answers: list[tuple[str, tuple[str | Path, ...], object]] = []  # method, arguments, answer

    def find(self, name_or_path: str | Path) -> Path:
        path = super().find(name_or_path)
        self.found[asked("find", name_or_path)] = str(path)
        self.answers.append(("find", (name_or_path,), path))
        return path

    def rules(self, path: Path) -> str:
        self.texts[str(path)] = text = super().rules(path)
        self.answers.append(("rules", (path,), text))
        return text

    def base(self, name: str, folder: Path) -> Path:
        path = super().base(name, folder)
        self.found[asked("base", name, folder)] = str(path)
        self.answers.append(("base", (name, folder), path))
        return path

    def data(self, name: str, folder: Path) -> tuple[Path, str]:
        path, text = super().data(name, folder)
        self.found[asked("data", name, folder)] = str(path)
        self.texts[str(path)] = text
        self.answers.append(("data", (name, folder), (path, text)))
        return path, text

    def unchanged(self) -> bool:
        """The disk still gives every answer the load got: the same names lead to the same
        files, with the same texts. A question it now refuses is a change."""
        try:
            return all(getattr(DISK, method)(*args) == answer for method, args, answer in self.answers)
        except (Refused, RulesError, OSError):
            return False


def _read_data(module: ast.Module, path: Path, files: Files) -> None:
    """The rows of every table that reads them from a CSV file, after the rows written inline.
    A file that cannot be read or has a wrong line is an error located in it (or, for a file
    that cannot be opened, at its name in the rules file)."""
    problems: list[Diagnostic] = []
    for table in module.decls:
        if not isinstance(table, ast.Table) or table.data_file is None:
            continue
        span = table.data_span or table.span
        where = Diagnostic(
            span.file, span.line, span.column, "error", CSV_CODE, "", end_column=span.end_column
        )
        try:
            data, text = files.data(table.data_file, path.parent)
        except NotText as err:  # located in the data file, where the byte is
            problems.append(Diagnostic(str(err.path), err.line, err.column, "error", CSV_CODE, err.here))
            module.sources.setdefault(str(err.path), "")
            continue
        except Refused as err:
            problems.append(replace(where, message=str(err)))
            continue
        rows, found = read_rows(text, str(data), table)
        module.sources[str(data)] = text
        table.rows += rows
        problems += found
    if problems:
        raise RulesError(problems, module.sources)


class OptionError(ValueError):
    """An option the game does not have, or a value its type cannot take: the caller's mistake
    (a command line, a log), said in one line."""


def apply_options(module: ast.Module, options: Mapping[str, str]) -> dict[str, str]:
    """Put the chosen value of each option into its declaration (the default stays for the
    others) and return every option's value as text, chosen or not, for the game's record. A
    value is read by the option's type: a whole number, `yes`/`no`, a text, or the name of a
    row of the table; a value that is the default's own text (how the record of a game says an
    option left alone, even a default no text reads back as, such as `1 + 1`) is the default.
    So a game's record of its options always loads the game again (a replay, a worker process,
    a task on a cluster). Raises OptionError."""
    declared = {d.name: d for d in module.decls if isinstance(d, ast.OptionDecl)}
    unknown = sorted(set(options) - set(declared))
    if unknown:
        known = ", ".join(sorted(declared)) or "none"
        raise OptionError(f"the game has no option '{unknown[0]}' (its options: {known})")
    tables = {d.name: d for d in module.decls if isinstance(d, ast.Table)}
    chosen: dict[str, str] = {}
    for name, decl in declared.items():
        default = _shown(decl.default)
        if name in options and options[name] != default:
            decl.value = _option_value(decl, options[name], tables)
        chosen[name] = options.get(name, default)
    return chosen


def _option_value(decl: ast.OptionDecl, text: str, tables: Mapping[str, ast.Table]) -> ast.Expr:
    kind, span = decl.type.name, decl.span
    if kind == "int":
        if not re.fullmatch(r"-?[0-9]{1,18}", text):
            raise OptionError(f"option '{decl.name}' is a whole number, not '{text}'")
        return ast.Num(span=span, value=int(text))
    if kind == "bool":
        if text not in ("yes", "no"):
            raise OptionError(f"option '{decl.name}' is yes or no, not '{text}'")
        return ast.Bool(span=span, value=text == "yes")
    if kind == "text":
        return ast.Text(span=span, value=text)
    table = tables.get(kind)
    keys = [r.cells[0] for r in table.rows if r.cells and isinstance(r.cells[0], str)] if table else []
    if text not in keys:
        raise OptionError(f"option '{decl.name}' is one of {', '.join(keys) or 'nothing'}, not '{text}'")
    return ast.Attr(span=span, obj=ast.Name(span=span, id=kind), name=text)


def _shown(value: ast.Expr) -> str:
    """A default as it would be given on the command line."""
    match value:
        case ast.Num(value=n):
            return str(n)
        case ast.Bool(value=b):
            return "yes" if b else "no"
        case ast.Text(value=text):
            return text
        case ast.Name(id=name) | ast.Attr(name=name):
            return name
    return "?"


def resolve(name_or_path: str | Path) -> Path:
    """A path as the user gave it, or the name of a bundled game (its file name without `.rules`).
    The user may name a file anywhere, but only a regular one (`meeple.paths.user_file`): what
    cannot be opened as one (a FIFO, a device, a loop of links, a name too long) and is no
    bundled game is FileNotFoundError saying why. For names found inside files, see
    `resolve_named`."""
    path = Path(name_or_path)
    try:
        user_file(path, "a rules file")
        return path
    except Missing:
        why = ""
    except Refused as err:
        why = str(err)
    candidate = bundled_dir() / (path.name if path.suffix == ".rules" else f"{path.name}.rules")
    if is_user_file(candidate):
        return candidate
    asked = shown(str(name_or_path))
    if why:
        raise FileNotFoundError(f"cannot open the rules file '{asked}': {why}")
    raise FileNotFoundError(f"no rules file '{asked}'{_unknown(str(name_or_path))}")


@dataclass
class Checked:
    """What analysis found: the module, its symbols (when it parsed) and every diagnostic."""

    path: Path
    source: str
    module: ast.Module | None
    symbols: Symbols | None
    diagnostics: list[Diagnostic]
    program: Program | None = None
    sources: dict[str, str] = field(default_factory=dict)  # every file the diagnostics point into
    options: dict[str, str] = field(default_factory=dict)  # every option's value, as text
    files: Files = DISK  # where it was read: the same game under other options is read there too

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def render(self, diagnostic: Diagnostic) -> str:
        """A diagnostic with its source line: from the variant or from the base game it changes."""
        return diagnostic.render(self.sources.get(diagnostic.file, self.source))


def _base_path(
    header: ast.VariantHeader, path: Path, seen: tuple[Path, ...], files: Files, sources: dict[str, str]
) -> Path:
    """The base game a variant names, or an error at its header (M091): a name it may not read,
    or a base that is the variant itself or one of the variants it is read for (a cycle)."""
    where = Diagnostic(str(path), header.span.line, header.span.column, "error", codes.NO_BASE_GAME, "")
    try:
        base_path = files.base(header.base, path.parent)
    except Refused as err:
        raise RulesError([replace(where, message=str(err))], sources) from None
    if base_path.resolve() in seen or base_path.resolve() == path.resolve():
        raise RulesError(
            [replace(where, message=f"'{header.base}' is a variant of this file: a cycle")], sources
        )
    return base_path


def _own_module(path: Path, files: Files) -> ast.Module:
    """One file parsed, with its tables' data: a variant not yet applied to anything."""
    source = files.rules(path)
    module = parse(source, str(path))  # ours to change: parse gives a copy of what it keeps
    module.sources = {str(path): source}
    misplaced = misplaced_holds(module)
    if misplaced:
        raise RulesError(misplaced, module.sources)
    _read_data(module, path, files)
    return module


def read_module(path: Path, seen: tuple[Path, ...] = (), files: Files = DISK) -> ast.Module:
    """Parse a rules file; a variant comes back applied to its base game (found beside it, or
    bundled), and to the variants it combines with it, so that everything after this step sees
    one module."""
    module = _own_module(path, files)
    header = variant_header(module)
    if header is None:
        return module
    base_path = _base_path(header, path, seen, files, module.sources)
    try:
        base = read_kept(base_path, files, (*seen, path.resolve()))  # ours to change
    except Refused as err:  # named and found, but it cannot be read (permissions, a race)
        where = Diagnostic(
            str(path), header.span.line, header.span.column, "error", codes.NO_BASE_GAME, str(err)
        )
        raise RulesError([where], module.sources) from None
    base_header = next((d for d in base.decls if isinstance(d, ast.GameHeader)), None)
    if base_header is None:  # the base alone is an error (M020): so is a variant of it
        sources = {**base.sources, str(base_path): base.source, **module.sources}
        raise RulesError([_no_header(base_path, "a variant's base game needs one")], sources)
    names = [base_header.name]
    root = base.root or base_header.name  # a game's own module has no root: it is one
    lineage = [*base.lineage]
    for name, named_at in zip(header.combines, header.combines_spans, strict=True):
        header_of = ast.VariantHeader(span=named_at, name=header.name, base=name)
        other_path = _base_path(header_of, path, seen, files, module.sources)
        base, other = _combined(base, other_path, module, named_at, (*seen, path.resolve()), files)
        names.append(other.name)
        lineage.append((other.name, str(other_path)))
    merged, diagnostics = apply_variant(base, module)
    if diagnostics:
        raise RulesError(diagnostics, merged.sources)
    merged.base = " and ".join(names)
    merged.combines = names[1:]
    merged.root = root
    merged.lineage = [*lineage, (header.name, module.file)]
    merged.patched = {**base.patched, **patch_targets(module)}
    return merged


def _combined(
    base: ast.Module,
    other_path: Path,
    combining: ast.Module,
    named_at: ast.Span,
    seen: tuple[Path, ...],
    files: Files,
) -> tuple[ast.Module, ast.GameHeader]:
    """`base` with the own patches of another variant of the same game applied (the `"b.rules"`
    of `variant ... of "a.rules", "b.rules"`), and that variant's header; or a located error: it is
    not a variant, it builds on a game `base` does not, or it changes what `base` already changed
    (unless the combining file itself replaces that declaration)."""
    sources = {**base.sources, **combining.sources}

    def refuse(message: str, code: str = codes.NO_BASE_GAME) -> RulesError:
        where = Diagnostic(named_at.file, named_at.line, named_at.column, "error", code, message)
        return RulesError([replace(where, end_column=named_at.end_column)], sources)

    try:
        other = _own_module(other_path, files)
        whole = _read_whole(other_path, files, seen)  # what it builds on, and that it reads
    except Refused as err:
        raise refuse(str(err)) from None
    other_header = variant_header(other)
    if other_header is None:
        raise refuse(f"'{other_path.name}' is a game, not a variant: only variants of the base game combine")
    have = {Path(f).resolve() for f in base.sources}
    needs = {Path(f).resolve() for f in whole.sources} - {other_path.resolve()}
    if not needs <= have:
        missing = sorted(p.name for p in needs - have if p.suffix == ".rules")
        raise refuse(
            f"'{other_path.name}' builds on {', '.join(repr(m) for m in missing) or 'files'}, "
            "which the base game does not: only variants of the same game combine"
        )
    waived = set(patch_targets(combining))
    conflicts = combine_conflicts(base, other, needs, waived, named_at)
    if conflicts:
        raise RulesError(conflicts, sources)
    merged, diagnostics = apply_variant(base, other)
    if diagnostics:
        raise RulesError(diagnostics, merged.sources)
    merged.patched = {**base.patched, **patch_targets(other)}
    return merged, other_header


def _no_header(path: Path, why: str = "") -> Diagnostic:
    message = "the file has no game header" + (f": {why}" if why else "")
    return Diagnostic(str(path), 1, 1, "error", codes.BAD_HEADER, message, 'start with: game "Name":')


def read_header(path: Path, seen: tuple[Path, ...] = ()) -> ast.GameHeader:
    """A game's name and player range, from parsing alone: what a list of games shows, without
    the seconds that analysing and compiling every game would take. The whole file is parsed, so
    one that does not parse still raises RulesError; a variant that gives no player range has its
    base game's (as `apply_variant` gives it), read the same way."""
    module = parse(DISK.rules(path), str(path))
    header = next((d for d in module.decls if isinstance(d, ast.GameHeader)), None)
    if header is None:
        raise RulesError([_no_header(path)], {str(path): module.source})
    if not isinstance(header, ast.VariantHeader) or header.has_players:
        return header
    base_path = _base_path(header, path, seen, DISK, {str(path): module.source})
    base = read_header(base_path, (*seen, path.resolve()))
    return header.model_copy(update={"min_players": base.min_players, "max_players": base.max_players})


# ------------------------------------------------------------------ each game built once per process

# A Campaign takes seconds to read, analyse and compile, and a process often asks for the same game
# again (the tests: every file of them that reads a bundled game; `meeple docs` of a game and its
# variants; a check that tries each value of an option). What `check` and `load` built from the
# disk is kept, by what was asked (the name, the options, the folder a relative name is read
# from), with the answers the disk gave (`Recorded`): it is handed out again only while the disk
# still gives every one of them. Each caller gets its own `Checked` or `Game` (their lists and
# dicts); the AST, the symbols and the Program inside are shared, and nothing after `check`
# changes them (the engine keeps each game's state in its own Runtime).
# At most KEPT checks and games are kept, the least recently asked for dropped first: a Campaign
# holds 150 MB, so 8 of them 1.2 GB.
KEPT = 8
_Key = tuple[str, str, tuple[tuple[str, str], ...]]  # the folder, the name, the options
_checked: dict[_Key, tuple[Recorded, Checked]] = {}
_loaded: dict[_Key, tuple[Recorded, Game]] = {}


@contextmanager
def uncollected() -> Iterator[None]:
    """No cyclic garbage collection while the loader builds a game: it makes hundreds of thousands
    of objects that live on (the AST, the symbols, the Program), and CPython's collector, started
    by every 700 of them, scanned them and everything the process holds (the games kept here)
    over and over: half of loading a Campaign (5.4 s of CPU, 3.0 s without it), and of checking a
    long file as one types (the language server holds it off too). Nothing is lost: what becomes
    garbage meanwhile is collected by the collector's next run, once it is on again. Nested uses
    and other threads leave it as the outermost found it: whoever turned it off turns it on."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _key(name_or_path: str | Path, options: Mapping[str, str] | None) -> _Key:
    """The file a check would read (`resolve`, as `check_names` finds it) rather than the words it
    was asked for: a bundled game asked for by its name and by its file is one check, with the same
    path in it, and is built once (a test process asked for each game both ways, and built each
    twice). What resolves to no file keeps its own words: its check says why."""
    try:
        named = str(resolve(name_or_path))
    except (OSError, ValueError):
        named = str(name_or_path)
    return (os.getcwd(), named, tuple(sorted((options or {}).items())))


def _kept(store: dict[_Key, tuple[Recorded, T]], key: _Key) -> T | None:
    """What `store` keeps under `key`, if the disk has not changed under it since."""
    entry = store.pop(key, None)
    if entry is None or not entry[0].unchanged():
        return None
    store[key] = entry  # the most recently asked for: last in the dict's order
    return entry[1]


def _keep(store: dict[_Key, tuple[Recorded, T]], key: _Key, recorded: Recorded, value: T) -> None:
    store[key] = (recorded, value)
    while len(store) > KEPT:
        del store[next(iter(store))]


# Each rules file as `read_module` gave it (its variant applied, its tables' rows read), by the
# file, with the answers the disk gave while reading it. The same file is read for each of its
# options: `meeple check` builds the game under every other value of an option chosen from a
# table (`checks._option_games`: six games for a bundled variant with two such options, its base
# game read, parsed and patched again for each), the loader each game of a sequence, a test each
# option. Its copy costs a fraction of a read: the citation checks of the eleven bundled games
# (`run_checks` with their rulebooks, one process) went from 64.3 to 50.8 s of CPU, with the
# option games compiled once (`checks._option_game`), and from 873 to 452 MB at their peak.
_read: dict[tuple[str, str], tuple[Recorded, ast.Module]] = {}


def read_kept(path: Path, files: Files, seen: tuple[Path, ...] = ()) -> ast.Module:
    """`read_module(path, seen, files)`: the caller's own module, to change. Read from the disk
    and noted (`Recorded`), a file is read once per process while the disk gives the same answers
    (see `KEPT`), and each caller gets a copy of it; what the read asked is noted in `files` as if
    it had been asked again, in the same order, so that a kept check or game, and a Ray task's
    bundle, depend on the same files, and `module.sources` names the same ones; the disk itself
    (`DISK`) notes nothing. Any other `files` (the language server's, a Ray worker's) reads as
    `read_module` does."""
    if not _keeps(files):
        return read_module(path, seen, files)
    return copied(_kept_read(path, files, seen))


def _read_whole(path: Path, files: Files, seen: tuple[Path, ...]) -> ast.Module:
    """`read_module(path, seen, files)` to look at, not to change: the kept module itself where
    `read_kept` keeps one (no copy)."""
    return _kept_read(path, files, seen) if _keeps(files) else read_module(path, seen, files)


def _keeps(files: Files) -> bool:
    """Whether what is read from `files` is kept (`read_kept`): the disk, as itself or noted."""
    return files is DISK or isinstance(files, Recorded)


def _kept_read(path: Path, files: Files, seen: tuple[Path, ...]) -> ast.Module:
    """The module `read_kept` keeps for `path`, read now if it has none or the disk changed under
    it: never to be changed. A variant's base game is read through here too (`read_module`), so
    that the variants of one game read, parse and patch it once per process, not once each."""
    key = (os.getcwd(), str(path))
    entry = _read.pop(key, None)
    if entry is None or not entry[0].unchanged():
        read = Recorded()
        entry = (read, read_module(path, seen, files=read))  # an error is the caller's to say: nothing kept
    _read[key] = entry  # the most recently asked for: last in the dict's order
    while len(_read) > KEPT:
        del _read[next(iter(_read))]
    if isinstance(files, Recorded):
        asked, _ = entry
        files.texts.update(asked.texts)
        files.found.update(asked.found)
        files.answers += asked.answers
    return entry[1]


def check(
    name_or_path: str | Path,
    options: Mapping[str, str] | None = None,
    files: Files = DISK,
    module: ast.Module | None = None,
) -> Checked:
    """Read, analyse and compile a rules file. `options`: values for its `option`s, by name, as
    text (the others keep their defaults); an unknown option or a value its type cannot take
    raises OptionError. `files`: where its files are read (the disk unless told). `module`: the
    file as `read_module` gave it, when the caller read it already (the games of a sequence are
    one file under other options); it is this check's own, to change. A file read from the disk
    is checked once per process while its files do not change (see `KEPT`)."""
    if files is not DISK or module is not None:
        with uncollected():
            return _check(name_or_path, options, files, module)
    key = _key(name_or_path, options)
    checked = _kept(_checked, key)
    if checked is None:
        recorded = Recorded()
        with uncollected():
            checked = _check(name_or_path, options, recorded)
        checked.files = DISK
        if checked.module is None:  # a file that could not be read: a read that failed is no answer
            return checked
        _keep(_checked, key, recorded, checked)
    return replace(
        checked,
        diagnostics=list(checked.diagnostics),
        sources=dict(checked.sources),
        options=dict(checked.options),
    )


def _check(
    name_or_path: str | Path,
    options: Mapping[str, str] | None,
    files: Files,
    module: ast.Module | None = None,
) -> Checked:
    return finish_check(check_names(name_or_path, options, files, module))


def check_names(
    name_or_path: str | Path,
    options: Mapping[str, str] | None = None,
    files: Files = DISK,
    module: ast.Module | None = None,
) -> Checked:
    """The first part of `check`, never kept: read, apply a variant and the options, and analyse
    names and types (`analysis.names_and_types`). The language server shows what it finds as one
    types, while `finish_check` does the rest; the two together are `check`."""
    path = files.find(name_or_path)
    source = ""
    try:
        source = files.rules(path)
        if module is None:
            module = read_kept(path, files)
    except RulesError as err:
        sources = {str(path): source, **err.sources}
        return Checked(path, source, None, None, err.diagnostics, sources=sources, files=files)
    chosen = apply_options(module, options or {})
    symbols, diagnostics = names_and_types(module)
    return Checked(
        path, source, module, symbols, diagnostics, sources=module.sources, options=chosen, files=files
    )


def finish_check(checked: Checked, coverage: bool = False) -> Checked:
    """The rest of `check` on what `check_names` found (it changes and returns that `Checked`):
    the bounds, the compiler when nothing is wrong so far, and the texts' values once the
    constants are known. `coverage`: its Program records the statements that run (`meeple
    check` runs setup so, under each option: see `compile_program`)."""
    if checked.module is None or checked.symbols is None:  # it did not parse
        return checked
    checked.diagnostics.extend(check_bounds(checked.symbols))
    if checked.ok:
        try:
            checked.program = compile_program(checked.symbols, coverage)
        except RulesError as err:
            checked.diagnostics.extend(err.diagnostics)
    if checked.program is not None:  # the constants' values are known: the texts can show them
        checked.diagnostics.extend(fill_texts(checked.module, checked.program.constants))
    return checked


def load(name_or_path: str | Path, options: Mapping[str, str] | None = None, files: Files = DISK) -> Game:
    """Load a rules file (or bundled game name) into a runnable Game, with these values for its
    options (fixed for every game it starts). Raises RulesError on errors, OptionError on an
    option it does not have or a value it cannot take. A file read from the disk is built once
    per process while its files do not change (see `KEPT`): the Game is the caller's own, its
    Program shared."""
    if files is not DISK:
        with uncollected():
            return _load(name_or_path, options, files)
    key = _key(name_or_path, options)
    game = _kept(_loaded, key)
    if game is None:
        checked = _kept(_checked, key)
        if (
            checked is not None
            and checked.ok
            and checked.program is not None
            and checked.program.sequence is None
        ):
            # a check of the same file under the same options built this game: its Program
            # (a load after a check, as `meeple check --play`, the language server and the tests do)
            recorded = _checked[key][0]
            game = Game(checked.program, log_name(checked.path), dict(checked.options))
        else:
            recorded = Recorded()
            with uncollected():
                game = _load(name_or_path, options, recorded)
        _keep(_loaded, key, recorded, game)
    return _own_game(game)


def _own_game(game: Game) -> Game:
    """A Game of the same Program with its own options and parts."""
    return replace(
        game,
        options=dict(game.options),
        parts=[_own_game(part) for part in game.parts],
        sequence_options=dict(game.sequence_options),
    )


def _load(name_or_path: str | Path, options: Mapping[str, str] | None, files: Files) -> Game:
    try:
        read: ast.Module | None = read_kept(files.find(name_or_path), files)
    except (RulesError, Refused):  # check says it, at its place
        read = None
    # A sequence's games are the same file under other options: they start from the file as read
    # (a variant's reading copies and patches its bases, seconds for a variant of a variant).
    pristine = copied(read) if read is not None and _has_sequence(read) else None
    checked = check(name_or_path, options, files, module=read)
    if not checked.ok or checked.program is None:
        errors = [d for d in checked.diagnostics if d.severity == "error"]
        raise RulesError(errors, {str(checked.path): checked.source, **checked.sources})
    game = Game(checked.program, log_name(checked.path), checked.options)
    if checked.program.sequence is not None and pristine is not None:
        game.parts = _sequence_parts(checked.program.sequence, name_or_path, options or {}, files, pristine)
        # its record names the options the caller may give: the sequence sets the others
        set_by_games = {name for part in game.parts for name in part.sequence_options}
        game.options = {k: v for k, v in game.options.items() if k not in set_by_games}
    return game


def _has_sequence(module: ast.Module) -> bool:
    return any(isinstance(d, ast.SequenceDecl) for d in module.decls)


def _sequence_parts(
    sequence: ast.SequenceDecl,
    name_or_path: str | Path,
    options: Mapping[str, str],
    files: Files,
    read: ast.Module,
) -> list[Game]:
    """The games of a sequence, each loaded with the options its line gives over the caller's
    (interpreter/sequence.py); an option the sequence sets is not the caller's to set."""
    from meeple.interpreter.sequence import game_options, set_options

    taken = sorted(set(options) & set_options(sequence))
    if taken:
        raise OptionError(
            f"the sequence '{sequence.name}' sets the option '{taken[0]}' for each of its games"
        )
    loaded: dict[tuple[tuple[str, str], ...], Game] = {}
    parts = []
    for line in sequence.games:
        own = game_options(line)
        key = tuple(sorted((dict(options) | own).items()))
        if key not in loaded:
            checked = check(name_or_path, dict(key), files, module=copied(read))
            if not checked.ok or checked.program is None:
                errors = [d for d in checked.diagnostics if d.severity == "error"]
                raise RulesError(errors, {str(checked.path): checked.source, **checked.sources})
            loaded[key] = Game(checked.program, log_name(checked.path), checked.options)
        part = loaded[key]
        parts.append(Game(part.program, part.path, part.options, sequence_options=own))
    return parts


def log_name(path: Path) -> str:
    """How a log names its rules: a bundled game by its name (found on any machine), any other
    file by its absolute path (found from any folder)."""
    path = path.resolve()
    return path.stem if path.parent == bundled_dir() else str(path)
