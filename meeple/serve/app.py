"""`meeple serve`: a playtest page, one game per server process, played by people at the page and
by agents at the other seats.

The game lives in memory (`Session`), behind one lock: every request that changes it (an answer,
an undo, a load) is checked whole before anything changes, so a stale or wrong answer, or a bad
log, is a clear error on the page and leaves the game as it was. After a person answers, the
agents' seats move at once, up to the next person's decision or the end.

Routes: `GET /` the page; `GET /api/game` the game as JSON (with its HTML); `POST /api/answer`
`{"step", "seat", "index"}`; `POST /api/undo`; `GET /api/save` the replay log (as `meeple play
--log` writes it); `POST /api/load` a log's text; `/static/` the page's script and style. The page
makes no request to any other host.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from meeple.interpreter.agents import Agent, HumanAgent, make_agents
from meeple.interpreter.engine import Game, IllegalChoice, State, replay
from meeple.interpreter.runtime import RuleRuntimeError
from meeple.interpreter.teams import Layout
from meeple.limits import MAX_LOG_BYTES
from meeple.logs import LogError, log_text, parse_log
from meeple.saves import Save, SaveError
from meeple.serve.present import Presenter

HERE = Path(__file__).parent
TEMPLATES = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
)


class Refused(ValueError):
    """A request the game cannot take, said in a sentence; nothing was changed."""


@dataclass
class Seats:
    """Who plays each seat: the agents, and which seats are people at the page."""

    agents: list[Agent]
    humans: set[int]


class Session:
    """The one game of this server: its state, its seats, and the lock every change takes."""

    def __init__(
        self,
        game: Game,
        rules: str,
        players: int,
        seed: int,
        agent_names: list[str],
        load: Save | None = None,
        teams: Layout | None = None,
    ) -> None:
        """`rules` is how a saved log names the rules (a bundled game's name, else its path);
        `load`, a save the game starts from (`meeple serve --load`). Raises ValueError for a
        player count, an agent name or teams the game does not have, SaveError for a save that
        does not fit the rules. Agents play the players alone: a seat the rules play
        (`automated`) is never asked."""
        self.game = game
        self.rules = rules
        self.agent_names = agent_names or ["human"]
        self.lock = threading.Lock()
        state = game.new_game(players, seed, load=load, teams=teams)
        self.seats = self.seat(players, seed)
        self.state = state
        self.presenter = Presenter(state)
        self.error = self.advance(state, self.seats)  # a rule that broke, shown on the page

    def seat(self, players: int, seed: int) -> Seats:
        agents = make_agents(self.agent_names, players, seed, self.game.program.styles)
        return Seats(agents, {i for i, a in enumerate(agents) if isinstance(a, HumanAgent)})

    @staticmethod
    def advance(state: State, seats: Seats) -> str:
        """The agents' seats play until a person must decide or the game ends. A rule that breaks
        stops the game there: what it says is returned, to show."""
        try:
            while not state.is_over and state.decision is not None:
                seat = state.decision.player.seat
                if seat in seats.humans:
                    break
                state.apply(seats.agents[seat].choose(state, state.decision))
        except RuleRuntimeError as err:
            return f"a rule broke: {err}"
        return ""

    # ------------------------------------------------------------------ changes

    def answer(self, step: Any, seat: Any, index: Any) -> None:
        """A person's answer to the decision at `step` (the number of choices made before it)."""
        for what, value in (("step", step), ("seat", seat), ("index", index)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise Refused(f"the answer's {what} must be a whole number")
        with self.lock:
            state = self.state
            if state.is_over or state.decision is None:
                raise Refused("the game is over: there is no decision to answer")
            if step != len(state.choices):
                raise Refused(
                    "that answer is to a decision already taken: the page shows the game as it is now"
                )
            who = state.decision.player
            if seat != who.seat:
                other = f"{state.rt.players[seat]}'s" if 0 <= seat < state.seats else "that seat's"
                raise Refused(f"it is {who}'s decision, not {other}")
            if who.seat not in self.seats.humans:
                raise Refused(f"{who} is played by an agent")
            try:
                state.apply(index)
            except IllegalChoice as err:
                raise Refused(str(err)) from None
            except RuleRuntimeError as err:
                self.error = f"a rule broke: {err}"
                return
            self.error = self.advance(state, self.seats)

    def undo(self) -> None:
        """Take back the last person's decision and the agents' moves after it: the game is
        replayed from its seed with the choices before it."""
        with self.lock:
            state = self.state
            people = [i for i, seat in enumerate(state.choosers) if seat in self.seats.humans]
            if not people:
                raise Refused("there is no decision of a person to take back")
            self.state = replay(
                self.game,
                state.players,
                state.seed,
                state.choices[: people[-1]],
                complete=False,
                load=state.loaded,
                teams=state.layout,
            )
            self.error = ""

    def load(self, text: bytes) -> None:
        """A log (as `meeple play --log` writes it) to play on from, checked as `meeple replay`
        checks one: a log that is not one, or is of another game, or does not fit its rules, is
        refused and the game stays as it was."""
        if len(text) > MAX_LOG_BYTES:
            raise Refused(f"the file is larger than a log can be ({MAX_LOG_BYTES // 2**20} MB)")
        try:
            entry = parse_log(text, "the file")
        except LogError as err:
            raise Refused(str(err)) from None
        if entry.game != self.game.name:
            raise Refused(f"the log is of {entry.game or 'another game'}, not of {self.game.name}")
        if dict(entry.options) != dict(self.game.options):
            raise Refused("the log was played with other options than this game's")
        try:
            state = replay(
                self.game,
                entry.players,
                entry.seed,
                entry.choices,
                complete=False,
                load=entry.load,
                teams=entry.teams,
            )
            seats = self.seat(entry.players, entry.seed)
        except IllegalChoice as err:
            raise Refused(f"the log does not fit the rules of {self.game.name}: {err}") from None
        except SaveError as err:
            raise Refused(f"the save in the log does not fit the rules of {self.game.name}: {err}") from None
        except (ValueError, TypeError) as err:
            raise Refused(f"the log cannot be played: {err}") from None
        except RuleRuntimeError as err:
            raise Refused(f"replaying the log, a rule broke: {err}") from None
        with self.lock:
            self.state, self.seats = state, seats
            self.error = self.advance(state, seats)

    def save(self) -> str:
        """The game so far as a replay log, exactly as `meeple play --log` writes one."""
        with self.lock:
            return log_text({**self.state.result(), "rules": self.rules})

    # ------------------------------------------------------------------ what the page shows

    def shown(self) -> dict[str, Any]:
        """The game as the page shows it: the deciding person's view (hot seat), or all of it once
        the game is over."""
        with self.lock:
            state = self.state
            seat = state.decision.player.seat if state.decision is not None else None
            page = self.presenter.page(state, None if state.is_over else seat)
            over = state.is_over
            if over:
                scores, winners = state.scores, state.winners
                page["result"] = {
                    "scores": scores,
                    "winners": [page["seats"][w] for w in winners],
                    "solo": state.seats == 1,
                }
            page["humans"] = sorted(self.seats.humans)
            page["error"] = self.error
            page["undo"] = any(s in self.seats.humans for s in state.choosers)
        html = TEMPLATES.get_template("game.html.j2").render(page)
        decision = page["decision"]
        return {
            "html": html,
            "step": page["step"],
            "over": over,
            "decision": None
            if decision is None
            else {**decision, "options": [o.text for o in page["options"]]},
            "error": self.error,
        }


def create_app(session: Session) -> Starlette:
    """The playtest page's web application, around one session."""

    async def page(request: Request) -> HTMLResponse:
        shown = session.shown()
        return HTMLResponse(
            TEMPLATES.get_template("page.html.j2").render(game=shown["html"], name=session.game.name)
        )

    async def game(request: Request) -> JSONResponse:
        return JSONResponse(session.shown())

    async def answer(request: Request) -> JSONResponse:
        body = await _json(request)
        return _do(lambda: session.answer(body.get("step"), body.get("seat"), body.get("index")))

    async def undo(request: Request) -> JSONResponse:
        return _do(session.undo)

    async def save(request: Request) -> Response:
        name = "".join(c if c.isalnum() else "_" for c in session.game.name.lower()) or "game"
        return Response(
            session.save(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}.log.json"'},
        )

    async def load(request: Request) -> JSONResponse:
        text = b""
        async for part in request.stream():
            text += part
            if len(text) > MAX_LOG_BYTES:
                break
        return _do(lambda: session.load(text))

    def _do(change: Any) -> JSONResponse:
        try:
            change()
        except Refused as err:
            return JSONResponse({"error": str(err)}, status_code=409)
        return JSONResponse(session.shown())

    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/game", game),
            Route("/api/answer", answer, methods=["POST"]),
            Route("/api/undo", undo, methods=["POST"]),
            Route("/api/save", save),
            Route("/api/load", load, methods=["POST"]),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ]
    )


async def _json(request: Request) -> dict[str, Any]:
    """A request's JSON object, or an empty one (then every field is missing, and said so)."""
    try:
        body = json.loads(await request.body())
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def run(session: Session, host: str, port: int) -> None:
    """Serve the page until Ctrl-C."""
    import uvicorn

    uvicorn.run(create_app(session), host=host, port=port, log_level="warning")
