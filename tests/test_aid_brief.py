"""The player aid keeps the rule a player needs (issue 25, section 2; the outside reading of
r25read5): it printed each rule cut to its first sentence, so that Dino Garden's Feeding told how
the Feeder moves and not that it carries meat, and Dino Dynasty's One-time Events where the tile
goes and not what it does. Its author now writes the short form the aid prints (`brief`); and
the aid opens with how a game is won. Each test writes a small neutral
game."""

from __future__ import annotations

from pathlib import Path

import meeple
from meeple.codegen import render
from meeple.codegen.aid import Aid

GAME = """\
game "Chips":
  players 2..2
  says "Two players take chips from a bag. After two rounds the game ends."
zone bag
zone pot per player
piece chip: 40 per player in bag
constant bonus_count = 3
rule bonus(p: player):
  called "Bonus"
  says "Take a bonus from the bag. It is {bonus_count} chips, counted one at a time, each to your pot."
  brief "Take {bonus_count} chips into your pot."
  repeat bonus_count times:
    move 1 chip of p from bag to p.pot
play:
  repeat 2 times:
    phase round:
      for each p in players:
        turn p:
          bonus(p)
score p = count(pieces(p.pot))
  says "You score a point for each chip in your pot. The player with the most points wins."
"""


def docs(tmp_path: Path, source: str = GAME, name: str = "chips.rules") -> render.GameDocs:
    path = tmp_path / name
    path.write_text(source)
    checked = meeple.check(path)
    assert checked.ok and checked.module and checked.symbols and checked.program, checked.diagnostics
    return render.game_docs(path, checked.module, checked.symbols, checked.program.constants)


def line(aid: Aid, name: str) -> str:
    (said,) = [gist for rule, gist in aid.actions if rule == name]
    return said


def test_a_rules_brief_is_what_the_aid_prints_and_the_rulebook_keeps_its_says(tmp_path: Path) -> None:
    """`brief` is the author's short form for the aid, its values filled as a `says`'s are; the
    rulebook prints the whole `says` and never the brief."""
    game = docs(tmp_path)
    assert line(game.aid, "Bonus") == "Take 3 chips into your pot."
    book = " ".join(render.rulebook_markdown(game).split())
    assert "It is 3 chips, counted one at a time" in book
    assert "Take 3 chips into your pot" not in book


def test_a_brief_naming_an_unknown_value_is_refused_where_it_is_written(tmp_path: Path) -> None:
    path = tmp_path / "chips.rules"
    path.write_text(GAME.replace('brief "Take {bonus_count}', 'brief "Take {bonus_cuont}'))
    checked = meeple.check(path)
    (error,) = [d for d in checked.diagnostics if d.severity == "error"]
    assert (
        "bonus_cuont" in error.message
        and error.line == GAME.split("\n").index('  brief "Take {bonus_count} chips into your pot."') + 1
    )


def test_the_aid_opens_with_who_wins_where_the_overview_does_not_say(tmp_path: Path) -> None:
    """The overview says what the game is and when it ends; who wins is the scoring's sentence,
    which the aid prints at the top too, not only under "Scoring and winning"."""
    goal = docs(tmp_path).aid.goal
    assert goal == [
        "Two players take chips from a bag. After two rounds the game ends.",
        "The player with the most points wins.",
    ]


def test_an_overviews_sentence_that_says_who_wins_is_kept_in_the_aids_goal(tmp_path: Path) -> None:
    """ "Whoever ... wins" in the overview's third sentence is kept, and nothing is added."""
    source = GAME.replace(
        "After two rounds the game ends.", "Chips are worth points. Whoever holds the most chips wins."
    )
    goal = docs(tmp_path, source).aid.goal
    assert goal == ["Two players take chips from a bag. Whoever holds the most chips wins."]


def test_a_variant_that_gives_a_rule_new_words_takes_its_brief_away(tmp_path: Path) -> None:
    """A `reword` with new `says` replaces the base's words, its `brief` among them: the aid
    prints the variant's rule, not the base game's short form of the old one."""
    (tmp_path / "base.rules").write_text(GAME)
    variant = (
        'variant "Big bonus" of "base.rules":\n  says "The bonus is counted in pairs."\n'
        "reword rule bonus:\n"
        '  says "Take a bonus of {bonus_count} pairs of chips into your pot."\n'
    )
    aid = docs(tmp_path, variant, "variant.rules").aid
    assert line(aid, "Bonus") == "Take a bonus of 3 pairs of chips into your pot."


def _m057(tmp_path: Path, source: str, name: str = "chips.rules") -> list[tuple[int, int, str]]:
    """What M057 reports of a rules file, as `meeple check` does: (line, column, message)."""
    from meeple.interpreter.checks import CheckOptions, run_checks

    path = tmp_path / name
    path.write_text(source)
    report = run_checks(meeple.check(path), str(path), CheckOptions())
    assert not [d for d in report.diagnostics if d.severity == "error"], report.diagnostics
    return [(d.line, d.column, d.message) for d in report.diagnostics if d.code == "M057"]


def test_a_rule_the_aid_cuts_without_a_brief_is_a_warning_at_its_says(tmp_path: Path) -> None:
    """An aid that cuts a rule silently loses words (issue 25): the aid prints a rule's first
    sentences only, unless its author wrote a `brief`. `meeple check` warns (M057) at the `says`
    of a rule the aid cuts that has no `brief`, saying how many words of how many the aid keeps
    and which; a rule with a `brief`, or whose words the aid keeps whole, is not reported; and
    the aid prints exactly what the warning says it keeps."""
    said = "Take a bonus from the bag whenever a round brings you one, before anything else."
    source = GAME.replace('says "Take a bonus from the bag.', f'says "{said}')
    without = source.replace('  brief "Take {bonus_count} chips into your pot."\n', "")
    (found,) = _m057(tmp_path, without)
    at = [i for i, text in enumerate(without.split("\n"), 1) if text.startswith(f'  says "{said}')]
    assert found[:2] == (at[0], 3)
    assert f'prints 15 of these 28 words, "{said}"' in found[2]
    assert line(docs(tmp_path, without).aid, "Bonus") == said  # what the aid prints
    assert _m057(tmp_path, source) == []  # its brief
    assert _m057(tmp_path, GAME.replace('  brief "Take {bonus_count} chips into your pot."\n', "")) == []
    # the first sentence has fewer than 12 words: the aid keeps the next too, here all of them


def test_a_phase_the_aids_outline_cuts_without_a_brief_is_a_warning_at_its_says(tmp_path: Path) -> None:
    """A phase's words are a line of the aid's outline, cut to their first sentence: M057 warns
    at them too, unless the phase has a `brief`; a variant's check reports only its own words."""
    phased = GAME.replace(
        "    phase round:\n",
        '    phase round:\n      says "Each player takes a bonus in turn. The first player starts."\n',
    )
    ((at, _, message),) = _m057(tmp_path, phased)
    assert phased.split("\n")[at - 1].strip().startswith('says "Each player takes a bonus in turn.')
    assert '"Each player takes a bonus in turn."' in message
    briefed = phased.replace(
        '      says "Each player takes a bonus in turn. The first player starts."\n',
        '      says "Each player takes a bonus in turn. The first player starts."\n'
        '      brief "Each player takes a bonus."\n',
    )
    assert _m057(tmp_path, briefed) == []
    (tmp_path / "chips.rules").write_text(phased)
    variant = 'variant "More chips" of "chips.rules":\n  says "A bigger bonus."\n'
    assert _m057(tmp_path, variant + "replace constant bonus_count = 4\n", "more.rules") == []


def test_a_phase_told_by_a_text_the_aid_cuts_is_a_warning_and_its_brief_stands_for_the_text_alone(
    tmp_path: Path,
) -> None:
    """A phase told by a `text` and the steps under it: the aid prints the text's first sentence,
    then the steps, and lost the rest silently (Dino Garden's Action phase dropped the sentence
    that says whose token is farthest behind, and so who plays next). M057 warns at the `text`
    the aid cuts; with a `brief` there is no warning, and the aid prints the brief in place of the
    text and still the steps under it (a brief that stood for the whole phase hid them)."""
    told = GAME.replace(
        "    phase round:\n      for each p in players:\n        turn p:\n          bonus(p)\n",
        "    phase round:\n"
        '      text "Each player takes a bonus in turn. The player with fewer chips goes first."\n'
        "      step turns:\n"
        '        called "Turns"\n'
        '        says "Take your bonus."\n'
        "        for each p in players:\n"
        "          turn p:\n"
        "            bonus(p)\n",
    )
    ((at, _, message),) = _m057(tmp_path, told)
    assert told.split("\n")[at - 1].strip().startswith('text "Each player takes a bonus in turn.')
    assert '"Each player takes a bonus in turn."' in message
    briefed = told.replace(
        'goes first."\n', 'goes first."\n      brief "Each player takes a bonus, fewer chips first."\n'
    )
    assert _m057(tmp_path, briefed) == []
    (phase,) = [x for x in docs(tmp_path, briefed).aid.flow if x.text.startswith("Round")]
    said = [c.text for c in phase.children]
    assert said[0] == "Each player takes a bonus, fewer chips first."
    assert any(s.startswith("Turns") for s in said), said  # the step under it, still printed
