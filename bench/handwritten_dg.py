"""Dino Garden written by hand in plain Python: the speed bar for meeple.

This plays exactly the rules of `games/dino_garden.rules` for 3 and 4 players (the base game, not
the 2-player or solo variants), with the same decision points and the same options in the same
order, so that figures are comparable (see `bench.py --compare`):

- setup: the Event card to keep;
- a turn: where to move the Owner token (or pass: go to Standby); the dinosaur of a two-faced
  Round chip; advertisement or Special Dinosaur on a blue chip; each further Employee space
  (free, then paid); additional purchases before and after placing (buy a volcano, uncover a lake,
  buy from the Wasteland, or pass) and their areas and tokens; the area for the new dinosaur;
  Feeding (yes/no, then take, drop, move, pay and move, done, and which meat); the Special
  Dinosaur card and area; the free-action menu at the end of the turn;
- free actions (achieve a Milestone tile and its Bonus card, a dinosaur or a volcano to the
  Wasteland, refill a lake, upgrade the Feed Bag) and what they ask (areas, tokens, what an
  area that shrank gives up, a bonus's Special Dinosaur, Bonus Dinosaur, volcano, lake or meat);
- the Predator phase: the free-action menu, which carnivore eats next and which meat (or pass),
  the menu again; immediate bonuses and the menu once more;
- the Producer phase: which area produces next, only when the supply runs short.

As in meeple, a decision with a single option is taken automatically; the options of a piece
choice, and of the order of a `for each ... chosen by` over pieces (which carnivore eats next), are
the distinct pieces (identical tokens in one place are one option, the order being where each first
lies, and the first of them is the one taken); a `may choose` ends with "pass". While the rules'
`offer` of free actions is open (Steps 1 to 3 of a turn, a player's carnivores eating), every
decision of that player that can be followed by a free action gets a last option "free action",
which runs the menu and asks the same question again, its options worked out afresh. Chance is
`random.Random(seed)` used exactly as meeple's engine uses it: `randrange` for each `pick at
random`, `shuffle` for each shuffle of the bag and the Event deck, on lists in the order meeple's
zones hold them; so for one seed and one list of answers both play the same game, which is how
`bench.py --compare` checks this file against the rules.

The game data (dinosaurs, chips, tracks, paths, milestones, cards, boards) is copied as Python
literals from the tables of `games/dino_garden.rules`, not read from the component JSON: the rules
file is what is played, and its tables are the authored reading of that data. It does not import
meeple.

It is written the way one would write a game by hand: a game is a Python generator that yields a
`Decision` whenever a player must choose and receives the index of the answer; `State` drives it
with the same small API as meeple's (`decision`, `apply`, `is_over`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

PASS = "pass"  # the last option of a `may choose`
FREE_ACTION = "free action"  # the option the free-action offer adds

# ---------------------------------------------------------------------- the data (from the .rules)

START_FUNDS = 2
MAX_FUNDS = 15
BASE_AREA_SIZE = 4
VOLCANO_BONUS = 2
LAKE_BONUS = 2
VOLCANO_COST = 2
LAKE_COST = 2
WASTELAND_COST = 2
EMPLOYEE_FREE_STEPS = 3
EMPLOYEE_MAX_STEPS = 5
EMPLOYEE_STEP_COST = 1
FEEDER_FREE_STEPS = 3
FEEDER_STEP_COST = 1
BAG_CAPACITY = 3
UPGRADED_CAPACITY = 5
UPGRADE_COST = 3
UPGRADE_POINTS = 3
ADVERT_FUNDS = 3
VOLCANO_TOKENS = 16
SPECIAL_CARDS_IN_PLAY = 3
EVENT_CARDS_DEALT = 2
PREDATOR_END = 18
CUBES_PER_COLOUR = 5
ROUNDS = {3: 3, 4: 4}

MEAT = ("small", "medium", "large")  # by rank
MEAT_RANK = {"small": 1, "medium": 2, "large": 3}
MEAT_SUPPLY = {"small": 14, "medium": 14, "large": 9}


class Dino(NamedTuple):
    """A row of the `dinosaur` table."""

    name: str
    regular: bool
    tokens: int
    size: int
    diet: str
    produces: str | None
    eats_from: str | None
    bonus_meat: str | None
    bonus_spaces: int
    needs_lake: bool
    vp: int
    vp_lake: int
    vp_volcano: int
    cost: int


# fmt: off
DINOSAURS = (
    Dino("velociraptor",       True,  17, 1, "carnivore", None,     "small",  None,    0, False, 1, 1, 2, 0),
    Dino("tyrannosaurus",      True,  17, 2, "carnivore", None,     "medium", None,    0, False, 1, 1, 3, 0),
    Dino("pachycephalosaurus", True,  13, 1, "herbivore", "small",  None,     None,    0, False, 1, 2, 1, 0),
    Dino("triceratops",        True,  13, 2, "herbivore", "medium", None,     None,    0, False, 1, 3, 1, 0),
    Dino("pteranodon",         True,  8,  1, "carnivore", None,     "large",  "large", 1, False, 1, 1, 3, 0),
    Dino("elasmosaurus",       True,  8,  3, "herbivore", "large",  None,     None,    0, True,  5, 5, 5, 0),
    Dino("spinosaurus",        False, 4,  0, "carnivore", None,     "small",  None,    0, False, 3, 5, 3, 5),
    Dino("archaeopteryx",      False, 4,  0, "neither",   None,     None,     None,    0, False, 2, 2, 2, 3),
    Dino("parasaurolophus",    False, 4,  0, "neither",   None,     None,     None,    0, False, 3, 3, 3, 4),
    Dino("dracorex",           False, 4,  0, "neither",   None,     None,     None,    0, False, 3, 3, 3, 4),
    Dino("sinosauropteryx",    False, 4,  0, "neither",   None,     None,     None,    0, False, 2, 2, 2, 3),
    Dino("stegosaurus",        False, 4,  0, "herbivore", "medium", None,     None,    0, False, 3, 3, 3, 5),
    Dino("amargasaurus",       False, 4,  0, "neither",   None,     None,     None,    0, False, 3, 3, 3, 4),
)
# fmt: on

# Special Dinosaur abilities: dinosaur -> (effect, amount); each card has one.
SPECIAL_ABILITY = {
    "spinosaurus": ("carnivore_meat_per_phase", 2),
    "archaeopteryx": ("employee_free_spaces", 1),
    "parasaurolophus": ("meat_uses_in_area", 2),
    "dracorex": ("event_extra_funds", 1),
    "sinosauropteryx": ("feeder_free_spaces", 1),
    "stegosaurus": ("area_size", 1),
    "amargasaurus": ("herbivore_extra_meat_in_area", 1),
}

AREAS = ("upper_left", "upper_middle", "upper_right", "lower_left", "lower_middle", "lower_right")
EVENT_AREAS = ("upper_right", "lower_right")
# The Employee path e1..e6, clockwise: the two areas beside each space. The Event arrow lies after e1.
EMPLOYEE_PATH = (
    ("upper_left", "upper_middle"),
    ("upper_middle", "upper_right"),
    ("upper_right", "lower_right"),
    ("lower_middle", "lower_right"),
    ("lower_left", "lower_middle"),
    ("upper_left", "lower_left"),
)
EVENT_ARROW_AFTER = 0
# The Feeder path f1..f10, counterclockwise: the area of each space.
FEEDER_PATH = (
    "lower_middle",
    "lower_right",
    "lower_right",
    "upper_right",
    "upper_right",
    "upper_middle",
    "upper_left",
    "upper_left",
    "lower_left",
    "lower_left",
)

# The Main track: space number -> (icon, fewest players it is used with).
TRACK_LENGTH = 19
SPACE_ICONS = {
    3: ("feeding", 2),
    5: ("special_purchase", 3),
    7: ("feeding", 2),
    10: ("feeding", 3),
    12: ("special_purchase", 2),
    14: ("feeding", 2),
    16: ("special_purchase", 3),
    18: ("feeding", 3),
}
SPACE_NAMES = tuple(f"s{n}" for n in range(1, TRACK_LENGTH + 1))
STANDBY_VP = (5, 3, 1, 0)  # st1 (bottom) to st4

# The chips: name -> (colour, dinosaur, meat icon), in table order.
CHIPS: dict[str, tuple[str, str | None, str | None]] = {
    "dinosaur_1": ("beige", "velociraptor", None),
    "dinosaur_2": ("beige", "velociraptor", None),
    "dinosaur_3": ("beige", "velociraptor", None),
    "dinosaur_4": ("beige", "tyrannosaurus", None),
    "dinosaur_5": ("beige", "tyrannosaurus", None),
    "dinosaur_6": ("beige", "tyrannosaurus", None),
    "dinosaur_7": ("beige", "pachycephalosaurus", "small"),
    "dinosaur_8": ("beige", "pachycephalosaurus", "small"),
    "dinosaur_9": ("beige", "pachycephalosaurus", "small"),
    "dinosaur_10": ("beige", "triceratops", "medium"),
    "dinosaur_11": ("beige", "triceratops", "medium"),
    "dinosaur_12": ("beige", "triceratops", "medium"),
    "dinosaur_13": ("beige", "pteranodon", None),
    "dinosaur_14": ("beige", "pteranodon", None),
    "dinosaur_15": ("beige", "elasmosaurus", "large"),
    "dinosaur_16": ("beige", "elasmosaurus", "large"),
    "blue_1": ("blue", None, None),
    "blue_2": ("blue", None, None),
    "blue_3": ("blue", None, None),
    "blue_4": ("blue", None, None),
    "round_1": ("orange", None, None),
    "round_2_4": ("orange", None, None),
    "round_3": ("orange", None, None),
}
# What the orange chip shows each round: (round, chip, dinosaur, meat icon).
ROUND_FACES = (
    (1, "round_1", "pteranodon", None),
    (2, "round_2_4", "pachycephalosaurus", "small"),
    (2, "round_2_4", "velociraptor", None),
    (3, "round_3", "elasmosaurus", "large"),
    (4, "round_2_4", "triceratops", "medium"),
    (4, "round_2_4", "tyrannosaurus", None),
)
WASTELAND_CHIP_SPACES = ("chip_space_1", "chip_space_2")
GROUND = "ground"
WASTELAND_SPOTS = (*WASTELAND_CHIP_SPACES, GROUND)


class Milestone(NamedTuple):
    name: str
    level: str
    condition: str
    dinosaur: str | None
    at_least: int


MILESTONES = (
    Milestone("upper_velociraptor", "upper", "count_total", "velociraptor", 4),
    Milestone("upper_tyrannosaurus", "upper", "count_total", "tyrannosaurus", 4),
    Milestone("upper_pachycephalosaurus", "upper", "count_total", "pachycephalosaurus", 3),
    Milestone("upper_triceratops", "upper", "count_total", "triceratops", 3),
    Milestone("upper_pteranodon", "upper", "count_total", "pteranodon", 2),
    Milestone("upper_elasmosaurus", "upper", "count_total", "elasmosaurus", 2),
    Milestone("lower_carnivores_in_one_area", "lower", "in_one_area", None, 1),
    Milestone("lower_herbivores_in_one_area", "lower", "in_one_area", None, 1),
    Milestone("lower_predator_track", "lower", "predator_space_at_least", None, 7),
    Milestone("lower_special_dinosaurs", "lower", "special_tokens_at_least", None, 2),
    Milestone("lower_funds", "lower", "funds_at_least", None, 7),
    Milestone("lower_event_marker", "lower", "event_sets_at_least", None, 2),
)
MILESTONE_NEED = {
    "lower_carnivores_in_one_area": ("velociraptor", "tyrannosaurus", "pteranodon"),
    "lower_herbivores_in_one_area": ("pachycephalosaurus", "triceratops", "elasmosaurus"),
}
PAIRS = ("pair_1", "pair_2", "pair_3", "pair_4")
# The tile spaces in table order: (name, pair, level).
TILE_SPACES = tuple((f"{pair}_{level}", pair, level) for pair in PAIRS for level in ("upper", "lower"))
# (tile space, its pair, the other tile space of the pair)
TILE_SPACES_AND_OTHERS = tuple(
    (ts, pair, f"{pair}_{'lower' if level == 'upper' else 'upper'}") for ts, pair, level in TILE_SPACES
)
CUBE_VP = (6, 4, 3, 2)  # by position in a pair's cube space, from the left

PURCHASE_ACTS = ("buy_volcano", "uncover_lake", "buy_from_wasteland")
FREE_ACTS = (
    "achieve_milestone",
    "dinosaur_to_wasteland",
    "volcano_to_wasteland",
    "refill_lake",
    "upgrade_bag",
)
FEEDING_ACTS = ("take", "drop", "move", "pay and move", "done")


class Effect(NamedTuple):
    """What a Bonus card or a Predator track bonus does (the `effect` vocabulary and its arguments)."""

    effect: str
    amount: int
    meat_a: str | None = None
    meat_b: str | None = None


BONUS_CARDS = {
    "bonus_funds": Effect("gain_funds", 5),
    "bonus_predator": Effect("advance_predator", 4),
    "bonus_volcano_lake": Effect("gain_volcano_and_lake", 0),
    "bonus_special": Effect("purchase_special", 2),
    "bonus_dinosaur_token": Effect("take_bonus_dinosaur", 0),
}

# Event cards: name -> (the two dinosaurs of a set, (funds, victory points) per number of sets).
EVENTS: dict[str, tuple[str, str, tuple[tuple[int, int], ...]]] = {
    "event_1": ("pachycephalosaurus", "triceratops", ((1, 0), (2, 2), (3, 4), (4, 6), (5, 9))),
    "event_2": ("velociraptor", "tyrannosaurus", ((1, 0), (2, 2), (3, 4), (4, 6), (5, 9))),
    "event_3": ("triceratops", "velociraptor", ((1, 0), (2, 2), (3, 4), (4, 6), (5, 9))),
    "event_4": ("pachycephalosaurus", "velociraptor", ((1, 0), (2, 1), (2, 2), (3, 4), (3, 6), (4, 8))),
    "event_5": ("pachycephalosaurus", "pteranodon", ((1, 0), (2, 1), (2, 2), (3, 4), (3, 6), (4, 8))),
    "event_6": ("triceratops", "tyrannosaurus", ((1, 0), (2, 3), (4, 6), (5, 9))),
    "event_7": ("elasmosaurus", "pteranodon", ((1, 0), (3, 4), (4, 7), (5, 10))),
    "event_8": ("tyrannosaurus", "elasmosaurus", ((1, 0), (3, 5), (5, 10))),
}


class Bonus(NamedTuple):
    """A bonus under a Predator track space."""

    space: int
    kind: str  # immediate, ongoing or scoring
    dinosaur: str | None  # for scoring bonuses
    effect: Effect


def _scoring(space: int, dinosaur: str, amount: int) -> Bonus:
    return Bonus(space, "scoring", dinosaur, Effect("score_per_token", amount))


PREDATOR_BOARDS: dict[str, tuple[Bonus, ...]] = {
    "board_1": (
        _scoring(1, "pachycephalosaurus", 2),
        Bonus(4, "immediate", None, Effect("purchase_special", 2)),
        Bonus(7, "ongoing", None, Effect("event_extra_funds", 1)),
        _scoring(10, "tyrannosaurus", 2),
        _scoring(13, "pachycephalosaurus", 2),
    ),
    "board_2": (
        _scoring(1, "tyrannosaurus", 2),
        Bonus(4, "ongoing", None, Effect("feeder_free_spaces", 1)),
        Bonus(7, "immediate", None, Effect("gain_funds", 4)),
        _scoring(10, "elasmosaurus", 3),
        _scoring(13, "tyrannosaurus", 1),
    ),
    "board_3": (
        _scoring(1, "velociraptor", 2),
        Bonus(4, "ongoing", None, Effect("advertisement_funds", 5)),
        Bonus(7, "immediate", None, Effect("purchase_special", 2)),
        _scoring(10, "triceratops", 2),
        _scoring(13, "velociraptor", 1),
    ),
    "board_4": (
        _scoring(1, "triceratops", 2),
        Bonus(4, "immediate", None, Effect("gain_volcano_and_lake", 0)),
        Bonus(7, "immediate", None, Effect("take_bonus_dinosaur", 0)),
        _scoring(10, "pteranodon", 3),
        _scoring(13, "triceratops", 2),
    ),
    "board_5": (
        _scoring(1, "elasmosaurus", 3),
        Bonus(4, "ongoing", None, Effect("special_cost_reduction", 1)),
        Bonus(7, "immediate", None, Effect("gain_meat_any_area", 0, "small", "medium")),
        _scoring(10, "velociraptor", 2),
        _scoring(13, "elasmosaurus", 3),
    ),
    "board_6": (
        _scoring(1, "pteranodon", 2),
        Bonus(4, "immediate", None, Effect("upgrade_feed_bag", 0)),
        Bonus(7, "immediate", None, Effect("gain_meat_any_area", 2, "large")),
        _scoring(10, "pachycephalosaurus", 2),
        _scoring(13, "pteranodon", 3),
    ),
}
PREDATOR_VP = (0, 1, 1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 19, 20, 22)


@dataclass(frozen=True)
class Components:
    """The data the rules read, with the lookups a game needs."""

    dinos: dict[str, Dino]
    specials: tuple[str, ...]  # in table order
    regulars: tuple[str, ...]
    carnivores: frozenset[str]
    herbivores: frozenset[str]
    ability: dict[tuple[str, str], int]  # (dinosaur, effect) -> amount
    milestones: dict[str, Milestone]

    @classmethod
    def build(cls) -> Components:
        dinos = {d.name: d for d in DINOSAURS}
        return cls(
            dinos=dinos,
            specials=tuple(d.name for d in DINOSAURS if not d.regular),
            regulars=tuple(d.name for d in DINOSAURS if d.regular),
            carnivores=frozenset(d.name for d in DINOSAURS if d.diet == "carnivore"),
            herbivores=frozenset(d.name for d in DINOSAURS if d.diet == "herbivore"),
            ability={(d, e): amount for d, (e, amount) in SPECIAL_ABILITY.items()},
            milestones={m.name: m for m in MILESTONES},
        )


# ---------------------------------------------------------------------- the table


@dataclass(eq=False)
class Plot:
    """One area of a player's park. Token lists keep meeple's zone order (arrivals at the end,
    the first matching token leaves first), which decides the order of options."""

    name: str  # as meeple names it: p1_upper_left
    area: str
    dinos: list[str] = field(default_factory=list)
    meat: list[str] = field(default_factory=list)
    gnawed: list[str] = field(default_factory=list)  # used once (Parasaurolophus): one use left
    volcanoes: int = 0
    covers: int = 0  # a lake shows where no cover tile lies

    @property
    def has_lake(self) -> bool:
        return self.covers == 0

    @property
    def has_volcano(self) -> bool:
        return self.volcanoes > 0

    def __str__(self) -> str:
        return self.name


@dataclass(eq=False)
class Player:
    seat: int
    plots: dict[str, Plot]  # by area, in table order
    funds: int = START_FUNDS
    predator: int = 0
    bonus_upto: int = 0  # the highest space whose bonuses were received (immediate and ongoing)
    employee: int = 0  # index on EMPLOYEE_PATH
    feeder: int = 0  # index on FEEDER_PATH
    upgraded: bool = False
    passed: bool = False
    bought_from_wasteland: bool = False
    space: int = 0  # the Main track space of the Owner token, 0 when it is not on the track
    standby: int = 0  # its Standby space (1 = bottom), 0 when it is not there
    beside: list[str] = field(default_factory=list)  # the dinosaur taken from a chip
    beside_meat: list[str] = field(default_factory=list)
    feed_bag: list[str] = field(default_factory=list)
    cover_pile: int = 0
    cubes: int = CUBES_PER_COLOUR
    bonus_hand: list[str] = field(default_factory=list)
    event: str = ""
    board: str = ""

    def __str__(self) -> str:
        return f"Player {self.seat + 1}"


class Decision(NamedTuple):
    player: int
    prompt: str
    options: list[Any]

    @property
    def size(self) -> int:
        return len(self.options)


Flow = Generator[Decision, int, None]


def distinct(tokens: list[str]) -> list[str]:
    """Identical tokens in one place are one option, in the order they first lie there."""
    return list(dict.fromkeys(tokens))


def move_all(tokens: list[str], what: str, to: list[str]) -> None:
    """Every token of one kind from one place to another, keeping the order of the rest."""
    n = tokens.count(what)
    if n:
        tokens[:] = [t for t in tokens if t != what]
        to.extend([what] * n)


# ---------------------------------------------------------------------- the game


class Game:
    """One game of Dino Garden: `play()` is its flow, a generator of decisions."""

    def __init__(self, players: int, seed: int, components: Components) -> None:
        self.c = components
        self.rng = random.Random(seed)
        self.players = [
            Player(seat, {a: Plot(f"p{seat + 1}_{a}", a) for a in AREAS}) for seat in range(players)
        ]
        self.rounds = ROUNDS[players]
        self.round = 1
        self.turns = 0
        self.supply = {d: 0 for d in components.regulars}  # Regular Dinosaur tokens
        self.meat = dict(MEAT_SUPPLY)  # the meat supply
        self.bonus_dinos: list[str] = []
        self.bonus_meat = dict.fromkeys(MEAT, 0)
        self.on_card = {d: 0 for d in components.specials}
        self.in_play: set[str] = set()
        self.bag: list[str] = []
        self.track: list[str | None] = [None] * TRACK_LENGTH  # the chip on each space
        self.wasteland_chip: dict[str, str | None] = dict.fromkeys(WASTELAND_CHIP_SPACES)
        self.wasteland: dict[str, list[str]] = {w: [] for w in WASTELAND_SPOTS}  # dinosaur tokens
        self.wasteland_meat: dict[str, list[str]] = {w: [] for w in WASTELAND_CHIP_SPACES}
        self.volcanoes = 0  # on the Wasteland board
        self.tiles: dict[str, str] = {}  # tile space -> milestone
        self.cube_on: dict[str, set[int]] = {ts: set() for ts, _, _ in TILE_SPACES}  # seats
        self.cube_row: dict[str, list[int]] = {pair: [] for pair in PAIRS}  # seats, from the left
        self.in_predator_phase = False
        self.jaw: list[str] = []
        # How many carnivores of each type have had their turn to eat in the area being resolved
        # (the rules' `fed_in_area`): reset for each area, before anything is asked about it.
        self.fed = dict.fromkeys(components.carnivores, 0)
        self.offer_to: Player | None = None  # the player an open free-action offer is for
        self.offer_running = False
        # Feeding
        self.fed_steps = 0
        self.taken_here: set[str] = set()
        self.dropped_here: set[str] = set()

    # ------------------------------------------------------------------ decisions

    def offered(self, p: Player) -> bool:
        """Whether a decision of p now ends with the "free action" option (the rules' `offer`)."""
        return self.offer_to is p and not self.offer_running and self.free_action_possible(p)

    def take_offer(self, p: Player) -> Flow:
        """The free-action menu taken from an offer: not offered again inside itself."""
        self.offer_running = True
        try:
            yield from self.free_actions(p)
        finally:
            self.offer_running = False

    def choose(
        self, p: Player, prompt: str, options: Callable[[], list[Any]], optional: bool = False
    ) -> Generator[Decision, int, Any]:
        """The option chosen, or None for "pass" (and for a required choice without any option,
        whose `else` then runs). Options are worked out again after a free action."""
        while True:
            opts = options()
            if not opts and not optional:
                return None
            offered = self.offered(p)
            if len(opts) + optional + offered == 1:
                index = 0
            else:
                index = yield Decision(p.seat, prompt, opts + [PASS] * optional + [FREE_ACTION] * offered)
            if index < len(opts) + optional:
                return opts[index] if index < len(opts) else None
            yield from self.take_offer(p)

    def ask(self, p: Player, prompt: str) -> Generator[Decision, int, bool]:
        """A yes/no question."""
        return (yield from self.choose(p, prompt, lambda: ["yes", "no"])) == "yes"

    def next_of(self, p: Player, prompt: str, todo: list[Any]) -> Generator[Decision, int, Any]:
        """`for each ... chosen by p`: which element of `todo` next (removed from it). As in a
        `choose`, identical tokens are one option (which of them goes first makes no difference)
        and the first of them left is taken; when one distinct option is left it is taken without
        asking, even while free actions are offered. (Areas are never identical: no merging.)"""
        index = 0
        options = distinct(todo)  # free actions change the position, never `todo`
        while len(options) > 1:
            offered = self.offered(p)
            index = yield Decision(p.seat, prompt, [*options, FREE_ACTION] if offered else list(options))
            if index < len(options):
                index = todo.index(options[index])
                break
            yield from self.take_offer(p)
        return todo.pop(index)

    # ------------------------------------------------------------------ reading the position

    def ability(self, d: str, effect: str) -> int:
        return self.c.ability.get((d, effect), 0)

    def area_ability(self, pl: Plot, effect: str) -> int:
        return sum(self.c.ability.get((d, effect), 0) for d in pl.dinos)

    def park_ability(self, p: Player, effect: str) -> int:
        return sum(self.area_ability(pl, effect) for pl in p.plots.values())

    def used_size(self, pl: Plot) -> int:
        dinos = self.c.dinos
        return sum(dinos[d].size for d in pl.dinos)

    def capacity(self, pl: Plot) -> int:
        return (
            BASE_AREA_SIZE
            + LAKE_BONUS * pl.has_lake
            + VOLCANO_BONUS * pl.has_volcano
            + self.area_ability(pl, "area_size")
        )

    def fits(self, pl: Plot, d: str) -> bool:
        dino = self.c.dinos[d]
        return (
            self.used_size(pl) + dino.size <= self.capacity(pl) + self.ability(d, "area_size")
            and (not dino.needs_lake or pl.has_lake)
            and (dino.regular or not any(not self.c.dinos[x].regular for x in pl.dinos))
        )

    def fits_somewhere(self, p: Player, areas: tuple[str, ...], d: str) -> bool:
        return any(self.fits(p.plots[a], d) for a in areas)

    @staticmethod
    def volcano_ok(pl: Plot) -> bool:
        return not pl.has_volcano and not pl.has_lake

    lake_ok = volcano_ok  # an area takes either a volcano or an uncovered lake

    def tokens_of(self, p: Player, d: str) -> int:
        return sum(pl.dinos.count(d) for pl in p.plots.values())

    def specials_of(self, p: Player) -> int:
        return sum(1 for pl in p.plots.values() for d in pl.dinos if not self.c.dinos[d].regular)

    def ongoing_bonus(self, p: Player, effect: str) -> int:
        """An ongoing bonus takes effect after the Predator phase its space was reached in: only the
        spaces up to `bonus_upto` count, not every space the marker has passed."""
        return sum(
            b.effect.amount
            for b in PREDATOR_BOARDS[p.board]
            if b.kind == "ongoing"
            and b.effect.effect == effect
            and b.space <= p.predator
            and b.space <= p.bonus_upto
        )

    def marker(self, p: Player) -> int:
        """The Event marker: complete sets in the two Event areas, up to the card's last column."""
        first, second, columns = EVENTS[p.event]
        plots = [p.plots[a] for a in EVENT_AREAS]
        sets = min(sum(pl.dinos.count(first) for pl in plots), sum(pl.dinos.count(second) for pl in plots))
        return min(sets, len(columns) - 1)

    def event_income(self, p: Player) -> int:
        return (
            EVENTS[p.event][2][self.marker(p)][0]
            + self.ongoing_bonus(p, "event_extra_funds")
            + self.park_ability(p, "event_extra_funds")
        )

    def special_cost(self, p: Player, d: str, discount: int) -> int:
        return max(0, self.c.dinos[d].cost - discount - self.ongoing_bonus(p, "special_cost_reduction"))

    def cards_to_buy(self, p: Player, discount: int) -> list[str]:
        return [
            d
            for d in self.c.specials
            if d in self.in_play
            and self.on_card[d] > 0
            and self.special_cost(p, d, discount) <= p.funds
            and self.fits_somewhere(p, AREAS, d)
        ]

    def gain_funds(self, p: Player, amount: int) -> None:
        p.funds = min(MAX_FUNDS, p.funds + amount)

    def advance_predator(self, p: Player, spaces: int) -> None:
        p.predator = min(PREDATOR_END, p.predator + spaces)

    # Owner tokens

    def behind(self, p: Player) -> int:
        """Standby spaces first, from the bottom, then the Main track spaces in order."""
        return len(STANDBY_VP) + p.space if p.space else p.standby

    def farthest_behind(self) -> Player:
        movers = [q for q in self.players if not q.passed]
        least = min(self.behind(q) for q in movers)
        return next(q for q in movers if self.behind(q) == least)

    def standby_order(self) -> list[Player]:
        return sorted((q for q in self.players if q.standby), key=lambda q: q.standby)

    def lowest_free_standby(self, p: Player) -> int:
        taken = {q.standby for q in self.players if q is not p}
        return next(s for s in range(1, len(STANDBY_VP) + 1) if s not in taken)

    def icon(self, space: int) -> str | None:
        icon = SPACE_ICONS.get(space)
        return icon[0] if icon is not None and len(self.players) >= icon[1] else None

    # Milestones

    def meets(self, p: Player, m: Milestone, counts: Counter[str]) -> bool:
        """Whether p meets a milestone's condition; `counts` are p's dinosaur tokens by kind."""
        if m.condition == "count_total":
            return counts[m.dinosaur] >= m.at_least  # type: ignore[index]
        if m.condition == "in_one_area":
            need = MILESTONE_NEED[m.name]
            if not all(counts[d] for d in need):  # most often: one of them is nowhere yet
                return False
            return any(all(d in pl.dinos for d in need) for pl in p.plots.values())
        if m.condition == "predator_space_at_least":
            return p.predator >= m.at_least
        if m.condition == "special_tokens_at_least":
            dinos = self.c.dinos
            return sum(n for d, n in counts.items() if not dinos[d].regular) >= m.at_least
        if m.condition == "funds_at_least":
            return p.funds >= m.at_least
        return self.marker(p) >= m.at_least  # event_sets_at_least

    def achievable(self, p: Player) -> list[str]:
        counts = Counter(d for pl in p.plots.values() for d in pl.dinos)  # once, for every milestone
        out = []
        for ts, pair, other in TILE_SPACES_AND_OTHERS:
            if (
                p.seat not in self.cube_on[ts]
                and p.seat not in self.cube_row[pair]
                and (p.cubes > 0 or p.seat in self.cube_on[other])
                and self.meets(p, self.c.milestones[self.tiles[ts]], counts)
            ):
                out.append(self.tiles[ts])
        return out

    # Purchases and free actions

    def adjacent_areas(self, p: Player) -> tuple[str, str]:
        return EMPLOYEE_PATH[p.employee]

    def wasteland_offers(self, p: Player) -> list[str]:
        near = self.adjacent_areas(p)
        return [w for w in WASTELAND_SPOTS if any(self.fits_somewhere(p, near, d) for d in self.wasteland[w])]

    def available(self, p: Player, act: str) -> bool:
        if act == "buy_volcano":
            return (
                p.funds >= VOLCANO_COST
                and self.volcanoes > 0
                and any(self.volcano_ok(p.plots[a]) for a in self.adjacent_areas(p))
            )
        if act == "uncover_lake":
            return p.funds >= LAKE_COST and any(self.lake_ok(p.plots[a]) for a in self.adjacent_areas(p))
        if act == "buy_from_wasteland":
            return (
                p.funds >= WASTELAND_COST and not p.bought_from_wasteland and bool(self.wasteland_offers(p))
            )
        if act == "achieve_milestone":
            return bool(self.achievable(p))
        if act == "dinosaur_to_wasteland":
            return any(pl.dinos for pl in p.plots.values())
        if act == "volcano_to_wasteland":
            return any(pl.has_volcano for pl in p.plots.values())
        if act == "refill_lake":
            return p.cover_pile > 0
        return not p.upgraded and p.funds >= UPGRADE_COST  # upgrade_bag

    def free_action_possible(self, p: Player) -> bool:
        """Asked before nearly every decision of a turn: the Milestone check, the dearest, last."""
        return any(self.available(p, a) for a in reversed(FREE_ACTS))

    # ------------------------------------------------------------------ setup

    def setup(self) -> Flow:
        """Board setup, then player setup. Chance is drawn in the rules' order, on lists in the order
        meeple's zones hold them: a milestone tile per tile space, the bag for the Wasteland, the bag
        for the track, 3 Special Dinosaur cards, a Predator board per player, the Event deck."""
        c, rng = self.c, self.rng
        for d in c.regulars:
            self.supply[d] = c.dinos[d].tokens
        box_milestones = [m.name for m in MILESTONES]
        for ts, _, level in TILE_SPACES:
            candidates = [m for m in box_milestones if c.milestones[m].level == level]
            tile = candidates[rng.randrange(len(candidates))]
            box_milestones.remove(tile)
            self.tiles[ts] = tile
        for d in c.regulars:
            self.supply[d] -= 1
            self.bonus_dinos.append(d)
        for m in MEAT:
            self.meat[m] -= 1
            self.bonus_meat[m] += 1
        self.bag = [chip for chip, (colour, _, _) in CHIPS.items() if colour == "beige"]
        self.stock_wasteland()
        self.bag += [chip for chip, (colour, _, _) in CHIPS.items() if colour == "blue"]
        self.add_round_chip(self.round)
        self.fill_track()
        for _ in range(SPECIAL_CARDS_IN_PLAY):
            left = [d for d in c.specials if d not in self.in_play]
            d = left[rng.randrange(len(left))]
            self.in_play.add(d)
            self.on_card[d] = c.dinos[d].tokens
        self.volcanoes = VOLCANO_TOKENS
        for p in self.players:
            for pl in p.plots.values():
                pl.covers = 1
        boards = list(PREDATOR_BOARDS)
        for p in self.players:
            p.board = boards.pop(rng.randrange(len(boards)))
        deck = list(EVENTS)
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(EVENT_CARDS_DEALT)] for _ in self.players]
        for p, hand in zip(self.players, hands, strict=True):
            p.event = yield from self.choose(p, "Event card to keep", lambda hand=hand: hand)
        for p in self.players:
            p.bonus_hand = list(BONUS_CARDS)
            p.cubes -= 1  # the Event marker
            p.standby = self.lowest_free_standby(p)  # seat order from the starting player, seat 0

    def stock_wasteland(self) -> None:
        """Draw a chip for each chip space of the Wasteland board, with its dinosaur and meat."""
        self.rng.shuffle(self.bag)
        for w in WASTELAND_CHIP_SPACES:
            chip = self.bag.pop()
            self.wasteland_chip[w] = chip
            _, d, m = CHIPS[chip]
            assert d is not None  # only Dinosaur chips are in the bag then
            if self.supply[d]:
                self.supply[d] -= 1
                self.wasteland[w].append(d)
            if m is not None and self.wasteland[w] and self.meat[m]:  # no meat without its dinosaur
                self.meat[m] -= 1
                self.wasteland_meat[w].append(m)

    def add_round_chip(self, r: int) -> None:
        """The orange chip of round r into the bag (the Round 2/4 chip comes back from aside)."""
        for chip in dict.fromkeys(chip for rnd, chip, _, _ in ROUND_FACES if rnd == r):
            self.bag.append(chip)

    def fill_track(self) -> None:
        """Mix the bag and lay a chip on every empty space of the Main track, from space 1."""
        self.rng.shuffle(self.bag)
        for i in range(TRACK_LENGTH):
            if self.track[i] is None:
                self.track[i] = self.bag.pop()

    # ------------------------------------------------------------------ flow

    def play(self) -> Flow:
        yield from self.setup()
        for _ in range(self.rounds):
            for p in self.players:
                p.passed = False
            while any(not q.passed for q in self.players):
                p = self.farthest_behind()
                self.turns += 1
                yield from self.take_turn(p)
            yield from self.predator_phase()
            if self.round < self.rounds:
                for p in self.standby_order():
                    yield from self.produce(p)
                self.prepare_next_round()
                self.round += 1

    # ------------------------------------------------------------------ a turn

    def take_turn(self, p: Player) -> Flow:
        """Steps 1 to 3 with free actions offered throughout, then the free-action menu."""
        p.bought_from_wasteland = False
        self.offer_to = p
        try:
            yield from self.move_owner(p)
            if not p.passed:
                yield from self.chip_action(p)
                yield from self.space_action(p)
        finally:
            self.offer_to = None
        if not p.passed:
            yield from self.free_actions(p)

    def move_owner(self, p: Player) -> Flow:
        def spaces() -> list[str]:
            occupied = {q.space for q in self.players}
            return [SPACE_NAMES[n - 1] for n in range(p.space + 1, TRACK_LENGTH + 1) if n not in occupied]

        s = yield from self.choose(p, "Move your Owner token to (pass: go to Standby)", spaces, optional=True)
        if s is None:
            p.standby, p.space = self.lowest_free_standby(p), 0
            p.passed = True
        else:
            p.standby, p.space = 0, SPACE_NAMES.index(s) + 1

    def chip_action(self, p: Player) -> Flow:
        chip = self.track[p.space - 1]
        assert chip is not None
        colour, d, m = CHIPS[chip]
        if colour == "blue":
            a = yield from self.choose(
                p,
                "Blue chip",
                lambda: (
                    ["advertisement", "special dinosaur"] if self.cards_to_buy(p, 0) else ["advertisement"]
                ),
            )
            if a == "advertisement":
                self.gain_funds(p, max(ADVERT_FUNDS, self.ongoing_bonus(p, "advertisement_funds")))
            else:
                yield from self.buy_special(p, 0)
            return
        if colour == "orange":
            faces = [(fd, fm) for r, c, fd, fm in ROUND_FACES if c == chip and r == self.round]
            d = yield from self.choose(p, "Dinosaur shown on the Round chip", lambda: [fd for fd, _ in faces])
            m = next(fm for fd, fm in faces if fd == d)
        assert d is not None
        self.take_from_supply(p, d, m)
        yield from self.move_employee(p)
        yield from self.purchases(p)
        yield from self.place_gained(p)
        yield from self.purchases(p)

    def take_from_supply(self, p: Player, d: str, m: str | None) -> None:
        if self.supply[d]:
            self.supply[d] -= 1
            p.beside.append(d)
        if m is not None and p.beside and self.meat[m]:
            self.meat[m] -= 1
            p.beside_meat.append(m)

    def move_employee(self, p: Player) -> Flow:
        """One space, then up to 2 more free (more with Archaeopteryx), then paid ones, 5 at most."""
        walked = self.employee_step(p, 0)
        while walked < EMPLOYEE_MAX_STEPS:
            free = min(EMPLOYEE_MAX_STEPS, EMPLOYEE_FREE_STEPS + self.park_ability(p, "employee_free_spaces"))
            if walked < free:
                a = yield from self.choose(p, "Move your Employee one more space?", lambda: ["step", "stop"])
                if a != "step":
                    return
                walked = self.employee_step(p, walked)
            elif p.funds >= EMPLOYEE_STEP_COST:
                a = yield from self.choose(
                    p,
                    "Pay 1 fund to move your Employee one more space?",
                    lambda: ["pay and step", "stop"] if p.funds >= EMPLOYEE_STEP_COST else ["stop"],
                )
                if a != "pay and step":
                    return
                p.funds -= EMPLOYEE_STEP_COST
                walked = self.employee_step(p, walked)
            else:
                return

    def employee_step(self, p: Player, walked: int) -> int:
        """One step; passing the Event arrow pays the Event income at once."""
        if p.employee == EVENT_ARROW_AFTER:
            self.gain_funds(p, self.event_income(p))
        p.employee = (p.employee + 1) % len(EMPLOYEE_PATH)
        return walked + 1

    def place_gained(self, p: Player) -> Flow:
        for d in list(p.beside):
            a = yield from self.choose(
                p,
                "Area for the new dinosaur",
                lambda d=d: [a for a in self.adjacent_areas(p) if self.fits(p.plots[a], d)],
            )
            p.beside.remove(d)
            if a is not None:
                pl = p.plots[a]
                pl.dinos.append(d)
                pl.meat.extend(p.beside_meat)
            else:  # it fits nowhere next to the Employee: to the Wasteland, its meat to the supply
                self.wasteland[GROUND].append(d)
                for m in p.beside_meat:
                    self.meat[m] += 1
            p.beside_meat.clear()

    def buy_special(self, p: Player, discount: int) -> Flow:
        d = yield from self.choose(
            p, "Special Dinosaur card to buy from", lambda: self.cards_to_buy(p, discount), optional=True
        )
        if d is None:
            return
        a = yield from self.choose(
            p,
            "Area for the Special Dinosaur",
            lambda: [
                a for a in AREAS if self.fits(p.plots[a], d) and self.special_cost(p, d, discount) <= p.funds
            ],
        )
        if a is not None:
            p.funds -= self.special_cost(p, d, discount)
            if self.on_card[d]:
                self.on_card[d] -= 1
                p.plots[a].dinos.append(d)

    def space_action(self, p: Player) -> Flow:
        icon = self.icon(p.space)
        if icon == "feeding":
            if (yield from self.ask(p, "Perform the Feeding action?")):
                yield from self.feeding(p)
        elif icon == "special_purchase":
            yield from self.buy_special(p, 0)

    # ------------------------------------------------------------------ feeding

    def feeder_plot(self, p: Player) -> Plot:
        return p.plots[FEEDER_PATH[p.feeder]]

    def feed_ok(self, p: Player, a: str) -> bool:
        free = (
            FEEDER_FREE_STEPS
            + self.ongoing_bonus(p, "feeder_free_spaces")
            + self.park_ability(p, "feeder_free_spaces")
        )
        if a == "take":
            limit = UPGRADED_CAPACITY if p.upgraded else BAG_CAPACITY
            return bool(self.takeable(p)) and len(p.feed_bag) < limit
        if a == "drop":
            return bool(self.droppable(p))
        if a == "move":
            return self.fed_steps < free
        if a == "pay and move":
            return self.fed_steps >= free and p.funds >= FEEDER_STEP_COST
        return self.fed_steps >= 1  # done

    def takeable(self, p: Player) -> list[str]:
        return [m for m in self.feeder_plot(p).meat if m not in self.dropped_here]

    def droppable(self, p: Player) -> list[str]:
        return [m for m in p.feed_bag if m not in self.taken_here]

    def feeding(self, p: Player) -> Flow:
        """Move the Feeder, carrying meat between areas; a type taken at a space cannot be put
        back there (nor one put there taken back) until the Feeder moves on."""
        self.fed_steps = 0
        self.new_feeder_space()
        while True:
            a = yield from self.choose(p, "Feeding", lambda: [a for a in FEEDING_ACTS if self.feed_ok(p, a)])
            if a == "take":
                m = yield from self.choose(
                    p, "Meat to put on the Feed Bag", lambda: distinct(self.takeable(p))
                )
                self.feeder_plot(p).meat.remove(m)
                p.feed_bag.append(m)
                self.taken_here.add(m)
            elif a == "drop":
                m = yield from self.choose(p, "Meat to put in the area", lambda: distinct(self.droppable(p)))
                p.feed_bag.remove(m)
                self.feeder_plot(p).meat.append(m)
                self.dropped_here.add(m)
            elif a == "move":
                self.feeder_step(p)
            elif a == "pay and move":
                p.funds -= FEEDER_STEP_COST
                self.feeder_step(p)
            else:
                return

    def feeder_step(self, p: Player) -> None:
        p.feeder = (p.feeder + 1) % len(FEEDER_PATH)
        self.fed_steps += 1
        self.new_feeder_space()

    def new_feeder_space(self) -> None:
        self.taken_here.clear()
        self.dropped_here.clear()

    # ------------------------------------------------------------------ purchases and free actions

    def purchases(self, p: Player) -> Flow:
        """Additional purchases, one at a time, while one is possible and until the player passes."""
        while any(self.available(p, a) for a in PURCHASE_ACTS):
            a = yield from self.choose(
                p,
                "Additional purchase (pass: done)",
                lambda: [a for a in PURCHASE_ACTS if self.available(p, a)],
                optional=True,
            )
            if a is None:
                return
            yield from self.do_act(p, a)

    def free_actions(self, p: Player) -> Flow:
        """The free-action menu, until the player is done or none is left."""
        while self.free_action_possible(p):
            a = yield from self.choose(
                p,
                "Free action (done: no more)",
                lambda: [a for a in FREE_ACTS if self.available(p, a)] + ["done"],
            )
            if a == "done":
                return
            yield from self.do_act(p, a)

    def do_act(self, p: Player, act: str) -> Flow:
        near = self.adjacent_areas(p)
        if act == "buy_volcano":
            a = yield from self.choose(
                p,
                "Area for the volcano",
                lambda: [a for a in near if self.volcano_ok(p.plots[a]) and p.funds >= VOLCANO_COST],
            )
            if a is not None:
                p.funds -= VOLCANO_COST
                if self.volcanoes:
                    self.volcanoes -= 1
                    p.plots[a].volcanoes += 1
        elif act == "uncover_lake":
            a = yield from self.choose(
                p,
                "Area whose lake to uncover",
                lambda: [a for a in near if self.lake_ok(p.plots[a]) and p.funds >= LAKE_COST],
            )
            if a is not None:
                p.funds -= LAKE_COST
                self.uncover(p, p.plots[a])
        elif act == "buy_from_wasteland":
            yield from self.buy_from_wasteland(p)
        elif act == "achieve_milestone":
            m = yield from self.choose(p, "Milestone tile to achieve", lambda: self.achievable(p))
            yield from self.achieve(p, m)
        elif act == "dinosaur_to_wasteland":
            a = yield from self.choose(
                p, "Area to take a dinosaur from", lambda: [a for a in AREAS if p.plots[a].dinos]
            )
            pl = p.plots[a]
            d = yield from self.choose(p, "Dinosaur to move to the Wasteland", lambda: distinct(pl.dinos))
            pl.dinos.remove(d)
            self.wasteland[GROUND].append(d)
            yield from self.shrink(p, pl)  # a Stegosaurus took its extra space with it
        elif act == "volcano_to_wasteland":
            a = yield from self.choose(
                p, "Area to take the volcano from", lambda: [a for a in AREAS if p.plots[a].has_volcano]
            )
            p.plots[a].volcanoes -= 1
            self.volcanoes += 1
            yield from self.shrink(p, p.plots[a])
        elif act == "refill_lake":
            a = yield from self.choose(
                p, "Area whose lake to cover again", lambda: [a for a in AREAS if p.plots[a].has_lake]
            )
            if p.cover_pile:
                p.cover_pile -= 1
                p.plots[a].covers += 1
            yield from self.shrink(p, p.plots[a])
        else:  # upgrade_bag
            p.funds -= UPGRADE_COST
            p.upgraded = True

    def uncover(self, p: Player, pl: Plot) -> None:
        if pl.covers:
            pl.covers -= 1
            p.cover_pile += 1

    def buy_from_wasteland(self, p: Player) -> Flow:
        near = self.adjacent_areas(p)
        w = yield from self.choose(p, "Where on the Wasteland board", lambda: self.wasteland_offers(p))
        if w is None:
            return
        d = yield from self.choose(
            p,
            "Dinosaur to buy",
            lambda: distinct([x for x in self.wasteland[w] if self.fits_somewhere(p, near, x)]),
        )
        if d is None:
            return
        a = yield from self.choose(
            p,
            "Area for the dinosaur",
            lambda: [a for a in near if self.fits(p.plots[a], d) and p.funds >= WASTELAND_COST],
        )
        if a is None:
            return
        p.funds -= WASTELAND_COST
        p.bought_from_wasteland = True
        pl = p.plots[a]
        self.wasteland[w].remove(d)
        pl.dinos.append(d)
        if w != GROUND:  # the chip's meat comes along
            pl.meat.extend(self.wasteland_meat[w])
            self.wasteland_meat[w].clear()

    def shrink(self, p: Player, pl: Plot) -> Flow:
        """An area that lost its volcano or lake sends what no longer fits to the Wasteland."""
        if not pl.has_lake:
            for d in self.c.dinos.values():
                if d.needs_lake:
                    move_all(pl.dinos, d.name, self.wasteland[GROUND])
        while self.used_size(pl) > self.capacity(pl):
            d = yield from self.choose(
                p,
                "Dinosaur to move to the Wasteland (the area shrank)",
                lambda: distinct([x for x in pl.dinos if self.c.dinos[x].size > 0]),
            )
            pl.dinos.remove(d)
            self.wasteland[GROUND].append(d)

    # ------------------------------------------------------------------ milestones and bonuses

    def achieve(self, p: Player, m: str) -> Flow:
        """The first tile of a pair takes a cube; the second moves it to the cube space and pays a
        Bonus card."""
        ts, pair, level = next(t for t in TILE_SPACES if self.tiles[t[0]] == m)
        other = f"{pair}_{'lower' if level == 'upper' else 'upper'}"
        if p.seat in self.cube_on[other]:
            self.cube_on[other].discard(p.seat)
            self.cube_row[pair].append(p.seat)
            card = yield from self.choose(p, "Bonus card to use", lambda: list(p.bonus_hand))
            p.bonus_hand.remove(card)
            yield from self.apply_effect(p, BONUS_CARDS[card])
        elif p.cubes:
            p.cubes -= 1
            self.cube_on[ts].add(p.seat)

    def apply_effect(self, p: Player, e: Effect) -> Flow:
        if e.effect == "gain_funds":
            self.gain_funds(p, e.amount)
        elif e.effect == "advance_predator":
            self.advance_predator(p, e.amount)
            if not self.in_predator_phase:
                yield from self.resolve_immediate(p)
        elif e.effect == "gain_volcano_and_lake":
            yield from self.free_volcano_and_lake(p)
        elif e.effect == "purchase_special":
            yield from self.buy_special(p, e.amount)
        elif e.effect == "take_bonus_dinosaur":
            yield from self.take_bonus_dino(p)
        elif e.effect == "gain_meat_any_area":
            for m in (e.meat_a, e.meat_b):
                if m is not None and self.meat[m]:  # no area is asked for meat the supply lacks
                    a = yield from self.choose(p, "Area for the meat token", lambda: list(AREAS))
                    self.meat[m] -= 1
                    p.plots[a].meat.append(m)
            self.gain_funds(p, e.amount)
        elif e.effect == "upgrade_feed_bag":
            p.upgraded = True

    def due_bonuses(self, p: Player) -> list[Bonus]:
        return [
            b
            for b in PREDATOR_BOARDS[p.board]
            if b.kind == "immediate" and p.bonus_upto < b.space <= p.predator
        ]

    def resolve_immediate(self, p: Player) -> Flow:
        due = self.due_bonuses(p)
        p.bonus_upto = p.predator
        for b in due:
            yield from self.apply_effect(p, b.effect)

    def free_volcano_and_lake(self, p: Player) -> Flow:
        a = yield from self.choose(
            p,
            "Area for the free volcano",
            lambda: [a for a in AREAS if self.volcano_ok(p.plots[a]) and self.volcanoes > 0],
        )
        if a is not None:
            self.volcanoes -= 1
            p.plots[a].volcanoes += 1
        a = yield from self.choose(
            p, "Area whose lake to uncover for free", lambda: [a for a in AREAS if self.lake_ok(p.plots[a])]
        )
        if a is not None:
            self.uncover(p, p.plots[a])

    def take_bonus_dino(self, p: Player) -> Flow:
        d = yield from self.choose(
            p,
            "Bonus Dinosaur token",
            lambda: distinct([x for x in self.bonus_dinos if self.fits_somewhere(p, AREAS, x)]),
        )
        if d is None:
            return
        a = yield from self.choose(
            p, "Area for the Bonus Dinosaur", lambda: [a for a in AREAS if self.fits(p.plots[a], d)]
        )
        pl = p.plots[a]
        self.bonus_dinos.remove(d)
        pl.dinos.append(d)
        m = self.c.dinos[d].produces
        if m is not None and self.bonus_meat[m]:
            self.bonus_meat[m] -= 1
            pl.meat.append(m)

    # ------------------------------------------------------------------ the Predator phase

    def predator_phase(self) -> Flow:
        self.in_predator_phase = True
        for p in self.standby_order():
            yield from self.free_actions(p)
            self.offer_to = p
            try:
                yield from self.predators_eat(p)
            finally:
                self.offer_to = None
            yield from self.free_actions(p)
        for p in self.players:
            self.return_meat(p)
        self.in_predator_phase = False
        for p in self.standby_order():
            yield from self.after_predators(p)

    def after_predators(self, p: Player) -> Flow:
        """The bonuses the marker reached take effect: immediate ones are resolved (then the
        free-action menu), ongoing ones apply from now on (`bonus_upto`)."""
        if self.due_bonuses(p):
            yield from self.resolve_immediate(p)
            yield from self.free_actions(p)
        else:
            p.bonus_upto = p.predator

    def meals(self, pl: Plot, d: str) -> list[str]:
        """What a carnivore of type d may still eat here: its meat or a larger one; nothing once as
        many of its type have eaten as are still in the area."""
        if self.fed[d] >= pl.dinos.count(d):
            return []
        eats_from = self.c.dinos[d].eats_from
        assert eats_from is not None
        least = MEAT_RANK[eats_from]
        return [m for m in MEAT if MEAT_RANK[m] >= least and (m in pl.meat or m in pl.gnawed)]

    def predators_eat(self, p: Player) -> Flow:
        """Area by area, the carnivores there eat, in the order the player chooses, if any of them
        has something to eat."""
        carnivores, fed = self.c.carnivores, self.fed
        for pl in p.plots.values():
            for d in carnivores:
                fed[d] = 0
            if not any(self.meals(pl, d) for d in pl.dinos if d in carnivores):
                continue
            todo = [d for d in pl.dinos if d in carnivores]
            while todo:
                c = yield from self.next_of(p, "Carnivore to eat next", todo)
                for _ in range(max(1, self.ability(c, "carnivore_meat_per_phase"))):
                    if self.meals(pl, c):
                        m = yield from self.choose(
                            p, "Meat for this carnivore to eat", partial(self.meals, pl, c), optional=True
                        )
                        if m is not None:
                            self.eat(p, pl, c, m)
                fed[c] += 1
                pl.gnawed.extend(self.jaw)
                self.jaw.clear()

    def eat(self, p: Player, pl: Plot, d: str, m: str) -> None:
        """A half-used token is eaten up first; with a Parasaurolophus a fresh token stays for one
        more use once this carnivore has finished."""
        if m in pl.gnawed:
            pl.gnawed.remove(m)
            self.meat[m] += 1
        elif max(1, self.area_ability(pl, "meat_uses_in_area")) > 1:
            pl.meat.remove(m)
            self.jaw.append(m)
        else:
            pl.meat.remove(m)
            self.meat[m] += 1
        dino = self.c.dinos[d]
        self.advance_predator(p, 1 + dino.bonus_spaces * (m == dino.bonus_meat))

    def return_meat(self, p: Player) -> None:
        for pl in p.plots.values():
            for m in pl.meat + pl.gnawed:
                self.meat[m] += 1
            pl.meat.clear()
            pl.gnawed.clear()
        for m in p.feed_bag:
            self.meat[m] += 1
        p.feed_bag.clear()

    # ------------------------------------------------------------------ the Producer phase

    def produce(self, p: Player) -> Flow:
        """Each herbivore produces its meat in its area; when the supply runs short, the owner
        chooses the order of the areas."""
        herbivores = self.c.herbivores
        wanted = dict.fromkeys(MEAT, 0)
        for pl in p.plots.values():
            per = 1 + self.area_ability(pl, "herbivore_extra_meat_in_area")
            for d in pl.dinos:
                if d in herbivores:
                    wanted[self.c.dinos[d].produces] += per  # type: ignore[index]
        if any(wanted[m] > self.meat[m] for m in MEAT):
            todo = [pl for pl in p.plots.values() if any(d in herbivores for d in pl.dinos)]
            while todo:
                self.produce_in((yield from self.next_of(p, "Area to produce next", todo)))
        else:
            for pl in p.plots.values():
                self.produce_in(pl)

    def produce_in(self, pl: Plot) -> None:
        per = 1 + self.area_ability(pl, "herbivore_extra_meat_in_area")
        for d in [x for x in pl.dinos if x in self.c.herbivores]:
            m = self.c.dinos[d].produces
            assert m is not None
            n = min(per, self.meat[m])
            self.meat[m] -= n
            pl.meat.extend([m] * n)

    # ------------------------------------------------------------------ the Next Round Preparation phase

    def prepare_next_round(self) -> None:
        for w in WASTELAND_CHIP_SPACES:
            self.wasteland[GROUND].extend(self.wasteland[w])
            self.wasteland[w].clear()
            for m in self.wasteland_meat[w]:
                self.meat[m] += 1
            self.wasteland_meat[w].clear()
        for i, chip in enumerate(self.track):  # the Round chip is set aside
            if chip is not None and CHIPS[chip][0] == "orange":
                self.track[i] = None
        # Every Dinosaur chip into the bag: from the track in order, then the Wasteland's.
        for i, chip in enumerate(self.track):
            if chip is not None and CHIPS[chip][0] == "beige":
                self.bag.append(chip)
                self.track[i] = None
        for w in WASTELAND_CHIP_SPACES:
            chip = self.wasteland_chip[w]
            if chip is not None:
                self.bag.append(chip)
                self.wasteland_chip[w] = None
        self.stock_wasteland()
        for i, chip in enumerate(self.track):  # the blue chips back into the bag
            if chip is not None:
                self.bag.append(chip)
                self.track[i] = None
        self.add_round_chip(self.round + 1)
        self.fill_track()

    # ------------------------------------------------------------------ the end

    def score(self, p: Player) -> int:
        dinos = self.c.dinos
        points = 0
        for pl in p.plots.values():
            for d in pl.dinos:
                x = dinos[d]
                points += x.vp + (x.vp_lake - x.vp) * pl.has_lake + (x.vp_volcano - x.vp) * pl.has_volcano
        for b in PREDATOR_BOARDS[p.board]:
            if b.kind == "scoring" and b.space <= p.predator:
                points += b.effect.amount * self.tokens_of(p, b.dinosaur)  # type: ignore[arg-type]
        points += PREDATOR_VP[p.predator]
        for row in self.cube_row.values():
            points += sum(CUBE_VP[i] for i, seat in enumerate(row) if seat == p.seat)
        points += EVENTS[p.event][2][self.marker(p)][1]
        points += STANDBY_VP[p.standby - 1] if p.standby else 0
        points += UPGRADE_POINTS * p.upgraded
        return points


# ---------------------------------------------------------------------- driving a game


class State:
    """A game in progress, with meeple's small API: `decision`, `apply(i)`, `is_over`."""

    def __init__(self, players: int, seed: int, components: Components | None = None) -> None:
        self.game = Game(players, seed, components or default_components())
        self.choices: list[int] = []
        self.decision: Decision | None = None
        self.is_over = False
        self._flow: Flow = self.game.play()
        self._advance(None)

    def _advance(self, answer: int | None) -> None:
        try:
            self.decision = self._flow.send(answer) if answer is not None else next(self._flow)
        except StopIteration:
            self.decision = None
            self.is_over = True

    def apply(self, index: int) -> None:
        if self.decision is None or not 0 <= index < self.decision.size:
            raise ValueError(f"{index!r} is not an option")
        self.choices.append(index)
        self._advance(index)

    @property
    def turns(self) -> int:
        return self.game.turns

    @property
    def scores(self) -> list[int]:
        return [self.game.score(p) for p in self.game.players]


_COMPONENTS: Components | None = None


def default_components() -> Components:
    """The game data with its lookups, built once."""
    global _COMPONENTS
    if _COMPONENTS is None:
        _COMPONENTS = Components.build()
    return _COMPONENTS


def play_random(players: int, seed: int) -> State:
    """A game where every player answers uniformly at random (the agent seeded with `seed`)."""
    state = State(players, seed)
    rng = random.Random(seed)
    while state.decision is not None:
        state.apply(rng.randrange(state.decision.size))
    return state


if __name__ == "__main__":
    for n in (3, 4):
        s = play_random(n, 1)
        print(n, "players:", s.turns, "turns,", len(s.choices), "decisions, scores", s.scores)
