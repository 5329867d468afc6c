"""The playtest page (`meeple serve`): its routes through Starlette's test client, then whole games
played by clicking in a headless Chromium (Debian's, at /usr/bin/chromium; those tests skip,
saying why, where playwright or the browser is missing)."""

from __future__ import annotations

import html
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.limits import MAX_LOG_BYTES
from meeple.logs import GameLog
from tests.helpers import ROOT, run, write

pytest.importorskip("starlette", reason="the playtest page needs the serve extra: pip install -e '.[serve]'")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx: pip install -e '.[browser]'")

from starlette.testclient import TestClient

from meeple.serve.app import Session, create_app

TIC_TAC_TOE = ROOT / "tests" / "games" / "tic_tac_toe.rules"
BUNDLED = ["dino_party", "dino_garden", "gods_love_dinosaurs", "dino_dynasty"]
CHROMIUM = Path("/usr/bin/chromium")

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
    return TestClient(create_app(session)), session


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
        (b" " * (MAX_LOG_BYTES + 1), "larger than a log can be"),
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
        config = uvicorn.Config(create_app(session), host="127.0.0.1", port=self.port, log_level="warning")
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
    """Open a session's page; at the end, no script error may have happened on it, and it may
    have asked nothing of any other host (no CDN, no web font)."""
    opened: list[tuple[Any, Served, list[str], list[str]]] = []

    def open_page(session: Session) -> Any:
        served = Served(session)
        page = chromium.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        errors: list[str] = []
        asked: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
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


def click(page: Any, target: Any) -> None:
    """Click, then wait for the page to show the game after it."""
    step = page.locator(".layout").get_attribute("data-step")
    target.click()
    page.wait_for_function(f"document.querySelector('.layout').dataset.step !== '{step}'")


def test_a_whole_game_of_tic_tac_toe_is_played_undone_saved_and_loaded_by_clicking(
    page_of: Any, tmp_path: Path
) -> None:
    session = Session(meeple.load(TIC_TAC_TOE), str(TIC_TAC_TOE), 2, 1, ["human"])
    page = page_of(session)
    click(page, page.locator(".option").first)
    click(page, page.locator(".option").first)
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "saved.json"
    download.value.save_as(saved)
    assert GameLog.model_validate_json(saved.read_bytes()).choices == [0, 0]
    assert page.locator(".cell").count() == 9  # a board given by its size: every square, empty or not
    while not page.locator("#game-over").count():
        click(page, page.locator(".choosable").first)  # a square of the board
    assert "Winner" in page.locator("#game-over").inner_text()
    finished = len(session.state.choices)
    click(page, page.locator("#undo"))
    assert len(session.state.choices) == finished - 1 and page.locator("#game-over").count() == 0
    click(page, page.locator(".option").last)  # another move than the one taken back
    page.set_input_files("#load", str(saved))
    page.wait_for_function("document.querySelector('.layout').dataset.step === '2'")
    assert session.state.choices == [0, 0]
    page.set_input_files(
        "#load", files=[{"name": "bad.json", "mimeType": "application/json", "buffer": b"{}"}]
    )
    page.wait_for_selector("#error:not([hidden])")
    assert "is not a meeple log" in page.locator("#error").inner_text()
    assert session.state.choices == [0, 0]


def test_a_place_on_the_board_answers_when_clicked(page_of: Any, tmp_path: Path) -> None:
    session = Session(meeple.load(write(tmp_path, "board.rules", BOARD)), "board", 2, 1, ["human"])
    page = page_of(session)
    click(page, page.locator(".choosable").nth(1))
    assert session.state.choices == [1]  # the second cell offered


@pytest.mark.parametrize("name", BUNDLED)
def test_one_turn_of_each_bundled_game_is_played_by_clicking(page_of: Any, name: str) -> None:
    game = meeple.load(name)
    session = Session(game, name, game.min_players, 1, ["human", "random"])
    page = page_of(session)
    assert page.locator(".decision").count() == 1
    click(page, page.locator(".option").first)
    assert session.state.choosers[0] == 0
