"""Finding, reading and building a rules file: the pipeline grammar -> AST -> analysis -> program."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from meeple.diagnostics import Diagnostic, RulesError
from meeple.grammar import ast
from meeple.grammar.parser import parse
from meeple.interpreter.analysis import Symbols, analyse
from meeple.interpreter.compiler import compile_program
from meeple.interpreter.engine import Game
from meeple.interpreter.program import Program


def bundled_dir() -> Path:
    """Where the games that ship with meeple live (the `games/` folder, installed as meeple.games)."""
    from meeple import games

    return Path(games.__file__).resolve().parent


def bundled_games() -> list[Path]:
    return sorted(bundled_dir().glob("*.rules"))


def resolve(name_or_path: str | Path) -> Path:
    """A path as given, or the name of a bundled game (its file name without `.rules`)."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    candidate = bundled_dir() / (path.name if path.suffix == ".rules" else f"{path.name}.rules")
    if candidate.is_file():
        return candidate
    known = ", ".join(p.stem for p in bundled_games())
    raise FileNotFoundError(f"no rules file '{name_or_path}' (bundled games: {known})")


@dataclass
class Checked:
    """What analysis found: the module, its symbols (when it parsed) and every diagnostic."""

    path: Path
    source: str
    module: ast.Module | None
    symbols: Symbols | None
    diagnostics: list[Diagnostic]
    program: Program | None = None

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def check(name_or_path: str | Path) -> Checked:
    path = resolve(name_or_path)
    source = path.read_text(encoding="utf-8")
    try:
        module = parse(source, str(path))
    except RulesError as err:
        return Checked(path, source, None, None, err.diagnostics)
    symbols, diagnostics = analyse(module)
    checked = Checked(path, source, module, symbols, diagnostics)
    if checked.ok:
        try:
            checked.program = compile_program(symbols)
        except RulesError as err:
            checked.diagnostics.extend(err.diagnostics)
    return checked


def load(name_or_path: str | Path) -> Game:
    """Load a rules file (or bundled game name) into a runnable Game. Raises RulesError on errors."""
    checked = check(name_or_path)
    if not checked.ok or checked.program is None:
        errors = [d for d in checked.diagnostics if d.severity == "error"]
        raise RulesError(errors, {str(checked.path): checked.source})
    return Game(checked.program, log_name(checked.path))


def log_name(path: Path) -> str:
    """How a log names its rules: a bundled game by its name (found on any machine), any other
    file by its absolute path (found from any folder)."""
    path = path.resolve()
    return path.stem if path.parent == bundled_dir() else str(path)
