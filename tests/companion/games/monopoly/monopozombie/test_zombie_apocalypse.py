"""Into the apocalypse and the ends of the game (MZ.30-MZ.45; rulings Z-17-Z-21, Z-25-Z-28)."""

from __future__ import annotations

from zombie_table import Z

from companion.games.monopoly.actions import EndGame, EndTurn, Roll
from companion.games.monopoly.monopozombie import ChooseMove, HomelessRoll, Steer

BALTIC, READING, CHANCE_7, JAIL, FREE_PARKING = 3, 5, 7, 10, 20
PARK_PLACE, BOARDWALK, PENNSYLVANIA = 37, 39, 34


def zombies(z: Z, *names: str) -> Z:
    z.veterans().stage("outbreak")
    for n in names:
        z.put(n, zombie=True)
    return z


def convert_by_jail_square(z: Z, name: str) -> None:
    z.put(name, position=26).turn(name)
    z.roll(name, 1, 3)


def test_mz30_printed_threshold_two_of_four() -> None:
    z = zombies(Z(players=4), "Bob")
    assert z.stage_now == "outbreak"
    convert_by_jail_square(z, "Ann")
    assert z.stage_now == "apocalypse"


def test_mz30_printed_threshold_three_of_six_four_of_eight() -> None:
    z = zombies(Z(players=6), "Bob")
    convert_by_jail_square(z, "Ann")
    assert z.stage_now == "outbreak"
    z.act(EndTurn(0))
    convert_by_jail_square(z, "Cy")
    assert z.stage_now == "apocalypse"
    z8 = zombies(Z(players=8), "Bob", "Cy")
    convert_by_jail_square(z8, "Ann")
    assert z8.stage_now == "outbreak"
    z8.act(EndTurn(0))
    convert_by_jail_square(z8, "Dee")
    assert z8.stage_now == "apocalypse"


def test_z17_one_away_option_starts_the_apocalypse_at_the_first_zombie_of_four() -> None:
    z = Z(players=4, apocalypse_at="one_away").veterans()
    convert_by_jail_square(z, "Ann")
    assert z.stage_now == "apocalypse"
    z5 = Z(players=5, apocalypse_at="one_away").veterans()
    convert_by_jail_square(z5, "Ann")
    assert z5.stage_now == "outbreak"  # odd tables: the same as the printed figure


def test_mz31_three_players_second_conversion() -> None:
    z = zombies(Z(players=3), "Bob")
    convert_by_jail_square(z, "Ann")
    assert z.stage_now == "apocalypse"


def test_mz31_three_players_every_human_round_the_board() -> None:
    z = zombies(Z(players=3), "Bob").put("Ann", circuit=36).put("Cy", circuit=40)
    z.put("Ann", position=0).turn("Ann")
    z.roll("Ann", 1, 2)
    assert z.stage_now == "outbreak"
    z.act(z.rules.legal_actions(z.state)[0]) if z.state.pending else None
    z.act(EndTurn(0)) if not z.state.pending else None
    z.put("Ann", position=3, circuit=39).turn("Ann")
    z.roll("Ann", 1, 2)  # 39 + 3: Ann is round, Cy already was
    assert z.stage_now == "apocalypse"


def test_z18_half_option_for_small_tables() -> None:
    z = Z(players=3, small_table="half").veterans()
    convert_by_jail_square(z, "Ann")
    assert z.stage_now == "apocalypse"  # 1 zombie = half of three, rounded down


def test_mz32_commerce_stops_money_goes_mortgages_lifted() -> None:
    z = zombies(Z(players=4), "Bob").lot(READING, "Cy", mortgaged=True)
    z.put("Cy", position=0)
    convert_by_jail_square(z, "Ann")
    s = z.state
    assert all(p.cash == 0 for p in s.players) and s.bank_net == 0 and s.pot == 0
    assert not s.squares[READING].mortgaged and s.squares[READING].owner == 2
    assert z.rules.invariant_problems(s) == []
    z.act(EndTurn(0))  # Bob (zombie), then Cy
    z.turn("Cy")
    assert z.rules.roll_spec(z.state).sides == (6, 6, 6)  # type: ignore[union-attr]


def apocalypse(players: int = 4) -> Z:
    z = Z(players=players).veterans().stage("apocalypse").put("Bob", zombie=True)
    for i in range(players):
        z.put(z.state.players[i].name, cash=0)
    return z


def test_mz33_zombies_carry_on_and_demolish_human_houses() -> None:
    z = apocalypse().lot(BOARDWALK, "Ann", houses=2).put("Bob", position=PARK_PLACE).turn("Bob")
    z.put("Ann", position=JAIL).put("Cy", position=JAIL).put("Dee", position=JAIL)
    z.roll("Bob", 1, 1)
    z.act(Steer(1, (), "forward"))
    assert z.state.squares[BOARDWALK].houses == 1


def test_mz34_humans_keep_two_of_three_dice_either_way_up_to_six_squares() -> None:
    z = apocalypse().put("Ann", position=JAIL).turn("Ann")
    z.roll("Ann", 2, 3, 5)
    head = z.state.pending[0]
    assert isinstance(head, ChooseMove) and head.keep == 2
    assert sorted(z.rules.reachable(z.state, head)) == sorted(
        {JAIL + 5, JAIL + 7, JAIL + 8, JAIL - 5, JAIL - 7, JAIL - 8})
    z.act(Steer(0, (5, 3), "back"))
    assert z.pos("Ann") == 2


def test_mz35_a_chosen_double_gives_an_optional_extra_roll() -> None:
    z = apocalypse().put("Ann", position=JAIL).turn("Ann")
    z.roll("Ann", 4, 4, 1)
    z.act(Steer(0, (4, 4), "forward"))
    actions = z.rules.legal_actions(z.state)
    assert Roll(0, ()) in actions and EndTurn(0) in actions
    z.act(EndTurn(0))
    assert z.state.current == 1


def test_mz35_a_chosen_double_one_converts() -> None:
    z = apocalypse().put("Ann", position=JAIL).turn("Ann")
    z.roll("Ann", 1, 1, 6)
    z.act(Steer(0, (1, 1), "forward"))
    assert z.p("Ann").zombie and z.pos("Ann") == 12


def test_mz36_no_teleports_for_humans_but_the_zombie_card_meanings_stay() -> None:
    z = Z(decks={"chance": ["advance_to_boardwalk", "go_to_jail"]})
    z.veterans().stage("apocalypse").put("Bob", zombie=True, position=30)
    z.put("Ann", position=JAIL).turn("Ann")
    z.roll("Ann", 1, 2, 6)
    z.act(Steer(0, (2, 1), "back"))
    assert z.pos("Ann") == CHANCE_7 and not z.p("Ann").zombie  # Boardwalk card ignored
    z.act(EndTurn(0))
    z.turn("Cy").put("Cy", position=JAIL)
    z.roll("Cy", 1, 2, 6)
    z.act(Steer(2, (2, 1), "back"))
    assert z.p("Cy").zombie and z.pos("Cy") == CHANCE_7  # Go to Jail card: zombie (Z-20)


def test_mz42_homeless_at_the_apocalypse_keep_one_of_2d6_either_way() -> None:
    z = zombies(Z(players=4), "Bob").put("Dee", homeless=True, cash=0, position=12)
    convert_by_jail_square(z, "Ann")
    assert z.p("Dee").homeless_at_apocalypse
    z.act(EndTurn(0))  # Bob the zombie passes Dee
    z.put("Bob", position=9)
    z.roll("Bob", 2, 2)
    z.act(Steer(1, (), "forward"))  # lands on 13, past Dee at 12
    head = z.state.pending[0]
    assert isinstance(head, HomelessRoll) and head.sides == (6, 6)
    z.roll("Dee", 3, 5)
    z.refused(Steer(3, (5, 3), "back"), "keep 1")
    z.act(Steer(3, (3,), "back"))
    assert z.pos("Dee") == 9


def test_mz43_humans_win_together_on_an_improved_human_lot() -> None:
    z = apocalypse().lot(PENNSYLVANIA, "Cy", houses=1)
    z.put("Cy", position=PENNSYLVANIA).put("Dee", position=PENNSYLVANIA)
    z.put("Ann", position=22).turn("Ann")
    z.roll("Ann", 6, 6, 2)
    assert z.state.outcome is None
    z.act(Steer(0, (6, 6), "forward"))
    assert z.state.outcome is not None and z.state.outcome.reason == "humans_win"
    assert z.state.outcome.winner == "Ann+Cy+Dee"


def test_mz43_no_win_on_a_zombie_lot_or_with_a_zombie_there() -> None:
    z = apocalypse().lot(PENNSYLVANIA, "Bob", houses=1)
    z.put("Cy", position=PENNSYLVANIA).put("Dee", position=PENNSYLVANIA)
    z.put("Ann", position=22).turn("Ann")
    z.roll("Ann", 6, 6, 2)
    z.act(Steer(0, (6, 6), "forward"))
    assert z.pos("Ann") == PENNSYLVANIA and z.state.outcome is None


def test_mz44_homeless_last_human_wins_on_any_improved_lot() -> None:
    z = apocalypse(3).put("Cy", zombie=True, position=0).lot(PENNSYLVANIA, "Bob", houses=1)
    z.put("Ann", homeless=True, homeless_at_apocalypse=True, position=30)
    z.put("Bob", position=28).turn("Bob")
    z.roll("Bob", 2, 2)
    z.act(Steer(1, (), "forward"))  # passes Ann at 30: she moves
    z.roll("Ann", 4, 1)
    z.act(Steer(0, (4,), "forward"))
    assert z.state.outcome is not None and z.state.outcome.winner == "Ann"


def test_mz45_zombies_win_when_the_first_lands_on_jail() -> None:
    z = apocalypse(2).put("Ann", zombie=True, position=0).put("Bob", position=6).turn("Bob")
    z.roll("Bob", 2, 2)
    z.act(Steer(1, (), "forward"))
    assert z.state.outcome is not None and z.state.outcome.reason == "zombies_win"
    assert z.state.outcome.winner == "Bob"


def test_z27_everyone_a_zombie_before_the_apocalypse_starts_the_race() -> None:
    z = zombies(Z(players=2), "Bob")
    convert_by_jail_square(z, "Ann")
    assert z.stage_now == "apocalypse" and z.state.outcome is None


def test_z28_no_one_is_eliminated_and_agreement_lists_standings() -> None:
    z = apocalypse()
    z.act(EndGame(0))
    assert z.state.outcome is not None and z.state.outcome.reason == "agreement"
    lines = list(z.rules.result_lines(z.state))
    assert lines[0] == "Stage: apocalypse" and "  Bob: zombie" in lines


def test_z19_entering_the_apocalypse_drops_pending_commerce() -> None:
    z = zombies(Z(players=4), "Bob").put("Cy", position=JAIL).put("Dee", position=JAIL)
    z.put("Bob", position=9).put("Ann", position=13).turn("Bob")
    z.roll("Bob", 2, 2)
    z.act(Steer(1, (), "forward"))  # States Avenue, unowned: an auction, then Ann converts
    assert z.p("Ann").zombie and z.stage_now == "apocalypse"
    assert not z.state.pending and z.state.squares[13].owner is None
