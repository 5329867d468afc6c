"""The playtest page (`meeple serve`): its routes through Starlette's test client, then whole games
played by clicking in a headless Chromium (Debian's, at /usr/bin/chromium; those tests skip,
saying why, where playwright or the browser is missing)."""

from __future__ import annotations

import html
import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.limits import MAX_LOG_BYTES, MAX_REQUEST_BYTES
from meeple.logs import GameLog
from tests.helpers import ROOT, run, write

pytest.importorskip("starlette", reason="the playtest page needs the serve extra: pip install -e '.[serve]'")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx: pip install -e '.[browser]'")

from starlette.testclient import TestClient

from meeple.interpreter import native
from meeple.interpreter.agents import MctsAgent, make_agents
from meeple.serve import app as serve_app
from meeple.serve import present
from meeple.serve.app import Session, create_app

TIC_TAC_TOE = ROOT / "tests" / "games" / "tic_tac_toe.rules"
BUNDLED = ["dino_party", "dino_garden", "gods_love_dinosaurs", "dino_dynasty"]
CHROMIUM = Path("/usr/bin/chromium")
SERVED = "http://127.0.0.1:8000"  # where create_app serves by default, as `meeple serve` does
JSON = {"Content-Type": "application/json"}  # what the page's requests say they send

BOARD = """\
game "Board":
  players 2..2

table spot (name, called):
  near, "Near Spot"
  far, "Far Spot"
table link (a: spot, b: spot):
  near, far
table shape (name):
  one
table shape_cell (shape: shape, q: int, r: int):
  one, 0, 0
  one, 1, 0
  one, 0, 1

zone box
zone hand per player, private
piece stone: 9 in box
map ring:
  nodes spot
  edges link (a, b)
map land:
  grid square of shape_cell

value cells_of(s: shape) = [each c in shape_cell where c.shape == s]

setup:
  place cells_of(one) on land
  for each p in players:
    move 1 stone from box to p.hand

play:
  for each p in players:
    turn p:
      choose c from [cell(land, 0, 0), cell(land, 1, 0)] by p prompt "Cell":
        move 1 stone from box to c
      choose s from spot by p prompt "Spot":
        move 1 stone from box to s
"""


def client(
    rules: Path | str, agents: list[str], players: int = 2, seed: int = 1
) -> tuple[TestClient, Session]:
    session = Session(meeple.load(rules), str(rules), players, seed, agents)
    return TestClient(create_app(session), base_url=SERVED, headers=JSON), session


def shown(c: TestClient) -> dict[str, Any]:
    response = c.get("/api/game")
    assert response.status_code == 200
    return response.json()


def answer(c: TestClient, index: int = 0, **changed: Any) -> Any:
    now = shown(c)
    body = {"step": now["step"], "seat": now["decision"]["seat"], "index": index, **changed}
    return c.post("/api/answer", json=body)


# ------------------------------------------------------------------ the routes


def test_an_answer_is_played_and_the_agents_seats_reply_at_once() -> None:
    c, session = client(TIC_TAC_TOE, ["human", "random"])
    assert c.get("/").status_code == 200
    response = answer(c, 0)
    assert response.status_code == 200
    assert response.json()["step"] == 2  # the human's square, then the agent's
    assert session.state.choosers == [0, 1]


@pytest.mark.parametrize(
    ("changed", "said"),
    [
        ({"step": 5}, "already taken"),
        ({"seat": 0}, "Player 2's decision, not Player 1's"),
        ({"index": 99}, "99 is not an option"),
        ({"index": "0"}, "whole number"),
    ],
)
def test_an_illegal_answer_is_refused_and_changes_nothing(changed: dict[str, Any], said: str) -> None:
    c, session = client(TIC_TAC_TOE, ["human"])
    answer(c, 0)
    before = (list(session.state.choices), shown(c)["html"])
    response = answer(c, **{"index": 0, **changed})
    assert response.status_code == 409
    assert said in response.json()["error"]
    assert (list(session.state.choices), shown(c)["html"]) == before


def test_an_answer_for_a_seat_played_by_an_agent_is_refused() -> None:
    c, session = client(TIC_TAC_TOE, ["human", "random"])
    session.seats.humans = set()  # as if the seat had been handed to an agent
    response = answer(c, 0)
    assert response.status_code == 409
    assert "played by an agent" in response.json()["error"]
    assert session.state.choices == []


def test_undo_takes_back_the_last_human_decision_and_the_agent_moves_after_it() -> None:
    c, session = client(TIC_TAC_TOE, ["human", "random"])
    answer(c, 4)
    after_first = list(session.state.choices)
    answer(c, 0)
    assert len(session.state.choices) == 4
    response = c.post("/api/undo")
    assert response.status_code == 200
    assert session.state.choices == after_first
    assert response.json()["decision"]["seat"] == 0
    c.post("/api/undo")
    assert session.state.choices == []
    refused = c.post("/api/undo")
    assert refused.status_code == 409
    assert "no decision of a person" in refused.json()["error"]


def test_save_writes_the_log_play_writes_and_load_plays_on_from_it(tmp_path: Path) -> None:
    c, session = client(TIC_TAC_TOE, ["human"])
    for _ in range(3):
        answer(c, 0)
    saved = c.get("/api/save")
    assert saved.headers["content-disposition"].startswith("attachment")
    entry = GameLog.model_validate_json(saved.content)
    assert entry.choices == [0, 0, 0] and entry.game == "Tic-Tac-Toe"
    logged = tmp_path / "played.json"  # `meeple play --log` of a whole game: the same fields
    run("play", str(TIC_TAC_TOE), "--agents", "first", "--log", str(logged))
    assert json.loads(saved.content).keys() == json.loads(logged.read_text()).keys()
    c.post("/api/undo")
    c.post("/api/undo")
    loaded = c.post("/api/load", content=saved.content)
    assert loaded.status_code == 200
    assert session.state.choices == [0, 0, 0]
    assert loaded.json()["step"] == 3


def hostile(log: dict[str, Any]) -> list[tuple[bytes, str]]:
    """Logs that must be refused, each with words of what the page says."""
    text = json.dumps
    return [
        (b"not json at all", "is not a meeple log"),
        (text({**log, "choices": [0, 0, 99]}).encode(), "does not fit the rules"),
        (text({**log, "choices": [-1]}).encode(), "the field 'choices.0'"),
        (text({**log, "game": "Another Game"}).encode(), "the log is of Another Game"),
        (text({**log, "players": 3}).encode(), "2 to 2 players, not 3"),
        (text({**log, "meeple": 7}).encode(), "format 7"),
        (b"[" * 100_000, "is not a meeple log"),
    ]


def test_a_hostile_or_corrupt_log_is_refused_and_changes_nothing() -> None:
    c, session = client(TIC_TAC_TOE, ["human"])
    answer(c, 0)
    log = json.loads(c.get("/api/save").content)
    before = list(session.state.choices)
    for text, said in hostile(log):
        response = c.post("/api/load", content=text)
        assert response.status_code == 409, said
        assert said in response.json()["error"]
        assert session.state.choices == before


def test_the_page_names_places_options_and_zones_by_their_display_names() -> None:
    c, _ = client("dino_party", ["human", "random"])
    page = shown(c)
    assert "Great Valley 1" in page["decision"]["options"]
    words = re.sub(r"<[^>]*>", " ", page["html"])  # what the page shows, without its markup
    assert "gv1" not in words and "Great Valley 1" in words and "Player 1's hand" in html.unescape(words)


def test_every_grid_cell_and_map_node_is_drawn_and_the_options_are_places_on_the_board(
    tmp_path: Path,
) -> None:
    c, _ = client(write(tmp_path, "board.rules", BOARD), ["human"])
    drawn = shown(c)["html"]
    assert drawn.count('class="cell"') == 3  # the empty cell (0, 1) too
    assert drawn.count('class="node"') == 2
    assert 'data-options="0"' in drawn and 'data-options="1"' in drawn  # the two cells offered
    assert "Player 1&#39;s hand" in drawn and "1 face down" in drawn  # private: the other seat's is not shown
    answer(c, 1)
    drawn = shown(c)["html"]
    assert "Near Spot" in drawn and 'data-options="0"' in drawn  # the nodes, by their names


def test_nodes_are_drawn_where_the_rules_say_and_on_a_ring_where_they_do_not(tmp_path: Path) -> None:
    """`nodes T at X, Y`: a board's layout, from each node's row (a Park board's areas in two rows
    of three, say); without it the page has no layout to follow and lays the nodes on a ring."""
    laid = BOARD.replace("table spot (name, called):", "table spot (name, called, x: int):")
    laid = laid.replace('near, "Near Spot"', 'near, "Near Spot", 0').replace(
        'far, "Far Spot"', 'far, "Far Spot", 3'
    )
    laid = laid.replace("  nodes spot\n", "  nodes spot at self.x, 1\n")
    c, _ = client(write(tmp_path, "laid.rules", laid), ["human"])
    answer(c, 1)
    drawn = shown(c)["html"]
    centres = [
        (float(x), float(y))
        for x, y in re.findall(r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="50.0" class="node"', drawn)
    ]
    step = present.SPACING
    assert sorted(centres) == [(0.0, step), (3 * step, step)]
    c, _ = client(write(tmp_path, "ring.rules", BOARD), ["human"])
    answer(c, 1)
    ring = [
        float(y)
        for y in re.findall(r'<circle cx="[-\d.]+" cy="([-\d.]+)" r="50.0" class="node"', shown(c)["html"])
    ]
    assert len(ring) == 2 and ring[0] == -ring[1]  # opposite each other on the ring


def test_hot_seat_the_next_person_sees_their_turn_only_once_they_have_the_screen(tmp_path: Path) -> None:
    """Issue 26: between two people at one screen, a hand-off screen hides the next player's
    private information until that player says they have the screen."""
    c, session = client(write(tmp_path, "board.rules", BOARD), ["human"])
    assert "Pass the screen" not in shown(c)["html"]  # the first player has it from the start
    assert answer(c, 0).status_code == 200
    assert "Pass the screen" not in shown(c)["html"]  # the same player decides again
    assert answer(c, 0).status_code == 200
    handing = shown(c)["html"]
    assert "Pass the screen to" in handing and "Player 2" in handing
    assert "s hand" not in handing and "Stone" not in handing  # nothing of the position
    refused = c.post("/api/ready", json={"seat": 0})
    assert refused.status_code == 409 and "not the one to decide" in refused.json()["error"]
    assert c.post("/api/ready", json={"seat": "1"}).status_code == 409
    taken = c.post("/api/ready", json={"seat": 1})
    assert taken.status_code == 200 and "Pass the screen" not in taken.json()["html"]
    assert "Player 2&#39;s hand" in taken.json()["html"] and len(session.state.choices) == 2


def test_an_agent_playing_for_one_person_does_not_show_the_next_persons_turn(tmp_path: Path) -> None:
    """Player 1 lets an agent take their decisions: Player 2's view still waits for Player 2."""
    c, _ = client(write(tmp_path, "board.rules", BOARD), ["human"])
    c.post("/api/agent", json={"agent": "first", "to_end": False})
    c.post("/api/agent", json={"agent": "first", "to_end": False})
    assert "Pass the screen to" in shown(c)["html"]
    c.post("/api/ready", json={"seat": 1})
    c.post("/api/seat", json={"seat": 1, "agent": "random"})  # and Player 2 leaves: an agent plays
    c.post("/api/seat", json={"seat": 0, "agent": "human"})
    assert "Pass the screen" not in shown(c)["html"]  # one person left at the page


def test_no_hand_off_screen_when_the_other_seats_are_agents(tmp_path: Path) -> None:
    c, _ = client(write(tmp_path, "board.rules", BOARD), ["human", "random"])
    answer(c, 0)
    answer(c, 0)
    assert "Pass the screen" not in shown(c)["html"]


def test_live_scores_and_whose_turn_are_shown_for_every_seat() -> None:
    c, session = client(TIC_TAC_TOE, ["human"])
    drawn = shown(c)["html"]
    assert drawn.count("<th>Score</th>") == 1 and "(their turn)" in drawn
    assert '<tr class="current"><td><span class="seat"' in drawn and session.state.rt.current.seat == 0


@pytest.mark.parametrize(
    ("score", "hidden"),
    [
        ("score p = count(pieces(p.hand))\n", True),  # a private hand, read by the score itself
        ("value held(p: player) = count(pieces(p.hand))\nscore p = held(p) + 1\n", True),  # through a value
        ("score p = count(pieces(box))\n", False),  # what everyone sees
    ],
)
def test_a_live_score_that_counts_what_a_seat_may_not_see_waits_for_the_end(
    tmp_path: Path, score: str, hidden: bool
) -> None:
    """Issue 26: "Scores are shown to every seat even where a score reads hidden cards": a score
    shown at the table would tell everyone what a private hand holds."""
    c, _ = client(write(tmp_path, "scored.rules", BOARD + score), ["human"])
    drawn = shown(c)["html"]
    assert ("<th>Score</th>" not in drawn) == hidden
    assert ("Scores are shown at the end: they count the hand" in drawn) == hidden


def test_history_shows_the_board_as_it_was_and_changes_nothing(tmp_path: Path) -> None:
    """Issue 26: step back and forward through the game and see the board as it was."""
    c, session = client(write(tmp_path, "board.rules", BOARD), ["human", "random"])
    answer(c, 1)  # a stone on the cell (1, 0)
    answer(c, 0)
    now = shown(c)
    now = shown(c)  # Player 2's agent has played: the game is over
    assert now["at"] == now["step"] == 4 and "the game as it was" not in now["html"]
    back = c.post("/api/history", json={"at": 1}).json()
    assert back["at"] == 1 and back["step"] == 4 and back["decision"] is None
    assert "Decision 1 of 4: the game as it was" in back["html"] and "Game over" not in back["html"]
    assert back["html"].count("<li>") < now["html"].count("<li>")  # the log as it was then
    assert ">Stone</tspan>" in back["html"]  # the stone laid by the first decision, on its cell
    for bad in (-1, 5, "2", None, True):
        refused = c.post("/api/history", json={"at": bad})
        assert refused.status_code == 409, bad
    assert len(session.state.choices) == 4 and session.state.is_over  # the game is where it was
    forward = c.post("/api/history", json={"at": 4}).json()
    assert forward["html"] == now["html"]


def test_stepping_back_replays_once_a_window_and_shows_each_position_as_a_replay_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26: "going back in Dino Dynasty's history replays from the start". A game of the
    Python engine cannot be copied, so looking at a position replays the game once and keeps the
    pages of the PAST_WINDOW positions before it: stepping back through them replays nothing,
    and each is the page a replay of that position alone gives."""
    window = 10
    monkeypatch.setattr(serve_app, "PAST_WINDOW", window)  # a game of Quads is shorter than 50
    game = meeple.load(ROOT / "tests" / "grids" / "quads.rules")
    session = Session(game, "quads", 2, 1, ["random"])  # the agents play it to the end
    last = len(session.state.choices)
    assert last > 2 * window
    replays = []
    new_state = session.new_state  # a game on the engine that plays it
    monkeypatch.setattr(session, "new_state", lambda *a: replays.append(1) or new_state(*a))
    for at in range(last - 1, last - 2 - window, -1):
        session.look(at)
        assert session.shown()["at"] == at
    assert len(replays) == 1  # one replay for the whole window, not one a step
    session.look(last - 3 - window)  # beyond it: a replay again
    assert len(replays) == 2
    for at in (last - 1, last - 1 - window // 2, last - 1 - window):
        alone = meeple.replay(game, 2, 1, session.state.choices[:at], complete=False)
        assert session.past[(at, None)] == session.presenter.page(alone, None, offer=False), at


def test_an_agent_takes_a_seat_or_plays_a_step_or_to_the_end_from_the_page() -> None:
    c, session = client(TIC_TAC_TOE, ["human"])
    one = c.post("/api/agent", json={"agent": "first", "to_end": False})
    assert one.status_code == 200 and session.state.choices == [0]
    assert c.post("/api/agent", json={"agent": "human", "to_end": False}).status_code == 409
    assert c.post("/api/agent", json={"agent": "nobody", "to_end": True}).status_code == 409
    assert c.post("/api/seat", json={"seat": 5, "agent": "random"}).status_code == 409
    assert c.post("/api/seat", json={"seat": 1, "agent": "first"}).status_code == 200
    assert session.seats.names == ["human", "first"] and len(session.state.choices) == 2  # it played
    assert "selected>first</option>" in shown(c)["html"]
    end = c.post("/api/agent", json={"agent": "random", "to_end": True})
    assert end.status_code == 200 and end.json()["over"] and session.state.is_over


DRAWING = """\
game "Drawing":
  players 1..1

table colour (name, called):
  red, "Red"
  blue, "Blue"

var token_of: colour? = none per player, colour
  called "token of each colour"

play:
  for each p in players:
    pick c at random from colour:
      log "{p} draws {c}"
      choose k from colour by p prompt "Keep":
        log "{p} keeps {k}"
"""


def test_the_log_shows_the_rules_sentences_not_the_engines_record_of_a_pick(tmp_path: Path) -> None:
    """Issue 26: log lines as the rules say them, without "(random c: ...)"; a value per row is
    said by the rows' names, not as `{red: None}`."""
    c, session = client(write(tmp_path, "drawing.rules", DRAWING), ["human"], players=1)
    drawn = shown(c)["html"]
    assert any(line.strip().startswith("(random c:") for line in session.state.log)  # kept for replays
    assert "(random c:" not in drawn and "Player 1 draws" in drawn
    assert "Red: none, Blue: none" in drawn and "None" not in drawn


def test_a_bookkeeping_variable_is_not_shown_to_players(tmp_path: Path) -> None:
    """Issue 26: the engine's bookkeeping values are not game state a player reads; the rules
    say which are (`bookkeeping`)."""
    rules = DRAWING.replace(
        "play:",
        "var gold: int = 3 per player\nvar steps_taken: int = 7 per player bookkeeping\n"
        "var phase_open: bool = yes bookkeeping\nvar round_number: int = 1\n\nplay:",
    )
    c, session = client(write(tmp_path, "drawing.rules", rules), ["human"], players=1)
    words = re.sub(r"<[^>]*>", " ", shown(c)["html"])
    assert "gold" in words and "round number" in words
    assert "steps taken" not in words and "phase open" not in words
    assert session.state.view(0)["variables"]["phase_open"] == "yes"  # still in the view agents read


def test_the_game_over_screen_gives_the_scores_and_the_winners_by_seat_name() -> None:
    c, _ = client(TIC_TAC_TOE, ["first"])
    page = shown(c)
    assert page["over"] and page["decision"] is None
    assert "Game over" in page["html"] and "Winner: Player 1" in page["html"]


def test_serve_says_how_to_install_the_extra_when_it_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "meeple.serve.app", None)  # import fails as without starlette
    result = run("serve", str(TIC_TAC_TOE))
    assert result.exit_code == 2
    assert "pip install 'meeple[serve]'" in result.output


def test_serve_refuses_an_unknown_agent_before_serving() -> None:
    result = run("serve", str(TIC_TAC_TOE), "--agents", "human,wizard")
    assert result.exit_code == 2
    assert "unknown agent 'wizard'" in result.output


# ------------------------------------------------------------------ who may ask, and how much

ROUTES = [("GET", "/"), ("GET", "/api/game"), ("GET", "/api/save"), ("GET", "/static/play.js")]
CHANGES = [("/api/answer", {"step": 0, "seat": 0, "index": 0}), ("/api/undo", {}), ("/api/load", None)]


def posted(c: TestClient, url: str, body: Any, **headers: str) -> Any:
    """A POST of `body` (a saved log for /api/load) with the headers given."""
    content = c.get("/api/save").content if body is None else json.dumps(body).encode()
    return c.post(url, content=content, headers=headers)


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "127.0.0.1:9999", "127.0.0.1.evil.example:8000"]
)
def test_a_request_addressed_to_another_host_is_refused_dns_rebinding(host: str) -> None:
    """A page elsewhere that points its own name at 127.0.0.1 sends that name as its Host."""
    c, session = client(TIC_TAC_TOE, ["human"])
    answer(c, 0)
    before = list(session.state.choices)
    for method, url in ROUTES:
        refused = c.request(method, url, headers={"Host": host})
        assert refused.status_code == 403, url
        assert "answers only as 127.0.0.1:8000" in refused.json()["error"]
    for url, body in CHANGES:
        assert posted(c, url, body, Host=host).status_code == 403
    assert session.state.choices == before


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "[::1]:8000"])
def test_the_served_address_is_answered_by_any_of_its_loopback_names(host: str) -> None:
    c, _ = client(TIC_TAC_TOE, ["human"])
    assert c.get("/api/game", headers={"Host": host}).status_code == 200


def test_served_on_every_interface_only_addresses_written_as_numbers_are_answered() -> None:
    session = Session(meeple.load(TIC_TAC_TOE), "t", 2, 1, ["human"])
    c = TestClient(create_app(session, "0.0.0.0", 8000), base_url="http://192.168.1.20:8000")
    assert c.get("/api/game").status_code == 200
    assert c.get("/api/game", headers={"Host": "localhost:8000"}).status_code == 200
    assert c.get("/api/game", headers={"Host": "evil.example:8000"}).status_code == 403


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://127.0.0.1:9999"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": SERVED, "Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_change_from_another_origin_is_refused_and_changes_nothing(headers: dict[str, str]) -> None:
    c, session = client(TIC_TAC_TOE, ["human"])
    answer(c, 0)
    before = list(session.state.choices)
    for url, body in CHANGES:
        refused = posted(c, url, body, **headers)
        assert refused.status_code == 403, url
        assert "from the playtest page itself" in refused.json()["error"]
    assert session.state.choices == before


def test_a_change_from_the_page_itself_is_taken() -> None:
    c, session = client(TIC_TAC_TOE, ["human"])
    now = shown(c)
    body = {"step": now["step"], "seat": now["decision"]["seat"], "index": 0}
    taken = posted(c, "/api/answer", body, Origin=SERVED, **{"Sec-Fetch-Site": "same-origin"})
    assert taken.status_code == 200 and session.state.choices == [0]


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""]
)
def test_a_cross_site_simple_post_is_refused_text_plain_or_a_form(kind: str) -> None:
    """What a page elsewhere can send without the browser asking first: a `text/plain` or form
    POST (its Origin aside, which the browser sends but another client may leave out)."""
    c, session = client(TIC_TAC_TOE, ["human"])
    now = shown(c)
    body = {"step": now["step"], "seat": now["decision"]["seat"], "index": 0}
    for headers in ({"Origin": "http://evil.example"}, {}):
        for url, content in CHANGES:
            refused = posted(
                c, url, body if content is not None else None, **{"Content-Type": kind}, **headers
            )
            assert refused.status_code in (403, 415), url
    assert session.state.choices == []
    refused = posted(c, "/api/answer", body, **{"Content-Type": kind})
    assert refused.status_code == 415 and "sent as JSON" in refused.json()["error"]


def test_every_answer_forbids_framing_and_scripts_from_elsewhere() -> None:
    c, _ = client(TIC_TAC_TOE, ["human"])
    answers = [c.request(method, url) for method, url in ROUTES]
    answers += [c.get("/api/game", headers={"Host": "evil.example"}), c.get("/nowhere")]
    answers += [posted(c, "/api/undo", {}, Origin="http://evil.example")]
    for response in answers:
        policy = response.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
        assert "default-src 'none'" in policy
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"


def test_the_page_has_no_inline_script_and_no_style_element_the_policy_would_block() -> None:
    c, _ = client(TIC_TAC_TOE, ["human"])
    page = c.get("/").text
    assert re.findall(r"<script(?![^>]*\bsrc=)", page) == []  # every script is a file
    assert "<style" not in page and not re.search(r"\son[a-z]+=", page)  # no style element, no onclick=


def test_a_body_larger_than_its_limit_is_refused_413_and_changes_nothing() -> None:
    c, session = client(TIC_TAC_TOE, ["human"])
    answer(c, 0)
    before = list(session.state.choices)
    big = c.post("/api/answer", content=b" " * (MAX_REQUEST_BYTES + 1))
    assert big.status_code == 413 and f"{MAX_REQUEST_BYTES:,} bytes" in big.json()["error"]
    assert c.post("/api/undo", content=b" " * (MAX_REQUEST_BYTES + 1)).status_code == 413
    log = c.post("/api/load", content=b" " * (MAX_LOG_BYTES + 1))
    assert log.status_code == 413 and f"{MAX_LOG_BYTES:,} bytes" in log.json()["error"]
    assert session.state.choices == before


def test_a_body_that_says_it_is_huge_is_refused_unread() -> None:
    """200 MB announced: refused from its headers, before a byte of it is read (a served page,
    over a socket, since the test client reads a body whole before the app sees it)."""
    session = Session(meeple.load(TIC_TAC_TOE), str(TIC_TAC_TOE), 2, 1, ["human"])
    served = Served(session)
    try:
        with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
            sock.sendall(
                f"POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {200 * 2**20}\r\n\r\n".encode()
            )
            sock.sendall(b"{" * 1000)
            reply = sock.recv(4096).decode("latin-1")
        assert reply.startswith("HTTP/1.1 413")
    finally:
        served.stop()
    assert session.state.choices == []


def test_a_body_sent_in_pieces_is_read_no_further_than_its_limit() -> None:
    """A body without a length (chunked): refused once what came is larger than its limit."""
    c, _ = client(TIC_TAC_TOE, ["human"])

    def chunks() -> Iterator[bytes]:
        for _ in range(1000):
            yield b" " * 4096

    refused = c.post("/api/answer", content=chunks())
    assert refused.status_code == 413


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"step": ' + b"[" * 50_000, b"not json", b"\xff\xfe"])
def test_deep_or_broken_json_is_refused_400_without_a_recursion_error(body: bytes) -> None:
    """The test client raises any error of the server's: a RecursionError would fail this test."""
    c, session = client(TIC_TAC_TOE, ["human"])
    refused = c.post("/api/answer", content=body)
    assert refused.status_code == 400 and "is not JSON" in refused.json()["error"]
    assert session.state.choices == []


def test_save_names_a_game_in_any_letters_rfc_6266(tmp_path: Path) -> None:
    rules = TIC_TAC_TOE.read_text(encoding="utf-8").replace('game "Tic-Tac-Toe"', 'game "Τρίλιζα 三目並べ"')
    c, _ = client(write(tmp_path, "greek.rules", rules), ["human"])
    saved = c.get("/api/save")
    assert saved.status_code == 200
    disposition = saved.headers["content-disposition"]
    assert disposition.isascii()
    assert 'filename="' in disposition and "filename*=UTF-8''" in disposition
    utf8 = disposition.split("filename*=UTF-8''")[1]
    assert urllib.parse.unquote(utf8) == "τρίλιζα_三目並べ.log.json"
    assert GameLog.model_validate_json(saved.content).game == "Τρίλιζα 三目並べ"


def test_a_game_whose_score_breaks_is_shown_with_the_error_on_every_route(tmp_path: Path) -> None:
    """Agents play it to its end at once; its score breaks: the page says so, no route fails."""
    rules = TIC_TAC_TOE.read_text(encoding="utf-8").replace(
        "score p = if winner == p then 1 else 0", "score p = [1, 2][count(empty()) + 5]"
    )
    c, session = client(write(tmp_path, "broken.rules", rules), ["random"])
    assert session.state.failed is not None
    for method, url in ROUTES:
        assert c.request(method, url).status_code == 200, url
    page = shown(c)
    assert "index out of range" in page["error"] and "broken.rules:" in page["error"]
    assert GameLog.model_validate_json(c.get("/api/save").content).scores == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_stops_serve_with_exit_130() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "meeple.cli", "serve", str(TIC_TAC_TOE), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(600):  # up to a minute to start: a guard, not a measure
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err


def test_serve_says_when_its_address_is_taken_and_exits_1() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "meeple.cli", "serve", str(TIC_TAC_TOE), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1 and f"cannot serve the page at 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------------ in a browser


def browser() -> Any:
    """Playwright's sync API, or a skip saying what is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the browser tests need playwright: pip install -e '.[browser]'")
    if not CHROMIUM.exists():
        pytest.skip(f"the browser tests need Debian's chromium at {CHROMIUM}: apt-get install chromium")
    return sync_playwright


class Served:
    """A session served by uvicorn on a free loopback port, in a thread of this process."""

    def __init__(self, session: Session) -> None:
        import uvicorn

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        config = uvicorn.Config(
            create_app(session, "127.0.0.1", self.port), host="127.0.0.1", port=self.port, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started and self.thread.is_alive():
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser()() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield launched
        launched.close()


@pytest.fixture
def page_of(chromium: Any) -> Iterator[Any]:
    """Open a session's page; at the end, no script error may have happened on it, the page's
    security policy may have blocked nothing of it, and it may have asked nothing of any other
    host (no CDN, no web font)."""
    opened: list[tuple[Any, Served, list[str], list[str]]] = []

    def open_page(session: Session) -> Any:
        served = Served(session)
        page = chromium.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        errors: list[str] = []
        asked: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        # what the Content-Security-Policy blocked: nothing of the page's own may be
        page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
        page.on("request", lambda request: asked.append(request.url))
        page.goto(served.url)
        opened.append((page, served, errors, asked))
        return page

    yield open_page
    for page, served, errors, asked in opened:
        page.close()
        served.stop()
        assert errors == []
        assert [url for url in asked if not url.startswith(served.url)] == []


def hand_over(page: Any) -> None:
    """The next person takes the screen, where the page asks for it (hot seat)."""
    if page.locator("#ready").count():
        page.click("#ready")
        page.wait_for_selector(".hand-off", state="detached")


def click(page: Any, target: Any) -> None:
    """Click, then wait for the page to show the game after it."""
    step = page.locator(".layout").get_attribute("data-step")
    target.click()
    # A function, not an expression: the page's policy forbids evaluating strings as script.
    page.wait_for_function("(step) => document.querySelector('.layout').dataset.step !== step", arg=step)


def test_a_whole_game_of_tic_tac_toe_is_played_undone_saved_and_loaded_by_clicking(
    page_of: Any, tmp_path: Path
) -> None:
    session = Session(meeple.load(TIC_TAC_TOE), str(TIC_TAC_TOE), 2, 1, ["human"])
    page = page_of(session)
    click(page, page.locator(".choosable").first)
    assert "Pass the screen to Player 2" in page.locator(".hand-off").inner_text()
    hand_over(page)
    click(page, page.locator(".choosable").first)
    hand_over(page)
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "saved.json"
    download.value.save_as(saved)
    assert GameLog.model_validate_json(saved.read_bytes()).choices == [0, 0]
    assert page.locator(".cell").count() == 9  # a board given by its size: every square, empty or not
    while not page.locator("#game-over").count():
        click(page, page.locator(".choosable").first)  # a square of the board
        hand_over(page)
    assert "Winner" in page.locator("#game-over").inner_text()
    finished = len(session.state.choices)
    click(page, page.locator("#undo"))
    assert len(session.state.choices) == finished - 1 and page.locator("#game-over").count() == 0
    click(page, page.locator(".choosable").last)  # another move than the one taken back
    page.set_input_files("#load", str(saved))
    page.wait_for_function("() => document.querySelector('.layout').dataset.step === '2'")
    assert session.state.choices == [0, 0]
    page.set_input_files(
        "#load", files=[{"name": "bad.json", "mimeType": "application/json", "buffer": b"{}"}]
    )
    page.wait_for_selector("#error:not([hidden])")
    assert "is not a meeple log" in page.locator("#error").inner_text()
    assert session.state.choices == [0, 0]


def test_history_and_agents_are_used_from_the_page(page_of: Any) -> None:
    """Step back through the game and forward again; give a seat to an agent; let an agent play
    the rest of the game."""
    session = Session(meeple.load(TIC_TAC_TOE), str(TIC_TAC_TOE), 2, 1, ["human"])
    page = page_of(session)
    click(page, page.locator(".choosable").first)
    hand_over(page)
    page.click('.back-to[title="One decision back"]')
    page.wait_for_selector("text=Decision 0 of 1: the game as it was")
    assert page.locator(".choosable").count() == 0 and page.locator(".decision").count() == 0
    page.click('.back-to[title="The game as it is now"]')
    page.wait_for_selector(".decision")
    page.select_option('.seat-agent[data-seat="1"]', "first")  # Player 2's decision, now an agent's
    page.wait_for_function("() => document.querySelector('.layout').dataset.step === '2'")
    assert session.seats.names == ["human", "first"]  # and it has played its turn at once
    page.click('.let-agent[data-to-end="yes"]')
    page.wait_for_selector("#game-over")
    assert session.state.is_over


def test_a_place_on_the_board_answers_when_clicked(page_of: Any, tmp_path: Path) -> None:
    session = Session(meeple.load(write(tmp_path, "board.rules", BOARD)), "board", 2, 1, ["human"])
    page = page_of(session)
    click(page, page.locator(".choosable").nth(1))
    assert session.state.choices == [1]  # the second cell offered


LAYING = (ROOT / "tests" / "grids" / "laying.rules").read_text(encoding="utf-8")  # coloured ground


TAKING = LAYING.replace("map land:", "zone box\npiece tile_piece: each shape in box\n\nmap land:").replace(
    '    choose a from areas(land, ground) by p prompt "Area":\n',
    '    choose t from pieces(box) by p prompt "Take":\n      log "{p} takes {t}"\n'
    '    choose a from areas(land, ground) by p prompt "Area":\n',
)


def test_a_tile_offered_before_it_is_taken_shows_what_it_holds(tmp_path: Path) -> None:
    """Issue 26: "tile 35" says nothing; the option shows the tile's cells, coloured."""
    c, session = client(write(tmp_path, "taking.rules", TAKING), ["human"], players=1)
    assert [str(v) for v in session.state.decision.values] == ["start", "bend"]
    drawn = shown(c)["html"]
    pictures = re.findall(r'<svg class="holds".*?</svg>', drawn)
    assert [p.count("<polygon") for p in pictures] == [3, 2]  # the start's three cells, the bend's two
    assert pictures[1].count('fill="#cc9933"') == 1 and pictures[1].count('fill="#3366cc"') == 1


def test_an_area_is_chosen_by_clicking_any_cell_of_it(page_of: Any, tmp_path: Path) -> None:
    session = Session(meeple.load(write(tmp_path, "laying.rules", LAYING)), "laying", 1, 1, ["human"])
    page = page_of(session)
    assert page.locator(".choosable").count() == 3  # the wet area's two cells, the dry area's one
    assert page.locator(".option").count() == 2 and not page.locator(".option").first.is_visible()
    click(page, page.locator('.choosable[aria-label^="(1,0)"]'))
    assert session.state.choices == [0]  # the wet area, at its second cell


def test_a_shape_is_laid_by_pointing_turning_its_ghost_and_clicking(page_of: Any, tmp_path: Path) -> None:
    """Issue 26: the tile under the pointer as a ghost at the places it may go, a control to turn
    it offering only the turns legal there, and a click to lay it."""
    session = Session(meeple.load(write(tmp_path, "laying.rules", LAYING)), "laying", 1, 1, ["human"])
    page = page_of(session)
    click(page, page.locator(".choosable").first)
    spots = session.state.decision.values
    places = page.locator(".lay")
    assert places.count() == len({spot.coords[0] for spot in spots})  # one place per first cell
    place = max(places.all(), key=lambda p: len(json.loads(p.get_attribute("data-ghosts"))))
    place.hover()
    ghosts = json.loads(place.get_attribute("data-ghosts"))
    assert len(ghosts) > 1  # a place where the bend may lie turned more than one way
    assert page.locator(".ghost-cell").count() == 2  # the bend's two cells, under the pointer
    turns = [g[1] for g in ghosts]
    assert page.locator(".turn").all_inner_texts() == [f"{t}\u00b0" for t in turns]
    page.locator(".turn").last.click()  # the pointer leaves the board: the ghost stays, turned
    assert page.locator(".turn.on").inner_text() == f"{turns[-1]}\u00b0"
    assert page.locator(".ghost-cell").first.get_attribute("points") == ghosts[-1][2][0][0]
    click(page, place)
    laid = spots[ghosts[-1][0]]
    assert session.state.choices[-1] == ghosts[-1][0]
    assert laid.rotation * 60 == turns[-1] and session.state.rt.faces  # laid as it was shown
    assert page.locator('.cell[fill="#3366cc"]').count() >= 2  # cells coloured as their ground


def play_on_the_board(page: Any) -> str:
    """One decision as a person makes it: on the board where its options are places (a shape to
    lay: pointed at, then clicked), else by a button. Says which it was."""
    lay = page.locator(".lay")
    if lay.count():
        lay.first.hover()
        click(page, lay.first)
        return "laid"
    place = page.locator(".choosable").first
    if place.count():
        if "," in (place.get_attribute("data-options") or ""):  # several options there: say which
            place.click()
            click(page, page.locator(".option.picked").first)
            return "board and list"
        click(page, place)
        return "board"
    click(page, page.locator(".option").first)
    return "button"


@pytest.mark.parametrize(
    ("name", "decisions", "needs"),
    [
        ("dino_party", 6, {"board"}),
        ("dino_garden", 8, {"board", "button"}),
        ("gods_love_dinosaurs", 4, {"laid", "button"}),
        ("dino_dynasty", 12, {"board"}),
    ],
)
def test_a_few_turns_of_each_bundled_game_are_played_by_clicking_the_board(
    page_of: Any, name: str, decisions: int, needs: set[str]
) -> None:
    """Issue 26: every option that names a place is chosen on the board; buttons stay for the
    others. The board's places are where the page lets a person choose them."""
    game = meeple.load(name)
    session = Session(game, name, game.min_players, 1, ["human", "random"])
    page = page_of(session)
    done: list[str] = []
    while len(done) < decisions and page.locator(".decision").count():
        done.append(play_on_the_board(page))
        shown_buttons = [b for b in page.locator(".option").all() if b.is_visible()]
        assert len(shown_buttons) <= 30  # places are on the board, not a page of hundreds of buttons
    assert needs <= set(done), done
    assert session.state.choosers[0] == 0


def test_a_page_elsewhere_cannot_frame_the_playtest_page(chromium: Any) -> None:
    """Clickjacking: a page of another origin that frames this one gets the browser's refusal."""
    session = Session(meeple.load(TIC_TAC_TOE), str(TIC_TAC_TOE), 2, 1, ["human"])
    served = Served(session)
    page = chromium.new_page()
    try:
        with page.expect_console_message(lambda m: "frame-ancestors" in m.text) as refused:
            page.set_content(f'<iframe src="{served.url}"></iframe>')
        assert "blocked" in refused.value.text
        assert [frame.url for frame in page.frames if frame.url.startswith(served.url)] == []
    finally:
        page.close()
        served.stop()


def test_the_page_draws_no_park_board_of_a_seat_not_in_the_game(page_of: Any) -> None:
    """Dino Garden for three: the Park boards of Players 1 to 3 are drawn, Player 4's stays in the
    box (its `plot` table `belongs to seat`; docs/language.md, "Rows that belong to a seat")."""
    game = meeple.load("dino_garden")
    page = page_of(Session(game, "dino_garden", 3, 1, ["human", "random"]))
    parks = page.locator("svg", has_text="upper-left area").first
    assert parks.locator("text", has_text="of Player 3").count() > 0
    assert parks.locator("text", has_text="Player 4").count() == 0


# ------------------------------------------------------------------ a searching agent at the page


def test_a_search_is_offered_where_the_native_engine_runs_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page offers a search of a second a decision (`mcts:1s`) where the native engine runs
    the game, since it searches copies of it; elsewhere it is neither offered nor taken."""
    c, session = client(TIC_TAC_TOE, ["human"])
    assert serve_app.PAGE_SEARCH in shown(c)["html"] and serve_app.PAGE_SEARCH in session.agent_choices
    monkeypatch.setattr(native, "_core", None)  # as on a machine without the native engine
    c, session = client(TIC_TAC_TOE, ["human"])
    assert not any(name.startswith("mcts") for name in session.agent_choices)
    refused = c.post("/api/seat", json={"seat": 1, "agent": "mcts:20"})
    assert refused.status_code == 409 and session.state.choices == []
    with pytest.raises(ValueError, match="plays on the native engine only"):
        client(TIC_TAC_TOE, ["human", "mcts"])


def test_a_searching_agent_takes_a_seat_and_plays_as_it_would_on_the_native_engine() -> None:
    """A search of so many playouts (any the agents' names allow) plays a seat of the page's
    game, which is the Python engine's, as the same agent plays the native engine's game."""
    c, session = client(TIC_TAC_TOE, ["human"], seed=2)
    assert answer(c, 4).status_code == 200
    assert c.post("/api/seat", json={"seat": 1, "agent": "mcts:200"}).status_code == 200
    assert session.seats.names == ["human", "mcts:200"] and len(session.state.choices) == 2
    core = native.new_game(meeple.load(TIC_TAC_TOE), 2, 2)
    agents = make_agents(["human", "mcts:200"], 2, 2, human=lambda: None)  # type: ignore[arg-type, return-value]
    core.apply(4)
    assert session.state.choices[1] == agents[1].choose(core, core.decision)
    assert c.post("/api/seat", json={"seat": 1, "agent": "mcts:2x"}).status_code == 409
    end = c.post("/api/agent", json={"agent": "mcts:50", "to_end": True})
    assert end.status_code == 200 and session.state.is_over


def test_the_page_answers_while_a_search_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search runs off the server's event loop: while it thinks (here, until the test lets it
    go on), the server still answers the page's requests."""
    started, release = threading.Event(), threading.Event()
    search = MctsAgent.choose
    let_go: list[bool] = []  # whether the search was let go on (else it waited in vain)

    def thinking(self: MctsAgent, state: Any, decision: Any) -> int:
        started.set()
        let_go.append(release.wait(60))
        return search(self, state, decision)

    monkeypatch.setattr(MctsAgent, "choose", thinking)
    session = Session(meeple.load(TIC_TAC_TOE), str(TIC_TAC_TOE), 2, 1, ["human"])
    replies: list[Any] = []
    with TestClient(create_app(session), base_url=SERVED, headers=JSON) as c:  # one event loop
        asked = threading.Thread(
            target=lambda: replies.append(c.post("/api/agent", json={"agent": "mcts:20", "to_end": False}))
        )
        asked.start()
        assert started.wait(60)
        script = c.get("/static/play.js")  # were the event loop thinking, this would wait for it
        release.set()
        asked.join(60)
    assert script.status_code == 200 and let_go == [True], (
        "the server answered nothing while the search thought"
    )
    assert replies[0].status_code == 200 and len(session.state.choices) == 1


QUADS = ROOT / "tests" / "grids" / "quads.rules"


@pytest.mark.parametrize("rules", [TIC_TAC_TOE, QUADS], ids=lambda p: p.stem)
def test_a_person_plays_at_the_page_on_the_native_engine_where_it_runs_the_game(rules: Path) -> None:
    """Issue 24: the page plays a game the core runs on the native engine, and each seat is
    shown the page the Python engine's game gives at the same position (its view, its options
    and places, its log with places in words), before and after an undo."""
    game = meeple.load(rules)
    session = Session(game, rules.stem, 2, 3, ["human", "random"])
    assert session.state.engine == "native"
    for _ in range(3):
        session.answer(len(session.state.choices), 0, 0)
    session.undo()
    assert session.state.engine == "native"
    python = game.new_game(2, 3)
    for choice in session.state.choices:
        python.apply(choice)
    page = session.presenter.page
    for seat, offer in ((None, True), (0, True), (1, False)):  # seat 0 decides: seat 1 is offered nothing
        assert page(session.state, seat, offer) == page(python, seat, offer)
