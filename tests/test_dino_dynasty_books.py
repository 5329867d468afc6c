"""Dino Dynasty's books say what the publisher's rulebook says, where a player looks for it.

Each test is a finding of the third outside reading (issue 25): a rule the book played but never
printed, two statements of one book that disagree, a rule told in several places, a ruling in a
designer's words, an aid line cut before the part a player needs mid-turn.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

import meeple
from meeple.codegen import render


@cache
def docs_of(stem: str) -> render.GameDocs:
    found = meeple.check(stem)
    assert found.module is not None and found.symbols is not None and found.program is not None
    return render.game_docs(found.path, found.module, found.symbols, found.program.constants)


def rule_words(stem: str, name: str) -> str:
    """The printed words of the rule headed `name` in the rulebook."""
    said = [" ".join(rule.words) for rule in docs_of(stem).book.rules if rule.title == name]
    assert said, f"no rule headed {name!r}"
    return " ".join(said)


def test_the_events_rule_says_a_herd_on_the_covered_tile_now_stands_in_the_event_biome() -> None:
    """Placement (p.17), repeated in Permanent and One-time Events: "Herds or Nests in Biomes not
    stretching outside the covered tile now stand in the Event Biome." The book said it only in
    the Mountain example; the file played it for every Event (rule `cover`) without printing it."""
    events = rule_words("dino_dynasty", "Events")
    assert "lying wholly on the covered tile now stand in the Event Biome" in events
    assert "stretches outside the covered tile stay in that Biome" in events
    for name in ["Permanent Events", "One-time Events"]:
        assert "now stands in the Event Biome" in rule_words("dino_dynasty", name)


def book_text(stem: str) -> str:
    return " ".join(render.rulebook_markdown(docs_of(stem)).split())


CAMPAIGNS = ["dino_dynasty_campaign", "dino_dynasty_campaign_teams"]


def test_a_campaign_put_away_between_scenarios_starts_the_evolve_markers_on_their_printed_positions() -> None:
    """Change Species: "If the new species is stored in the Save Envelope, the Evolve markers start
    on the pre-printed positions in the next game." The Campaign book said, in a change and again
    in its rulings, that its Scenarios always follow one another directly."""
    text = book_text("dino_dynasty_campaign")
    assert "Put away between Scenarios" in text and "start on their printed positions" in text
    assert "The Scenarios of a Campaign follow one another directly" not in text


@pytest.mark.parametrize("stem", CAMPAIGNS)
def test_what_a_campaign_keeps_of_the_map_is_said_for_the_choice_that_keeps_it(stem: str) -> None:
    """Campaign alternatives A ("the Map is kept") and B ("If the Map is not saved"): the players
    choose. "Kept between games" said flatly "The Map is kept with its tiles", against the book's
    own choice."""
    kept = {what.lower(): words for what, words in docs_of(stem).book.kept}
    for what in ["map", "tiles on the map", "side up of each tile"]:
        assert " ".join(kept[what]).startswith("With the Map kept"), kept[what]


@pytest.mark.parametrize("stem", CAMPAIGNS)
def test_which_way_a_kept_map_grows_is_said_once_in_the_step_that_grows_it(stem: str) -> None:
    """Campaign alternative A: "the starting player then decides in which direction the Map is
    expanded". The book told it four ways (the step, "East and south always; west, or north...",
    "to the east and south, to the west, to the north, or to the west and north", and a ruling
    "never split between two opposite sides"); the step alone now says it (the Campaign in teams,
    whose book folds in the Campaign's changes, once too), and each aid prints it among the setup
    steps."""
    text = book_text(stem)
    assert text.count("east or west when the Map grows wider") == 1
    assert any("east or west when the Map grows wider" in step for step in docs_of(stem).aid.setup_steps)
    for other in ["East and south always", "to the west and north", "never split between"]:
        assert other not in text


DINO_DYNASTY = [
    "dino_dynasty",
    "dino_dynasty_teams",
    "dino_dynasty_stasis",
    "dino_dynasty_dynasty",
    *CAMPAIGNS,
]
# How a designer's note talks: about the publisher's book, which the player does not hold.
ABOUT_THE_BOOK = re.compile(r"\bthe rules (?:say|draw|give)\b|\bno order is given\b", re.IGNORECASE)


@pytest.mark.parametrize("stem", DINO_DYNASTY)
def test_a_ruling_says_what_to_do_not_what_the_publishers_book_leaves_out(stem: str) -> None:
    """A ruling says what to do, in players' words (issue 25): the Campaign's "No order is given
    for the tie", the Stasis's "the rules draw one at random"."""
    for ruling in docs_of(stem).book.rulings:
        said = f"{ruling.point} {ruling.words}"
        assert not ABOUT_THE_BOOK.search(said), said


@pytest.mark.parametrize("stem", ["dino_dynasty_dynasty", *CAMPAIGNS])
def test_everything_kept_between_games_says_what_a_player_keeps_or_notes(stem: str) -> None:
    """Save Between Games: each thing kept is told to the player; "Kept between games" printed bare
    "Games played." and "The last starting player's seat."."""
    for what, words in docs_of(stem).book.kept:
        assert words, what


def aid_line(stem: str, name: str) -> str:
    gists = [gist for rule, gist in docs_of(stem).aid.actions if rule == name]
    assert gists, f"no aid line {name!r}"
    return " ".join(gists)


@pytest.mark.parametrize("stem", DINO_DYNASTY)
def test_the_aid_tells_a_migrating_player_what_to_do_when_stuck_or_when_no_tile_fits(stem: str) -> None:
    """Territory Placement: "may discard 1 tile at a time ... until a tile that can be placed
    appears"; Stuck on the Map; Herd Movement: "they must move away from the placed tile". The aid
    printed the rule's first sentence, which stopped at "then move 1 Herd onto a Biome of the new
    tile or through it"."""
    if not any(rule == "Migrate with a Territory tile" for rule, _ in docs_of(stem).aid.actions):
        pytest.skip("this game's aid has no such line")
    line = aid_line(stem, "Migrate with a Territory tile")
    for rule in ["whose own Biome the new tile extends moves away", "Stuck on the Map", "discard top tiles"]:
        assert rule in line, rule


@pytest.mark.parametrize("stem", DINO_DYNASTY)
def test_the_aid_tells_that_camouflage_keeps_a_nest_from_being_stomped(stem: str) -> None:
    """ "Camouflage protects a player from Attack and from having their Nest Stomped": the aid's
    "Stomping a Nest" printed only its first sentence, without Camouflage."""
    assert "unless Camouflage protects it" in aid_line(stem, "Stomping a Nest")
