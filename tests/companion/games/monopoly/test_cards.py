"""Chance and Community Chest (standard Monopoly card decks), virtual and physical."""

import pytest

from companion.games.monopoly import IllegalActionError, UseJailCard

HEAD = """
variant monopoly
seed 1
player Ann
player Bob
"""


def with_chance(*cards):
    return HEAD.replace("seed 1", "seed 1\ndeck chance " + " ".join(cards))


def with_chest(*cards):
    return HEAD.replace("seed 1", "seed 1\ndeck community_chest " + " ".join(cards))


def test_nearest_railroad_card_charges_twice_the_rent(replay_text):
    r = replay_text(with_chance("nearest_railroad_1") + 'set square "Pennsylvania Railroad" owner=Bob\n'
             "Ann roll 3 4\n")  # Chance at 7 -> Pennsylvania Railroad at 15
    assert r.state.players[0].position == 15
    assert r.state.players[0].cash == 1500 - 50


def test_nearest_railroad_card_offers_an_unowned_railroad(replay_text):
    r = replay_text(with_chance("nearest_railroad_1") + "Ann roll 3 4\nAnn buy\n")
    assert r.state.squares[15].owner == 0 and r.state.players[0].cash == 1300


def test_nearest_utility_card_charges_ten_times_a_fresh_roll(replay_text):
    r = replay_text(with_chance("nearest_utility") + 'set square "Electric Company" owner=Bob\n'
             "Ann roll 3 4\nAnn roll 2 3\n")
    assert r.state.players[0].position == 12
    assert r.state.players[0].cash == 1500 - 50
    assert r.state.players[1].cash == 1550


def test_go_back_three_from_the_first_chance_lands_on_income_tax(replay_text):
    r = replay_text(with_chance("go_back_three") + "Ann roll 3 4\n")
    assert r.state.players[0].position == 4
    assert r.state.players[0].cash == 1300


def test_go_back_three_from_the_last_chance_resolves_community_chest(replay_text):
    base = with_chance("go_back_three").replace("seed 1", "seed 1\ndeck community_chest bank_error")
    r = replay_text(base + "set player Ann position=30\nset player Ann position=34\nAnn roll 1 1\n")
    # 34 + 2 = 36 (Chance) -> back to 33 (Community Chest): bank error +$200
    assert r.state.players[0].position == 33
    assert r.state.players[0].cash == 1700


def test_advance_card_collects_go_when_passing(replay_text):
    r = replay_text(with_chance("advance_to_st_charles") + "set player Ann position=20\nAnn roll 1 1\n")
    # from 22 to St. Charles Place (11): passes GO
    assert r.state.players[0].position == 11
    assert r.state.players[0].cash == 1700


def test_advance_card_without_passing_go_pays_nothing(replay_text):
    r = replay_text(with_chance("advance_to_illinois") + "Ann roll 3 4\n")
    assert r.state.players[0].position == 24 and r.state.players[0].cash == 1500


def test_advance_to_go_pays_the_go_salary(replay_text):
    r = replay_text(with_chance("advance_to_go") + "Ann roll 3 4\n")
    assert r.state.players[0].position == 0 and r.state.players[0].cash == 1700


def test_general_repairs_25_per_house_100_per_hotel(replay_text):
    r = replay_text(with_chance("general_repairs")
             + 'set square "Mediterranean Avenue" owner=Ann houses=4\n'
             'set square "Baltic Avenue" owner=Ann hotel=true\nAnn roll 3 4\n')
    assert r.state.players[0].cash == 1500 - (4 * 25 + 100)


def test_street_repairs_40_per_house_115_per_hotel(replay_text):
    r = replay_text(with_chest("street_repairs")
             + 'set square "Mediterranean Avenue" owner=Ann houses=4\n'
             'set square "Baltic Avenue" owner=Ann hotel=true\nAnn roll 1 1\n')
    assert r.state.players[0].cash == 1500 - (4 * 40 + 115)


def test_birthday_collects_from_every_other_player(replay_text):
    r = replay_text(with_chest("birthday").replace("player Bob", "player Bob\nplayer Cy") + "Ann roll 1 1\n")
    assert [p.cash for p in r.state.players] == [1520, 1490, 1490]


def test_chairman_pays_every_other_player(replay_text):
    r = replay_text(with_chance("chairman").replace("player Bob", "player Bob\nplayer Cy") + "Ann roll 3 4\n")
    assert [p.cash for p in r.state.players] == [1400, 1550, 1550]


def test_jail_free_card_is_kept_out_of_the_deck(replay_text):
    r = replay_text(with_chance("get_out_of_jail_free", "bank_dividend") + "Ann roll 3 4\n")
    assert r.state.players[0].jail_cards == ("chance",)
    assert "get_out_of_jail_free" not in r.state.chance
    assert r.state.chance[0] == "bank_dividend"


def test_using_the_jail_card_frees_the_player_and_returns_it_to_the_bottom(replay_text):
    r = replay_text(HEAD + "set player Ann in_jail=true jail_cards=chance\n")
    assert "get_out_of_jail_free" not in r.state.chance
    state, _ = r.rules.apply(r.state, UseJailCard(0, "chance"))
    assert not state.players[0].in_jail and state.players[0].jail_cards == ()
    assert state.chance[-1] == "get_out_of_jail_free"
    with pytest.raises(IllegalActionError):
        r.rules.apply(state, UseJailCard(0, "chance"))


def test_jail_free_card_can_be_traded(replay_text):
    r = replay_text(with_chance("get_out_of_jail_free") + "Ann roll 3 4\nAnn trade Bob give card:chance get $40\n")
    assert r.state.players[1].jail_cards == ("chance",)
    assert r.state.players[0].cash == 1540


def test_physical_deck_asks_which_card_was_drawn(replay_text):
    base = HEAD.replace("seed 1", "seed 1\noption deck_mode=physical")
    r = replay_text(base + "Ann roll 3 4\n")
    assert "card" in r.rules.waiting_for(r.state)
    r = replay_text(base + "Ann roll 3 4\nAnn card bank_dividend\n")
    assert r.state.players[0].cash == 1550


def test_physical_deck_refuses_a_jail_card_someone_holds(replay_text):
    base = HEAD.replace("seed 1", "seed 1\noption deck_mode=physical")
    with pytest.raises(Exception, match="held by a player"):
        replay_text(base + "set player Bob jail_cards=chance\nAnn roll 3 4\nAnn card get_out_of_jail_free\n")
