"""The kiosk's view of Dungeon Crawl (``presenter.py``): the dungeon map, the cards, private
treasure values, and every decision reachable in a few presses."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.games.dungeon_crawl.actions import LayTile, Move, PlaceCoin, StandPawns
from companion.games.dungeon_crawl.bots import play_bot_game
from companion.games.dungeon_crawl.presenter import Frame, heading
from companion.kiosk.inputs import MapPicker, Menu
from hardware.buttons import CONFIRM

from .table import CORRIDOR, GAME, act, position

PRESENTER = GAME.presenter()


def midgame():
    return position(CORRIDOR + "set coin 3,0 4\nset coin 5,1 2 suit=crowns\n"
                    "set stack 4,1 treasures=3 equipment=1\n"
                    "set player Ann at=0,0 treasures=5,2 equipment=2 trap_xp=1 monster_xp=3 "
                    "damage=4 soaked=1\n"
                    "set player Bob at=dead\nset player Cat at=2,1")


def test_map_shows_tiles_coins_stacks_and_pawns_at_their_squares() -> None:
    state = midgame()
    view = PRESENTER.map_view(state)
    assert view.problems() == []
    assert (view.width, view.height) == (6, 2)  # three tiles of 2x2, north up
    frame = Frame([t.at for t in state.tiles])
    assert len(view.cells) == 12
    pieces = {(p.square, p.label, p.shape) for p in view.pieces}
    assert (frame.square((3, 0)), "4", "token") in pieces  # value up, suit unknown
    assert (frame.square((4, 1)), "2", "token") in pieces  # the stack: 2 coins
    assert (frame.square((0, 0)), "A", "pawn") in pieces and (frame.square((2, 1)), "C",
                                                                 "pawn") in pieces
    known = next(p for p in view.pieces if p.square == frame.square((5, 1)))
    assert known.colour == "#f0d723"  # a coin whose suit is known shows the suit's colour
    assert frame.square((0, 0)) == (0, 1) and frame.square((0, 1)) == (0, 0)  # y up = north
    assert any("Bob is dead" in b for b in view.banners)


def test_map_targets_are_exactly_the_movers_legal_destinations() -> None:
    state = midgame()
    view = PRESENTER.map_view(state)
    legal = [a for a in GAME.legal_actions(state) if isinstance(a, Move)]
    assert legal and {t.action for t in view.targets} == set(legal)
    assert len(view.targets) == len(legal)
    frame = Frame([t.at for t in state.tiles])
    assert {t.square for t in view.targets} == {frame.square(a.to) for a in legal}
    move = next(t for t in view.targets if t.action == Move(0, (3, 0)))
    assert move.label == "move 3 east: coin 4"


def test_heading_words() -> None:
    assert heading((0, 0), (2, 2)) == "2 north-east"
    assert heading((3, 1), (3, 0)) == "1 south"
    assert heading((3, 1), (0, 1)) == "3 west"


def test_cards_show_counts_and_damage_but_never_treasure_values() -> None:
    state = midgame()
    cards = PRESENTER.player_cards(state, {})
    ann, bob = cards[0], cards[1]
    assert ann.extras == ("treasure 2  equip 2", "XP trap 1  monster 3")
    assert ann.meter == ("damage", 3, 10) and ann.status == ""
    assert bob.status == "DEAD"
    assert not any("5" in e for e in ann.extras)  # the values stay private
    assert PRESENTER.private_lines(state, 0) == ("Treasures: 5, 2", "2 treasures, worth 7 in all")
    assert PRESENTER.private_lines(state, 2) == ("No treasure yet",)


def test_spend_and_attack_rows_say_what_they_do() -> None:
    state = position(CORRIDOR + "set coin 1,0 3\nset player Ann at=0,0 trap_xp=2\n"
                     "set player Bob at=5,1\nset player Cat at=4,1")
    state, _ = act(state, "Ann move 1,0", "Ann reveal suns")
    rows = [o.label for o in PRESENTER.menu(state).options]
    assert rows[:3] == ["Ann: spend 0 trap XP (roll +0)", "Ann: spend 1 trap XP (roll +1)",
                        "Ann: spend 2 trap XP (roll +2)"]


def plan_length(state, action) -> int | None:
    """Presses from a fresh decision to ``action``: through the map's cursor when the kiosk
    puts it on top (as GameScreen does), else through the menus."""
    view = PRESENTER.map_view(state)
    if view.targets:
        picker = MapPicker("", list(view.targets))
        plan = picker.plan(action)
        if plan is not None:
            return len(plan)
    menu = PRESENTER.menu(state)
    plan = menu.plan(action)
    return None if plan is None else len(plan)


def test_every_decision_of_a_whole_game_is_a_few_presses() -> None:
    """Every action the bots took in a four-player game is reachable on the buttons; laying a
    tile takes the suit, the value and (sometimes) a place, never a long list."""
    game = play_bot_game(5, ("Ann", "Bob", "Cat", "Dan"), ("heuristic",) * 4)
    state = GAME.new_game(["Ann", "Bob", "Cat", "Dan"], seed=5)
    worst: dict[str, int] = {}
    for action in game.actions:
        if not PRESENTER.is_roll(state, action):
            n = plan_length(state, action)
            assert n is not None, f"no button path to {action}"
            kind = type(action).__name__
            worst[kind] = max(worst.get(kind, 0), n)
            view = PRESENTER.map_view(state)
            assert view.problems() == [], view.problems()
        state, _ = GAME.apply(state, action)
    assert worst["LayTile"] <= 10 and worst["PlaceCoin"] <= 10, worst
    assert worst["StandPawns"] <= 10 and worst["Move"] <= 14, worst


def test_standing_the_pawns_takes_three_short_menus() -> None:
    state, _ = act(GAME.new_game(["Ann", "Bob"]), "Ann first", "Ann lay suns:0 0,0")
    menu = PRESENTER.menu(state)
    row = next(o for o in menu.options if "stand the four pawns" in o.label)
    assert row.open is not None
    north = row.open()
    assert isinstance(north, Menu) and len(north.options) == 4
    east = north.options[1].open()  # moons north
    south = east.options[0].open()  # suns east
    assert len(south.options) == 2
    last = south.options[1].action
    assert last == StandPawns(0, ("moons", "suns", "arms", "crowns"))
    assert south.options[1].label.endswith("crowns west")


def test_laying_a_tile_picks_suit_then_value_then_place() -> None:
    state, _ = act(GAME.new_game(["Ann", "Bob"]), "Ann first", "Ann lay suns:0 0,0",
                   "Ann pawns north=suns east=moons south=crowns west=arms",
                   "Bob lay arms:2 -1,0", "Bob coin -2,0 3")
    menu = PRESENTER.menu(state)
    rows = [o.label for o in menu.options]
    assert rows[:4] == ["Ann: turned over a suns tile", "Ann: turned over a moons tile",
                        "Ann: turned over a crowns tile", "Ann: turned over an arms tile"]
    suns = menu.options[0].open()
    assert isinstance(suns, Menu)
    legal = {a for a in GAME.legal_actions(state) if isinstance(a, LayTile) and a.suit == "suns"}
    reached = set()
    for option in suns.options:
        if option.action is not None:
            reached.add(option.action)
        else:
            picker = option.open()
            assert isinstance(picker, MapPicker)
            assert all(t.span == (2, 2) for t in picker.targets)
            reached |= {t.action for t in picker.targets}
    assert reached == legal


def test_placing_a_coin_picks_value_then_square() -> None:
    state, _ = act(GAME.new_game(["Ann", "Bob"]), "Ann first", "Ann lay suns:0 0,0",
                   "Ann pawns north=suns east=moons south=crowns west=arms",
                   "Bob lay moons:2 1,0")
    menu = PRESENTER.menu(state)
    coin_rows = [o for o in menu.options if "coin" in o.label]
    assert len(coin_rows) == 6  # one per value
    picker = coin_rows[3].open()
    assert isinstance(picker, MapPicker) and len(picker.targets) == 4
    assert picker.handle(CONFIRM) is not None
    legal = {a for a in GAME.legal_actions(state) if isinstance(a, PlaceCoin) and a.value == 3}
    assert {t.action for t in picker.targets} == legal


def test_soak_and_attack_rows_say_what_follows() -> None:
    state = position(CORRIDOR + "set coin 1,0 3\nset player Ann at=0,0 equipment=2\n"
                     "set player Bob at=2,1 treasures=4\nset player Cat at=5,1")
    state, _ = act(state, "Ann move 1,0", "Ann reveal moons", "Ann roll 1")
    rows = [o.label for o in PRESENTER.menu(state).options]
    assert rows[:3] == ["Ann: use 0 equipment (damage 3)", "Ann: use 1 equipment (damage 2)",
                        "Ann: use 2 equipment (damage 1)"]
    beside = position(CORRIDOR + "set player Ann at=0,0\nset player Bob at=2,1 treasures=4\n"
                      "set player Cat at=5,0")
    beside, _ = act(beside, "Ann move 1,0")  # lands diagonally next to Bob
    rows = [o.label for o in PRESENTER.menu(beside).options]
    assert rows[:2] == ["Ann: attack Bob (1 treasure)", "Ann: no attack"]
