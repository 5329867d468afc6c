"""What the playtest page draws, from what a seat may see (`State.view(seat)`) and the decision.

The view's keys are the rules' identifiers (`hand of Player 1`), its labels and its `names` what
players read (interpreter/names.py: a row's `called` cell, a declaration's `called` line, else the
name in words), as the printed rulebook names them: the page shows only those. The
board is drawn as SVG: each grid map's cells (every cell the view lists, empty or not), each table
map's nodes on a ring with their links; a place that is one of the decision's options
(`view["decision"]["places"]`) is drawn as a button that answers with it. Nothing here knows a
game.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from meeple.board import (
    Look,
    Looks,
    dark,
    faces,
    kept_by_rules,
    lay_words,
    say_place,
    seat_colour,
    shape_of,
    turn_words,
)
from meeple.codegen.pictures import outline
from meeple.interpreter.analysis import Symbols
from meeple.interpreter.checks.walk import Refs, reaches
from meeple.interpreter.engine import State
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.interpreter.values import Row, humanise
from meeple.interpreter.view import out_of_game
from meeple.logs import for_seat

HEX = 46.0  # a hex's radius on the page
SQUARE = 80.0  # a square cell's side
NODE = 50.0  # a map node's radius
SPACING = 2 * NODE + 16  # from one node to the next, where the rules say where nodes are drawn
CHIP = 15.0  # a piece's height
FONT = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif"


@dataclass
class Chip:
    """Some pieces of one kind and owner, as the page shows them."""

    name: str
    count: int
    colour: str
    owner: str = ""

    @property
    def text(self) -> str:
        return f"{self.name} \u00d7{self.count}" if self.count > 1 else self.name


@dataclass
class Zone:
    title: str
    chips: list[Chip] = field(default_factory=list)
    hidden: str = ""  # "3 face down", what a seat may not look at


@dataclass
class Option:
    index: int
    text: str
    place: str | None  # the board place it denotes, as `place_key` names it
    holds: Markup | None = None  # a picture of what it holds (a tile's cells), before it is taken


@dataclass
class Lay:
    """An option that lays a shape on a grid: where (the cell or block the page offers it at),
    its turn, and each cell it would cover with the colour that cell would show."""

    index: int
    anchor: tuple[int, int]
    block: int
    turn: int
    cells: list[tuple[int, int, str]]


class Presenter:
    """The page's words and pictures for one game (its names are read once)."""

    def __init__(self, state: State) -> None:
        program = state.game.program
        self.program = program
        self.symbols = program.symbols
        assert program.names is not None
        self.names = program.names
        hidden = hidden_reading(self.symbols)  # what the score reads that a seat may not see
        self.hidden_scoring = self.names.decl(hidden).one if hidden else ""
        self.looks = Looks(self.names)  # what a cell is, in what colour: as the terminal draws it
        # every seat by its name: a loaded log may seat more players; a seat the rules play by its own
        self.seats = {str(p): p.seat for p in [*program.players, *state.rt.players]}

    # ------------------------------------------------------------------ words

    def title(self, names: dict[str, str], place: str) -> str:
        """A place's name (the view's `names`: "Hand of Player 1") as a heading: "Player 1's hand"."""
        said = names.get(place) or humanise(place)
        own, _, owner = said.partition(" of ")
        if not owner:
            return own[:1].upper() + own[1:]
        return f"{owner}{'' if owner.endswith('s') else chr(39) + 's'} {own[:1].lower() + own[1:]}"

    def colour(self, owner: str) -> str:
        seat = self.seats.get(owner)
        return seat_colour(seat)

    def chips(self, contents: Any) -> tuple[list[Chip], str]:
        """A place's contents as chips, and what is hidden of it ("3 face down")."""
        if isinstance(contents, dict) and "hidden" in contents:
            count = contents["hidden"]
            top = contents.get("top")
            chips = [self.chip(top, 1)] if top else []
            seen: dict[str, int] = {}  # what `reveal` showed this seat there
            for piece in contents.get("seen", []):
                seen[piece] = seen.get(piece, 0) + 1
            chips += [self.chip(piece, n) for piece, n in seen.items()]
            if not count:
                return chips, "empty"
            return chips, f"{count} face down" + (", you saw these" if seen else "")
        counted: dict[str, int] = {}
        for piece in contents if isinstance(contents, list) else []:
            counted[piece] = counted.get(piece, 0) + 1
        if isinstance(contents, dict):
            counted = dict(contents)
        return [self.chip(piece, n) for piece, n in counted.items()], ""

    def chip(self, piece: str, count: int) -> Chip:
        """Pieces as the view names them ("Token of Player 2"), in their owner's colour."""
        kind, _, owner = piece.partition(" of ")
        return Chip(kind[:1].upper() + kind[1:], count, self.colour(owner), owner)

    # ------------------------------------------------------------------ the page

    def page(self, state: State, seat: int | None, offer: bool = True) -> dict[str, Any]:
        """Everything the game fragment's template shows, as seat `seat` may see it; with its
        decision offered (`offer`), or none (a position of the past, looked at)."""
        view = state.view(seat)
        names = view["names"]
        decision = view["decision"] if offer else None
        options: list[Option] = []
        chosen: dict[str, list[int]] = {}  # a place's key -> the options it answers
        lays: dict[str, list[Lay]] = {}  # a grid -> the placements offered on it
        if decision is not None:
            cells = self.cells(state, view) if any(p and "lay" in p for p in decision["places"]) else {}
            for i, (text, place) in enumerate(zip(decision["options"], decision["places"], strict=True)):
                values = state.decision.values if state.decision is not None else []
                held = self.holds(values[i]) if place is None and i < len(values) else None
                if place is not None and "lay" in place and place["grid"] in cells:
                    kind = view["grid_forms"][place["grid"]]["kind"]
                    value = values[i] if i < len(values) else None
                    text = lay_words(self.looks, kind, place["lay"], value, cells[place["grid"]])
                options.append(Option(i, text, place_key(place), held))
                if place is not None and "lay" in place:
                    lays.setdefault(place["grid"], []).append(self.lay(state, i, place))
                    continue
                for key in place_keys(place):
                    chosen.setdefault(key, []).append(i)
        zones = []
        for key, contents in view["zones"].items():
            chips, hidden = self.chips(contents)
            if chips or (hidden and hidden != "empty"):
                zones.append(Zone(self.title(names, key), chips, hidden))
        seats = [str(p) for p in state.rt.players]
        laid = faces(state)
        return {
            "standings": self.standings(state),
            "current": view["current"],
            "game": view["game"],
            "seed": view["seed"],
            "turns": view["turns"],
            "step": len(state.choices),
            "seats": seats,
            "colours": [self.colour(n) for n in seats],
            "decision": None
            if decision is None
            else {"seat": decision["player"], "who": seats[decision["player"]], "prompt": decision["prompt"]},
            "options": options,
            "listed": [o for o in options if o.place is None],
            "placed": [o for o in options if o.place is not None],
            "boards": [
                self.grid(
                    self.title(names, name),
                    name,
                    view["grid_forms"][name]["kind"],
                    cells,
                    chosen,
                    lays.get(name, []),
                    laid.get(name, {}),
                )
                for name, cells in view["grids"].items()
            ]
            + [
                self.table_map(state, self.title(names, name), name, view["maps"].get(name, {}), chosen)
                for name in self.program.map_nodes
            ],
            "zones": zones,
            "variables": [
                (names.get(n) or humanise(n), v)
                for n, v in view["variables"].items()
                if not kept_by_rules(self.symbols.vars.get(n))
            ],
            **self.stores(view["owned"], seats, names),
            "log": for_seat(state.log, seat, lambda line: say_place(self.looks, line)),
        }

    def cells(self, state: State, view: dict[str, Any]) -> dict[str, dict[tuple[int, int], Look]]:
        """Each grid's cells as the view lists them, with what each shows: what an option that
        lays a shape is said by (`board.lay_words`), as the terminal says it."""
        laid = faces(state)
        return {
            grid: {
                (c["q"], c["r"]): self.looks.cell(c, laid.get(grid, {}).get((c["q"], c["r"]))) for c in cells
            }
            for grid, cells in view["grids"].items()
        }

    def holds(self, value: Any) -> Markup | None:
        """A small picture of what a piece or a row holds, for an option that takes one before it
        is laid (`board.shape_of`: a tile's hexes), each cell coloured as the board colours it.
        None for anything that is no shape."""
        shape = shape_of(self.program, value)
        return None if shape is None else self.miniature(*shape)

    def miniature(self, kind: str, cells: list[Row]) -> Markup:
        """A shape's cells at a small size, as an inline picture in an option's button."""
        centres = [_centre(kind, face.values["q"], face.values["r"]) for face in cells]
        reach = HEX if kind == "hex" else SQUARE / 2
        left = min(x for x, _ in centres) - reach - 2
        top = min(y for _, y in centres) - reach - 2
        width = max(x for x, _ in centres) - left + reach + 2
        height = max(y for _, y in centres) - top + reach + 2
        polygons = "".join(
            f'<polygon points="{outline(kind, x, y, HEX, SQUARE)}" '
            f'fill="{self.looks.colour(face)}" class="cell"/>'
            for (x, y), face in zip(centres, cells, strict=True)
        )
        box = f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}"
        return Markup(
            f'<svg class="holds" xmlns="http://www.w3.org/2000/svg" viewBox="{box}" '
            f'width="{width * 0.4:.0f}" height="{height * 0.4:.0f}" aria-hidden="true">{polygons}</svg>'
        )

    def standings(self, state: State) -> dict[str, Any]:
        """Every seat's score as the position gives it now, and its tiebreak where the rules have
        one: the figures the winner is decided by. A score the rules cannot give yet (it reads
        something setup has not made) is left out rather than shown wrong; so is a score that
        reads what some seat may not see (a private hand, a face-down pile), which would tell
        every seat at the table what it holds: the page says so, and shows it at the end."""
        if self.hidden_scoring:
            return {"scores": [], "tiebreaks": [], "hidden": self.hidden_scoring}
        try:
            scores = state.scores
            tiebreaks = state.tiebreaks if self.program.tiebreak is not None else []
        except RuleRuntimeError:
            return {"scores": [], "tiebreaks": []}
        return {"scores": scores, "tiebreaks": tiebreaks, "hidden": ""}

    def stores(
        self, owned: dict[str, dict[str, str]], seats: list[str], names: dict[str, str]
    ) -> dict[str, Any]:
        """The values the rules keep per player (a table, one column per seat) and per table row
        (listed by store, as chips in the colour of the seat they name; rows whose value is
        nothing left out)."""
        per_player, per_row = [], []
        for store, held in owned.items():
            per, _, name = store.partition(".")
            if kept_by_rules(self.symbols.owned_vars.get(per, {}).get(name)):
                continue
            called = names.get(store) or humanise(store)
            if per == "player":
                per_player.append((called, [held.get(s, "") for s in seats]))
            else:
                said = [
                    Chip(f"{k}: {v}", 1, self.colour(v)) for k, v in held.items() if v not in ("none", "no")
                ]
                per_row.append((f"{called} of each {self.names.decl(per).one}", said))
        return {"per_player": per_player, "per_row": per_row}

    # ------------------------------------------------------------------ the board

    def grid(
        self,
        title: str,
        name: str,
        kind: str,
        cells: list[dict[str, Any]],
        chosen: dict[str, list[int]],
        lays: list[Lay],
        laid: dict[tuple[int, int], Row],
    ) -> Markup:
        """A grid map of `kind` (hex, square): every cell the view lists, coloured by what its face
        is, with its name (a board's `b2`) or its coordinates, and its pieces; then, where a shape
        may be laid, a place to lay it (see `spots`)."""
        reach = HEX if kind == "hex" else SQUARE / 2
        around = [(c["q"], c["r"]) for c in cells] + [(q, r) for lay in lays for q, r, _ in lay.cells]
        centres = [_centre(kind, q, r) for q, r in around]
        xs = [x for x, _ in centres] or [0.0]
        ys = [y for _, y in centres] or [0.0]
        box = (min(xs) - reach - 4, min(ys) - reach - 4, max(xs) - min(xs) + 2 * reach + 8)
        height = max(ys) - min(ys) + 2 * reach + 8
        parts = []
        for cell in cells:
            x, y = _centre(kind, cell["q"], cell["r"])
            key = place_key({"grid": name, "q": cell["q"], "r": cell["r"]})
            look = self.looks.cell(cell, laid.get((cell["q"], cell["r"])))
            corners = outline(kind, x, y, HEX, SQUARE)
            face, called, fill = look.face, look.name, look.colour
            label = called + (f": {face}" if face else "")
            inner = [f'<polygon points="{corners}" fill="{fill}" class="cell"/>']
            words = "face on-dark" if dark(fill) else "face"
            inner.append(_text(x, y - reach * 0.55, face or called, words))
            chips, _ = self.chips(cell["pieces"])
            inner += self.draw_chips(chips, x, y - 6, reach * 1.6)
            parts.append(_place(key, chosen, label, "".join(inner)))
        parts += self.spots(kind, lays)
        parts.append('<g class="ghost" pointer-events="none"></g>')
        return _svg(title, box, height, "".join(parts))

    def spots(self, kind: str, lays: list[Lay]) -> list[str]:
        """Where a shape may be laid: one place per cell (or block) it may be laid at, outlined,
        holding each legal turn there as a ghost the page draws under the pointer (`data-ghosts`:
        the option, its turn in degrees, and each cell's corners and colour)."""
        at: dict[tuple[int, int], list[Lay]] = {}
        for lay in lays:
            at.setdefault(lay.anchor, []).append(lay)
        out = []
        for (q, r), here in at.items():
            block = here[0].block
            if block > 1:
                x0, y0 = _centre(kind, q * block, r * block)
                x1, y1 = _centre(kind, q * block + block - 1, r * block + block - 1)
                side = x1 - x0 + SQUARE
                corners = outline(kind, (x0 + x1) / 2, (y0 + y1) / 2, HEX, side)
            else:
                corners = outline(kind, *_centre(kind, q, r), HEX, SQUARE)
            ghosts = [
                [
                    lay.index,
                    lay.turn,
                    [[outline(kind, *_centre(kind, x, y), HEX, SQUARE), fill] for x, y, fill in lay.cells],
                ]
                for lay in here
            ]
            indices = ",".join(str(lay.index) for lay in here)
            turns = "; ".join(turn_words(kind, lay.turn) for lay in here)
            label = f"lay it here: {turns}"
            out.append(
                f'<g class="place choosable lay" role="button" tabindex="0" data-options="{indices}" '
                f'data-ghosts="{_e(json.dumps(ghosts, separators=(",", ":")))}" aria-label="{_e(label)}">'
                f'<title>{_e(label)}</title><polygon points="{corners}" class="spot"/></g>'
            )
        return out

    def lay(self, state: State, index: int, place: dict[str, Any]) -> Lay:
        """A placement option as the page offers it: its cells coloured as the rows it lays would
        colour them (the placement itself is the decision's option)."""
        placement = state.decision.values[index] if state.decision is not None else None
        rows = getattr(placement, "rows", [])
        spec = place["lay"]
        cells = [
            (q, r, self.looks.colour(rows[i] if i < len(rows) else None))
            for i, (q, r) in enumerate(spec["cells"])
        ]
        return Lay(index, (place["q"], place["r"]), spec["block"], spec["turn"], cells)

    def table_map(
        self, state: State, title: str, name: str, held: dict[str, Any], chosen: dict[str, list[int]]
    ) -> Markup:
        """A table map: its nodes where the rules draw them (`nodes T at X, Y`), else on a ring,
        linked as its edges link them, each with the pieces on it; a node of a seat not in the
        game (`belongs to`) is left out."""
        nodes = [node for node in self.program.map_nodes[name] if not out_of_game(state, node)]
        at = self.program.node_at.get(name)
        if at:
            spots = {id(node): (x * SPACING, y * SPACING) for node, (x, y) in at.items() if node in nodes}
        else:
            count = max(len(nodes), 1)
            ring = max(120.0, count * (2 * NODE + 18) / (2 * math.pi))
            spots = {
                id(node): (
                    ring * math.cos(2 * math.pi * i / count - math.pi / 2),
                    ring * math.sin(2 * math.pi * i / count - math.pi / 2),
                )
                for i, node in enumerate(nodes)
            }
        parts = []
        for node, links in self.program.adjacency.get(name, {}).items():
            if id(node) not in spots:
                continue
            x1, y1 = spots[id(node)]
            for other in links:
                if node.index < other.index and id(other) in spots:
                    x2, y2 = spots[id(other)]
                    parts.append(
                        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" class="edge"/>'
                    )
        for node in nodes:
            x, y = spots[id(node)]
            key = place_key({"map": name, "node": str(node)})
            said = node.name
            chips, _ = self.chips(held.get(str(node), {}))
            inner = [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{NODE}" class="node"/>']
            lines = _lines(said, 15)
            lines = [*lines[:2], _shorten(" ".join(lines[2:]), 15)] if len(lines) > 3 else lines
            inner += [_text(x, y - 26 + 11 * i, line, "face") for i, line in enumerate(lines)]
            inner += self.draw_chips(chips, x, y + 8, NODE * 1.8)
            parts.append(_place(key, chosen, said, "".join(inner)))
        xs, ys = [x for x, _ in spots.values()] or [0.0], [y for _, y in spots.values()] or [0.0]
        edge = NODE + 6
        left, top = min(xs) - edge, min(ys) - edge
        return _svg(title, (left, top, max(xs) + edge - left), max(ys) + edge - top, "".join(parts))

    def draw_chips(self, chips: list[Chip], x: float, top: float, width: float) -> list[str]:
        """Pieces as labelled rounded tags, one under another, in their owner's colour; a name
        too long for one line wraps onto a second (and only then is shortened, at its end)."""
        out = []
        y = top
        fits = max(4, int((width - 8) / 6.2))  # characters a line of a tag holds
        for i, chip in enumerate(chips[:3]):
            text = f"+{len(chips) - 2} more" if i == 2 and len(chips) > 3 else chip.text
            lines = _lines(text, fits)
            if len(lines) > 2:
                lines = [lines[0], _shorten(" ".join(lines[1:]), fits)]
            lines = [_shorten(line, fits) for line in lines]
            w = min(width, 8 + 6.2 * max(len(line) for line in lines))
            h = CHIP + 11 * (len(lines) - 1)
            words = "".join(
                f'<tspan x="{x:.1f}" y="{y + CHIP - 4 + 11 * n:.1f}">{_e(line)}</tspan>'
                for n, line in enumerate(lines)
            )
            out.append(
                f'<g class="chip"><title>{_e(chip.text + (f" ({chip.owner})" if chip.owner else ""))}</title>'
                f'<rect x="{x - w / 2:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h}" rx="7" '
                f'fill="{chip.colour}"/><text text-anchor="middle">{words}</text></g>'
            )
            y += h + 2
        return out


def hidden_reading(symbols: Symbols) -> str:
    """The zone some seat may not see (private or hidden) that the score or the tiebreak reads,
    through the values it computes (its name in the rules); "" when they read none."""
    read = Refs()
    for decl in (symbols.score, symbols.tiebreak):
        if decl is not None:
            read.update(reaches(symbols, decl))
    zones = [*((z, False) for z in symbols.zones.values())]
    zones += [(z, True) for group in symbols.owned_zones.values() for z in group.values()]
    for zone, owned in zones:
        if {"private", "hidden"} & set(zone.flags) and zone.name in (read.attrs if owned else read.names):
            return zone.name
    return ""


def place_keys(place: dict[str, Any] | None) -> list[str]:
    """Every place of the board an option may be chosen at: its place, or each place of an area."""
    if place is None:
        return []
    if "cells" in place:
        return [f"grid:{place['grid']}:{q}:{r}" for q, r in place["cells"]]
    if "nodes" in place:
        return [f"map:{place['map']}:{node}" for node in place["nodes"]]
    key = place_key(place)
    return [] if key is None else [key]


def place_key(place: dict[str, Any] | None) -> str | None:
    """A board place as one string, the same for an option and for the place drawn."""
    if place is None:
        return None
    if "grid" in place:
        return f"grid:{place['grid']}:{place['q']}:{place['r']}"
    return f"map:{place['map']}:{place['node']}"


def _centre(kind: str, q: int, r: int) -> tuple[float, float]:
    if kind == "hex":
        return HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r
    return SQUARE * q, SQUARE * r


def _place(key: str | None, chosen: dict[str, list[int]], label: str, inner: str) -> str:
    """One place of the board: a button when some option is this place."""
    options = chosen.get(key or "")
    if not options:
        return f'<g class="place"><title>{_e(label)}</title>{inner}</g>'
    indices = ",".join(str(i) for i in options)
    return (
        f'<g class="place choosable" role="button" tabindex="0" data-options="{indices}" '
        f'aria-label="{_e(label)}"><title>{_e(label)}</title>{inner}</g>'
    )


def _svg(title: str, box: tuple[float, float, float], height: float, body: str) -> Markup:
    left, top, width = box
    return Markup(
        f'<figure class="board"><figcaption>{_e(title)}</figcaption>'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="{FONT}" role="img" '
        f'aria-label="{_e(title)}">{body}</svg></figure>'
    )


def _text(x: float, y: float, words: str, kind: str) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" class="{kind}">{_e(words)}</text>'


def _lines(words: str, width: int) -> list[str]:
    out: list[str] = []
    for word in words.split():
        if out and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    return out or [words]


def _shorten(line: str, width: int) -> str:
    """A line cut to `width` characters at its end, with an ellipsis where it was cut."""
    return line if len(line) <= width else line[: width - 1] + "\u2026"


def _e(text: str) -> str:
    return html.escape(text, quote=True)


__all__ = ["Presenter", "place_key"]
