"""`meeple serve`: a playtest page, one game per server process, played by people at the page and
by agents at the other seats.

The game lives in memory (`Session`), behind one lock: every request that changes it (an answer,
an undo, a load) is checked whole before anything changes, so a stale or wrong answer, or a bad
log, is a clear error on the page and leaves the game as it was. After a person answers, the
agents' seats move at once, up to the next person's decision or the end.

Routes: `GET /` the page; `GET /api/game` the game as JSON (with its HTML); `POST /api/answer`
`{"step", "seat", "index"}`; `POST /api/ready` `{"seat"}` (the next person has the screen);
`POST /api/history` `{"at"}` (show the position after that many decisions); `POST /api/seat`
`{"seat", "agent"}` (who plays a seat); `POST /api/agent` `{"agent", "to_end"}` (an agent answers
the decision, or every one to the end); `POST /api/undo`; `GET /api/save` the replay log (as `meeple play
--log` writes it); `POST /api/load` a log's text; `/static/` the page's script and style. The page
makes no request to any other host.

Who may ask (`Guard`): the server answers only requests addressed to the address it serves (the
`Host` header), so that a page elsewhere cannot reach it by a name of its own that it points at
127.0.0.1 (DNS rebinding); it changes the game only for requests from its own page (`Origin`,
`Sec-Fetch-Site`) that say they send JSON, which a form or a `text/plain` request from another
site cannot; every answer forbids framing and any script, style or connection from elsewhere
(the Content-Security-Policy). Bodies are read once, up to their limit, and no further.
"""

from __future__ import annotations

import ipaddress
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic_core import from_json
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meeple.interpreter import native
from meeple.interpreter.agents import AGENTS, Agent, make_agents, parse_search
from meeple.interpreter.engine import Game, IllegalChoice, State
from meeple.interpreter.native.state import CoreLimit
from meeple.interpreter.runtime import Decision, RuleRuntimeError
from meeple.interpreter.teams import Layout
from meeple.limits import MAX_LOG_BYTES, MAX_REQUEST_BYTES
from meeple.logs import LogError, log_text, parse_log, position
from meeple.saves import Save, SaveError
from meeple.serve.present import Presenter

HERE = Path(__file__).parent
PAGE_SEARCH = "mcts:1s"  # the search the page offers: a second a decision, long enough to play well
PAST_WINDOW = 50  # positions of the past whose pages one replay keeps (history)
MAX_PAST_PAGES = 400  # pages of the past kept at most: beyond, they are forgotten and replayed again
TEMPLATES = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
)


class Refused(ValueError):
    """A request the game cannot take, said in a sentence; nothing was changed."""


class Person:
    """A seat a person plays at the page: answered by a click (`Session.answer`), never asked."""

    def choose(self, state: State, decision: Decision) -> int:
        raise RuntimeError("a person at the page answers through the page, not as an agent")


@dataclass
class Seats:
    """Who plays each seat: the agents by name, and which seats are people at the page."""

    names: list[str]
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
        state = self.new_state(players, seed, load, teams)
        self.seats = self.seat(players, seed)
        self.state = state
        searching = [name for name in self.seats.names if parse_search(name) is not None]
        if searching and not self.searches():
            why = "the game starts from a save" if state.loaded is not None else native.engine_for(game)[1]
            raise ValueError(f"the {searching[0]} agent plays on the native engine only, and here: {why}")
        self.presenter = Presenter(state)
        self.error = self.advance(state, self.seats)  # a rule that broke, shown on the page
        self.at_screen = self.deciding()  # the person the page was last shown to (hot seat)
        self.looking: int | None = None  # the position of the past the page shows (history)
        self.past: dict[tuple[int, int | None], dict[str, Any]] = {}  # pages of it, by step and viewer

    def new_state(self, players: int, seed: int, load: Save | None, teams: Layout | None) -> Any:
        """A game on the native engine where it runs the game, else on the Python engine (the
        page reads either through the same view and log: tests/test_native_view.py). A game
        the core stops on a limit of its own (`CoreLimit`) is played on Python from its start."""
        if native.engine_for(self.game)[0] == "native":
            state = native.new_game(self.game, players, seed, load=load, teams=teams, checked=False)
            if not isinstance(state.failed, CoreLimit):
                return state
        return self.game.new_game(players, seed, load=load, teams=teams)

    def seat(self, players: int, seed: int, names: list[str] | None = None) -> Seats:
        given = names or self.agent_names
        names = [given[min(seat, len(given) - 1)] for seat in range(players)]
        agents = make_agents(names, players, seed, self.game.program.styles, Person)
        return Seats(names, agents, {i for i, a in enumerate(agents) if isinstance(a, Person)})

    @property
    def agent_choices(self) -> list[str]:
        """Who may play a seat from the page: a person, the built-in agents, the rules' styles,
        and a search of a second a decision where the native engine runs the game."""
        searching = [PAGE_SEARCH] if self.searches() else []
        return ["human", *(name for name in AGENTS if name != "human"), *searching, *self.game.program.styles]

    def searches(self) -> bool:
        """Whether a searching agent may play here: it searches copies of the game on the native
        engine, which must run the game (and not a game started from a save)."""
        return self.state.loaded is None and native.engine_for(self.game)[0] == "native"

    def playable(self, name: Any) -> bool:
        """Whether `name` may play a seat from the page: one of `agent_choices`, or any search
        (`mcts:500`, `mcts:2s:STYLE`...) where searches are offered."""
        if name in self.agent_choices:
            return True
        if not isinstance(name, str):
            return False
        try:
            search = parse_search(name)
        except ValueError:
            return False
        if search is None or not self.searches():
            return False
        return search.style is None or search.style in self.game.program.styles

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
        except ValueError as err:  # a search where the native engine cannot copy the game
            return f"the agent could not play on: {err}"
        return ""

    def deciding(self) -> int | None:
        """The seat of the person who must decide now, if a person must."""
        decision = self.state.decision
        if self.state.is_over or decision is None or decision.player.seat not in self.seats.humans:
            return None
        return decision.player.seat

    # ------------------------------------------------------------------ changes

    def look(self, at: Any) -> None:
        """Show the position after the first `at` choices of this game (history); the game itself
        stays where it is, and any change to it returns the page to it. `at` at the number of
        choices made shows the game as it is."""
        if isinstance(at, bool) or not isinstance(at, int):
            raise Refused("the position to look at must be a whole number of decisions")
        with self.lock:
            state = self.state
            if not 0 <= at <= len(state.choices):
                raise Refused(f"the game has had {len(state.choices)} decisions: there is no position {at}")
            if at == len(state.choices):
                self.looking = None
                return
            if (at, self.viewer()) not in self.past:
                self.remember(at)
            self.looking = at

    def viewer(self) -> int | None:
        """Whom a position of the past is shown to: the person at the screen (all of it once the
        game is over, or with no person playing)."""
        return None if self.state.is_over or not self.seats.humans else self.at_screen

    def remember(self, at: int) -> None:
        """Play the game again up to `at` and keep the page of that position and of the
        PAST_WINDOW before it, as the person at the screen may see them: stepping back through
        them replays nothing. (The Python engine's states cannot be copied, so a replay from the
        start is the only way back; a window of pages makes it one replay per PAST_WINDOW steps.)
        The pages stay while the game is the same (`changed` forgets them)."""
        state, viewer = self.state, self.viewer()
        if len(self.past) > MAX_PAST_PAGES:
            self.past.clear()
        past = self.new_state(state.players, state.seed, state.loaded, state.layout)
        for step in range(at + 1):
            if step >= at - PAST_WINDOW:
                self.past[(step, viewer)] = self.presenter.page(past, viewer, offer=False)
            if step < at:
                past.apply(state.choices[step])

    def play_seat(self, seat: Any, name: Any) -> None:
        """From now on `name` (a person, an agent or a style) plays `seat`; an agent whose decision
        it is plays at once, as agents do."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise Refused("the seat must be a whole number")
        if not self.playable(name):
            raise Refused(
                f"there is no player called {str(name)[:40]!r}: choose {', '.join(self.agent_choices)}"
            )
        with self.lock:
            state = self.state
            if not 0 <= seat < len(self.seats.names):
                raise Refused(f"there is no seat {seat} among the players")
            names = list(self.seats.names)
            names[seat] = name
            self.seats = self.seat(len(names), state.seed, names)
            self.looking = None
            self.error = self.advance(state, self.seats)

    def let_agent_play(self, name: Any, to_end: Any) -> None:
        """The agent `name` answers the decision now, whoever's it is (a person's included), and
        with `to_end` every decision after it until the game ends; the agents at their seats
        reply as always. The person at the screen stays who it was: if the next decision is
        another person's, the page hands over first (hot seat)."""
        if not self.playable(name) or name == "human":
            raise Refused(f"there is no agent called {str(name)[:40]!r}")
        if not isinstance(to_end, bool):
            raise Refused("say whether the agent plays to the end (yes or no)")
        with self.lock:
            state = self.state
            if state.is_over or state.decision is None:
                raise Refused("the game is over: there is no decision to answer")
            helper = make_agents(
                [name], state.seats, state.seed + len(state.choices), self.game.program.styles
            )
            self.looking = None
            try:
                while not state.is_over and state.decision is not None:
                    decision = state.decision
                    state.apply(helper[decision.player.seat].choose(state, decision))
                    if not to_end:
                        break
            except (IllegalChoice, ValueError) as err:  # ValueError: a search that cannot copy the game
                self.error = f"the agent could not play on: {err}"
                return
            except RuleRuntimeError as err:
                self.error = f"a rule broke: {err}"
                return
            self.error = self.advance(state, self.seats)

    def ready(self, seat: Any) -> None:
        """The person at `seat` has the screen: the page shows the game as they may see it. Until
        then, when the decision passes from one person to another, the page shows only whose turn
        it is, so that the next player's private information is not on the screen while the
        last one still looks at it (hot seat)."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise Refused("the seat must be a whole number")
        with self.lock:
            if seat != self.deciding():
                raise Refused("that seat is not the one to decide now")
            self.at_screen = seat

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
                self.looking, self.error = None, f"a rule broke: {err}"
                return
            self.looking = None
            self.error = self.advance(state, self.seats)

    def undo(self) -> None:
        """Take back the last person's decision and the agents' moves after it: the game is
        replayed from its seed with the choices before it, on the engine that plays it."""
        with self.lock:
            state = self.state
            people = [i for i, seat in enumerate(state.choosers) if seat in self.seats.humans]
            if not people:
                raise Refused("there is no decision of a person to take back")
            again = self.new_state(state.players, state.seed, state.loaded, state.layout)
            for choice in state.choices[: people[-1]]:  # the same game's choices: each one fits
                again.apply(choice)
            self.state = again
            self.past.clear()  # another game from here on: its past is replayed anew
            self.looking = None
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
            state = position(self.game, entry)
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
            self.past.clear()
            self.looking = None
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
            past = self.looking
            if past is None:
                page = self.presenter.page(state, None if state.is_over else seat)
            else:  # as the person at the screen may see it, with nothing to decide there
                if (past, self.viewer()) not in self.past:  # the viewer changed since
                    self.remember(past)
                page = dict(self.past[(past, self.viewer())])
                page["step"] = len(state.choices)
            page["history"] = {"at": len(state.choices) if past is None else past, "of": len(state.choices)}
            page["agents"] = self.seats.names
            page["agent_choices"] = self.agent_choices
            over = state.is_over
            if over and past is None:
                scores, winners = state.scores, state.winners
                page["result"] = {
                    "scores": scores,
                    "winners": [page["seats"][w] for w in winners],
                    "solo": state.seats == 1,
                }
            page["humans"] = sorted(self.seats.humans)
            deciding = self.deciding()
            page["hand_off"] = (
                past is None
                and len(self.seats.humans) > 1
                and deciding is not None
                and deciding != self.at_screen
            )
            page["error"] = self.error
            page["undo"] = any(s in self.seats.humans for s in state.choosers)
        template = "hand_off.html.j2" if page["hand_off"] else "game.html.j2"
        html = TEMPLATES.get_template(template).render(page)
        decision = page["decision"]
        return {
            "html": html,
            "step": page["step"],
            "at": page["history"]["at"],
            "over": over,
            "decision": None
            if decision is None
            else {**decision, "options": [o.text for o in page["options"]]},
            "error": self.error,
        }


def create_app(session: Session, host: str = "127.0.0.1", port: int = 8000) -> ASGIApp:
    """The playtest page's web application, around one session, answering only as the page
    served at `host`:`port` (see `Guard`)."""

    # Every route reads or changes the session in a worker thread, off the event loop: a search
    # thinks for seconds (without the GIL: src/py.rs), the session's lock waits for it, and the
    # server meanwhile still answers (its script, its style, other requests).
    async def page(request: Request) -> HTMLResponse:
        shown = await run_in_threadpool(session.shown)
        return HTMLResponse(
            TEMPLATES.get_template("page.html.j2").render(game=shown["html"], name=session.game.name)
        )

    async def game(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(session.shown))

    async def answer(request: Request) -> JSONResponse:
        body = _object(await _body(request, MAX_REQUEST_BYTES))
        return await _do(lambda: session.answer(body.get("step"), body.get("seat"), body.get("index")))

    async def undo(request: Request) -> JSONResponse:
        await _body(request, MAX_REQUEST_BYTES)
        return await _do(session.undo)

    async def history(request: Request) -> JSONResponse:
        body = _object(await _body(request, MAX_REQUEST_BYTES))
        return await _do(lambda: session.look(body.get("at")))

    async def seat(request: Request) -> JSONResponse:
        body = _object(await _body(request, MAX_REQUEST_BYTES))
        return await _do(lambda: session.play_seat(body.get("seat"), body.get("agent")))

    async def agent(request: Request) -> JSONResponse:
        body = _object(await _body(request, MAX_REQUEST_BYTES))
        return await _do(lambda: session.let_agent_play(body.get("agent"), body.get("to_end")))

    async def ready(request: Request) -> JSONResponse:
        body = _object(await _body(request, MAX_REQUEST_BYTES))
        return await _do(lambda: session.ready(body.get("seat")))

    async def save(request: Request) -> Response:
        return Response(
            await run_in_threadpool(session.save),
            media_type="application/json",
            headers={"Content-Disposition": attachment(session.game.name)},
        )

    async def load(request: Request) -> JSONResponse:
        text = await _body(request, MAX_LOG_BYTES)
        return await _do(lambda: session.load(text))

    async def _do(change: Any) -> JSONResponse:
        def changed() -> JSONResponse:
            try:
                change()
            except Refused as err:
                return JSONResponse({"error": str(err)}, status_code=409)
            return JSONResponse(session.shown())

        return await run_in_threadpool(changed)

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/game", game),
            Route("/api/answer", answer, methods=["POST"]),
            Route("/api/undo", undo, methods=["POST"]),
            Route("/api/ready", ready, methods=["POST"]),
            Route("/api/history", history, methods=["POST"]),
            Route("/api/seat", seat, methods=["POST"]),
            Route("/api/agent", agent, methods=["POST"]),
            Route("/api/save", save),
            Route("/api/load", load, methods=["POST"]),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        exception_handlers={HTTPError: _said},
    )
    return Guard(app, host, port)


def attachment(name: str) -> str:
    """The Content-Disposition of a saved log named after the game (RFC 6266): the name in
    UTF-8 (`filename*`), which any letter may be in, and an ASCII one for older browsers. A
    header is Latin-1, so a game named in Greek or Japanese would not go in `filename` as it is."""
    stem = "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_") or "game"
    ascii_stem = "".join(c if c.isascii() else "_" for c in stem)
    utf8 = quote(f"{stem}.log.json", safe="")
    return f"attachment; filename=\"{ascii_stem}.log.json\"; filename*=UTF-8''{utf8}"


class HTTPError(Exception):
    """A request refused before the game sees it, with its status and a sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def _said(request: Request, err: Exception) -> Response:
    assert isinstance(err, HTTPError)
    return JSONResponse({"error": err.message}, status_code=err.status)


async def _body(request: Request, limit: int) -> bytes:
    """A request's body, read in one pass and never beyond `limit` bytes: a body that says it is
    larger is refused unread, one that turns out larger is refused as soon as it does (413)."""
    too_large = HTTPError(413, f"the request is larger than the {limit:,} bytes it may be")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)
    except ClientDisconnect:
        raise HTTPError(400, "the request ended before its body did") from None
    return b"".join(chunks)


def _object(body: bytes) -> dict[str, Any]:
    """A request's JSON object, or an empty one (then every field is missing, and said so). JSON
    that is not JSON, or is nested deeper than any answer needs, is refused (400): the parser
    (pydantic's) stops at its own depth limit, without Python's recursion."""
    try:
        value = from_json(body)
    except ValueError as err:
        raise HTTPError(400, f"the request is not JSON: {str(err)[:200]}") from None
    return value if isinstance(value, dict) else {}


# What every answer says to the browser: no page may frame this one (clickjacking); scripts,
# styles and connections only from this server; no plugins, forms or base URL elsewhere. The
# page's one script is a file; its colours are `style` attributes (each a fixed colour, in escaped
# markup), which `style-src-attr` allows, and its board is inline SVG, which needs no source.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
EVERYWHERE = {"0.0.0.0", "::", ""}


class Guard:
    """Answers only requests meant for this server, and changes the game only for its own page.

    - `Host` must name the address served (with its port): a page on another site that points a
      name of its own at 127.0.0.1 (DNS rebinding) sends that name, and is refused (403). Served
      on 127.0.0.1, `localhost` is the same address; served on every interface (0.0.0.0), any
      address written as numbers is, but no name.
    - A request that changes the game (any method but GET and HEAD) must come from this page: an
      `Origin` other than the server's own, or a `Sec-Fetch-Site` other than `same-origin`, is
      refused (403); and it must say it sends JSON (`Content-Type: application/json`, 415), which
      a form or a `text/plain` request from another site cannot say without the browser asking
      first, and this server never agrees to. A request with neither header comes from no browser
      (a script on this machine), which the first rule does not keep out either.
    - Every answer carries SECURITY_HEADERS."""

    def __init__(self, app: ASGIApp, host: str, port: int) -> None:
        self.app = app
        self.host = host.strip("[]").lower()
        self.port = port

    def allowed_host(self, value: str) -> bool:
        name, port = _host_port(value)
        if not (port or "80").isdigit() or int(port or "80") != self.port:  # no port: HTTP's own
            return False
        if self.host in EVERYWHERE:
            return name == "localhost" or _is_address(name)
        if self.host in LOOPBACK:
            return name in LOOPBACK
        return name == self.host

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if not self.allowed_host(host):
            return 403, f"this server answers only as {self.host}:{self.port}, not as {host[:100]!r}"
        if scope["method"] in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"http://{host.lower()}":
            return 403, "a change to the game must come from the playtest page itself"
        site = headers.get("sec-fetch-site")
        if site is not None and site != "same-origin":
            return 403, "a change to the game must come from the playtest page itself"
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, "a change to the game is sent as JSON (Content-Type: application/json)"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        refused = self.refusal(scope)
        if refused is not None:
            status, message = refused
            await JSONResponse({"error": message}, status_code=status)(scope, receive, send_secured)
            return
        await self.app(scope, receive, send_secured)


def _host_port(value: str) -> tuple[str, str]:
    """A Host header's name and port ("" where it gives none): `localhost:8000`, `[::1]:8000`."""
    value = value.lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        return name, rest.removeprefix(":") if rest.startswith(":") or not rest else "?"
    name, _, port = value.partition(":")
    return name, port


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def run(session: Session, host: str, port: int) -> bool:
    """Serve the page until Ctrl-C, which is then raised as KeyboardInterrupt, so that the command
    exits 130 as any does (`uvicorn.run` would swallow it and return). False if it could not
    start (the address is taken: uvicorn has said so)."""
    import uvicorn

    config = uvicorn.Config(create_app(session, host, port), host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    try:
        server.run()  # raises the interrupt again once it has stopped, unless the signal is ignored
    except SystemExit:  # uvicorn's way to say it could not start
        return False
    if not server.started:
        return False
    raise KeyboardInterrupt  # a started server stops only on a signal
