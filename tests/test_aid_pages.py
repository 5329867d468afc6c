"""The player aid has room for what a player asks (issue 25): a phase that holds one rule is one
line of the aid's game outline, and Dino Party's one-page aid says what each of its three events
does and how players tied for the fewest Dinos share them."""

from __future__ import annotations

import re

import pdfs
import pytest

import meeple
from meeple.codegen import aid, render
from meeple.codegen.english import Line


def test_a_phase_that_holds_one_rule_is_one_line_of_the_outline() -> None:
    """ "End of the round: Tidy up." on one line, not a heading with one line under it; a phase
    holding words, or more than one thing, keeps its lines under it."""
    lines = [
        Line("End of the round:", "phase", [Line("Tidy up.", "do")]),
        Line("Draw:", "step", [Line("Draw two cards.", "text")]),
        Line("Market:", "phase", [Line("Buy.", "do"), Line("Sell.", "do")]),
    ]
    outline = aid._outline(lines)
    assert [(x.text, len(x.children)) for x in outline] == [
        ("End of the round: Tidy up.", 0),
        ("Draw:", 1),
        ("Market:", 2),
    ]


def test_the_party_aid_names_each_events_effect_and_the_tie_for_fewest_on_one_page() -> None:
    """Dino Party's aid named Air Pollution, Rising Sea Level and Natural Disaster without what they
    do, and not who does them when players tie for the fewest Dinos; it stays one page."""
    checked = meeple.check("dino_party")
    assert checked.ok and checked.module and checked.symbols and checked.program
    game = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    index, data, count = render.fit(render.aid_candidates(game))
    assert count == 1 and index < render.AID_ONE_SIDE
    words = re.sub(r"\s+", " ", pdfs.text(data)).replace("- ", "")
    for said in (
        "tied for the fewest",
        "air-pollution cards",
        "Ocean side",
        "natural disaster side",
        "2 Dinos",
    ):
        assert said in words, said


def _lead_ins(lines: list[Line]) -> list[str]:
    """The lines of an outline that lead a list of their own ("3. Producer phase:")."""
    return [x for line in lines if line.children for x in [line.text, *_lead_ins(line.children)]]


def test_a_line_that_leads_a_list_never_ends_a_page_of_the_aid() -> None:
    """No heading ends a page (issue 25, section 1), in the aid too: Dino Garden's first page
    ended with "3. Producer phase:", and the Producer phase's steps were on the second."""
    checked = meeple.check("dino_garden")
    assert checked.ok and checked.module and checked.symbols and checked.program
    game = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    _, data, count = render.fit(render.aid_candidates(game))
    leads = {pdfs.flat(re.sub(r"[*_#\[\]]", "", text)) for text in _lead_ins(game.aid.flow)}
    assert count == 2 and len(leads) >= 3
    for page in pdfs.reader(data).pages[:-1]:
        last = [line for line in page.extract_text().splitlines() if line.strip()][-1]
        assert pdfs.flat(last.lstrip("\u2022\u2023\u2013- ")) not in leads, last


def _aid_words(stem: str) -> str:
    checked = meeple.check(stem)
    assert checked.ok and checked.module and checked.symbols and checked.program
    game = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    return " ".join(render.aid_markdown(game).split())


@pytest.mark.parametrize(
    ("stem", "said"),
    [
        # "Take 1 meat token from the area where the Feeder token is located and place it on your
        # Feed Bag tile": Feeding carries meat, which its first sentence never said.
        ("dino_garden", "take meat tokens from the area of the Feeder's space onto your Feed Bag"),
        # "The size of each area is 4 ..."; an Elasmosaurus needs a lake; additional purchases.
        ("dino_garden", "An area holds dinosaurs of total size 4, or 6 with a volcano"),
        ("dino_garden", "an Elasmosaurus needs a lake"),
        ("dino_garden", "you may buy for an area next to your Employee"),
        # Next Round Preparation refills the Main track.
        ("dino_garden", "fill the Main track again"),
        ("dino_garden_2p", "take meat tokens from the area of the Feeder's space onto your Feed Bag"),
        # "Remove each prey on the predator's path and replace it with a new predator piece".
        ("gods_love_dinosaurs", "replaced by a new predator of its kind: its offspring"),
        # One-time Events remove Dinos and Nests and flip tiles, not only where the tile goes.
        ("dino_dynasty", "then every Nest inside is removed"),
        ("dino_dynasty", "flips the tiles the Event's pattern names"),
        ("dino_dynasty", "What stood on it moves to another tile of its Biome"),
        ("dino_dynasty", "each collected Morph token that fits the new species stays in its slot"),
        ("dino_dynasty", "Other markers start on their standard positions"),
    ],
)
def test_the_aid_keeps_the_part_of_a_rule_a_player_needs(stem: str, said: str) -> None:
    """The aid cut each rule to its first sentence (issue 25, section 2): the author's `brief`
    keeps what a rule does and its limits."""
    assert said in _aid_words(stem)


@pytest.mark.parametrize(
    "stem",
    [
        "dino_dynasty",
        "dino_dynasty_dynasty",
        "dino_dynasty_campaign",
        "dino_dynasty_stasis",
        "dino_dynasty_teams",
    ],
)
def test_the_aid_places_the_action_frames_at_setup(stem: str) -> None:
    """Setup step 1: "Place the EVOLVE MARKERS on their starting positions and ACTION FRAMES where
    these cross in the grid." The book and the aid placed only the Evolve markers."""
    assert "the Action frames where these cross in the grid" in _aid_words(stem)


@pytest.mark.parametrize(
    "stem", ["gods_love_dinosaurs", "dino_dynasty", "dino_dynasty_dynasty", "dino_garden_2p"]
)
def test_the_aid_says_how_to_win_at_the_top(stem: str) -> None:
    """The goal was only under "Scoring and winning" on these aids: the opening line kept was
    flavour. The first lines of the aid now say who wins."""
    checked = meeple.check(stem)
    assert checked.ok and checked.module and checked.symbols and checked.program
    game = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    assert any(aid.WINS.search(line) for line in game.aid.goal), game.aid.goal


def test_the_team_aid_tells_a_team_rule_once() -> None:
    """The Team game's aid printed its team rules in "What you do" and again in "In this
    variant": each sentence of the aid is printed once, and a definition the base game's words
    read (Attrition reads "Rival Biome") is printed among the definitions."""
    checked = meeple.check("dino_dynasty_teams")
    assert checked.ok and checked.module and checked.symbols and checked.program
    game = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", render.aid_markdown(game)) if len(s.split()) > 6]
    assert len(sentences) == len(set(sentences)), [s for s in sentences if sentences.count(s) > 1]
    defined = {name for name, _ in game.aid.defined}
    assert "Rival Biome" in defined  # read by the base game's Attrition, in the base game's words


def test_the_thin_line_between_two_entries_runs_under_the_descenders_of_the_first() -> None:
    """The aid's "What you do" entries are parted by thin lines; each ran 1.6 pt under its entry's
    last baseline, through its "g", "p" and "y" (issue 25, layout): each thin line lies at least
    a descender's depth (a fifth of the text's size) under the baseline above it."""
    checked = meeple.check("dino_party")
    assert checked.ok and checked.module and checked.symbols and checked.program
    game = render.game_docs(checked.path, checked.module, checked.symbols, checked.program.constants)
    _, data, _ = render.fit(render.aid_candidates(game))
    gaps = pdfs.rules_under_text(data)
    assert len(gaps) >= len(game.aid.actions) - 1, gaps
    assert all(gap >= size / 5 for gap, size in gaps), gaps
