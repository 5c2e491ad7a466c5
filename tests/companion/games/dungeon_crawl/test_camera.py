"""Ruling C-25 and the coin reveal read by the camera: what Dungeon Crawl's presenter makes of
the kiosk's game-blind readings (each die's colour tag is its suit; a coin shown suit side up)."""

from __future__ import annotations

from companion.games.dungeon_crawl.actions import Reveal
from companion.games.dungeon_crawl.camera import coin_answer, roll_read
from companion.games.dungeon_crawl.state import CrawlState, Options
from companion.kiosk.dice_flow import DiceSeen
from tests.companion.games.dungeon_crawl.table import CORRIDOR, GAME, act, position

# Ann suns (red), Bob moons (black), Cat crowns (yellow)


def at_trap_roll() -> CrawlState:
    state = position(CORRIDOR + "set coin 3,0 4\nset player Ann at=0,0 trap_xp=1\n"
                     "set player Bob at=2,1\nset player Cat at=5,0")
    state, _ = act(state, "Ann move 3,0", "Ann reveal suns", "Ann spend 0")
    prompt = GAME.dice_prompt(state)
    assert prompt is not None and prompt.player == 0
    return state


def test_c25_a_roll_is_read_from_the_rollers_own_die() -> None:
    state = at_trap_roll()
    prompt = GAME.dice_prompt(state)
    assert prompt is not None
    read = roll_read(state, prompt, DiceSeen((3,), colours=("suns",)))
    assert read.seen is not None and read.seen.values == (3,) and not read.keep
    # Bob's die lying beside Ann's: Ann's is the roll
    read = roll_read(state, prompt, DiceSeen((2, 4), guesses=(2, 4), colours=("moons", "suns")))
    assert read.seen is not None and read.seen.values == (4,) and read.seen.colours == ("suns",)
    assert read.seen.guesses == (4,)


def test_c25_another_players_die_is_refused_naming_whose_it_is() -> None:
    state = at_trap_roll()
    prompt = GAME.dice_prompt(state)
    assert prompt is not None
    read = roll_read(state, prompt, DiceSeen((5,), colours=("moons",)))
    assert read.seen is None
    assert read.problem == ("The camera sees the moons die (black): that is Bob's die. "
                            "Ann rolls the suns die (red)")
    nobody = roll_read(state, prompt, DiceSeen((5,), colours=("arms",)))  # three players
    assert nobody.seen is None and "no player rolls it" in nobody.problem


def test_c25_a_die_whose_colour_is_not_read_is_offered_for_confirming() -> None:
    state = at_trap_roll()
    prompt = GAME.dice_prompt(state)
    assert prompt is not None
    read = roll_read(state, prompt, DiceSeen((2,), colours=("",)))
    assert read.seen is not None and read.seen.values == (2,)


def test_c25_both_fighters_throw_at_once_and_each_die_goes_to_its_owner() -> None:
    state = position(CORRIDOR + "set player Ann at=0,0\nset player Bob at=2,1\n"
                     "set player Cat at=none")
    state, _ = act(state, "Ann move 1,0", "Ann attack Bob")
    throw = DiceSeen((4, 2), colours=("moons", "suns"))
    attack = GAME.dice_prompt(state)
    assert attack is not None and attack.player == 0
    read = roll_read(state, attack, throw)
    assert read.seen is not None and read.seen.values == (2,) and read.keep
    state, _ = act(state, "Ann roll 2")
    defence = GAME.dice_prompt(state)
    assert defence is not None and defence.player == 1
    read = roll_read(state, defence, throw)
    assert read.seen is not None and read.seen.values == (4,) and not read.keep


def test_c25_the_d6_option_has_no_colours_to_check() -> None:
    state = position(CORRIDOR + "set coin 3,0 4\nset player Ann at=0,0\nset player Bob at=2,1",
                     options=Options(die="d6"))
    state, _ = act(state, "Ann move 3,0", "Ann reveal moons")
    prompt = GAME.dice_prompt(state)
    assert prompt is not None
    seen = DiceSeen((6,), colours=("moons",))
    assert roll_read(state, prompt, seen).seen == seen


def at_reveal(extra: str = "") -> CrawlState:
    state = position(CORRIDOR + "set coin 3,0 4\nset player Ann at=0,0\nset player Bob at=2,1\n"
                     + extra)
    state, _ = act(state, "Ann move 3,0")
    assert state.pending is not None and state.pending.step == "reveal"
    return state


def test_a_coin_shown_suit_side_up_answers_the_reveal() -> None:
    answer = coin_answer(at_reveal(), DiceSeen((None,), colours=("moons",)))
    assert answer is not None and answer.action == Reveal(0, "moons")
    assert answer.text == "The camera reads the coin: moons (monster): CONFIRM to accept"


def test_a_coin_the_companion_does_not_expect_is_named() -> None:
    state = at_reveal()
    other = coin_answer(state, DiceSeen((3,), colours=("",)))
    assert other is not None and other.action is None
    assert other.text == ("The camera sees a 3 coin, but Ann landed on a 4: show that coin, "
                          "suit side up")
    same = coin_answer(state, DiceSeen((4,), colours=("",)))
    assert same is not None and same.action is None and "turn it over" in same.text
    two = coin_answer(state, DiceSeen((None, None), colours=("suns", "arms")))
    assert two is not None and two.action is None and "2 coins" in two.text
    gone = coin_answer(at_reveal("set revealed suns:4"), DiceSeen((None,), colours=("suns",)))
    assert gone is not None and gone.action is None and "turned over already" in gone.text


def test_no_answer_outside_a_reveal() -> None:
    assert coin_answer(at_trap_roll(), DiceSeen((None,), colours=("suns",))) is None


def test_a_coin_whose_suit_is_known_must_read_that_suit() -> None:
    state = position(CORRIDOR + "set coin 3,0 4 suit=arms\nset player Ann at=0,0\n"
                     "set player Bob at=2,1")
    state, _ = act(state, "Ann move 3,0")
    assert state.pending is not None and state.pending.suit == "arms"
    answer = coin_answer(state, DiceSeen((None,), colours=("suns",)))
    assert answer is not None and answer.action is None and "known to be arms" in answer.text
    right = coin_answer(state, DiceSeen((None,), colours=("arms",)))
    assert right is not None and right.action == Reveal(0, "arms")
