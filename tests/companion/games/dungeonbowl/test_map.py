"""The map format (docs/dungeonbowl.md): the grid, legend, heights and features; JSON; errors
naming line and column; the bundled dungeons (DB.2-DB.4, DB.7)."""

from __future__ import annotations

import json

import pytest

from companion.games.dungeonbowl import dungeon
from companion.games.dungeonbowl.dungeon import MapError, level, parse_json, parse_text

from .table import LAB

SMALL = """name Small
grid
#####
#1C2#
#####
"""


def test_lab_map_reads_every_feature() -> None:
    d = dungeon.load(LAB)
    assert d.name == "Lab" and d.teams == 2
    assert d.cells[(3, 1)].terrain == "door" and d.door_at((3, 1)) is not None
    assert d.door_between((7, 1), (8, 1)) is not None
    assert d.cells[(5, 1)].terrain == "chasm" and d.cells[(6, 1)].terrain == "obstacle"
    assert d.cells[(4, 2)].terrain == "lava" and d.cells[(6, 2)].terrain == "water"
    assert d.portals() == {"A": ((2, 3), (8, 5))}
    assert d.cells[(6, 3)].rune == "fire" and d.circles() == {"c1": ((6, 3), (6, 4))}
    assert d.teleporters() == {1: (2, 5), 2: (2, 6)}
    assert d.cells[(6, 5)].height == 3 and d.cells[(4, 6)].height == 1
    assert d.ladder_between((6, 4), (6, 5)) is not None
    assert d.traps == ((4, 3),) and d.chests == ((3, 4), (3, 7))
    assert d.squares_where(ball=True) == ((8, 6),)
    assert frozenset({(2, 7), (3, 7)}) in d.walls


@pytest.mark.parametrize("name", ["two_teams", "four_teams", "every_feature"])
def test_bundled_dungeons_load_and_survive_json(name: str) -> None:
    d = dungeon.load(name)
    again = parse_json(json.dumps(dungeon.to_json(d)))
    assert again.cells == d.cells and again.doors == d.doors
    assert again.walls == d.walls and again.ladders == d.ladders


def test_bundled_dungeons_cover_two_four_teams_and_every_feature() -> None:
    assert dungeon.load("two_teams").teams == 2
    assert dungeon.load("four_teams").teams == 4
    d = dungeon.load("every_feature")
    terrains = {c.terrain for c in d.cells.values()}
    assert {"floor", "wall", "chasm", "obstacle", "lava", "water", "door", "gate"} <= terrains
    assert d.portals() and d.circles() and d.ladders and d.traps and d.chests and d.holes
    assert any(c.height >= 2 for c in d.cells.values()) and any(c.step for c in d.cells.values())
    assert {x.state for x in d.doors} >= {"closed", "locked"} and any(x.iron for x in d.doors)
    assert any(x.edge for x in d.doors) and d.walls and d.squares_where(ball=True)
    assert len(d.teleporters()) == 6  # DB.4: six by default


def error_of(text: str) -> MapError:
    with pytest.raises(MapError) as info:
        parse_text(text)
    return info.value


def test_unknown_character_names_line_and_column() -> None:
    e = error_of("name X\ngrid\n#####\n#1Q2#\n#####\n")
    assert (e.line, e.column) == (4, 3) and "unknown map character 'Q'" in str(e)
    assert str(e).startswith("line 4, column 3:")


def test_bad_legend_terrain_names_line_and_column() -> None:
    e = error_of("legend\nq = lagoon\ngrid\n#1C2#\n")
    assert (e.line, e.column) == (2, 5) and "unknown terrain" in str(e)


def test_bad_feature_names_line_and_column() -> None:
    e = error_of(SMALL + "features\ndoor 9,9-9,8\n")
    assert e.line == 7 and e.column == 6 and "not on the map" in str(e)
    e = error_of(SMALL + "features\nportcullis 1,1\n")
    assert e.line == 7 and "unknown feature" in str(e)


def test_height_must_be_a_digit() -> None:
    e = error_of(SMALL + "heights\n.....\n.x...\n")
    assert (e.line, e.column) == (8, 2)


def test_map_needs_two_end_zones_in_order() -> None:
    assert "end zones" in str(error_of("grid\n#1C3#\n"))


def test_a_portal_needs_its_pair() -> None:
    e = error_of("legend\na = floor portal=A\ngrid\n#1aC2#\n")
    assert "exactly two portal squares" in str(e) and (e.line, e.column) == (4, 3)


def test_teleporters_numbered_once_each() -> None:
    e = error_of("legend\nu = floor teleporter=2\ngrid\n#1uC2#\n")
    assert "numbered 1, 2, 3" in str(e)


def test_a_map_without_ball_or_chest_is_refused() -> None:
    assert "no chest" in str(error_of("grid\n#1.2#\n"))


def test_door_feature_must_be_on_a_door_square() -> None:
    e = error_of(SMALL + "features\ndoor 2,1 locked\n")
    assert "not a door square" in str(e)


def test_json_map_and_its_errors() -> None:
    d = parse_json(json.dumps({"name": "J", "grid": ["#####", "#1C2#", "#####"]}))
    assert d.name == "J" and d.chests == ((2, 1),)
    with pytest.raises(MapError) as info:
        parse_json("{\"grid\": [}")
    assert info.value.line == 1
    with pytest.raises(MapError):
        parse_json(json.dumps({"grid": ["#1Z2#"]}))


def test_unknown_bundled_name_lists_the_bundled_ones() -> None:
    with pytest.raises(ValueError, match="bundled: every_feature, four_teams, two_teams"):
        dungeon.load("nowhere")


def test_elevation_levels_db36() -> None:
    """DB.36 (ruling B-12): 0-1 steps ground, 2-4 level one, 5-8 level two, 9-12 three."""
    assert [level(h) for h in (0, 1, 2, 3, 4, 5, 6, 8, 9)] == [0, 0, 1, 1, 1, 2, 2, 2, 3]


def test_hole_lines_name_a_lower_square() -> None:
    assert dungeon.load("every_feature").holes == (((20, 8), (20, 10)),)
    assert dungeon.load(LAB).holes == (((7, 6), (8, 6)),)
    e = error_of(SMALL + "features\nhole 1,1 3,1\n")
    assert e.line == 7 and "two steps lower" in str(e)
    raised = "name R\ngrid\n#####\n#1C2#\n#.T.#\n#####\nheights\n.....\n.....\n..3..\n"
    e = error_of(raised + "features\nhole 2,2 2,3\n")
    assert (e.line, e.column) == (12, 10) and "not a wall" in str(e)
    e = error_of(raised + "features\nhole 2,2 1,2\nhole 2,2 3,2\n")
    assert e.line == 13 and "already has a hole line" in str(e)
