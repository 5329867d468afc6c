"""The flow of play as a diagram: nested boxes drawn as SVG by our own code.

A rulebook's turn structure is a picture: rounds around phases around steps around turns. The
`play:` block already *is* that structure (`repeat`, `phase`, `step`, `for each`, `turn`), so the
diagram is drawn from it, not typed per game. Only the structure and what it calls are drawn:
phases and steps as framed boxes, loops and conditions as dashed frames with their words, rule
calls as linked boxes, decisions and chance as coloured boxes, and plain effects as quiet lines.
Log lines and `let` names are left out; the full words are in the outline beside the diagram.

Layout is a simple vertical stack: every box takes the width it is given, its children are laid
out inside it one under the other with an arrow between them. Text is wrapped by an estimate of
its width (no font metrics: the SVG must not depend on the fonts of the machine that made it).
"""

from __future__ import annotations

import copy
import html
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from meeple.codegen.english import English, Line, humanise
from meeple.codegen.markup import plain
from meeple.grammar import ast

FONT = 13
LINE = 17
PAD = 7
GAP = 18  # between siblings: room for an arrow
INSET = 12  # a frame's margin around its children
GUTTER = 22  # room on a loop's right for the arrow going back up
CHAR = FONT * 0.6  # an average character's width: generous, so that labels never overflow
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

# kind -> (stroke, fill, header text colour, dashed)
STYLE = {
    "phase": ("#2f4f8f", "#f3f6fc", "#ffffff", False),
    "step": ("#2f4f8f", "#ffffff", "#1d3566", False),
    "loop": ("#6b6b6b", "none", "#333333", True),
    "branch": ("#8a8a8a", "#fafafa", "#333333", True),
    "turn": ("#9a6b00", "#fffaf0", "#5c3f00", False),
    "decide": ("#b8860b", "#fff4cf", "#4d3800", False),
    "chance": ("#2e7d32", "#eef7ee", "#1b4d1e", False),
    "call": ("#2f4f8f", "#e3ebf8", "#1d3566", False),
    "effect": ("#c9c9c9", "#f7f7f7", "#444444", False),
    "end": ("#222222", "#333333", "#ffffff", False),
    "terminal": ("#555555", "#ffffff", "#333333", False),
}


@dataclass
class Box:
    """One thing in the flow: a frame (with children) or a leaf."""

    kind: str
    label: str  # marked text (markup.py)
    anchor: str | None = None
    children: list[Box] = field(default_factory=list)
    apart: Part | None = None  # drawn in a diagram of its own (`split`): here, a leaf that says so


def flow_tree(
    stmts: Sequence[ast.Stmt], english: English, anchor_of: Callable[[ast.Node], str | None]
) -> list[Box]:
    """The boxes of a block. `anchor_of` gives the section a phase, step or rule call links to."""
    boxes: list[Box] = []
    for s in stmts:
        match s:
            case ast.Meta() | ast.Log() | ast.Tally() | ast.Let():
                continue
            case ast.Named():
                label = f"{s.kind.capitalize()}: {humanise(s.name)}"
                boxes.append(Box(s.kind, label, anchor_of(s), flow_tree(s.body, english, anchor_of)))
            case ast.CallStmt():
                boxes.append(Box("call", _words(english.stmt(s)[0]), anchor_of(s)))
            case ast.EndGame():
                boxes.append(Box("end", "The game ends"))
            case ast.If():
                lines = english.stmt(s)
                bodies = [b.body for b in s.branches] + ([s.orelse] if s.orelse else [])
                for line, body in zip(lines, bodies, strict=True):
                    inner = flow_tree(body, english, anchor_of)
                    if inner:  # a branch that only logs has nothing to draw
                        boxes.append(Box("branch", _words(line), None, inner))
            case ast.Random():
                line = english.stmt(s)[0]
                outcomes = [
                    Box("branch", _words(o_line), None, flow_tree(o.body, english, anchor_of))
                    for o, o_line in zip(s.outcomes, line.children, strict=True)
                ]
                boxes.append(Box("chance", _words(line), None, outcomes))
            case ast.Choose() | ast.Ask() | ast.Pick():
                kind = "chance" if isinstance(s, ast.Pick) else "decide"
                lines = english.stmt(s)
                bodies = [s.body] + ([s.orelse] if s.orelse else [])
                for i, (line, body) in enumerate(zip(lines, bodies, strict=True)):
                    boxes.append(
                        Box(
                            kind if i == 0 else "branch",
                            _words(line),
                            None,
                            flow_tree(body, english, anchor_of),
                        )
                    )
            case ast.Repeat() | ast.While() | ast.ForEach():
                line = english.stmt(s)[0]
                boxes.append(
                    Box("loop", "\u21bb " + _words(line), None, flow_tree(s.body, english, anchor_of))
                )
            case ast.Turn():
                line = english.stmt(s)[0]
                boxes.append(Box("turn", _words(line), None, flow_tree(s.body, english, anchor_of)))
            case ast.Offer():
                line = english.stmt(s)[0]
                boxes.append(Box("branch", _words(line), None, flow_tree(s.body, english, anchor_of)))
            case _:
                boxes.append(Box("effect", _words(english.stmt(s)[0])))
    return boxes


def _words(line: Line) -> str:
    return line.text.rstrip(":").rstrip(".")


# ---------------------------------------------------------------------- drawing


@dataclass
class _Canvas:
    prefix: str
    parts: list[str] = field(default_factory=list)

    def text(
        self, x: float, y: float, lines: list[str], colour: str, weight: str = "normal", style: str = "normal"
    ) -> None:
        for i, line in enumerate(lines):
            self.parts.append(
                f'<text x="{x:.0f}" y="{y + i * LINE:.0f}" fill="{colour}" font-weight="{weight}" '
                f'font-style="{style}">{html.escape(line)}</text>'
            )

    def rect(self, x: float, y: float, w: float, h: float, kind: str, radius: int = 6) -> None:
        stroke, fill, _, dashed = STYLE[kind]
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        self.parts.append(
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="{radius}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="1.3"{dash}/>'
        )

    def arrow(self, x: float, y1: float, y2: float) -> None:
        self.parts.append(
            f'<line x1="{x:.0f}" y1="{y1:.0f}" x2="{x:.0f}" y2="{y2 - 2:.0f}" stroke="#555" '
            f'stroke-width="1.4" marker-end="url(#{self.prefix}-arrow)"/>'
        )


def _wrap(text: str, width: float) -> list[str]:
    chars = max(12, int((width - 2 * PAD) / CHAR))
    return textwrap.wrap(plain(text), chars) or [""]


def _header(box: Box, width: float) -> list[str]:
    label = box.label + (f" \u2192 see diagram {box.apart.number}" if box.apart else "")
    return _wrap(label, width - (GUTTER if box.kind == "loop" else 0))


def _height(box: Box, width: float) -> float:
    head = len(_header(box, width)) * LINE + 2 * PAD
    if not box.children:
        return head
    inner = _inner_width(box, width)
    kids = sum(_height(c, inner) for c in box.children) + GAP * (len(box.children) - 1)
    return head + kids + INSET


def _inner_width(box: Box, width: float) -> float:
    return width - 2 * INSET - (GUTTER if box.kind == "loop" else 0)


def _draw(canvas: _Canvas, box: Box, x: float, y: float, width: float) -> float:
    """Draw a box and its children at (x, y); returns its height."""
    height = _height(box, width)
    lines = _header(box, width)
    stroke, _, colour, _ = STYLE[box.kind]
    weight = "bold" if box.kind in ("phase", "step", "call", "turn", "end") else "normal"
    style = "italic" if box.kind in ("loop", "branch") else "normal"
    canvas.parts.append(f'<a href="#{box.anchor}">' if box.anchor else "<g>")
    canvas.rect(x, y, width, height, box.kind, radius=10 if box.kind == "loop" else 6)
    head = len(lines) * LINE + 2 * PAD
    if box.kind == "phase":
        canvas.parts.append(
            f'<path d="M{x:.0f},{y + head:.0f} V{y + 6:.0f} Q{x:.0f},{y:.0f} {x + 6:.0f},{y:.0f} '
            f'H{x + width - 6:.0f} Q{x + width:.0f},{y:.0f} {x + width:.0f},{y + 6:.0f} V{y + head:.0f} Z" '
            f'fill="{stroke}"/>'
        )
    canvas.text(x + PAD, y + PAD + FONT, lines, colour, weight, style)
    canvas.parts.append("</a>" if box.anchor else "</g>")
    if box.children:
        inner = _inner_width(box, width)
        cx, cy = x + INSET, y + head
        first_top = cy
        for i, child in enumerate(box.children):
            if i:
                canvas.arrow(cx + inner / 2, cy - GAP, cy)
            cy += _draw(canvas, child, cx, cy, inner) + GAP
        if box.kind == "loop":  # the way back up to the loop's first box
            gx = x + width - GUTTER / 2 - 2
            bottom = cy - GAP - 4
            canvas.parts.append(
                f'<path d="M{cx + inner:.0f},{bottom:.0f} H{gx:.0f} V{first_top + 8:.0f} '
                f'H{cx + inner + 3:.0f}" fill="none" stroke="#6b6b6b" stroke-width="1.4" '
                f'marker-end="url(#{canvas.prefix}-arrow)"/>'
            )
    return height


def _terminals(boxes: Sequence[Box], start: bool, end: bool) -> list[Box]:
    return [
        *([Box("terminal", "Start of play (after setup)")] if start else []),
        *boxes,
        *([Box("terminal", "End of play: count the scores")] if end else []),
    ]


def flow_height(boxes: Sequence[Box], width: int = 720, *, start: bool = True, end: bool = True) -> float:
    """How tall `render_svg` draws these boxes, in the same units as `width`."""
    flow = _terminals(boxes, start, end)
    return sum(_height(box, width - 2) for box in flow) + GAP * (len(flow) - 1) + 2


def render_svg(
    boxes: Sequence[Box],
    *,
    width: int = 720,
    prefix: str = "flow",
    standalone: bool = False,
    start: bool = True,
    end: bool = True,
    font_family: str = FONT_FAMILY,
) -> str:
    """The diagram of a flow from its start to its end (or, without `start` or `end`, a part of
    it that does not begin or end the flow). `standalone`: a file of its own (with the SVG
    namespace); otherwise an element to inline in HTML, which needs nothing outside itself."""
    flow = _terminals(boxes, start, end)
    canvas = _Canvas(prefix)
    y = 1.0
    for i, box in enumerate(flow):
        if i:
            canvas.arrow(width / 2, y - GAP, y)
        y += _draw(canvas, box, 1, y, width - 2) + GAP
    height = y - GAP + 1
    xmlns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    size = f'width="{width}" height="{height:.0f}"' if standalone else 'width="100%"'
    return (
        f'<svg{xmlns} class="flow" viewBox="0 0 {width} {height:.0f}" {size} role="img" '
        f'aria-label="The flow of play" font-family="{html.escape(font_family)}" font-size="{FONT}">'
        f"<title>The flow of play</title>"
        f'<defs><marker id="{prefix}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/>'
        "</marker></defs>" + "".join(canvas.parts) + "</svg>"
    )


# ---------------------------------------------------------------------- a flow too tall for a page


@dataclass
class Part:
    """One of the diagrams a tall flow is drawn in: its boxes (a box drawn in a diagram of its
    own is there as a leaf that says which), whether it begins or ends the flow, and the box it
    draws apart (None for the flow itself)."""

    boxes: list[Box]
    start: bool = False
    end: bool = False
    of: Box | None = None
    number: int = 0


def split(boxes: Sequence[Box], width: int, limit: float, slack: float = 1.0) -> list[Part]:
    """The flow drawn in diagrams no taller than `limit` (at `width`), in reading order: the flow
    itself first, where a box that makes it too tall is drawn as a leaf that points to a diagram
    of its own ("see diagram 3"), and so on inside those. A diagram up to `slack` times too tall
    is kept whole, to be scaled down a little. Phases and steps are drawn apart before loops and
    branches (they have names); of those, the smallest that is enough, else the tallest that
    fits, else the tallest (split again in turn). A diagram that cannot be split further (one
    frame of many small boxes) is left to be scaled down to a page."""
    first = Part(copy.deepcopy(list(boxes)), start=True, end=True)
    todo = [first]
    while todo:
        part = todo.pop()
        while (height := flow_height(part.boxes, width, start=part.start, end=part.end)) > limit * slack:
            frames = [f for f in _frames(part.boxes, width - 2) if f[1] is not part.of]
            frames = [f for f in frames if f[0] > 3 * LINE + 2 * PAD]  # else drawing apart saves nothing
            frames = [f for f in frames if f[1].kind in ("phase", "step")] or frames
            if not frames:
                break
            enough = [f for f in frames if height - f[0] + LINE + 2 * PAD <= limit]
            fitting = [f for f in frames if f[0] <= limit]
            if enough:
                _, box, siblings, i = min(enough, key=lambda f: f[0])
            else:
                _, box, siblings, i = max(fitting or frames, key=lambda f: f[0])
            apart = Part([box], of=box)
            siblings[i] = Box(box.kind, box.label, box.anchor, apart=apart)
            todo.append(apart)
    ordered: list[Part] = []

    def visit(part: Part) -> None:
        ordered.append(part)
        part.number = len(ordered)
        for box in drawn_apart(part.boxes):
            assert box.apart is not None
            visit(box.apart)

    visit(first)
    return ordered


def _frames(boxes: list[Box], width: float) -> Iterator[tuple[float, Box, list[Box], int]]:
    """Every box with children under `boxes`: its height, itself, the list it is in and where."""
    for i, box in enumerate(boxes):
        if box.children:
            yield _height(box, width), box, boxes, i
            yield from _frames(box.children, _inner_width(box, width))


def drawn_apart(boxes: list[Box]) -> Iterator[Box]:
    for box in boxes:
        if box.apart is not None:
            yield box
        yield from drawn_apart(box.children)
