"""Dino Dynasty's component data: the CSV tables in games/dino_dynasty/, read by
games/dino_dynasty.rules. The CSV files are the source of truth; these tests load them through meeple,
check them against what the rulebook prints (counts, the numbered examples), and, where the
publisher's component JSON is present (../shared/components, or $MEEPLE_COMPONENTS), check every row
against it. Quotes are from ../shared/rulebooks/dino-dynasty.txt (RB:line)."""

from __future__ import annotations

import csv
import json
from collections import Counter
from functools import cache
from typing import Any

import pytest
from helpers import ROOT, shared_file

import meeple
from meeple.grammar import ast

RULES = ROOT / "games" / "dino_dynasty.rules"
Row = dict[str, Any]
MARKERS = ("size", "reproduction", "diet", "adaptation")
QUADRANTS = {"nw": (0, 0), "ne": (1, 0), "se": (1, 1), "sw": (0, 1)}
JSON_TILES = ("territory_tiles", "event_tiles", "expanding_event_tiles", "ocean_tiles")


@cache
def tables() -> dict[str, list[Row]]:
    """Every table of the rules file, as rows of {column: cell}, read the way meeple reads them."""
    checked = meeple.check(RULES)
    assert checked.ok, [d.message for d in checked.diagnostics]
    assert checked.module is not None
    return {
        decl.name: [dict(zip([c.name for c in decl.columns], row.cells, strict=True)) for row in decl.rows]
        for decl in checked.module.decls
        if isinstance(decl, ast.Table)
    }


def csv_rows(name: str) -> list[Row]:
    """The rows of a data file no table of the base game reads (the Stasis Variant's), its
    numbers as numbers and `-` as none, as meeple would read them."""
    with (RULES.parent / "dino_dynasty" / f"{name}.csv").open(encoding="utf-8") as f:
        return [{k: _cell(v) for k, v in row.items()} for row in csv.DictReader(f)]


def _cell(text: str) -> object:
    if text == "-":
        return None
    if text in ("yes", "no"):
        return text == "yes"
    return int(text) if text.lstrip("-").isdigit() else text


def keyed(table: str) -> dict[str, Row]:
    return {row["name"]: row for row in tables()[table]}


def quadrants() -> dict[str, dict[tuple[int, int], str]]:
    """Each face's Biome by quadrant (q, r)."""
    faces: dict[str, dict[tuple[int, int], str]] = {}
    for row in tables()["quadrant"]:
        faces.setdefault(row["face"], {})[(row["q"], row["r"])] = row["biome"]
    return faces


def frame(species: str, action: str, markers: dict[str, int]) -> Row:
    """The cell of an Action's grid its frame sits on: the row one marker gives, the column the
    other gives (the action table's row_marker and col_marker)."""
    a = keyed("action")[action]
    row, col = markers[a["row_marker"]], markers[a["col_marker"]]
    (cell,) = [
        f
        for f in tables()["frame"]
        if (f["species"], f["action"], f["row"], f["col"]) == (species, action, row, col)
    ]
    return cell


def grid(species: str, action: str) -> list[Row]:
    return [f for f in tables()["frame"] if (f["species"], f["action"]) == (species, action)]


def marks(size: int, reproduction: int, diet: int, adaptation: int) -> dict[str, int]:
    return dict(zip(MARKERS, (size, reproduction, diet, adaptation), strict=True))


def spread(cell: Row) -> tuple[int, bool, bool]:
    return cell["spread"], cell["dino"], cell["egg"]


def homes(cell: Row) -> set[str]:
    return {b for b in (cell["home_1"], cell["home_2"]) if b}


def value(cell: Row) -> object:
    """A frame's value, whatever its Action: what 'the same value' means when changing species."""
    if cell["action"] == "spread":
        return spread(cell)
    if cell["action"] == "evolve":
        return frozenset(homes(cell))
    return cell["herd_max"] if cell["action"] == "migrate" else cell["strength"]


def power(species: str, markers: dict[str, int], herd: int, dice: int, morphs: list[str], role: str) -> int:
    """Herd size + Compete strength + Morphs + 2 Compete dice (RB:427)."""
    bonus = sum(
        m["amount"]
        for name in morphs
        if (m := keyed("morph")[name])["effect"] == "power" and m["compete_as"] in (role, "attack_and_defend")
    )
    return herd + frame(species, "compete", markers)["strength"] + bonus + dice


def morphs(side: dict[str, Any]) -> list[str]:
    """The Morphs a side of a bound Compete example uses: printed ones and tokens."""
    return side.get("morphs_used", []) + side.get("morph_tokens", [])


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    return json.loads(shared_file("components", "dino-dynasty.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------ the tables load, and their shape


def test_the_tables_load_through_meeple_and_the_program_builds() -> None:
    sizes = {name: len(rows) for name, rows in tables().items()}
    assert sizes["tile"] == 106 and sizes["face"] == 212 and sizes["quadrant"] == 848
    assert sizes["species"] == 24 and sizes["frame"] == 24 * 4 * 9
    assert meeple.load(RULES).new_game(2, seed=0) is not None


def test_every_face_has_one_biome_in_each_of_its_four_quadrants() -> None:
    """'Square tiles in a grid; each face is 4 quadrants' (component data): nw, ne, se, sw."""
    faces = quadrants()
    assert set(faces) == set(keyed("face"))
    assert all(set(q) == set(QUADRANTS.values()) for q in faces.values())
    assert Counter(row["face"] for row in tables()["quadrant"]) == Counter({f: 4 for f in faces})


def test_each_tile_has_a_side_a_and_a_side_b_face() -> None:
    """'The tiles are double sided with different Biomes on either side' (RB:992)."""
    sides = Counter((f["tile"], f["side"]) for f in tables()["face"])
    assert sides == Counter({(t, s): 1 for t in keyed("tile") for s in ("side_a", "side_b")})


def test_80_territory_16_event_6_expanding_and_4_ocean_tiles() -> None:
    """'shuffle the remaining 80 TERRITORY TILES and 16 EVENT TILES' (RB:94); 'the 6 EXPANDING
    EVENT TILES'; 'Keep the 4 OCEAN TILES separate'."""
    kinds = Counter(t["kind"] for t in tables()["tile"])
    assert kinds == {"territory": 80, "event": 16, "expanding_event": 6, "ocean": 4}


def test_only_territory_faces_have_a_pattern_and_event_faces_are_one_biome() -> None:
    """'covering the tile completely' (RB:484): an Event face is one Biome in all 4 quadrants."""
    tile, faces = keyed("tile"), quadrants()
    for f in tables()["face"]:
        kind = tile[f["tile"]]["kind"]
        assert (f["pattern"] is not None) == (kind == "territory"), f["name"]
        if kind != "territory":
            assert len(set(faces[f["name"]].values())) == 1, f["name"]


def test_event_tiles_are_permanent_on_side_a_one_time_on_side_b() -> None:
    """'there are Event Biomes of 2 types, Permanent and One-time' (RB:469)."""
    biome, tile, faces = keyed("biome"), keyed("tile"), quadrants()
    for f in tables()["face"]:
        if tile[f["tile"]]["kind"] == "event":
            group = biome[faces[f["name"]][(0, 0)]]["group"]
            assert group == ("permanent_event" if f["side"] == "side_a" else "one_time_event")


def test_the_expanding_tiles_show_4_faces_of_each_permanent_biome() -> None:
    """'The 6 Expanding Event tiles are double sided, with 4 of each of the 3 Biome types' (RB:527)."""
    tile, faces = keyed("tile"), quadrants()
    shown = Counter(
        faces[f["name"]][(0, 0)] for f in tables()["face"] if tile[f["tile"]]["kind"] == "expanding_event"
    )
    assert shown == {"desert": 4, "floodplains": 4, "tundra": 4}


def test_ocean_tiles_are_water_on_both_sides() -> None:
    """'There are 4 separate Ocean tiles that are only placed during setup' (RB:966)."""
    tile, faces = keyed("tile"), quadrants()
    for f in tables()["face"]:
        if tile[f["tile"]]["kind"] == "ocean":
            assert set(faces[f["name"]].values()) == {"water"}


def test_six_general_and_six_event_biomes() -> None:
    """'The game consists of 6 General Biomes and 6 Event Biomes' (RB:896); Water holds no Herd."""
    groups = Counter(b["group"] for b in tables()["biome"])
    assert groups == {"general": 6, "permanent_event": 3, "one_time_event": 3}
    assert [b["name"] for b in tables()["biome"] if not b["land"]] == ["water"]
    assert all(b["colour"].startswith("#") and len(b["colour"]) == 7 for b in tables()["biome"])


def test_the_one_time_events_flip_and_remove_as_printed() -> None:
    """'all adjacent tiles are flipped' (meteor crater), 'all diagonal adjacent tiles' (mountain),
    'all orthogonal adjacent tiles' (volcano); mountain and volcano remove 'half the Dinos rounded up'."""
    biome = keyed("biome")
    assert {b: (biome[b]["flips"], biome[b]["loss"]) for b in ("meteor_crater", "mountain", "volcano")} == {
        "meteor_crater": ("all_adjacent", "every_dino"),
        "mountain": ("diagonal", "half_rounded_up"),
        "volcano": ("orthogonal", "half_rounded_up"),
    }


# ------------------------------------------------------------------ Scenarios


def test_every_scenario_side_fits_its_size_and_its_borders() -> None:
    """'5 different Map sizes' (RB:107); 'the number of Map sides (2 tiles long) needed to frame the
    grid' (RB:99): a Map needs width + height sides, and the box has 16."""
    size, card = keyed("scenario_size"), keyed("scenario_card")
    sides = keyed("border")["map_side"]["count"]
    for s in tables()["scenario_side"]:
        w, h = size[card[s["card"]]["size"]]["width"], size[card[s["card"]]["size"]]["height"]
        assert (s["width"], s["height"]) == (w, h), s["name"]
        assert w + h <= sides
    for p in tables()["position"]:
        side = keyed("scenario_side")[p["side"]]
        assert 0 <= p["x"] < side["width"] and 0 <= p["y"] < side["height"]


def test_12_scenario_cards_24_sides_and_territory_positions_by_size() -> None:
    """'Dino Dynasty has 12 different Scenarios in 5 different Map sizes' (RB:107)."""
    assert len(tables()["scenario_card"]) == 12 and len(tables()["scenario_side"]) == 24
    card = keyed("scenario_card")
    wanted = {"A": 4, "B": 6, "C": 6, "D": 8, "E": 8}
    for s in tables()["scenario_side"]:
        here = [p for p in tables()["position"] if p["side"] == s["name"]]
        count = Counter(p["what"] for p in here)
        assert count["territory"] == wanted[card[s["card"]]["size"]], s["name"]
        assert count["ocean"] <= 4 and count["expanding_event"] <= 2
        assert all(p["starting"] == (p["what"] == "territory") for p in here)
        assert len({(p["x"], p["y"]) for p in here}) == len(here)


# ------------------------------------------------------------------ Dynasties, species, frames


def test_parasaurolophus_starts_with_6_of_14_dinos_and_microraptor_8_of_16() -> None:
    """'The Parasaurolophus ... starts with a Herd of 6 Dinos ... Their total number of Dinos are
    14' (RB:103); 'The Microraptor ... starts with a Herd of 8 Dinos ... 16' (RB:914)."""
    species = keyed("species")
    assert (species["parasaurolophus"]["starting_herd"], species["parasaurolophus"]["dinos"]) == (6, 14)
    assert species["parasaurolophus"]["dynasty"] == "ornithopoda"
    assert (species["microraptor"]["starting_herd"], species["microraptor"]["dinos"]) == (8, 16)
    assert species["microraptor"]["dynasty"] == "dromaeosauridae"


def test_psittacosaurus_is_size_group_2() -> None:
    """'The Ceratopsian Psittacosaurus is size nr 2' (RB:640)."""
    assert keyed("species")["psittacosaurus"]["size_group"] == 2
    assert keyed("species")["psittacosaurus"]["dynasty"] == "ceratopsia"


def test_each_dynasty_has_3_to_5_species_and_dinos_for_each() -> None:
    """'Each Dynasty has 3-5 Species' (RB:982); a Dynasty's Dinos cover its species' limits."""
    dynasty = keyed("dynasty")
    count = Counter(s["dynasty"] for s in tables()["species"])
    assert set(count) == set(dynasty) and all(3 <= n <= 5 for n in count.values())
    for s in tables()["species"]:
        assert s["starting_herd"] <= s["dinos"] <= dynasty[s["dynasty"]]["dinos"], s["name"]


def test_every_species_has_3_land_home_biomes_and_its_evolve_frames_show_them() -> None:
    """'each species' 3 Home Biomes' (RB:396); an Evolve frame shows 1 or 2 of them."""
    biome = keyed("biome")
    for s in tables()["species"]:
        home = {s["home_1"], s["home_2"], s["home_3"]}
        assert len(home) == 3 and all(biome[b]["group"] == "general" and biome[b]["land"] for b in home)
        for cell in grid(s["name"], "evolve"):
            assert 1 <= len(homes(cell)) <= 2 and homes(cell) <= home, (s["name"], cell)


def test_every_species_has_four_full_grids_with_a_value_in_each_frame() -> None:
    """'Each Action is represented by a 3x3 square on the Dino board' (RB:264)."""
    for s in tables()["species"]:
        for action in ("spread", "migrate", "evolve", "compete"):
            cells = grid(s["name"], action)
            assert sorted((c["row"], c["col"]) for c in cells) == [(r, c) for r in range(3) for c in range(3)]
            for c in cells:
                assert value(c) not in (None, (None, None, None), frozenset())
                if action == "spread":
                    assert c["dino"] or c["egg"]


def test_the_stasis_frames_sit_on_each_grid_maximum() -> None:
    """'max values for Spread (bottom left), Compete (top left) and Migrate (bottom right)' (RB:783)."""
    action = keyed("action")

    def level(c: Row) -> int:  # assumption [dino_board]: 3n + (0 Dino head, 1 egg, 2 both)
        return 3 * c["spread"] + (2 if c["dino"] and c["egg"] else 1 if c["egg"] else 0)

    for s in tables()["species"]:
        for name, measure in (("spread", level), ("migrate", value), ("compete", value)):
            cells = grid(s["name"], name)
            (best,) = [
                c for c in cells if (c["row"], c["col"]) == (action[name]["max_row"], action[name]["max_col"])
            ]
            assert measure(best) == max(measure(c) for c in cells), (s["name"], name)


def test_hatch_t_rex_at_2_0_0_0_has_spread_level_2() -> None:
    """'The Tyrannosauroidea's (teal) Spread level is 2. When the Nest Hatches they replace the Nest
    with 2 Dinos' (RB:944)."""
    cell = frame("tyrannosaurus_rex", "spread", marks(2, 0, 0, 0))
    assert cell["spread"] == 2 and cell["egg"]


def test_evolve_centrosaurus_herd_max_6_then_7_then_8_with_only_forest() -> None:
    """'increase their Herd max from 6 to 7 ... They increase their Herd max to 8, but change to only
    1 Home Biome ... they must have a Herd in a forest Biome' (RB:392-394)."""
    start, right, down = marks(1, 1, 0, 1), marks(1, 2, 0, 1), marks(1, 2, 1, 1)
    assert [frame("centrosaurus", "migrate", m)["herd_max"] for m in (start, right, down)] == [6, 7, 8]
    assert len(homes(frame("centrosaurus", "evolve", start))) == 2
    assert frame("centrosaurus", "spread", right)["spread"] < frame("centrosaurus", "spread", start)["spread"]
    assert homes(frame("centrosaurus", "evolve", down)) == {"forest"}
    sp = keyed("species")["centrosaurus"]
    assert (
        marks(sp["start_size"], sp["start_reproduction"], sp["start_diet"], sp["start_adaptation"]) == start
    )


def test_patagotitan_with_herd_max_2_moves_2_of_3() -> None:
    """'The Titanosauria (red) player has a Herd max of 2. They move 2 Dinos from their Herd of 3'
    (RB:411)."""
    herd_max = frame("patagotitan", "migrate", marks(1, 1, 0, 1))["herd_max"]
    assert herd_max == 2 and min(3, herd_max) == 2


def test_desert_citipati_starting_herd_7_reduces_a_herd_of_5_to_3() -> None:
    """'With a starting Herd size of 7, the Oviraptorosauria's (purple) desert Herd of 5 is reduced
    to 3' (RB:537): half of 7 rounded down, as the conflict in the rules file reads it."""
    citipati = keyed("species")["citipati"]
    assert citipati["dynasty"] == "oviraptorosauria" and citipati["starting_herd"] == 7
    assert min(5, citipati["starting_herd"] // 2) == 3


def test_compete_how_to_play_t_rex_12_against_deinonychus_10() -> None:
    """'4 Dinos + 3 Compete strength + 3 dice roll = Power 10 ... 3 Dinos + 8 Compete strength + 1
    dice roll = Power 12' (RB:161-162)."""
    attack = power("tyrannosaurus_rex", marks(1, 1, 1, 1), 3, 1, [], "attack")
    defend = power("deinonychus", marks(2, 0, 0, 2), 4, 3, [], "defend")
    assert (attack, defend, attack - defend) == (12, 10, 2)


def test_compete_resolution_deinonychus_12_against_t_rex_with_horns_14() -> None:
    """'Herd size 5 + Compete strength 6 ... Power of 12 ... Herd size 1 + Compete strength 9 + 3
    ... the Horns add +1 in Power. Their Power is 14' (RB:433-435)."""
    attack = power("deinonychus", marks(0, 0, 0, 1), 5, 1, ["claws", "sharp_teeth"], "attack")
    defend = power("tyrannosaurus_rex", marks(0, 0, 0, 2), 1, 3, ["sharp_teeth", "horns"], "defend")
    assert (attack, defend) == (12, 14)
    assert keyed("morph")["sharp_teeth"]["compete_as"] == "attack"  # 'only allows re-rolls in an Attack'


def test_glossary_compete_3_plus_6_plus_horns_plus_3_is_13() -> None:
    """'3 Herd size + 6 Compete strength + 1 Power horns + 3 dice roll = 13 Power' (RB:906)."""
    assert power("deinonychus", marks(0, 0, 0, 1), 3, 3, ["horns"], "attack") == 13


def test_team_t_rex_15_against_olorotitan_and_microraptor_12() -> None:
    """'3 Dinos + 9 in Compete strength + 3 dice roll = Power 15 ... 4 Dinos + 1 ... + 1 Power from
    the Long Tail ... Microraptor: 3 Dinos + 1 ... making their Power 12' (RB:713-715)."""
    attack = power("tyrannosaurus_rex", marks(0, 0, 0, 2), 3, 3, [], "attack")
    team = power("olorotitan", marks(2, 0, 0, 2), 4, 0, ["long_tail"], "defend")
    team += power("microraptor", marks(2, 0, 0, 2), 3, 0, [], "defend") + 2
    assert (attack, team, attack - team) == (15, 12, 3)


def test_change_species_every_frame_of_moros_at_0_0_1_0_is_found_on_t_rex() -> None:
    """'They Evolve so that each Action frame has a value that can also be found on Tyrannosaurus
    Rex' (RB:698)."""
    for action in ("spread", "migrate", "evolve", "compete"):
        mine = value(frame("moros", action, marks(0, 0, 1, 0)))
        assert mine in {value(c) for c in grid("tyrannosaurus_rex", action)}, action


# ------------------------------------------------------------------ Morphs, Challenges, dice


def test_the_morph_bag_holds_27_tokens_as_the_reference_counts_them() -> None:
    """'CAMOUFLAGE (x4)', 'COLONIAL NESTING (x3)', the other ten x2 (RB:661-672); pre-printed-only
    Morphs have no token."""
    morph = keyed("morph")
    assert sum(m["tokens"] for m in morph.values()) == 27
    assert (morph["camouflage"]["tokens"], morph["colonial_nesting"]["tokens"]) == (4, 3)
    assert sorted(m for m, row in morph.items() if row["tokens"] == 0) == sorted(
        ["sharp_teeth", "long_tail", "long_legs", "swimming", "gliding", "osteoderms", "bony_frill"]
    )
    groups = {r["morph"] for r in tables()["morph_size"]} | {r["morph"] for r in tables()["morph_major"]}
    assert groups == {m for m, row in morph.items() if row["tokens"] > 0}


def test_every_board_prints_1_or_2_morphs() -> None:
    """'Each Dino board has room for 3 Morph tokens, with 1-2 pre-printed' (RB:619)."""
    printed = Counter(r["species"] for r in tables()["species_morph"])
    assert set(printed) == set(keyed("species")) and set(printed.values()) <= {1, 2}


def test_12_challenge_cards_four_with_tokens_and_six_for_the_stasis() -> None:
    """'The game consists of 12 different Challenge cards' (RB:900); 'Migrator, Builder, Procreator,
    Hatcher, Conqueror and Stomper' (RB:791)."""
    cards = tables()["challenge"]
    assert len(cards) == 12 and sorted(c["letter"] for c in cards) == list("ABCDEFGHIJKL")
    assert sorted(c["token"] for c in cards if c["token"]) == sorted(keyed("challenge_token"))
    stasis = {c["name"] for c in cards if c["stasis"]}
    assert stasis == {"migrator", "builder", "procreator", "hatcher", "conqueror", "stomper"}


def test_five_dice_an_event_die_of_general_biomes_and_compete_dice_0_to_2() -> None:
    """'Place the 5 DICE' (RB:100); 'Roll the Biome dice and place the Event tile on top of 1
    Territory tile with the indicated Biome' (RB:484)."""
    die = keyed("die")
    assert sum(d["count"] for d in die.values()) == 5 and die["compete_die"]["per_side"] == 2
    faces = tables()["die_face"]
    event = [f["biome"] for f in faces if f["die"] == "event_die"]
    assert sorted(event) == sorted(b["name"] for b in tables()["biome"] if b["group"] == "general")
    assert sorted(f["value"] for f in faces if f["die"] == "compete_die") == [0, 0, 1, 1, 2, 2]


# ------------------------------------------------------------------ against the component JSON


def test_every_face_matches_the_component_data(components: dict[str, Any]) -> None:
    faces, face, tile = quadrants(), keyed("face"), keyed("tile")
    for key in JSON_TILES:
        for t in components[key]["tiles"]:
            assert tile[t["id"]]["kind"] == t["kind"]
            for i, side in enumerate(("side_a", "side_b")):
                name = f"{t['id']}_{side[-1]}"
                assert face[name]["tile"] == t["id"] and face[name]["side"] == side
                assert face[name]["pattern"] == (t["patterns"][i] if "patterns" in t else None)
                assert faces[name] == {QUADRANTS[q]: b for q, b in t[side].items()}, name
    assert Counter(t["kind"] for t in tile.values()) == {
        k: components[f"{k}_tiles"]["count"] for k in tile_kinds()
    }


def tile_kinds() -> list[str]:
    return [row["name"] for row in tables()["tile_kind"]]


def test_every_frame_of_every_species_matches_the_component_data(components: dict[str, Any]) -> None:
    for dynasty in components["dynasties"]["list"]:
        for s in dynasty["species"]:
            board = s["board"]
            for r in range(3):
                for c in range(3):
                    at = {"size": r, "diet": r, "reproduction": c, "adaptation": c}
                    cell = board["spread"][r][c]
                    assert spread(frame(s["name"], "spread", at)) == (
                        cell["n"],
                        "dino" in cell["icons"],
                        "egg" in cell["icons"],
                    )
                    assert frame(s["name"], "migrate", at)["herd_max"] == board["migrate"][r][c]
                    evolve = frame(s["name"], "evolve", at)
                    assert [b for b in (evolve["home_1"], evolve["home_2"]) if b] == board["evolve"][r][c]
                    assert frame(s["name"], "compete", at)["strength"] == board["compete"][r][c]
            assert_frames(s["name"], board["start"], s["start_values"])


def assert_frames(species: str, markers: dict[str, int], values: dict[str, Any]) -> None:
    """The four frames of a species at these marker positions give these values (as the component
    data writes them: spread with its icons, herd size, the homes it evolves to, strength)."""
    assert spread(frame(species, "spread", markers)) == (
        values["spread"]["n"],
        "dino" in values["spread"]["icons"],
        "egg" in values["spread"]["icons"],
    )
    assert frame(species, "migrate", markers)["herd_max"] == values["herd_max"]
    assert homes(frame(species, "evolve", markers)) == set(values["evolve"])
    assert frame(species, "compete", markers)["strength"] == values["compete"]


def test_the_frame_index_matches_the_component_data(components: dict[str, Any]) -> None:
    board = components["dino_board"]
    action = keyed("action")
    for name, (row_marker, col_marker) in board["frame_index"].items():
        assert (action[name]["row_marker"], action[name]["col_marker"]) == (row_marker, col_marker)
        assert action[name]["place"] == board["layout"][name].replace("_", " ")
    for name, (row, col) in board["max_cells"].items():
        if name in action:
            assert (action[name]["max_row"], action[name]["max_col"]) == (row, col)
    for marker, about in board["evolve_markers"].items():  # a marker moves the two frames it indexes
        linked = [a for a, row in action.items() if marker in (row["row_marker"], row["col_marker"])]
        assert linked == about["links"], marker


def test_dynasties_and_species_match_the_component_data(components: dict[str, Any]) -> None:
    dynasty, species = keyed("dynasty"), keyed("species")
    printed = {(r["species"], r["slot"]): r["morph"] for r in tables()["species_morph"]}
    total = 0
    for d in components["dynasties"]["list"]:
        row = dynasty[d["name"]]
        assert (row["called"], row["colour"], row["major_group"], row["dinos"], row["nests"]) == (
            d["title"],
            d["colour"],
            d["major_group"],
            d["dino_meeples"],
            d["nests"],
        )
        for s in d["species"]:
            total += 1
            mine = species[s["name"]]
            assert mine["dynasty"] == d["name"] and s["major_group"] == d["major_group"]
            assert (mine["called"], mine["size_group"], mine["dinos"], mine["starting_herd"]) == (
                s["title"],
                s["size_group"],
                s["dino_count"],
                s["starting_herd"],
            )
            assert [mine["home_1"], mine["home_2"], mine["home_3"]] == s["home_biomes"]
            assert {m: mine[f"start_{m}"] for m in MARKERS} == s["board"]["start"]
            assert [printed.get((s["name"], i)) for i in (1, 2)][: len(s["morphs"])] == s["morphs"]
            assert mine["character"] == s["character"]
    assert total == len(species) == 24 and len(printed) == sum(
        len(s["morphs"]) for d in components["dynasties"]["list"] for s in d["species"]
    )


def test_scenarios_match_the_component_data(components: dict[str, Any]) -> None:
    card, side = keyed("scenario_card"), keyed("scenario_side")
    positions = {(p["side"], p["x"], p["y"]): p for p in tables()["position"]}
    letter = {"territory": "T", "ocean": "O", "expanding_event": "E"}
    count = 0
    for c in components["scenarios"]["cards"]:
        assert card[c["card"]]["size"] == c["size"]
        for s in c["sides"]:
            name = f"{c['card']}_{s['side']}"
            mine = side[name]
            assert (mine["card"], mine["side"], mine["campaign_name"], mine["called"]) == (
                c["card"],
                s["side"],
                s["name"],
                s["title"],
            )
            assert (mine["width"], mine["height"]) == (s["width"], s["height"])
            assert keyed("scenario_name")[s["name"]]["called"] == s["title"]
            assert s["map_sides"] == s["width"] + s["height"] and s["map_corners"] == 4
            for y, line in enumerate(s["layout"]):
                for x, ch in enumerate(line):
                    here = positions.get((name, x, y))
                    assert (letter[here["what"]] if here else ".") == ch, (name, x, y)
                    count += ch != "."
            starting = {(p["x"], p["y"]) for p in positions.values() if p["side"] == name and p["starting"]}
            assert starting == {tuple(p) for p in s["starting_positions"]}
            for key, what in (
                ("territory_positions", "territory"),
                ("ocean_positions", "ocean"),
                ("event_positions", "expanding_event"),
            ):
                assert all(positions[(name, x, y)]["what"] == what for x, y in s[key])
    assert count == len(positions)


def test_sizes_borders_and_recommendations_match_the_component_data(components: dict[str, Any]) -> None:
    size = keyed("scenario_size")
    for name, (w, h) in ((k, v) for k, v in components["scenario_sizes"].items() if k != "note"):
        assert (size[name]["width"], size[name]["height"]) == (w, h)
    assert [s["name"] for s in sorted(size.values(), key=lambda s: s["campaign_order"])] == components[
        "setup"
    ]["campaign_sizes"]
    recommended = {(r["players"], r["size"]) for r in tables()["recommended_size"]}
    assert recommended == {
        (int(n), s) for n, ss in components["players"]["recommended_sizes"].items() for s in ss
    }
    border, frame_pieces = keyed("border"), components["map_borders"]
    assert (border["map_corner"]["count"], border["map_corner"]["length"]) == (
        frame_pieces["corners"],
        frame_pieces["corner_tiles"],
    )
    assert (border["map_side"]["count"], border["map_side"]["length"]) == (
        frame_pieces["sides"],
        frame_pieces["side_tiles"],
    )


def test_biomes_and_dice_match_the_component_data(components: dict[str, Any]) -> None:
    biomes, biome = components["biomes"], keyed("biome")
    assert [b for b, row in biome.items() if row["group"] == "general"] == biomes["general"]
    assert [b for b, row in biome.items() if row["group"] == "general" and row["land"]] == biomes[
        "general_land"
    ]
    assert [b for b, row in biome.items() if row["group"] == "permanent_event"] == biomes["permanent_event"]
    assert [b for b, row in biome.items() if row["group"] == "one_time_event"] == biomes["one_time_event"]
    faces = sorted(tables()["die_face"], key=lambda f: f["face"])
    assert [f["biome"] for f in faces if f["die"] == "event_die"] == components["dice"]["event"]["faces"]
    assert [f["value"] for f in faces if f["die"] == "compete_die"] == components["dice"]["compete"]["faces"]
    die = keyed("die")
    assert (die["event_die"]["count"], die["event_die"]["colour"]) == (
        1,
        components["dice"]["event"]["colour"],
    )
    assert (die["compete_die"]["count"], die["compete_die"]["per_side"]) == (
        components["dice"]["compete"]["count"],
        components["dice"]["compete"]["per_side"],
    )


def test_morphs_match_the_component_data(components: dict[str, Any]) -> None:
    morph = keyed("morph")
    sizes = Counter((r["morph"], r["size_group"]) for r in tables()["morph_size"])
    majors = Counter((r["morph"], r["major_group"]) for r in tables()["morph_major"])
    kinds = {k for k in components["morph_effect_kinds"] if k != "note"}
    assert {e["name"] for e in tables()["effect_kind"]} == kinds

    def same(row: Row, m: dict[str, Any]) -> None:
        e = m["effect"]
        assert (row["called"], row["printed"], row["effect"]) == (m["title"], m["text"], e["kind"])
        assert row["amount"] == e.get("amount", e.get("dinos", e.get("dice")))
        assert (row["compete_as"], row["biome"]) == (e.get("when"), e.get("biome"))
        if e["kind"] == "hide":  # the effect kind says where and against what
            assert (e["where"], e["protects"]) == ("home_biomes", ["attack", "stomp"])

    for m in components["morph_tokens"]["list"]:
        same(morph[m["name"]], m)
        assert morph[m["name"]]["tokens"] == m["count"]
        assert sorted(g for (n, g) in sizes if n == m["name"]) == m["size_groups"]
        assert sorted(g for (n, g) in majors if n == m["name"]) == sorted(m["major_groups"])
    for m in components["species_morphs"]["list"]:
        same(morph[m["name"]], m)
        assert morph[m["name"]]["tokens"] == 0
        on = sorted(r["species"] for r in tables()["species_morph"] if r["morph"] == m["name"])
        assert on == sorted(m["pre_printed_on"])
    assert len(morph) == len(components["morph_tokens"]["list"]) + len(components["species_morphs"]["list"])
    assert sum(m["tokens"] for m in morph.values()) == components["morph_tokens"]["total"]
    assert sum(sizes.values()) == len(tables()["morph_size"]) and sum(majors.values()) == len(
        tables()["morph_major"]
    )


def test_challenges_match_the_component_data(components: dict[str, Any]) -> None:
    card, token = keyed("challenge"), keyed("challenge_token")
    for c in components["challenge_cards"]["list"]:
        mine = card[c["name"]]
        assert (mine["called"], mine["letter"], mine["measure"], mine["printed"]) == (
            c["title"],
            c["letter"],
            c["measure"].replace("_", " "),
            c["text"],
        )
        assert mine["token"] == (f"{c['token']}_token" if c["token"] else None)
        assert (mine["invented"], mine["counts_rival_biomes"], mine["stasis"]) == (
            c["invented"],
            c["counts_rival_biomes"],
            c["stasis_variant"],
        )
        assert c["tie"] == "tiebreaker_card_then_nobody"  # the assumption [challenges], no column
    assert len(card) == len(components["challenge_cards"]["list"])
    assert {k: token[f"{k}_token"]["earned"] for k in components["challenge_tokens"] if k != "note"} == {
        k: v for k, v in components["challenge_tokens"].items() if k != "note"
    }
    assert {n for n, c in card.items() if c["stasis"]} == set(components["stasis"]["challenge_pool"])


def test_the_stasis_deck_matches_the_component_data(components: dict[str, Any]) -> None:
    stasis = components["stasis"]
    card = {row["name"]: row for row in csv_rows("stasis_card")}
    steps = {(s["card"], s["order"]): s for s in csv_rows("stasis_step")}
    for c in stasis["deck"]:
        assert card[c["id"]]["first"] == c["type"] == c["actions"][0]["action"]
        for i, a in enumerate(c["actions"], start=1):
            mine = steps[(c["id"], i)]
            assert (mine["action"], mine["herd"], mine["mode"]) == (a["action"], a["herd"], a.get("mode"))
            assert mine["tile"] == {"none": "no_tile"}.get(a.get("tile"), a.get("tile"))
            assert mine["must_move"] == {"required": True, "optional": False}.get(a.get("move"))
            bonus = [(f"more_{k}", v) for k, v in a.get("modifier", {}).items()] or [(None, None)]
            assert [(mine["bonus"], mine["amount"])] == bonus
    assert len(steps) == sum(len(c["actions"]) for c in stasis["deck"]) and len(card) == len(stasis["deck"])
    herds = {(h["size_from"], h["size_to"], h["herd"]): h["dinos"] for h in csv_rows("stasis_start_herd")}
    for (low, high), key in (((1, 3), "size_1_3"), ((4, 6), "size_4_6")):
        assert [herds[(low, high, i)] for i in (1, 2, 3)] == stasis["starting_herds"][key]


BINDINGS = [
    "Evolve, Move Evolve Markers",
    "How to Play, Compete Action",
    "Compete Resolution",
    "Team Game",
    "Glossary, COMPETE",
    "Compete, Move 1 Herd and Attack",
    "Glossary, HATCH",
    "Permanent Biomes' Effects, DESERT",
    "Change Species",
]


def test_the_component_data_binds_exactly_these_examples(components: dict[str, Any]) -> None:
    assert [b["where"] for b in components["example_bindings"]["list"]] == BINDINGS


@pytest.mark.parametrize("where", BINDINGS)
def test_every_example_binding_reads_its_frames_from_the_tables(
    components: dict[str, Any], where: str
) -> None:
    """Each printed example the component data binds to a species and marker positions: the frames
    read from the tables at those positions give the example's numbers."""
    (b,) = [b for b in components["example_bindings"]["list"] if b["where"] == where]
    if "frames" in b:  # Evolve: the frames after each step
        for markers, frames in zip(b["markers"], b["frames"], strict=True):
            assert_frames(b["species"], markers, frames)
    elif "attacker" in b:  # a Compete: the Power of each side
        a = b["attacker"]
        attack = power(a["species"], a["markers"], a["herd"], a["dice"], morphs(a), "attack")
        defenders = b.get("defenders") or [b["defender"]]
        defend = b.get("team_dice", 0) + sum(
            power(d["species"], d["markers"], d["herd"], d.get("dice", 0), morphs(d), "defend")
            for d in defenders
        )
        assert [attack, defend] == b["power"]
        loser = "defender" if attack > defend else "attacker"
        assert sum(b["loss"].values()) == abs(attack - defend) and next(iter(b["loss"])).startswith(loser)
    elif "power" in b:  # the glossary's sum: 3 Herd size + strength + Horns + dice
        herd = b["power"] - power(b["species"], b["markers"], 0, b["dice"], b["morph_tokens"], "attack")
        assert herd == 3  # '3 Herd size + 6 Compete strength + 1 Power horns + 3 dice roll'
    elif "herd_max" in b:
        assert frame(b["species"], "migrate", b["markers"])["herd_max"] == b["herd_max"]
    elif "after" in b:  # desert: half the starting Herd, rounded down
        assert keyed("species")[b["species"]]["starting_herd"] == b["starting_herd"]
        assert min(b["herd"], b["starting_herd"] // 2) == b["after"]
    elif where == "Glossary, HATCH":
        assert frame(b["species"], "spread", b["markers"])["spread"] == 2
    else:  # change species: Moros to T. rex
        for action in ("spread", "migrate", "evolve", "compete"):
            mine = value(frame(b["species"], action, b["markers"]))
            assert mine in {value(c) for c in grid("tyrannosaurus_rex", action)}, action


# Assumptions of the component data that fill no gap: two passages of the rulebook disagree there,
# so the rules file declares a conflict (by this name) instead of an `assume`.
DECLARED_AS_CONFLICTS = {
    "[morphs] Camouflage protects in any": "Which Home Biomes Camouflage hides in",
}


def test_all_68_assumptions_of_the_component_data_are_carried_over(components: dict[str, Any]) -> None:
    """Every assumption keeps its [topic] tag in the rules files: the same number per tag, except those
    the rulebook contradicts itself on, which the files declare as conflicts. One about a variant alone
    (the Stasis deck, a Campaign's Map) is in that variant's file, so that the base game's rulebook
    never speaks of rules it does not contain."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(RULES.parent.glob("dino_dynasty*.rules")))
    lines = [line for line in text.splitlines() if line.startswith('assume "[')]
    tags = Counter(line.split("]")[0] + "]" for line in lines)
    assumptions = [
        a for a in components["assumptions"] if not any(a.startswith(k) for k in DECLARED_AS_CONFLICTS)
    ]
    assert len(assumptions) == len(components["assumptions"]) - len(DECLARED_AS_CONFLICTS)
    wanted = Counter('assume "' + a.split("]")[0] + "]" for a in assumptions)
    assert all(tags[t] >= n for t, n in wanted.items()), wanted - tags
    conflicts = [f'conflict "{name}":' for name in DECLARED_AS_CONFLICTS.values()]
    assert all(c in text.splitlines() for c in conflicts), conflicts
    assert len(components["assumptions"]) == 68 and len(components["open_questions"]) == 5
