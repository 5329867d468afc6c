"""Teams: seats grouped so that they share their victory (docs/language.md#teams).

A game says it can be played in teams (`teams of 1..2`: the sizes a team may have); the layout is
chosen when a game starts (`--teams "1+4,2+5,3+6"`, `new_game(..., teams=[[0, 3], [1, 4], [2, 5]])`)
and is part of what a game is, like its seed: the result and the log record it, so that a replay
is exact. What teams change in play is the rules' to say, with `team(p)` and `teammates(p)`;
the engine only decides who wins: a team's result is the best of its members' (score, then
tiebreak), and every member of the best team wins. Rules in which a team scores together give
each member the team's score, which the best of them then is.

Without a layout every seat plays alone (a team of one), so a game played without teams, and a
game without `teams`, win as they always did. A seat the rules play (interpreter/seats.py) always
plays alone: a layout names the players only.
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.grammar import ast
from meeple.limits import MAX_SEATS

Layout = tuple[tuple[int, ...], ...]  # the teams, each its seats (0-based) in seat order


def layout_text(layout: Layout) -> str:
    """A layout as the command line writes it (`1+4,2+5`): what `parse_layout` reads back, and what
    a command that plays a game again repeats."""
    return ",".join("+".join(str(s + 1) for s in team) for team in layout)


def parse_layout(text: str) -> Layout:
    """A layout as the command line writes it, seats numbered from 1: `1+4,2+5,3` (a team per
    comma, its seats joined by +). ValueError, in plain words, for anything else."""
    if len(text) > 4 * MAX_SEATS:
        raise ValueError(f"a team layout names at most {MAX_SEATS} seats")
    teams: list[tuple[int, ...]] = []
    for part in text.split(","):
        seats: list[int] = []
        for word in part.split("+"):
            word = word.strip()
            if not word.isdigit() or len(word) > 3:
                raise ValueError(
                    f"'{word}' is not a seat number: teams are written like \"1+4,2+5,3+6\" "
                    "(seats from 1, + within a team, a comma between teams)"
                )
            seats.append(int(word) - 1)
        teams.append(tuple(seats))
    return tuple(teams)


def check_layout(
    teams: Sequence[Sequence[int]], decl: ast.TeamsDecl | None, game: str, players: int
) -> Layout:
    """The layout, checked against the game and its number of players: every player (seats 0 to
    players-1) in exactly one team, each team of a size the game allows. ValueError says what is
    wrong, naming seats as players read them (Player 1 is seat 0)."""
    if decl is None:
        raise ValueError(f"{game} is not played in teams (its rules declare no `teams`)")
    if isinstance(teams, str | bytes) or not isinstance(teams, Sequence):
        raise TypeError(f"teams must be a list of teams, each a list of seats, not {teams!r}")
    seen: set[int] = set()
    layout: list[tuple[int, ...]] = []
    for team in teams:
        if isinstance(team, str | bytes) or not isinstance(team, Sequence):
            raise TypeError(f"a team must be a list of seats, not {team!r}")
        for seat in team:
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise TypeError(f"a seat must be a whole number, not {seat!r}")
            if not 0 <= seat < players:
                raise ValueError(f"seat {seat + 1} is not a player's: the game has {players} players")
            if seat in seen:
                raise ValueError(f"Player {seat + 1} is in a team twice")
            seen.add(seat)
        if not decl.smallest <= len(team) <= decl.largest:
            low, high = decl.smallest, decl.largest
            sizes = str(low) if low == high else f"{low} to {high}"
            raise ValueError(
                f"a team of {len(team)} ({' + '.join(f'Player {s + 1}' for s in team) or 'nobody'}): "
                f"{game}'s teams have {sizes} players"
            )
        layout.append(tuple(sorted(team)))
    missing = [s + 1 for s in range(players) if s not in seen]
    if missing:
        raise ValueError(
            f"Player {missing[0]} is in no team: name every player once (a player alone is a team of one)"
        )
    return tuple(layout)


def teams_of(layout: Layout | None, seats: int) -> Layout:
    """Every seat's team: the layout's, then each seat it does not name (a seat the rules play, or
    every seat when there is no layout) alone."""
    named = {s for team in layout or () for s in team}
    return tuple(layout or ()) + tuple((s,) for s in range(seats) if s not in named)


def winners(keys: Sequence[tuple[int, int]], teams: Layout) -> list[int]:
    """The seats that win: every member of the teams whose best (score, tiebreak) is the best."""
    best_of = [max(keys[s] for s in team) for team in teams]
    best = max(best_of)
    return sorted(s for team, key in zip(teams, best_of, strict=True) if key == best for s in team)
