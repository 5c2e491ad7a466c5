"""Team rules in Dungeonopoly ("Advanced and alternative rules", "Team rules"): members share a
pool of cash and a collection of lots, but each character keeps her own class, EP, level and
abilities; a teammate is not an opponent. Rulings M-14..M-21 in docs/rulings.md."""

from __future__ import annotations

from typing import Any

import pytest
from conformance.harness import assert_replays, bot_game

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Buy
from companion.games.monopoly.dungeonopoly import UseAbility
from companion.games.monopoly.dungeonopoly.abilities import opponents

ALL = ["fighter", "wizard", "cleric", "rogue", "bard", "druid", "paladin", "psion", "warlock"]


def test_team_pool_and_separate_ep(game: Any) -> None:
    g = game("wizard", "fighter", "cleric", teams="Ann+Cat")  # Ann+Cat vs Bob
    assert g.cash(0) == g.cash(2) == 3000 and g.cash(1) == 1500
    g.roll(0, 1, 2)  # Baltic Avenue
    g.act(Buy(0))
    assert g.cash(0) == g.cash(2) == 2940
    assert g.state.squares[3].owner == 0
    assert g.p(0).ep == 1 and g.p(2).ep == 0  # the buyer earns the EP, not her teammate
    assert g.state.money_in_hand + g.state.pot == g.state.bank_net


def test_a_teammate_is_not_an_opponent(game: Any) -> None:
    g = game("wizard", "fighter", "cleric", teams="Ann+Cat")
    g.set(0, position=5)
    g.set(1, position=5)
    g.set(2, position=5)
    assert list(opponents(g.state, 0)) == [1]
    with pytest.raises(IllegalActionError, match="on your team"):
        g.act(UseAbility(0, "magic_missile", 2))
    listed = [a for a in g.rules.legal_actions(g.state, (0,))
              if isinstance(a, UseAbility) and a.ability == "magic_missile"]
    assert [a.target for a in listed] == [1]
    g.act(UseAbility(0, "magic_missile", 1))  # $20 x level 1
    assert g.cash(1) == 1500 - 20 and g.cash(0) == g.cash(2) == 3000


def test_damage_to_one_member_comes_out_of_the_team_pool(game: Any) -> None:
    g = game("fighter", "wizard", "cleric", teams="Bob+Cat")
    g.set(0, position=5)
    g.set(1, position=5)
    g.act(UseAbility(0, "attack", 1))  # $20 to the bank
    assert g.cash(1) == g.cash(2) == 3000 - 20


def test_team_lots_charge_rent_unless_every_member_is_in_jail(game: Any) -> None:
    g = game("fighter", "wizard", "cleric", teams="Bob+Cat")
    g.own(3, 1)  # the team's lot (held in Bob's seat, the team's first)
    g.set(1, in_jail=True, position=10)
    g.roll(0, 1, 2)  # Ann lands on Baltic: Cat is free, so the team collects $4
    assert g.cash(0) == 1500 - 4 and g.cash(2) == 3000 + 4
    g = game("fighter", "wizard", "cleric", teams="Bob+Cat")
    g.own(3, 1)
    g.set(1, in_jail=True, position=10)
    g.set(2, in_jail=True, position=10)
    g.roll(0, 1, 2)
    assert g.cash(0) == 1500


def test_quicker_team_game_deals_each_members_lots_to_the_team(game: Any) -> None:
    g = game("fighter", "wizard", "cleric", "rogue", teams="Ann+Cat,Bob+Dan", quicker_game=True)
    owners = [s.owner for s in g.state.squares if s.owner is not None]
    assert owners.count(0) == 6 and owners.count(1) == 6 and set(owners) == {0, 1}


def test_no_rent_between_teammates_and_no_rent_ep(game: Any) -> None:
    g = game("fighter", "wizard", "cleric", teams="Ann+Cat")
    g.own(3, g.state.side(2))  # Cat's lot is held in the team's name (Ann's seat)
    g.roll(0, 1, 2)
    assert g.cash(0) == 3000 and g.p(0).ep == 0


def _play(seed: int, classes: list[str], teams: str, bot: str, steps: int,
          **options: Any) -> Any:
    from dataclasses import replace

    from companion.core.registry import find_game

    rules = find_game("dungeonopoly")
    names = [f"P{i}" for i in range(len(classes))]
    opts = replace(rules.default_options(), teams=teams, **options)
    state = rules.new_game(list(zip(names, classes, strict=True)), opts, seed=seed)
    played = bot_game(rules, state, bot=bot, seed=seed, dice_seed=seed, steps=steps,
                      everyone=True, roles=classes)
    for step in played.steps:
        state = step.after
        assert state.money_in_hand + state.pot == state.bank_net, "money not conserved"
        for i, p in enumerate(state.players):
            assert p.cash == state.players[state.side(i)].cash >= 0
            assert p.bankrupt == state.players[state.side(i)].bankrupt
    assert_replays(played)
    return played.final


@pytest.mark.parametrize("seed,bot,classes,teams", [
    (1, "random", ALL[0:4], "P0+P2,P1+P3"),
    (2, "heuristic", ALL[4:8], "P0+P2,P1+P3"),
    (3, "random", ALL[4:9], "P0+P3,P1+P4"),  # five players: two teams and a lone warlock
])
def test_team_games_with_all_nine_classes_keep_the_invariants(seed: int, bot: str,
                                                              classes: list[str],
                                                              teams: str) -> None:
    _play(seed, classes, teams, bot, 1500)


@pytest.mark.parametrize("option", ["quicker_game", "blitz"])
def test_quicker_and_blitz_team_games(option: str) -> None:
    state = _play(7, ["fighter", "psion", "warlock", "druid"], "P0+P2,P1+P3", "heuristic", 3000,
                  **{option: True})
    if state.outcome is not None and state.outcome.reason == "last_player_standing":
        assert state.outcome.winner in ("P0+P2", "P1+P3")


def test_roll_goes_on_after_a_team_member_goes_out() -> None:
    # everyone in a bankrupt team is out: turns skip both members
    state = _play(5, ["fighter", "wizard", "cleric", "rogue"], "P0+P2,P1+P3", "heuristic", 4000)
    assert state.outcome is not None
    assert state.outcome.reason == "last_player_standing"
    losers = [i for i, p in enumerate(state.players) if p.bankrupt]
    assert len(losers) == 2 and state.side(losers[0]) == state.side(losers[1])


# --- class abilities see the team's lots as the team's (not an opponent's) ---------------------
def _second_seat_turn(g: Any) -> None:
    from dataclasses import replace

    g.state = replace(g.state, current=1)


def test_raze_spares_the_team_lot(game: Any) -> None:
    g = game("commoner", "fighter", "commoner", teams="Ann+Bob")  # lots held in Ann's seat
    g.set(1, level=6, ep=50)
    _second_seat_turn(g)
    g.own(6, 0, houses=2)
    g.roll(1, 2, 4)  # Bob lands on the team's Oriental Avenue: no rent, no Raze
    assert g.state.squares[6].houses == 2 and g.cash(1) == 3000
    g = game("commoner", "fighter", "commoner", teams="Ann+Bob")
    g.set(1, level=6, ep=50)
    _second_seat_turn(g)
    g.own(6, 2, houses=2)  # Cat's lot: an opponent's, so Raze takes a house after the rent
    g.roll(1, 2, 4)
    while g.state.pending and getattr(g.state.pending[0], "player", None) == 1:
        from companion.games.monopoly.dungeonopoly import Pass

        g.act(Pass(1))
    assert g.state.squares[6].houses == 1


def test_steal_only_from_an_opponents_lot(game: Any) -> None:
    g = game("commoner", "rogue", "commoner", teams="Ann+Bob")
    _second_seat_turn(g)
    g.own(6, 0, houses=1)
    g.set(1, position=6, skills="steal:5")
    with pytest.raises(IllegalActionError, match="opponent's lot"):
        g.act(UseAbility(1, "steal"))
    g.own(6, 2, houses=1)
    assert any(isinstance(a, UseAbility) and a.ability == "steal"
               for a in g.rules.legal_actions(g.state, (1,)))


def test_wrath_of_god_spares_teammates_buildings(game: Any) -> None:
    g = game("commoner", "cleric", "commoner", teams="Ann+Bob")
    g.set(1, level=10)
    _second_seat_turn(g)
    g.own(1, 0, houses=1)  # the team's
    g.own(3, 2, houses=1)  # Cat's
    g.act(UseAbility(1, "wrath_of_god"))
    while g.state.pending and getattr(g.state.pending[0], "player", None) is not None:
        from companion.games.monopoly.dungeonopoly import Pass

        waiting = getattr(g.state.pending[0], "waiting", None)
        g.act(Pass(waiting[0] if waiting else g.state.pending[0].player))
    assert g.state.squares[1].houses == 1 and g.state.squares[3].houses == 0
