"""The player aid has room for what a player asks (issue 25): a phase that holds one rule is one
line of the aid's game outline, and Dino Party's one-page aid says what each of its three events
does and how players tied for the fewest Dinos share them."""

from __future__ import annotations

import re

import pdfs

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
