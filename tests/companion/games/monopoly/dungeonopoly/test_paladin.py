"""Paladin (Dungeonopoly, "Paladin abilities"): Counter, Challenge, Celestial Mount, Fighting
Stances, Knight's Move, Divine Grace, Holy Aura, Heart of the Titan, Holy Sword. The text's
Bulwark of Defense example is a vector."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Bid, KeepMortgaged, PassBid
from companion.games.monopoly.dungeonopoly import Pass, UseAbility
from companion.games.monopoly.dungeonopoly.abilities import Choose
from companion.games.monopoly.dungeonopoly.classes.paladin import (
    ChallengeAnte,
    CounterChoice,
    PairAuction,
    reach_of,
)
from companion.games.monopoly.pending import MortgagedTransfer

PARK, LUX, BOARDWALK, GO, MEDIT = 37, 38, 39, 0, 1


def use(g: Any, seat: int, ability: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, ability, target, tuple((k, str(v)) for k, v in params.items())))


def setf(g: Any, seat: int, **fields: Any) -> None:
    for key in ("choices", "counters"):
        if key in fields:
            p = g.rules.set_player_field(g.state.players[seat], key, str(fields.pop(key)))
            players = list(g.state.players)
            players[seat] = p
            g.state = replace(g.state, players=tuple(players))
    if fields:
        g.set(seat, **fields)


def turn_of(g: Any, seat: int) -> None:
    g.state = replace(g.state, current=seat, rolled=False, roll_again=False, doubles=0,
                      pending=())


def moved(g: Any, seat: int) -> None:
    """As if ``seat`` had just rolled and moved to where she stands."""
    g.state = replace(g.state, current=seat, rolled=True, roll_again=False, pending=())
    g.set(seat, turn=("moved", "walked"))


def in_stance(g: Any, seat: int, stance: str, position: int, level: int = 4) -> None:
    """The paladin ends her turn in ``stance`` on ``position`` (then it is the next seat's)."""
    setf(g, seat, level=level, choices=f"stance:{stance}", position=position)
    moved(g, seat)
    use(g, seat, "fighting_stance", stance=stance)


# --- Counter -----------------------------------------------------------------------------------
def test_counter_damages_the_attacker_in_reach(game: Any) -> None:
    g = game("fighter", "paladin")
    g.set(0, level=3, position=5)
    g.set(1, level=2, position=5)
    use(g, 0, "attack", 1)
    assert g.cash(1) == 1440 and isinstance(g.state.pending[0], CounterChoice)
    ep = g.p(1).ep
    use(g, 1, "counter", 0)
    assert g.cash(0) == 1500 - 40 and g.p(1).ep == ep + 1 and not g.state.pending
    assert g.money_ok()


def test_counter_reach_adjacent_not_two_away_without_holy_sword(game: Any) -> None:
    g = game("fighter", "paladin")
    g.set(0, level=3, position=5)
    g.set(1, position=6)
    from companion.games.monopoly.dungeonopoly.terms import character
    assert reach_of(1) == 1 and reach_of(10) == 2
    # damage dealt directly (as any ability would), then what the paladin is offered
    from companion.games.monopoly.txn import Txn
    for pal_pos, level, offered in ((6, 1, True), (7, 1, False), (7, 10, True)):
        g.set(1, position=pal_pos, level=level)
        t = Txn(g.rules, g.state)
        g.rules.damage(t, 0, 1, "attack")
        assert any(isinstance(p, CounterChoice) for p in t.front) == offered
        assert character(t, 1).role == "paladin"


def test_counter_pass_and_no_counter_to_a_counter(game: Any) -> None:
    g = game("paladin", "paladin")
    g.set(0, position=5)
    g.set(1, position=5)
    from companion.games.monopoly.txn import Txn
    t = Txn(g.rules, g.state)
    g.rules.damage(t, 0, 1, "counter")
    assert not any(isinstance(p, CounterChoice) for p in t.front)
    g2 = game("fighter", "paladin")
    g2.set(0, position=5)
    g2.set(1, position=5)
    use(g2, 0, "attack", 1)
    g2.act(Pass(1))
    assert g2.cash(0) == 1500 and not g2.state.pending


# --- Challenge ----------------------------------------------------------------------------------
def test_challenge_paired_auction_winner_pays_loser_mortgage_fee(game: Any) -> None:
    g = game("paladin", "commoner", "commoner")
    g.set(0, level=2, ep=10, position=5)
    g.set(1, position=8)
    g.own(1, 0)
    g.own(3, 1, mortgaged=True)
    use(g, 0, "challenge", 1, ante=1)
    assert isinstance(g.state.pending[0], ChallengeAnte)
    assert {a.option for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)} == {"3"}
    g.act(Choose(1, "ante", "3"))
    head = g.state.pending[0]
    assert isinstance(head, PairAuction) and head.bidders == (0, 1)
    with pytest.raises(IllegalActionError):
        g.act(Bid(2, 10))  # only the two duellists bid
    g.act(Bid(0, 50))
    g.act(PassBid(1))
    assert isinstance(g.state.pending[0], MortgagedTransfer)
    g.act(KeepMortgaged(0, 3))
    assert g.state.squares[3].owner == 0 and g.state.squares[1].owner == 0
    assert g.cash(0) == 1500 - 50 - 3 and g.cash(1) == 1500 + 50
    assert g.p(0).ep == 10 + 1 + 1  # the challenge, and winning counts as a purchase
    assert "challenge" in g.p(0).spent and g.money_ok()


def test_challenge_loser_paladin_loses_her_ante(game: Any) -> None:
    g = game("paladin", "commoner")
    g.set(0, level=2, position=5)
    g.set(1, position=8)
    g.own(1, 0)
    g.own(3, 1)
    use(g, 0, "challenge", 1, ante=1)
    g.act(Choose(1, "ante", "3"))
    g.act(Bid(1, 30))
    g.act(PassBid(0))
    assert g.state.squares[1].owner == 1 and g.cash(1) == 1470 and g.cash(0) == 1530


def test_challenge_wasted_without_an_opponent_lot_and_limits(game: Any) -> None:
    g = game("paladin", "commoner")
    g.set(0, level=2, ep=10, position=5)
    g.set(1, position=8)
    g.own(1, 0)
    use(g, 0, "challenge", 1, ante=1)
    assert g.p(0).ep == 10 and "challenge" in g.p(0).spent and not g.state.pending
    g2 = game("paladin", "commoner")
    g2.set(0, level=2, position=5)
    g2.set(1, position=12)
    g2.own(1, 0)
    with pytest.raises(IllegalActionError, match="line of sight"):
        use(g2, 0, "challenge", 1, ante=1)
    g2.own(3, 0, houses=1)
    g2.own(1, 0)
    g2.set(1, position=8)
    with pytest.raises(IllegalActionError, match="unimproved"):
        use(g2, 0, "challenge", 1, ante=1)  # Mediterranean's group has a house


# --- Celestial Mount ----------------------------------------------------------------------------
def test_mount_dice_progression_and_dismount_reset(game: Any) -> None:
    g = game("paladin", "commoner")
    g.set(0, level=3, ep=20)
    use(g, 0, "celestial_mount")
    assert g.p(0).ep == 21
    with pytest.raises(IllegalActionError, match="once per turn"):
        use(g, 0, "celestial_mount")
    sides = []
    for dice in ((1, 2), (3, 4), (1, 3), (1, 4)):
        sides.append(g.rules.roll_spec(g.state).sides)
        g.roll(0, *dice)
        turn_of(g, 0)
        g.set(0, turn=())
    assert sides == [(8, 8), (10, 10), (12, 12), (12, 12)]
    use(g, 0, "celestial_mount")
    assert g.rules.roll_spec(g.state).sides == (6, 6) and g.p(0).ep > 21


def test_mount_eight_sided_doubles_and_big_rolls(game: Any) -> None:
    g = game("paladin", "commoner")
    setf(g, 0, level=3, counters="mounted:1")
    g.roll(0, 8, 8)
    assert g.p(0).position == 16 and g.state.roll_again


# --- Fighting stances ---------------------------------------------------------------------------
def test_stances_chosen_at_4_and_8_only_after_moving_end_turn(game: Any) -> None:
    g = game("paladin", "commoner")
    g.set(0, level=4)
    assert {a.option for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)} == {
        "thicket_of_blades", "bulwark_of_defense"}
    g.act(Choose(0, "stance", "bulwark_of_defense"))
    g.set(0, level=8)
    g.act(Choose(0, "stance", "thicket_of_blades"))
    with pytest.raises(IllegalActionError, match="after moving"):
        use(g, 0, "fighting_stance", stance="thicket_of_blades")
    g.roll(0, 1, 1)  # doubles: she may still take a stance instead of rolling again
    ep = g.p(0).ep
    use(g, 0, "fighting_stance", stance="thicket_of_blades")
    assert g.state.current == 1 and g.p(0).ep == ep + 1
    assert g.rules.player_json(g.state, 0)["stance"] == "thicket_of_blades"


def test_no_stance_while_mounted(game: Any) -> None:
    g = game("paladin", "commoner")
    setf(g, 0, level=4, choices="stance:thicket_of_blades", counters="mounted:1")
    moved(g, 0)
    with pytest.raises(IllegalActionError, match="mounted"):
        use(g, 0, "fighting_stance", stance="thicket_of_blades")


@pytest.mark.parametrize("dice,end", [((1, 1), LUX), ((1, 2), BOARDWALK), ((1, 3), BOARDWALK),
                                      ((2, 3), GO), ((2, 4), GO), ((3, 4), MEDIT)])
def test_bulwark_of_defense_worked_example(game: Any, dice: tuple[int, int], end: int) -> None:
    g = game("commoner", "paladin")
    in_stance(g, 1, "bulwark_of_defense", BOARDWALK)
    turn_of(g, 0)
    g.set(0, position=PARK)
    g.roll(0, *dice)
    assert g.p(0).position == end  # rolling 7: 1/2 Luxury Tax, 3/4 Boardwalk, 5/6 GO, 7 Med.


def test_bulwark_paladin_cannot_be_moved(game: Any) -> None:
    g = game("wizard", "paladin")
    in_stance(g, 1, "bulwark_of_defense", 12)
    turn_of(g, 0)
    g.set(0, level=9, position=12)
    ep, cash = g.p(0).ep, g.cash(0)
    with pytest.raises(IllegalActionError, match="cannot be moved"):
        use(g, 0, "telekinesis", 1, steps=3)
    assert g.p(1).position == 12 and g.p(0).ep == ep and g.cash(0) == cash
    assert "telekinesis" not in g.p(0).spent
    assert not any(a.ability == "telekinesis" and a.target == 1
                   for a in g.rules.legal_actions(g.state) if isinstance(a, UseAbility))


def test_bulwark_paladin_is_not_a_psychic_crush_target(game: Any) -> None:
    g = game("psion", "paladin")
    in_stance(g, 1, "bulwark_of_defense", 12)
    turn_of(g, 0)
    g.set(0, level=10, position=12)
    with pytest.raises(IllegalActionError, match="cannot be moved"):
        use(g, 0, "psychic_crush", 1)
    assert g.p(1).position == 12 and g.p(0).counter("pp_spent") == 0


def test_thicket_of_blades_once_per_opponent(game: Any) -> None:
    g = game("commoner", "paladin")
    in_stance(g, 1, "thicket_of_blades", 12, level=4)
    turn_of(g, 0)
    g.set(0, position=9)
    g.roll(0, 2, 3)  # 9 -> 14 through 11, 12, 13: one attack of opportunity
    assert g.cash(0) == 1500 - 80 and g.kinds().count("attack_of_opportunity") == 1
    g.set(0, position=10)
    turn_of(g, 0)
    g.roll(0, 1, 2)
    assert g.cash(0) == 1420  # once per opponent until the paladin's next turn


def test_thicket_moving_out_of_reach_counts(game: Any) -> None:
    g = game("commoner", "paladin")
    in_stance(g, 1, "thicket_of_blades", 12, level=4)
    turn_of(g, 0)
    g.set(0, position=13)
    g.roll(0, 1, 2)  # starts inside the reach, moves out of it
    assert g.cash(0) == 1420


# --- Knight's Move -------------------------------------------------------------------------------
def test_knights_move_self_lands_without_passing(game: Any) -> None:
    g = game("paladin", "commoner")
    g.set(0, level=5, position=LUX)
    g.own(MEDIT, 1)
    use(g, 0, "knights_move", steps=3)
    assert g.p(0).position == MEDIT and g.cash(0) == 1500 - 2  # rent, no $200 for GO
    with pytest.raises(IllegalActionError, match="used up"):
        use(g, 0, "knights_move", steps=-3)


def test_knights_move_opponent_in_line_of_sight(game: Any) -> None:
    g = game("paladin", "commoner")
    g.set(0, level=5, position=5)
    g.set(1, position=9)
    g.own(6, 0)
    use(g, 0, "knights_move", 1, steps=-3)
    assert g.p(1).position == 6 and g.cash(1) == 1494
    g2 = game("paladin", "commoner")
    g2.set(0, level=5, position=5)
    g2.set(1, position=14)
    with pytest.raises(IllegalActionError, match="line of sight"):
        use(g2, 0, "knights_move", 1, steps=3)


# --- Divine Grace, Holy Aura, Heart of the Titan, Holy Sword ----------------------------------
def test_divine_grace_after_doubles_no_rent_fees_or_damage(game: Any) -> None:
    g = game("paladin", "fighter")
    g.set(0, level=6, position=35)
    g.own(PARK, 1, hotel=True)
    g.roll(0, 1, 1)
    assert g.p(0).position == PARK and g.cash(0) == 1500  # $1500 hotel rent ignored
    g.roll(0, 1, 2)  # 37 -> 40: GO ($400), no grace needed
    from companion.games.monopoly.actions import EndTurn
    g.act(EndTurn(0))
    g.set(1, position=g.p(0).position)
    use(g, 1, "attack", 0)
    assert g.cash(0) == 1900 - 20  # grace ended with her turn


def test_divine_grace_waives_tax(game: Any) -> None:
    g = game("paladin", "commoner")
    g.set(0, level=6, position=2)
    g.roll(0, 1, 1)
    assert g.p(0).position == 4 and g.cash(0) == 1500 and g.state.pot == 0


def test_holy_aura_damages_opponents_starting_in_reach_even_hidden(game: Any) -> None:
    g = game("paladin", "commoner", "commoner")
    g.set(0, level=7, position=20)
    g.set(1, position=21, hidden=True)
    g.set(2, position=20)
    from companion.games.monopoly.actions import EndTurn
    moved(g, 0)
    g.act(EndTurn(0))
    assert g.cash(1) == 1500 - 140  # started Bob's turn next to her: $20 x 7
    moved(g, 1)
    g.act(EndTurn(1))
    assert g.cash(2) == 1500 - 140  # Cat shares her square


def test_heart_of_the_titan_reservoir_and_refill(game: Any) -> None:
    g = game("paladin", "fighter")
    g.set(0, level=9, position=36)
    g.set(1, level=10, position=36)
    turn_of(g, 1)
    use(g, 1, "attack", 0)
    assert g.cash(0) == 1500 and g.rules.player_json(g.state, 0)["reservoir"] == 300
    g.act(Pass(0))  # no counter
    g.set(1, turn=())
    g.state = replace(g.state, players=tuple(
        replace(p, turn=()) for p in g.state.players))
    use(g, 1, "attack", 0)
    g.act(Pass(0))
    g.set(1, turn=())
    use(g, 1, "attack", 0)
    assert g.cash(0) == 1500 - 100  # 200 + 200 from the reservoir ($300 -> $100), then $100
    assert g.rules.player_json(g.state, 0)["reservoir"] == 0
    g.act(Pass(0))
    turn_of(g, 0)
    g.roll(0, 2, 3)  # 36 -> 1, passing GO
    assert g.rules.player_json(g.state, 0)["reservoir"] == 500


def test_holy_sword_reach_two(game: Any) -> None:
    g = game("paladin", "commoner")
    g.set(0, level=10, position=20)
    assert g.rules.player_json(g.state, 0)["reach"] == 2
    g.set(1, position=22)
    from companion.games.monopoly.actions import EndTurn
    moved(g, 0)
    g.act(EndTurn(0))
    assert g.cash(1) == 1500 - 200
