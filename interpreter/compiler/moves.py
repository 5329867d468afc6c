"""Statements that move pieces (`move`, `draw`) or lay shapes on a grid and lift them (`place`,
`lift`). A move runs
the triggers that watch the pieces it moves: it then suspends, since a trigger's body may ask."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from meeple.grammar import ast
from meeple.interpreter import layers
from meeple.interpreter.builtins import locations
from meeple.interpreter.compiler.base import (
    Part,
)
from meeple.interpreter.grids import ShapeError
from meeple.interpreter.program import Fn
from meeple.interpreter.runtime import (
    RuleRuntimeError,
)
from meeple.interpreter.values import (
    Bottom,
    MapRef,
    Piece,
    PieceRef,
    Placement,
    label,
    type_name,
)


def _arrive(rt: Any, to: Any, pieces: list[Piece], span: ast.Span, rule: str) -> Any:
    """Put pieces where a move sends them: on top of the others, or (`bottom(Z)`) under them.
    Returns the place they are in now."""
    if isinstance(to, Bottom):
        _pile(rt, to.loc, span, rule)[0:0] = pieces
        return to.loc
    _pile(rt, to, span, rule).extend(pieces)
    return to


def _pile(rt: Any, loc: Any, span: ast.Span, rule: str) -> list[Piece]:
    """The pieces at a location, or a clear error when the value is not a place that holds pieces."""
    pile = rt.locs.get(loc)
    if pile is None:
        raise RuleRuntimeError(
            f"{label(loc)} is not a place that holds pieces (a zone or a map node)", span, rule
        )
    return pile


class Moves(Part):
    def _moving(
        self, take: Callable[[Any, dict[str, Any]], tuple[list[Piece], Any]], triggered: bool
    ) -> Callable[..., Any]:
        """A statement that moves pieces (`take` moves them, tells the runtime which locations
        changed, and says which pieces moved, and where to). When a trigger may watch such moves it
        becomes a generator that runs the triggers after each piece arrives; otherwise it stays a
        plain call, as most moves are."""
        if not triggered:

            def move(rt: Any, env: dict[str, Any]) -> None:
                take(rt, env)

            return move
        triggers = self.p.triggers

        def moving(rt: Any, env: dict[str, Any]) -> Generator[Any, int, None]:
            moved, to = take(rt, env)
            for piece in moved:
                for t in triggers.get(piece[0].name, ()):
                    rt.last_rule = t.name
                    where = {t.piece_var: PieceRef(to, piece), t.loc_var: to}
                    if t.cond is None or t.cond(rt, where):
                        yield from t.body(rt, where)

        return moving

    def compile_MoveRefs(self, s: ast.MoveRefs, scope: set[str]) -> Callable[..., Any]:
        what, dest = self.expr(s.pieces, scope), self.expr(s.dest, scope)
        span, rule = s.span, self.rule

        def take(rt: Any, env: dict[str, Any]) -> tuple[list[Piece], Any]:
            refs = what(rt, env)
            refs = refs if isinstance(refs, list) else [refs]
            to = dest(rt, env)
            _pile(rt, to.loc if isinstance(to, Bottom) else to, span, rule)  # a place, before any move
            moved = []
            for ref in refs:
                if not isinstance(ref, PieceRef):
                    raise RuleRuntimeError(f"only pieces can move, not {type_name(ref)}", span, rule)
                try:
                    rt.locs[ref.loc].remove(ref.piece)
                except ValueError:
                    raise RuleRuntimeError(f"{ref} is no longer in {ref.loc}", span, rule) from None
                rt.moved(ref.loc, [ref.piece])
                moved.append(ref.piece)
            to = _arrive(rt, to, moved, span, rule)
            if moved:
                rt.moved(to, moved)
            return moved, to

        return self._moving(take, self.suspends(s))

    def compile_MoveCount(self, s: ast.MoveCount | ast.MoveAll, scope: set[str]) -> Callable[..., Any]:
        count = self.expr(s.count, scope) if isinstance(s, ast.MoveCount) else None
        owner = self.expr(s.owner, scope) if s.owner is not None else None
        src, dest, kind = self.expr(s.src, scope), self.expr(s.dest, scope), s.kind
        which = self.expr(s.which, scope) if s.which is not None else None
        has_owner = owner is not None
        span, rule = s.span, self.rule

        def take(rt: Any, env: dict[str, Any]) -> tuple[list[Piece], Any]:
            want = count(rt, env) if count is not None else None
            who = owner(rt, env) if owner is not None else None
            row = which(rt, env) if which is not None else None
            to = dest(rt, env)
            moved: list[Piece] = []
            for loc in locations(src(rt, env)):
                if want is not None and len(moved) >= want:
                    break
                pile = _pile(rt, loc, span, rule)
                if not pile:  # the commonest case when moving from many places (a map's every node)
                    continue
                found, taken = [], []  # the pieces taken and where; stop as soon as there are enough
                for i, pc in enumerate(pile):
                    if (
                        pc[0].name == kind
                        and (row is None or pc[0].row is row)
                        and (not has_owner or pc[1] is who)
                    ):
                        found.append(i)
                        taken.append(pc)
                        if want is not None and len(moved) + len(found) >= want:
                            break
                for i in reversed(found):
                    del pile[i]
                if taken:
                    rt.moved(loc, taken)
                    moved.extend(taken)
            to = _arrive(rt, to, moved, span, rule)
            if moved:
                rt.moved(to, moved)
            if want is not None and len(moved) < want:
                rt.shortfall(kind if row is None else f"{kind} {row}", want - len(moved))
            return moved, to

        return self._moving(take, self.suspends(s))

    compile_MoveAll = compile_MoveCount

    def compile_Draw(self, s: ast.Draw, scope: set[str]) -> Callable[..., Any]:
        count, src, dest = self.expr(s.count, scope), self.expr(s.src, scope), self.expr(s.dest, scope)
        span, rule = s.span, self.rule

        def take(rt: Any, env: dict[str, Any]) -> tuple[list[Piece], Any]:
            n, source, to = count(rt, env), src(rt, env), dest(rt, env)
            pile = rt.locs[source]
            moved = [pile.pop() for _ in range(min(n, len(pile)))]
            if len(moved) < n:
                rt.shortfall(f"draw from {source}", n - len(moved))
            to = _arrive(rt, to, moved, span, rule)
            if moved:
                rt.moved(source, moved)
                rt.moved(to, moved)
            return moved, to

        return self._moving(take, self.suspends(s))

    def compile_Place(self, s: ast.Place, scope: set[str]) -> Fn:
        shape, target = self.expr(s.shape, scope), self.expr(s.map, scope)
        at = self.expr(s.at, scope) if s.at is not None else None
        span, rule, over = s.span, self.rule, s.over

        def place(rt: Any, env: dict[str, Any]) -> None:
            mapref, rows = target(rt, env), list(shape(rt, env))
            if not isinstance(mapref, MapRef):
                raise RuleRuntimeError(
                    f"{label(mapref)} is not a grid map: shapes are placed on grids", span, rule
                )
            spot = at(rt, env) if at is not None else None
            if spot is not None and [r.index for r in spot.rows] != [r.index for r in rows]:
                raise RuleRuntimeError("that placement was made for another shape", span, rule)
            if spot is not None and spot.map is not mapref:
                raise RuleRuntimeError(f"that placement was made for {spot.map}, not {mapref}", span, rule)
            coords = spot.coords if spot is not None else [(r.values["q"], r.values["r"]) for r in rows]
            try:
                layers.lay(rt, mapref, coords, rows, spot.rotation if spot is not None else 0, over)
            except ShapeError as err:
                raise RuleRuntimeError(str(err), span, rule) from None

        return place

    def compile_Lift(self, s: ast.Lift, scope: set[str]) -> Fn:
        """Take the top layer off (interpreter/layers.py says how)."""
        layer_fn = self.expr(s.layer, scope)
        span, rule = s.span, self.rule

        def lift(rt: Any, env: dict[str, Any]) -> None:
            layer = layer_fn(rt, env)
            if not isinstance(layer, Placement):
                raise RuleRuntimeError(f"only a laid shape is lifted, not {label(layer)}", span, rule)
            try:
                layers.lift(rt, layer)
            except ShapeError as err:
                raise RuleRuntimeError(str(err), span, rule) from None

        return lift

    def compile_Shift(self, s: ast.Shift, scope: set[str]) -> Fn:
        """Move a grid's cells by an offset (interpreter/layers.py says how)."""
        target, dq_fn, dr_fn = self.expr(s.map, scope), self.expr(s.dq, scope), self.expr(s.dr, scope)
        span, rule = s.span, self.rule

        def shift(rt: Any, env: dict[str, Any]) -> None:
            mapref, dq, dr = target(rt, env), dq_fn(rt, env), dr_fn(rt, env)
            if not isinstance(mapref, MapRef):
                raise RuleRuntimeError(f"{label(mapref)} is not a grid map: only a grid shifts", span, rule)
            try:
                layers.shift(rt, mapref, dq, dr)
            except ShapeError as err:
                raise RuleRuntimeError(str(err), span, rule) from None

        return shift
