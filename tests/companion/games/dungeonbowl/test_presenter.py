"""What the kiosk is handed for Dungeonbowl: the map view (features, door states, traps, balls,
chests, every declared model, pickable squares), team cards and the pending roll's words."""

from __future__ import annotations

from companion.kiosk.map_view import MapView

from .table import GAME, LAB, act, position


def test_map_view_shows_the_dungeon_and_is_consistent() -> None:
    state = position("set model Orcs o1 2,2\nset model Elves e1 8,3 status=prone\n"
                     "set trap 5,5 gas\nset door D1 locked")
    view = GAME.presenter().map_view(state)
    assert isinstance(view, MapView) and view.problems() == []
    assert (view.width, view.height) == (11, 9) and view.title == "Lab"
    cells = {c.square: c for c in view.cells}
    assert cells[(4, 2)].fill == "#d2521e" and cells[(6, 2)].fill == "#2f6fb0"  # lava, water
    assert cells[(3, 1)].fill == "#c22f2f" and cells[(3, 1)].text == "D1"  # a locked door
    assert "Gs" in cells[(5, 5)].marks and "T?" in cells[(4, 3)].marks  # shown / face down
    assert "C" in cells[(3, 4)].marks and "RF" in cells[(6, 3)].marks and "PA" in cells[(2, 3)].marks
    assert cells[(6, 5)].text == "3" and cells[(1, 1)].edge  # a platform; an end zone
    labels = {p.label: p for p in view.pieces}
    assert labels["o1"].square == (2, 2) and labels["e1_"].square == (8, 3)
    assert any(p.shape == "ball" and p.square == (8, 6) for p in view.pieces)
    assert any(w.label == "D2 closed" for w in view.walls)
    assert any(w.label == "ladder 2" for w in view.walls)


def test_map_targets_are_the_squares_a_declaration_can_pick() -> None:
    state = position("set model Orcs o1 2,2")
    view = GAME.presenter().map_view(state)
    squares = {t.square for t in view.targets}
    assert (3, 3) in squares and (2, 1) in squares and (0, 0) not in squares
    for t in view.targets:
        assert GAME.is_legal(state, t.action)


def test_team_cards_show_score_balls_and_models_off_the_pitch() -> None:
    state = position("set model Orcs o1 2,2\nset model Orcs o2 - status=reserves\n"
                     "set model Orcs o3 - status=dead\nset ball b1 holder=o1 kind=normal\n"
                     "set score Elves 2")
    cards = GAME.presenter().player_cards(state, {})
    assert cards[0].extras == ("score 0", "balls 1", "off: res 1 dead 1", "end zone 1")
    assert cards[1].extras == ("score 2", "balls 0", "off: none", "end zone 2")


def test_the_menu_title_carries_the_pending_roll_and_its_notes_each_result() -> None:
    state = position("set model Orcs o1 4,2")
    state, _ = act(state, "Orcs step o1 4,3")
    menu = GAME.presenter().menu(state)
    assert "armour roll for o1" in menu.title and "armour -1" in menu.title
    labels = [GAME.presenter().action_label(state, a) for a in GAME.legal_actions(state)]
    assert labels[0] == "held: armour holds, no harm" and labels[2].startswith("ko")
    dice = position("set model Orcs o1 2,1")
    dice, _ = act(dice, "Orcs open o1 D1")
    menu = GAME.presenter().menu(dice)
    assert menu.title == "2+ needed"
    assert menu.notes == ("1: locked for good (smash it to open)", "2-6: it opens")
    chasm, _ = act(position("set model Orcs o1 4,1"), "Orcs step o1 5,1")
    assert chasm.pending[0].kind == "roll"
    menu = GAME.presenter().menu(chasm)
    assert menu.title == "" and len(menu.notes) == 3 and menu.notes[2].startswith("6: killed")


def test_kiosk_options_are_typed_and_the_setup_offers_the_switches() -> None:
    presenter = GAME.presenter()
    assert presenter.parse_option("balls=3") == ("balls", 3)
    assert presenter.parse_option("traps=false") == ("traps", False)
    assert {o.name for o in presenter.table_options()} == {"dungeon", "ball", "balls",
                                                           "multiball", "traps", "door_gfi"}
    for o in presenter.table_options():  # every value a choice offers is an option the game takes
        for value in o.values:
            assert presenter.parse_option(f"{o.name}={value}")[0] == o.name


def test_each_model_has_a_short_label_its_team_shares_with_no_other() -> None:
    from companion.games.dungeonbowl import roster
    from companion.games.dungeonbowl.presenter import short_labels

    orcs = short_labels([m.id for m in roster.load("orcs").models])
    assert orcs["shaman"] == "s" and orcs["orc3"] == "o3" and orcs["troll"] == "tr"
    assert [orcs[f"brute{i}"] for i in (1, 2, 3)] == ["br1", "br2", "br3"]  # beside "bl1"
    assert orcs["blitzer2"] == "bl2" and orcs["thrower"] == "th"
    for name in roster.bundled():
        labels = short_labels([m.id for m in roster.load(name).models])
        assert len(set(labels.values())) == len(labels), name
        assert all(len(v) <= 3 for v in labels.values()), labels
    assert short_labels(["t2-elf1", "t2-elf2"], "t2-") == {"t2-elf1": "e1", "t2-elf2": "e2"}
    # on the map: the full label and the short one, with the status mark
    state = position("set model Orcs o1 2,2\nset model Elves e1 8,3 status=prone")
    view = GAME.presenter().map_view(state)
    assert {(p.label, p.short) for p in view.pieces if p.shape == "pawn"} == \
        {("o1", "o1"), ("e1_", "e1_")}


def test_a_team_prefix_is_left_to_the_colour_on_the_map() -> None:
    """Two teams with the same roster field ``o-blitzer1`` and ``e-blitzer1``: on the map the
    prefix gives way to the name ("bli1"; short "bl1"), and brute1 stays told from blitzer1."""
    state = GAME.new_game([("Orcs", "orcs"), ("Elves", "orcs")], {"dungeon": LAB})
    state, _ = act(state, "Orcs add o-blitzer1 1,1", "Orcs add o-brute1 1,2")
    pawns = {p.square: p for p in GAME.presenter().map_view(state).pieces if p.shape == "pawn"}
    assert (pawns[(1, 1)].label, pawns[(1, 1)].short) == ("bli1", "bl1")
    assert (pawns[(1, 2)].label, pawns[(1, 2)].short) == ("bru1", "br1")
