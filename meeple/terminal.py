"""Playing at the terminal (`meeple play --agents human`): a person's seat, shown the position as
that seat may see it and asked to choose.

The position is said in the players' words (the view's `names`), and each grid map is drawn as a
board: every cell a field of a few letters, filled with the colour of what it is (`board.Looks`,
the one definition the playtest page colours by too), the pieces on it marked and said in a key
under the board. Colours are rich styles: printed by a console that has no colours (a pipe, a
file, `NO_COLOR`), the same board is left in plain letters, which the key explains alone. A
decision that lays a shape marks the places it may go on the board with letters, and each option
says its place, what it would touch and how it is turned, as a player would. A table map whose
rules place its nodes (`nodes ... at X, Y`) is drawn as a board of its nodes. Nothing here knows a
game.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.text import Text

from meeple.board import Look, Looks, dark, faces, kept_by_rules, lay_words, seat_colour, shape_of
from meeple.interpreter.engine import State
from meeple.interpreter.geometry import column_letters
from meeple.interpreter.runtime import Decision
from meeple.interpreter.values import Row, first_upper, humanise
from meeple.interpreter.view import out_of_game

OFFERED = "bold black on #ffe14d"  # a place a shape may be laid at, marked by its letter
CHOSEN = "bold underline"  # a cell that is itself one of the options
KEY_WIDTH = 78  # a key's line of names is wrapped at this width
NODE_WIDTH = 15  # the width of a node's field on a table map drawn as a board


def _print(text: Text) -> None:
    Console(highlight=False, soft_wrap=True).print(text)


class HumanAgent:
    """Asks at the terminal: shows the position as the deciding seat may see it, lists the options
    numbered (1-based for people) and takes a number or an option's label.

    A label may be typed in any case, whole or as a prefix that only one label starts with; an
    answer that fits several options or none is asked again, saying what it fits. Options with
    the very same label cannot be told apart by anyone, so such a label picks the first of them.
    An answer of digits is always a number, even where the labels are numbers too.

    Numbers are stable: an option offered again in the seat's next decision of the same kind
    (the same prompt) keeps its number, so a hand that shrinks leaves gaps rather than renumbering
    what is left, while the list stays in the order the rules give with the pass option and the
    offered actions last. A number is reused for another option only when keeping every old
    number would break that order (an option the rules now put before one it followed).

    `show` prints one line (a rich Text, whose styles are the board's colours)."""

    def __init__(self, ask: Callable[[str], str] = input, show: Callable[[Text], None] = _print) -> None:
        self.ask = ask
        self.show = show
        self.numbers: dict[tuple[int, str], dict[str, list[int]]] = {}  # the last numbers per kind

    def choose(self, state: State, decision: Decision) -> int:
        screen = Screen(state, decision.player.seat)
        options = screen.options
        numbers = self.number(decision.player.seat, decision.prompt, options)
        self.show(Text(""))
        for line in screen.lines:
            self.show(line)
        self.show(Text(f"{decision.player}: {decision.prompt}"))
        for number, option in zip(numbers, options, strict=True):
            self.show(Text(f"  {number}. {option}"))
        while True:
            answer = self.ask("choose by number or name: ").strip()
            found = self.match(answer, numbers, options)
            if isinstance(found, int):
                return found
            self.show(Text(found))

    def number(self, seat: int, prompt: str, options: list[str]) -> list[int]:
        """Each option's number: the one it had in the previous decision of the same kind where
        that keeps the numbers rising, else the next one up."""
        kind = (seat, prompt)
        before = {label: list(taken) for label, taken in self.numbers.get(kind, {}).items()}
        numbers: list[int] = []
        for option in options:
            last = numbers[-1] if numbers else 0
            kept = before.get(option, [])
            while kept and kept[0] <= last:
                kept.pop(0)
            numbers.append(kept.pop(0) if kept else last + 1)
        now: dict[str, list[int]] = {}
        for option, number in zip(options, numbers, strict=True):
            now.setdefault(option, []).append(number)
        self.numbers[kind] = now
        return numbers

    @staticmethod
    def match(answer: str, numbers: list[int], options: list[str]) -> int | str:
        """The index an answer names, or why it names none (to show before asking again)."""
        if answer.isdigit():
            if int(answer) in numbers:
                return numbers.index(int(answer))
            return f"'{answer}' is not one of the numbers listed"
        typed = answer.casefold()
        if not typed:
            return "type a number or the start of an option's name"
        exact = [i for i, option in enumerate(options) if option.casefold() == typed]
        fits = exact or [i for i, option in enumerate(options) if option.casefold().startswith(typed)]
        if len({options[i] for i in fits}) == 1:
            return fits[0]
        if not fits:
            return f"'{answer}' is not an option"
        fitting = ", ".join(dict.fromkeys(f"{numbers[i]}. {options[i]}" for i in fits))
        return f"'{answer}' fits several options: {fitting}; type more of the name, or its number"


@dataclass
class Offer:
    """A grid's places in the decision: where a shape may be laid (each cell a letter names,
    every cell of a block on a grid of blocks) and the cells that are options themselves."""

    letters: dict[tuple[int, int], str] = field(default_factory=dict)  # the block or cell laid at
    marked: dict[tuple[int, int], str] = field(default_factory=dict)  # each cell drawn with a letter
    chosen: set[tuple[int, int]] = field(default_factory=set)


class Screen:
    """What the terminal shows a seat: the position as it may see it (`lines`) and its decision's
    options in words (`options`, one per option of the decision, in its order)."""

    def __init__(self, state: State, seat: int | None) -> None:
        view = state.view(seat)
        program = state.game.program
        self.state = state
        assert program.names is not None
        self.view = view
        self.program = program
        self.seats = {str(p): p.seat for p in state.rt.players}
        self.symbols = program.symbols
        self.looks = Looks(program.names)
        laid = faces(state)
        self.cells: dict[str, dict[tuple[int, int], Look]] = {
            grid: {
                (c["q"], c["r"]): self.looks.cell(c, laid.get(grid, {}).get((c["q"], c["r"]))) for c in cells
            }
            for grid, cells in view["grids"].items()
        }
        # a grid's block side (1: none), for laying shapes on whole blocks
        self.blocks = {str(g): g.geometry.block for g in state.rt.grids}
        self.offers: dict[str, Offer] = {grid: Offer() for grid in view["grids"]}
        tables = {look.what.table for looks in self.cells.values() for look in looks.values() if look.what}
        rows = [
            row
            for table in sorted(tables)
            for row in sorted(program.row_by_key.get(table, {}).values(), key=lambda row: row.index)
        ]
        self.codes = face_codes(rows, self.looks)
        self.nodes_chosen: set[tuple[str, str]] = set()  # (map, node) of the nodes that are options
        decision = view["decision"]
        values = state.decision.values if state.decision is not None else []
        self.options: list[str] = []
        if decision is not None:
            self.options = [
                self.option(text, place, values[i] if i < len(values) else None)
                for i, (text, place) in enumerate(zip(decision["options"], decision["places"], strict=True))
            ]
        self.lines = self.position()

    def name(self, key: str) -> str:
        return self.view["names"].get(key) or humanise(key)

    # ------------------------------------------------------------------ the options

    def option(self, text: str, place: dict[str, Any] | None, value: Any) -> str:
        """An option as the terminal lists it: its label (with what a tile holds, `holding`), or
        for the laying of a shape (`value`, a placement) the letter of its place on the board,
        its turn and what it would touch there. A cell or an area offered is underlined on the
        board."""
        if place is not None and "node" in place:
            self.nodes_chosen.add((place.get("map", ""), place["node"]))
        if place is None or "grid" not in place or place["grid"] not in self.offers:
            return self.holding(text, value)
        offer = self.offers[place["grid"]]
        if "lay" not in place:
            offer.chosen |= {(q, r) for q, r in place.get("cells", [[place["q"], place["r"]]])}
            return text
        lay, kind = place["lay"], self.view["grid_forms"][place["grid"]]["kind"]
        spot = (place["q"], place["r"])
        letter = offer.letters.setdefault(spot, column_letters(len(offer.letters)))
        block = lay["block"]
        covered = [(spot[0] * block + dq, spot[1] * block + dr) for dr in range(block) for dq in range(block)]
        for cell in covered if block > 1 else [spot]:
            offer.marked[cell] = letter
        return f"{letter}: " + lay_words(self.looks, kind, lay, value, self.cells[place["grid"]])

    def holding(self, text: str, value: Any) -> str:
        """An option that takes a shape before it is laid (a tile) with what its cells are, in
        the order its table gives them: "tile 35 (meadow, town, town)"."""
        shape = shape_of(self.program, value)
        if shape is None:
            return text
        _, cells = shape
        return f"{text} ({', '.join(self.looks.said(self.looks.what(cell)) or '?' for cell in cells)})"

    # ------------------------------------------------------------------ the position

    def position(self) -> list[Text]:
        """The position in a few lines: the variables, what each player holds in the rules'
        stores, the zones and map places that hold anything, then each grid drawn as a board (see
        `Board`); a zone the seat may not look into says how many pieces it holds face down."""
        view = self.view
        lines: list[Text] = []
        values = [
            f"{self.name(var)}: {value}"
            for var, value in view["variables"].items()
            if not kept_by_rules(self.symbols.vars.get(var))
        ]
        if values:
            lines.append(Text(first_upper("; ".join(values))))
        for store, held in view["owned"].items():
            per, _, name = store.partition(".")
            if per != "player" or not held or kept_by_rules(self.symbols.owned_vars.get(per, {}).get(name)):
                continue
            if any(": " in value for value in held.values()):  # a value per row: a line per player
                lines += [
                    Text(first_upper(f"{self.name(store)} of {who}: {value}")) for who, value in held.items()
                ]
            else:
                said = ", ".join(f"{who} {value}" for who, value in held.items())
                lines.append(Text(first_upper(f"{self.name(store)}: {said}")))
        laid_out = [name for name in view["maps"] if self.program.node_at.get(name)]  # in the rules order
        places = {
            **view["zones"],
            **{p: c for name, m in view["maps"].items() if name not in laid_out for p, c in m.items()},
        }
        for place, contents in places.items():
            said = pieces(contents, view["plurals"])
            if said:
                lines.append(Text(first_upper(f"{self.name(place)}: {said}")))
        for name in laid_out:
            lines += self.table_board(name).lines()
        for grid, cells in view["grids"].items():
            form = view["grid_forms"][grid]
            drawn = Board(
                first_upper(self.name(grid)),
                form["kind"],
                self.blocks.get(grid, 1),
                form["board"],
                self.cells[grid],
                {(c["q"], c["r"]): c["pieces"] for c in cells},
                self.offers[grid],
                view["plurals"],
                self.codes,
                self.looks,
                self.seats,
            )
            lines += drawn.lines()
        return lines

    def table_board(self, name: str) -> TableBoard:
        """A table map whose rules say where its nodes lie (`nodes ... at X, Y`), as a board."""
        held = self.view["maps"].get(name, {})
        spots = {
            at: node for node, at in self.program.node_at[name].items() if not out_of_game(self.state, node)
        }
        return TableBoard(
            first_upper(self.name(name)),
            {
                at: (node.name, held.get(str(node), {}), (name, str(node)) in self.nodes_chosen)
                for at, node in spots.items()
            },
            self.view["plurals"],
            self.seats,
        )


@dataclass
class TableBoard:
    """A table map drawn as text where its rules place each node (`nodes ... at X, Y`, as the
    page and the printed boards lay them out): each node a field of its name (on two lines at
    most) over a mark for its pieces, a capital letter per kind of piece (after a count, for
    more than one) in its owner's colour, said in the key under the board. A node that is an
    option of the decision has its name underlined. Columns with no node are a narrow gap, as
    between two players' boards."""

    title: str
    nodes: dict[tuple[int, int], tuple[str, dict[str, int], bool]]  # (x, y) -> name, pieces, offered
    plurals: Mapping[str, str]
    seats: dict[str, int]

    def lines(self) -> list[Text]:
        if not self.nodes:
            return []
        kinds = list(dict.fromkeys(kind for _, held, _ in self.nodes.values() for kind in held))
        letters = {kind: chr(ord("A") + i) if i < 26 else "*" for i, kind in enumerate(kinds)}
        xs = sorted({x for x, _ in self.nodes})
        starts, at = {}, 2
        for i, x in enumerate(xs):
            if i and x > xs[i - 1] + 1:
                at += 2  # a gap where no node lies
            starts[x] = at
            at += NODE_WIDTH + 1
        ys = [y for _, y in self.nodes]
        out = [Text(f"{self.title}:")]
        for y in range(min(ys), max(ys) + 1):
            row = {x: node for (x, y_), node in self.nodes.items() if y_ == y}
            if not row:
                out.append(Text(""))
                continue
            fields = {x: self.field(name, held, offered, letters) for x, (name, held, offered) in row.items()}
            for n in range(3):
                line = Text()
                for x in sorted(fields):
                    line.append(" " * (starts[x] - len(line.plain)))
                    line.append_text(fields[x][n])
                line.rstrip()
                out.append(line)
        for kind, letter in letters.items():
            out.append(
                Text("  ").append(letter, style=_owner_style({kind: 1}, self.seats)).append(f" = {kind}")
            )
        return out

    def field(self, name: str, held: dict[str, int], offered: bool, letters: dict[str, str]) -> list[Text]:
        """A node's three lines: its name, wrapped (and cut short past two lines), then its pieces."""
        said = textwrap.wrap(name, NODE_WIDTH) or [""]
        if len(said) > 2:
            said = [said[0], textwrap.shorten(" ".join(said[1:]), NODE_WIDTH, placeholder="…")]
        style = CHOSEN if offered else ""
        lines = [Text(part, style=style) for part in said] + [Text("")] * (2 - len(said))
        marks = Text()
        for kind, count in held.items():
            if marks.plain:
                marks.append(" ")
            marks.append(
                f"{count if count > 1 else ''}{letters[kind]}", style=_owner_style({kind: 1}, self.seats)
            )
        return [*lines, marks]


def _owner_style(held: dict[str, int], seats: dict[str, int]) -> str:
    """The style of a mark for pieces all of one seat, in that seat's colour, as the page draws a
    seat's pieces; "" for pieces of several or of nobody."""
    owners = {piece.partition(" of ")[2] for piece in held}
    if len(owners) != 1 or (who := owners.pop()) not in seats:
        return ""
    return f"bold white on {seat_colour(seats[who])}"


@dataclass
class Board:
    """One grid map drawn as text: each cell a field of the same width, with a letter for what it
    is (the key's first line names each, in its colour) and a mark for its pieces; rows run north
    to south, a hex grid's leaning half a cell east a row; on a grid of blocks a block's cells
    touch, as a tile's quarters do, with a gap between blocks. A board given by its size has its
    column letters above and its row numbers beside, as its cells are named (`b2`).

    The pieces: where no cell holds more than one kind (a board of stones, marks, discs) each
    kind has a capital letter (a number: that many), said in the key; elsewhere each cell that
    holds pieces has a number, and the key says what that cell holds."""

    title: str
    kind: str
    block: int
    sized: bool  # a board given by its size: its cells are named by column and row
    looks: dict[tuple[int, int], Look]
    held: dict[tuple[int, int], dict[str, int]]
    offer: Offer
    plurals: Mapping[str, str]
    codes: dict[tuple[str, str], str]  # the letter of each thing a cell may be (`face_codes`)
    said: Looks
    seats: dict[str, int]  # each player's seat, by name: their pieces' colour

    def owner(self, held: dict[str, int]) -> str:
        """The style of a mark for pieces all of one seat, in that seat's colour (`_owner_style`)."""
        return _owner_style(held, self.seats)

    def lines(self) -> list[Text]:
        spots = set(self.looks) | set(self.offer.marked)
        if not spots:
            return []
        whats = list(dict.fromkeys(look.what for look in self.looks.values() if look.what is not None))
        whats.sort(key=lambda what: what.index)
        codes = self.codes if whats else {}
        kinds = list(dict.fromkeys(kind for held in self.held.values() for kind in held))
        by_kind = all(len(held) <= 1 for held in self.held.values())
        letters = {kind: chr(ord("A") + i) if i < 26 else "*" for i, kind in enumerate(kinds)}
        numbered = [spot for spot in sorted(spots, key=lambda s: (s[1], s[0])) if self.held.get(spot)]
        numbers = {spot: str(i + 1) for i, spot in enumerate(numbered)}
        fields: dict[tuple[int, int], Text] = {}
        for spot in spots:
            look = self.looks.get(spot)
            what = look.what if look is not None else None
            code = codes.get((what.table, what.key), ".") if what is not None else "." if look else " "
            held = self.held.get(spot, {})
            if spot in self.offer.marked:
                mark = self.offer.marked[spot]
            elif held and by_kind:
                (kind, count), *_ = held.items()
                mark = letters[kind] if count == 1 else str(count)
            else:
                mark = numbers.get(spot, "")
            style = ""
            if spot in self.offer.marked:
                style = OFFERED
            elif look is not None and look.what is not None:
                style = f"{'white' if dark(look.colour) else 'black'} on {look.colour}"
            if spot in self.offer.chosen:
                style = f"{style} {CHOSEN}".strip()
            words = (code + mark) if codes else mark
            field = Text(words or ".", style=style)
            if held and spot not in self.offer.marked and (own := self.owner(held)):
                field.stylize(own, len(words) - len(mark), len(words))
            fields[spot] = field
        width = max(len(f) for f in fields.values())
        if self.kind == "hex" and width % 2 == 0:
            width += 1  # so that a row leans by a whole number of characters: half a cell
        drawn = [Text(f"{self.title}:"), *self.grid(fields, width)]
        if codes:
            drawn += self.legend(whats, codes, self.said)
        if by_kind:
            for kind, letter in letters.items():
                drawn.append(Text("  ").append(letter, style=self.owner({kind: 1})).append(f" = {kind}"))
        else:
            for spot in numbered:
                look = self.looks.get(spot)
                at = f"{look.name}: " if self.sized and look is not None else ""
                said = f" = {at}{counted(self.held[spot], self.plurals)}"
                drawn.append(Text("  ").append(numbers[spot], style=self.owner(self.held[spot])).append(said))
        if self.offer.letters:
            drawn.append(
                Text(f"  {', '.join(self.offer.letters.values())}: the places offered below", style="")
            )
        return drawn

    def column(self, q: int, r: int, west: int, lean: int, width: int) -> int:
        """Where a cell's field starts on its line, in characters from the board's west edge."""
        if self.kind == "hex":
            return (2 * q + r - lean) * (width + 1) // 2
        if self.block == 1:
            return (q - west) * (width + 1)
        start = west - west % self.block  # the cells of a block side by side, a gap between blocks
        return (q - west) * width + (q - start) // self.block - (west - start) // self.block

    def grid(self, fields: dict[tuple[int, int], Text], width: int) -> list[Text]:
        qs, rs = [q for q, _ in fields], [r for _, r in fields]
        west, north, south = min(qs), min(rs), max(rs)
        lean = min(2 * q + r for q, r in fields)
        rows: dict[int, dict[int, Text]] = {}
        for (q, r), text in fields.items():
            rows.setdefault(r, {})[self.column(q, r, west, lean, width)] = text
        label = len(str(south - north + 1)) if self.sized else 0
        indent = 2 + (label + 1 if label else 0)
        out: list[Text] = []
        if self.sized:
            ruler = {
                self.column(q, north, west, lean, width): column_letters(q - west)
                for q in range(west, max(qs) + 1)
            }
            if min(ruler) >= 0:
                out.append(Text(" " * indent + _line({at: Text(word) for at, word in ruler.items()}, width)))
        for r in range(north, south + 1):
            if self.block > 1 and r > north and r % self.block == 0:
                out.append(Text(""))
            side = f"  {r - north + 1:>{label}} " if label else "  "
            line = Text(side)
            line.append_text(_fill(rows.get(r, {}), width))
            line.rstrip()
            out.append(line)
        return out

    @staticmethod
    def legend(whats: list[Row], codes: dict[tuple[str, str], str], looks: Looks) -> list[Text]:
        """What each letter of a cell stands for, in its colour: "M Meadow   T Town"."""
        lines: list[Text] = []
        line = Text("  ")
        for what in whats:
            said = looks.said(what)
            if len(line.plain) + len(said) + 5 > KEY_WIDTH and line.plain.strip():
                lines.append(line)
                line = Text("  ")
            elif line.plain.strip():
                line.append("   ")
            colour = looks.drawer.colour(what)
            line.append(
                codes[(what.table, what.key)], style=f"{'white' if dark(colour) else 'black'} on {colour}"
            )
            line.append(f" {said}")
        return [*lines, line]


def _fill(fields: dict[int, Text], width: int) -> Text:
    """One line of fields, each at its column, padded to the same width."""
    line = Text()
    for at in sorted(fields):
        if at > len(line.plain):
            line.append(" " * (at - len(line.plain)))
        text = fields[at]
        padded = text.copy()
        padded.pad_right(width - len(text.plain))
        line.append_text(padded)
    return line


def _line(fields: dict[int, Text], width: int) -> str:
    return _fill(fields, width).plain.rstrip()


def face_codes(rows: list[Row], looks: Looks) -> dict[tuple[str, str], str]:
    """A capital letter for each row of a table cells may be (what a cell is): its name's first
    letter not yet taken, else a later letter of its name, else any letter, else a digit. Every
    row of the table is given one, in the table's order, so a row keeps its letter all game."""
    taken: dict[tuple[str, str], str] = {}
    for row in rows:
        said = looks.said(row).upper()
        spare = [c for c in said if "A" <= c <= "Z"] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        free = [c for c in [*spare, *"0123456789"] if c not in taken.values()]
        taken[(row.table, row.key)] = free[0] if free else "?"
    return taken


def counted(held: dict[str, int], plurals: Mapping[str, str]) -> str:
    return ", ".join(f"{n} {plurals.get(piece, piece)}" if n > 1 else piece for piece, n in held.items())


def pieces(contents: Any, plurals: Mapping[str, str]) -> str:
    """A zone's contents in words: "3 face down", "3 face down, of which you saw Owl" (what
    `reveal` showed the seat), "2 Tokens, Stone" (`plurals`: the view's), or "" when it is
    empty."""
    if isinstance(contents, list):  # an ordered zone, top last
        return ", ".join(contents)
    if "hidden" in contents:
        count = contents["hidden"]
        if not count:
            return ""
        seen = f", of which you saw {', '.join(contents['seen'])}" if contents.get("seen") else ""
        return f"{count} face down" + (f", {contents['top']} on top" if contents.get("top") else "") + seen
    return counted(contents, plurals)
