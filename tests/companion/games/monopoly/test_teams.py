"""Team play (option ``teams``; Dungeonopoly's advanced rules, "Team rules"): a team shares one
pool of cash and one collection of lots, goes bankrupt together and wins together.

Rulings M-14..M-21 are in docs/rulings.md."""

from __future__ import annotations

import pytest
from conformance.harness import assert_replays, bot_game

from companion.core.errors import IllegalActionError
from companion.core.registry import find_game
from companion.games.monopoly.actions import Bid
from companion.games.monopoly.state import Options, team_sides

HEAD = """
variant monopoly
seed 1
option teams=Ann+Cai
player Ann
player Bob
player Cai
"""


def cash(r, seat):  # type: ignore[no-untyped-def]
    return r.state.players[seat].cash


def test_team_pool_starts_with_every_members_cash_and_is_counted_once(replay_text):
    r = replay_text(HEAD)
    assert cash(r, 0) == cash(r, 2) == 3000  # Ann and Cai: one pool of 2 x $1500
    assert cash(r, 1) == 1500
    assert r.state.money_in_hand == 4500 == r.state.bank_net
    assert r.state.sides == (0, 1, 0)


def test_a_members_purchase_is_paid_from_the_pool_and_held_by_the_team(replay_text):
    r = replay_text(HEAD + "Ann roll 1 2\nAnn buy\n")  # Baltic Avenue, $60
    assert cash(r, 0) == cash(r, 2) == 2940
    assert r.state.squares[3].owner == 0
    assert r.state.money_in_hand + r.state.pot == r.state.bank_net


def test_no_rent_between_teammates(replay_text):
    r = replay_text(HEAD + 'set square "Baltic Avenue" owner=Cai\nAnn roll 1 2\n')
    assert cash(r, 0) == cash(r, 2) == 3000


def test_rent_from_an_opponent_goes_to_the_pool(replay_text):
    r = replay_text(HEAD + 'set square "Baltic Avenue" owner=Cai\n'
             "set turn player=Bob\nBob roll 1 2\n")
    assert cash(r, 1) == 1496
    assert cash(r, 0) == cash(r, 2) == 3004


def test_a_colour_group_held_across_members_is_a_whole_group(replay_text):
    # Ann's Mediterranean + Cai's Baltic: one collection, so the rent doubles and they can build
    r = replay_text(HEAD + 'set square "Mediterranean Avenue" owner=Ann\n'
             'set square "Baltic Avenue" owner=Cai\nset turn player=Bob\nBob roll 1 2\n')
    assert cash(r, 1) == 1500 - 8
    r = replay_text(HEAD + 'set square "Mediterranean Avenue" owner=Ann\n'
             'set square "Baltic Avenue" owner=Cai\nAnn build "Baltic Avenue"\n'
             'Ann build "Mediterranean Avenue"\n')
    assert r.state.squares[1].houses == r.state.squares[3].houses == 1
    assert cash(r, 0) == cash(r, 2) == 3000 - 100


def test_any_member_may_mortgage_a_team_lot(replay_text):
    r = replay_text(HEAD + 'set square "Boardwalk" owner=Ann\nAnn roll 1 2\nAnn decline\n'
             "Ann pass\nBob pass\nCai pass\n"
             'Cai mortgage "Boardwalk"\n')
    assert r.state.squares[39].mortgaged
    assert cash(r, 0) == cash(r, 2) == 3000 + 200


def test_teammates_do_not_trade_cash_or_lots(replay_text):
    with pytest.raises(ValueError, match="teammates already share cash and lots"):
        replay_text(HEAD + 'set square "Boardwalk" owner=Ann\nAnn trade Cai give $100 get "Boardwalk"\n')


def test_a_jail_card_can_pass_between_teammates(replay_text):
    r = replay_text(HEAD + "set player Ann jail_cards=chance\nAnn trade Cai give card:chance\n")
    assert r.state.players[0].jail_cards == () and r.state.players[2].jail_cards == ("chance",)


def test_a_member_may_not_raise_a_teammates_bid(replay_text):
    r = replay_text(HEAD + "Ann roll 1 2\nAnn decline\nAnn bid 10\n")
    rules = find_game("monopoly")
    with pytest.raises(IllegalActionError, match="on your team"):
        rules.apply(r.state, Bid(2, 20))
    listed = rules.legal_actions(r.state, (2,))
    assert all(type(a).__name__ != "Bid" for a in listed)
    r = replay_text(HEAD + "Ann roll 1 2\nAnn decline\nAnn bid 10\nBob pass\nCai pass\n")
    assert r.state.squares[3].owner == 0 and cash(r, 2) == 2990


def test_cards_paying_each_player_skip_teammates(replay_text):
    # Chance "Chairman of the Board": pay each player $50 -> only Bob, an opponent
    r = replay_text(HEAD + "deck chance chairman\nAnn roll 3 4\n")
    assert cash(r, 1) == 1550
    assert cash(r, 0) == cash(r, 2) == 2950


def test_the_whole_team_is_bankrupt_together_and_the_last_team_wins(replay_text):
    r = replay_text(HEAD + 'set player Ann cash=10\nset square "Boardwalk" owner=Bob hotel=true\n'
             'set square "Park Place" owner=Bob houses=4\nset square "Baltic Avenue" owner=Cai\n'
             "set player Ann position=34\nAnn roll 2 3\nAnn bankrupt\n")
    assert r.state.players[0].bankrupt and r.state.players[2].bankrupt
    assert r.state.squares[3].owner == 1  # the team's lot went to the creditor
    assert r.state.outcome is not None and r.state.outcome.winner == "Bob"
    assert r.state.money_in_hand + r.state.pot == r.state.bank_net


def test_standings_list_teams_with_pool_and_lots_once(replay_text):
    r = replay_text(HEAD + 'set square "Boardwalk" owner=Ann\nAnn end_game\n')
    assert r.state.outcome is not None
    assert dict(r.state.outcome.standings) == {"Ann+Cai": 3000 + 400, "Bob": 1500}
    assert r.state.outcome.winner == "Ann+Cai"


def test_bad_team_settings_are_refused_with_a_reason():
    names = ["Ann", "Bob", "Cai"]
    assert team_sides("", names) == ()
    assert team_sides("Cai+Bob", names) == (0, 1, 1)
    with pytest.raises(ValueError, match="not a player"):
        team_sides("Ann+Zed", names)
    with pytest.raises(ValueError, match="two teams"):
        team_sides("Ann+Cai,Cai+Bob", names)
    with pytest.raises(ValueError, match="at least two players"):
        team_sides("Ann", names)
    with pytest.raises(ValueError, match="no one to play against"):
        team_sides("Ann+Bob+Cai", names)
    rules = find_game("monopoly")
    with pytest.raises(ValueError, match="not a player"):
        rules.new_game(names, Options(teams="Ann+Zed"))


def _run(seed: int, bot: str, variant: str, roles: list[str], options: dict[str, object],
         steps: int) -> None:
    rules = find_game(variant)
    names = [f"P{i}" for i in range(len(roles))]
    opts = rules.default_options().with_values(**options)
    state = rules.new_game(list(zip(names, roles, strict=True)), opts, seed=seed)
    played = bot_game(rules, state, bot=bot, seed=seed, dice_seed=seed, steps=steps,
                      everyone=True)
    for step in played.steps:
        state = step.after
        assert state.money_in_hand + state.pot == state.bank_net, "money not conserved"
        for i, p in enumerate(state.players):  # a team's members always show the same pool
            assert p.cash == state.players[state.side(i)].cash >= 0
            assert p.bankrupt == state.players[state.side(i)].bankrupt
        for s in state.squares:  # lots are held in the side's name
            assert s.owner is None or s.owner == state.side(s.owner)
    assert_replays(played)
    if state.outcome is not None and state.outcome.reason == "last_player_standing":
        alive = {state.side(i) for i in state.active_players}
        assert len(alive) == 1


@pytest.mark.parametrize("seed", [3, 11])
def test_random_team_games_keep_the_invariants(seed: int) -> None:
    _run(seed, "random", "monopoly", ["", "", "", ""], {"teams": "P0+P2,P1+P3"}, 1200)


@pytest.mark.parametrize("seed", [5, 8])
def test_heuristic_team_games_finish_with_one_team(seed: int) -> None:
    _run(seed, "heuristic", "monopoly", ["", "", ""], {"teams": "P0+P1"}, 4000)
