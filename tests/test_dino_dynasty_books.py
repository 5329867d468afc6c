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
    tile or through it". Stuck on the Map and the discarding are rules of their own, as in the
    rulebook, each with its own line."""
    if not any(rule == "Migrate with a Territory tile" for rule, _ in docs_of(stem).aid.actions):
        pytest.skip("this game's aid has no such line")
    migrate = aid_line(stem, "Migrate with a Territory tile")
    assert "whose own Biome the new tile extends moves away" in migrate
    assert "you are Stuck on the Map" in aid_line(stem, "Stuck on the Map")
    assert "discard top tiles" in aid_line(stem, "No tile fits")


@pytest.mark.parametrize("stem", DINO_DYNASTY)
def test_the_aid_tells_that_camouflage_keeps_a_nest_from_being_stomped(stem: str) -> None:
    """ "Camouflage protects a player from Attack and from having their Nest Stomped": the aid's
    "Stomping a Nest" printed only its first sentence, without Camouflage."""
    assert "unless Camouflage protects it" in aid_line(stem, "Stomping a Nest")


# ===================================================================== issue 25: a player's order and words


def rule_titles(stem: str) -> list[str]:
    return [rule.title for rule in docs_of(stem).book.rules]


def test_the_actions_are_told_before_what_an_extinct_player_does() -> None:
    """Turn Sequence: "1. Hatch, 2. Perform One Action, 3. Collect Morph Token, 4. Attrition"; the
    rulebook tells Extinction! under Compete and Change Species among the variants. The book told
    the Stomp at the start of a turn, Extinction!, Change species and Carrying the Action frames
    before the four Actions, before a reader knew what Action frames and Evolve markers are."""
    titles = rule_titles("dino_dynasty")
    for late in ["Extinction!", "Change species", "Carrying the Action frames"]:
        for action in ["Perform one Action", "Spread", "Migrate", "Evolve", "Compete", "Attrition"]:
            assert titles.index(action) < titles.index(late), (action, late)
    assert titles.index("Migrate") < titles.index("Stomping a Nest")


def test_migrate_with_a_territory_tile_is_told_in_short_sentences_with_stuck_and_no_tile_apart() -> None:
    """Territory Placement, Herd Movement and Stuck on the Map are three passages of the rulebook;
    the book told them, and the discarding, in one sentence of about 150 words."""
    words = rule_words("dino_dynasty", "Migrate with a Territory tile")
    longest = max(len(sentence.split()) for sentence in re.split(r"(?<=[.!?])\s+", words))
    assert longest <= 45, words
    assert "Stuck on the Map" in rule_titles("dino_dynasty")
    assert "you are Stuck on the Map" in rule_words("dino_dynasty", "Stuck on the Map")
    assert "discard top tiles one at a time" in rule_words("dino_dynasty", "No tile fits")


def test_the_three_morph_limit_is_told_in_the_rule_that_fills_the_slots() -> None:
    """Morph Tokens: "Each Dino board has room for 3 Morph tokens". The book told it only in a
    table of its own on the last page, one line long."""
    assert "A Dino board holds 3 Morphs" in rule_words("dino_dynasty", "Collect a Morph token")
    assert "Morph slot" not in [sheet.title for sheet in docs_of("dino_dynasty").book.sheets]


def test_the_mountain_example_says_the_morph_tokens_on_the_mountain_were_drawn_after_the_event() -> None:
    """3. Add Morph Tokens: "After carrying out all effects for the Event, the Acting player draws 2
    MORPH TOKENS". The example's words put the Horns back in the bag, and its picture then showed
    Horns on the mountain without a word."""
    (example,) = [e for e in docs_of("dino_dynasty").book.examples if e.title.startswith("Mountain:")]
    assert "2 Morph tokens are drawn from the bag onto the mountain" in " ".join(example.words)


# How a designer speaks of the book: an example named after the page it stands on, a ruling that
# answers a reading nobody makes, a picture the book does not print.
NOT_A_PLAYERS = ["How to Play", "Glossary,", "final turn or one more turn", "hopes it will"]


def test_the_base_book_speaks_of_what_it_prints() -> None:
    text = book_text("dino_dynasty")
    for words in NOT_A_PLAYERS:
        assert words not in text, words


def changes_titled(stem: str) -> list[str]:
    return [part.title for part in docs_of(stem).book.changes]


def test_the_team_game_tells_stomping_once() -> None:
    """Team Game: "A Rival team have to Attack the Dino Herd ... to Stomp the Nest". The book told
    Stomping twice: the Nests that can be Stomped, and the base rule reworded."""
    titles = changes_titled("dino_dynasty_teams")
    assert titles.count("Nests that can be Stomped") + titles.count("Stomping a Nest") == 1


def test_the_stasis_prints_no_machine_measure_and_no_quote_of_the_base_book() -> None:
    """Stasis and Morphs: "Camouflage can not be used by the Stasis"; Manker mode. The book told
    Camouflage under three headings on one page, and printed the measures its Event priorities
    use ("What a One-time Event would take") as rules after the priorities."""
    titles = changes_titled("dino_dynasty_stasis")
    assert "Camouflage" in titles
    for heading in titles:
        assert not heading.lower().startswith(("what a", "what an", "an event that", "steps to")), heading
    assert "the base game says" not in book_text("dino_dynasty_stasis")


def test_the_campaign_says_a_species_may_change_between_scenarios() -> None:
    """Campaign Game: "Each player keeps their Dynasty during all 5 Scenarios, but can choose to
    change current species between Scenarios". Only the Dynasty game's book said it."""
    assert "may change its species at the end of each Scenario" in book_text("dino_dynasty_campaign")


def test_the_campaign_tells_its_choices_and_its_setup_words_before_the_setup_steps() -> None:
    """The Scenario step says "Playing with the same name" and the Map's steps "On a kept Map": the
    options that name them are told first, and the setup's own words lead its steps (the book
    printed them after the steps, at the foot of the page)."""
    titles = changes_titled("dino_dynasty_campaign")
    for option in ["Keeping the Map", "One name for the whole Campaign"]:
        assert titles.index(option) < titles.index("The Scenario")
    assert titles.index("Setup") < titles.index("Dynasties and save envelopes")


@pytest.mark.parametrize("stem", ["dino_dynasty_dynasty", *CAMPAIGNS])
def test_what_is_kept_between_games_is_told_in_sentences_not_labels(stem: str) -> None:
    """Save Between Games: a player notes what they keep. The book printed the saved state's
    labels before each sentence ("Dynasty kept of each player", "Side up of each tile")."""
    text = book_text(stem)
    for label in ["of each player.", "of each tile.", "of each Dynasty.", "Games played", "Keep count"]:
        assert label not in text, label


def test_the_campaign_in_teams_tells_its_cards_in_a_sentence() -> None:
    """ "Their victory positions are counted as a team": the book printed "The Challenge cards your
    team won in this Scenario: team-mates win them together.", not a sentence."""
    text = book_text("dino_dynasty_campaign_teams")
    assert "The Challenge cards your team won in this Scenario:" not in text
    assert "a team wins its Challenge cards together" in text
