"""The English of generated rulebooks: every AST node has words, and each form says what it does.

The table below is the contract of `meeple.codegen.english`: one row per form of statement and
expression, with the sentence a reader gets. A test also proves that the table covers every
expression and statement type of `grammar/ast.py`, and that every node of every bundled game can
be spoken, so a new node type fails here until it has words.
"""

from __future__ import annotations

import inspect

import pytest

import meeple
from meeple.codegen.english import HANDLERS, English
from meeple.codegen.markup import markdown, plain, to_html
from meeple.codegen.players import PlayersEnglish
from meeple.grammar import ast
from meeple.grammar.parser import parse
from meeple.interpreter.analysis import analyse

CONTEXT = """game "Words":
  players 2..4

constant hand_size = 5
table colour (name, bright: bool, worth: int):
  red,  yes, 3
  blue, no,  1
table link (a: colour, b: colour):
  red, blue
map palette:
  nodes colour
  edges link (a, b)
zone reserve
zone hand per player
zone deck, hidden, ordered
piece cube: 10 per player in reserve
piece card: each colour in deck
var round: int = 0
var gold: int = 0 per player
counter trades per player
value riches(p: player) = p.gold
value cubes_at(z: any) = pieces(z, cube)
value is_rich(p: player) = p.gold > 5

rule helper(p: player, q: player):
  log "x"

rule r(p: player, z: zone, n: int):
{body}

play:
  r(players[0], reserve, 1)
"""

# (what the row shows, the statement(s) in rule r's body, the sentence of its first line)
STATEMENTS = [
    ("move N", "move 2 cube of p from reserve to p.hand", "Move up to 2 cube of p from reserve to p's hand."),
    ("move 1", "move 1 cube from reserve to z", "Move one cube from reserve to z, if there is one."),
    (
        "move N, an expression",
        "move n + 1 cube from reserve to z",
        "Move up to (n plus 1) cube from reserve to z.",
    ),
    ("move all", "move all cube of p from p.hand to reserve", "Move all cube of p from p's hand to reserve."),
    ("move pieces", "move pieces(p.hand) to reserve", "Move the pieces in p's hand to reserve."),
    ("set", "set p.gold to 3", "Set p's gold to 3."),
    ("swap", "swap round with p.gold", "Swap round with p's gold."),
    ("reveal", "reveal pieces(p.hand) to p", "Show the pieces in p's hand to p, and to no one else."),
    ("tally", "tally trades for p by 2", "Count trades for p by 2 (for statistics)."),
    ("lift", "lift n", "Lift n off the map: what lies under it shows again."),
    ("set as add", "set round to round + 1", "Add 1 to round."),
    ("set as subtract", "set p.gold to p.gold - n", "Subtract n from p's gold."),
    ("add", "add 2 to p.gold", "Add 2 to p's gold."),
    ("subtract", "subtract n from p.gold", "Subtract n from p's gold."),
    ("let", "let k = count(pieces(p.hand, cube))", "Let k be the number of cube in p's hand."),
    (
        "let a condition",
        "let full = count(pieces(z)) >= hand_size",
        "Let full be whether the number of pieces in z is at least hand size (5).",
    ),
    ("shuffle", "shuffle deck", "Shuffle deck."),
    ("draw", "draw 2 from deck to p.hand", "Draw the top 2 pieces of deck to p's hand."),
    ("draw 1", "draw 1 from deck to p.hand", "Draw the top piece of deck to p's hand."),
    ("end game", "end game", "The game ends."),
    ("log", 'log "{p} has {p.gold} gold"', "Log \u201c[p] has [p's gold] gold\u201d."),
    ("call a rule", "helper(p, players[1])", "Helper for p and Player 2."),
    (
        "if",
        "if p.gold > 3:\n  end game\nelif p.gold == 0:\n  end game\nelse:\n  end game",
        "If p's gold is more than 3:",
    ),
    (
        "for each",
        "for each q in players where q != p:\n  add 1 to q.gold",
        "For each q in the players where q is not p:",
    ),
    (
        "for each, in turn order",
        "for each q in players_from(p):\n  add 1 to q.gold",
        "For each q in the players, starting with p:",
    ),
    (
        "for each over a filter",
        "for each c in [each c in palette where c.bright]:\n  add 1 to round",
        "For each c in palette where c is bright:",
    ),
    (
        "for each, chosen order",
        "for each c in palette chosen by p:\n  add 1 to round",
        "For each c in palette, in the order p chooses:",
    ),
    (
        "for each, chosen order with a prompt",
        'for each c in palette chosen by p prompt "Colour next":\n  add 1 to round',
        "For each c in palette, in the order p chooses (“Colour next”):",
    ),
    ("repeat", "repeat hand_size times:\n  add 1 to round", "Repeat hand size (5) times:"),
    ("repeat once", "repeat 1 times:\n  add 1 to round", "Once:"),
    ("while", "while round < 3:\n  add 1 to round", "As long as round is less than 3, repeat:"),
    ("while yes", "while yes:\n  end game", "Repeat until the game ends:"),
    (
        "choose",
        'choose c from palette where c.bright by p prompt "Pick a colour":\n  add c.worth to p.gold',
        "p chooses a c from palette where c is bright (\u201cPick a colour\u201d):",
    ),
    ("choose between", "choose c from [red, blue] by p:\n  add 1 to round", "p chooses a c: red or blue:"),
    (
        "may choose",
        "may choose q from players where q != p by p:\n  add 1 to q.gold\nelse:\n  end game",
        "p may choose a q from the players where q is not p:",
    ),
    (
        "choose, current player",
        "choose c from palette:\n  add 1 to round",
        "The current player chooses a c from palette:",
    ),
    (
        "may (yes or no)",
        'may "Pay one gold?" by p:\n  subtract 1 from p.gold',
        "If p says yes to \u201cPay one gold?\u201d:",
    ),
    (
        "random",
        'random "roll":\n  outcome hit chance 60:\n    end game\n  outcome miss otherwise:\n    end game',
        "Chance decides the roll:",
    ),
    (
        "pick",
        "pick c at random from palette where not c.bright:\n  add 1 to round",
        "Pick a c at random from palette where c is not bright:",
    ),
    ("turn", "turn p:\n  add 1 to round", "p's turn:"),
    (
        "offer",
        "offer helper(p, p) to p where p.gold > 0:\n  add 1 to round",
        "Meanwhile, whenever p decides something, p may first helper for p and p"
        " (when p's gold is more than 0):",
    ),
    ("phase", "phase day:\n  add 1 to round", "Phase day:"),
    ("step", "step morning_market:\n  add 1 to round", "Step morning market:"),
    ("text", 'text "Everyone gains one."\nadd 1 to round', "Everyone gains one."),
    ("says", 'says "Everyone gains one."\nadd 1 to round', "Everyone gains one."),
    (
        "conflict",
        'conflict "How much":\n  cites "gain one"\n  cites "gain two"\n  text "We follow one."\n'
        "add 1 to round",
        "How much: the rulebook says \u201cgain one\u201d and \u201cgain two\u201d. We follow one.",
    ),
]

# (what the row shows, an expression, its words)
EXPRESSIONS = [
    ("number", "3", "3"),
    ("text", '"hi"', "\u201chi\u201d"),
    ("yes", "yes", "yes"),
    ("none", "none", "none"),
    ("constant", "hand_size", "hand size (5)"),
    ("variable", "round", "round"),
    ("parameter", "p", "p"),
    ("players", "players", "the players"),
    ("current", "current", "the current player"),
    ("player count", "player_count", "the number of players"),
    ("attribute", "p.gold", "p's gold"),
    (
        "attribute of an attribute",
        "pieces(z)[0].owner.gold",
        "the gold of the owner of the first of the pieces in z",
    ),
    ("table row", "colour.red", "red"),
    ("a player by seat", "players[1]", "Player 2"),
    ("first element", "pieces(z)[0]", "the first of the pieces in z"),
    (
        "element by position",
        "players[n % 2]",
        "item (the remainder of n divided by 2) of the players, counting from 0",
    ),
    ("count pieces", "count(pieces(z, cube, p))", "the number of cube of p in z"),
    ("count a list", "count(players)", "the number of items in the players"),
    (
        "count a filter",
        "count([each q in players where q.gold > 0])",
        "the number of q in the players where q's gold is more than 0",
    ),
    ("sum of attributes", "sum([c.worth for each c in palette])", "the total worth of palette"),
    ("sum", "sum([n, 2])", "the total of n and 2"),
    ("max of two", "max(n, 2)", "the larger of n and 2"),
    (
        "min of a list",
        "min([q.gold for each q in players])",
        "the smallest q's gold for any q in the players",
    ),
    ("all", "all([q.gold > 0 for each q in players])", "q's gold is more than 0 for every q in the players"),
    ("any", "any([c.bright for each c in palette])", "c is bright for some c in palette"),
    ("abs", "abs(n)", "the absolute value of n"),
    ("neighbours", "neighbours(red)", "the neighbours of red"),
    ("regions", "regions(palette, bright)", "the regions of palette with one bright each"),
    ("next player", "next_player(p)", "the player after p"),
    ("value", "riches(p)", "riches of p"),
    ("value ending in a preposition", "cubes_at(z)", "cubes at z"),
    ("value that is a predicate", "is_rich(p)", "p is rich"),
    ("some pieces", "count(pieces(z, cube, p)) > 0", "there is a cube of p in z"),
    ("no piece", "count(pieces(z)) == 0", "there is no piece in z"),
    (
        "none such",
        "count([each q in players where q.gold > 0]) == 0",
        "there is no q in the players where q's gold is more than 0",
    ),
    ("an empty list", "count(players) < 1", "the players is empty"),
    ("negative", "-n", "minus n"),
    ("not", "not n > 2", "n is at most 2"),
    ("arithmetic", "n * 2 + 1", "n times 2 plus 1"),
    ("brackets", "(n + 1) * 2", "(n plus 1) times 2"),
    ("division", "n // 2", "n divided by 2 (rounded down)"),
    ("range", "1..6", "1 to 6"),
    ("in a list", "z in [reserve, deck]", "z is one of reserve or deck"),
    ("not in", "p not in players", "p is not in the players"),
    ("and, or", "n > 1 and (n < 5 or n == 9)", "n is more than 1 and (n is less than 5 or n is 9)"),
    ("list", "[1, 2, 3]", "1, 2 and 3"),
    ("if then else", "if n > 2 then n else 2", "n if n is more than 2, otherwise 2"),
    ("if then else, inside", "1 + (if n > 2 then n else 2)", "1 plus (n if n is more than 2, otherwise 2)"),
    (
        "filter",
        "[each q in players where q.gold > 0]",
        "every q in the players where q's gold is more than 0",
    ),
    (
        "map",
        "[q.gold for each q in players where q != p]",
        "q's gold for each q in the players where q is not p",
    ),
]


def module_with(body: str) -> tuple[ast.Module, English]:
    indented = "\n".join(f"  {line}" if line.strip() else line for line in body.splitlines())
    module = parse(CONTEXT.format(body=indented), "words.rules")
    symbols, _ = analyse(module)
    return module, English(symbols, {"hand_size": 5})


def rule_body(module: ast.Module) -> list[ast.Stmt]:
    rule = next(d for d in module.decls if isinstance(d, ast.RuleDecl) and d.name == "r")
    return rule.body


@pytest.mark.parametrize(("form", "source", "words"), STATEMENTS, ids=[s[0] for s in STATEMENTS])
def test_statement(form: str, source: str, words: str) -> None:
    module, english = module_with(source)
    lines = english.stmt(rule_body(module)[0])
    assert plain(lines[0].text) == words


@pytest.mark.parametrize(("form", "source", "words"), EXPRESSIONS, ids=[e[0] for e in EXPRESSIONS])
def test_expression(form: str, source: str, words: str) -> None:
    module, english = module_with(f"let e = {source}")
    let = rule_body(module)[0]
    assert isinstance(let, ast.Let)
    assert plain(english.cond(let.value)) == words


def node_types(base: type[ast.Node]) -> set[type[ast.Node]]:
    return {
        c
        for _, c in inspect.getmembers(ast, inspect.isclass)
        if issubclass(c, base) and c not in (ast.Expr, ast.Stmt)
    }


def test_the_tables_cover_every_statement_and_expression_type() -> None:
    """Each expression and statement type of the AST has at least one row above."""
    covered: set[type[ast.Node]] = set()
    for _, source, _ in STATEMENTS:
        module, _ = module_with(source)
        covered.add(type(rule_body(module)[0]))
    for _, source, _ in EXPRESSIONS:
        module, _ = module_with(f"let e = {source}")
        covered |= {type(n) for n in rule_body(module)[0].value.walk()}  # type: ignore[attr-defined]
    # `place` and `shift` need a grid map (tests/test_shift.py speaks `shift`); a `called` line
    # names its block and says nothing (tested below); `called each` stands among a table's lines
    # only (tests/test_called_each.py); a `numbered` line numbers its step (tests/test_codegen_order.py).
    missing = (
        (node_types(ast.Expr) | node_types(ast.Stmt))
        - covered
        - {
            ast.Place,
            ast.Shift,
            ast.Called,
            ast.CalledEach,
            ast.Numbered,
        }
    )
    assert not missing, f"no row speaks {sorted(t.__name__ for t in missing)}"


def test_every_node_type_has_words() -> None:
    concrete = {
        c
        for _, c in inspect.getmembers(ast, inspect.isclass)
        if issubclass(c, ast.Node) and c not in (ast.Node, ast.Expr, ast.Stmt, ast.Decl)
    }
    missing = concrete - set(HANDLERS)
    assert not missing, f"english.HANDLERS lacks {sorted(t.__name__ for t in missing)}"


@pytest.mark.parametrize("path", meeple.bundled_games(), ids=lambda p: p.stem)
def test_every_node_of_every_game_can_be_spoken(path: object) -> None:
    checked = meeple.check(path)  # type: ignore[arg-type]
    assert checked.module is not None
    english = English(checked.symbols, checked.program.constants if checked.program else {})
    for node in checked.module.walk():
        words = plain(english.say(node))
        assert words.strip(), f"no words for {type(node).__name__} at line {node.span.line}"


def test_nested_sentences_keep_their_structure() -> None:
    module, english = module_with(
        'random "roll":\n  outcome hit chance 60:\n    add 1 to round\n'
        "  outcome miss otherwise:\n    end game"
    )
    line = english.stmt(rule_body(module)[0])[0]
    assert [plain(c.text) for c in line.children] == ["hit (60 in 100):", "miss (the rest):"]
    assert plain(line.children[0].children[0].text) == "Add 1 to round."
    assert (
        line.flat()
        == "Chance decides the roll: hit (60 in 100): Add 1 to round; miss (the rest): The game ends"
    )


def test_if_gives_one_line_per_branch() -> None:
    module, english = module_with("if n > 1:\n  end game\nelif n == 0:\n  end game\nelse:\n  add 1 to round")
    lines = english.stmt(rule_body(module)[0])
    assert [plain(line.text) for line in lines] == [
        "If n is more than 1:",
        "Otherwise, if n is 0:",
        "Otherwise:",
    ]


def test_variables_and_rule_calls_are_marked_for_each_format() -> None:
    module, english = module_with("helper(p, players[1])")
    text = english.stmt(rule_body(module)[0])[0].text
    assert markdown(text) == "[Helper](#rule-helper) for *p* and Player 2."
    assert (
        str(to_html(text)) == '<a class="ref" href="#rule-helper">Helper</a> for <var>p</var> and Player 2.'
    )


def test_author_text_is_escaped_not_interpreted() -> None:
    module, english = module_with('log "<b>*{p}*</b> | [x]"')
    text = english.stmt(rule_body(module)[0])[0].text
    assert "<b>" not in str(to_html(text)) and "&lt;b&gt;" in str(to_html(text))
    assert markdown(text) == "Log \u201c\\<b\\>\\*\\[*p*\\]\\*\\</b\\> \\| \\[x\\]\u201d."


VARIANT = """variant "Quick" of "words.rules":
  players 2..3
replace constant hand_size = 3
replace step morning:
  log "x"
remove rule helper
insert after phase day:
  log "y"
extend table colour:
  green, yes, 2
extend setup:
  log "z"
"""


def test_a_variant_before_it_is_applied_can_be_spoken() -> None:
    english = English()
    words = [plain(english.say(d)) for d in parse(VARIANT, "quick.rules").decls]
    assert words == [
        "Quick: a variant of words.rules, for 2 to 3 players",
        "Instead of the base game's: hand size is 3",
        "Replace step morning with: Log \u201cx\u201d",
        "Remove the rule helper",
        "After phase day: Log \u201cy\u201d",
        "Add to colour the rows green, yes, 2",
        "Add to the setup: Log \u201cz\u201d",
    ]


def test_a_name_line_is_a_note_for_the_designer_and_no_step_for_players() -> None:
    module, english = module_with('called "Round", "Rounds"\nadd 1 to round')
    called = rule_body(module)[0]
    assert isinstance(called, ast.Called)
    assert (
        plain(english.stmt(called)[0].text)
        == "Called \u201cRound\u201d (plural \u201cRounds\u201d) by players."
    )
    assert english.sym is not None
    assert PlayersEnglish(english.sym).stmt(called) == []
