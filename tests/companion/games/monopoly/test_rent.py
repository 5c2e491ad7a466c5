"""Rent (standard Monopoly: 'Rent', deeds): exact figures for every kind of lot."""

HEAD = """
variant monopoly
seed 1
player Ann
player Bob
"""


def cash(r, seat):
    return r.state.players[seat].cash


def test_base_rent_on_a_lone_street(replay_text):
    r = replay_text(HEAD + 'set square "Baltic Avenue" owner=Bob\nAnn roll 1 2\n')
    assert cash(r, 0) == 1496 and cash(r, 1) == 1504


def test_rent_doubles_on_an_unimproved_lot_of_a_whole_group(replay_text):
    r = replay_text(HEAD + 'set square "Baltic Avenue" owner=Bob\nset square "Mediterranean Avenue" owner=Bob\n'
             "Ann roll 1 2\n")
    assert cash(r, 0) == 1492


def test_a_mortgaged_lot_in_the_group_does_not_break_the_doubling(replay_text):
    r = replay_text(HEAD + 'set square "Baltic Avenue" owner=Bob\n'
             'set square "Mediterranean Avenue" owner=Bob mortgaged=true\nAnn roll 1 2\n')
    assert cash(r, 0) == 1492


def test_the_mortgaged_lot_itself_charges_nothing(replay_text):
    r = replay_text(HEAD + 'set square "Baltic Avenue" owner=Bob mortgaged=true\n'
             'set square "Mediterranean Avenue" owner=Bob\nAnn roll 1 2\n')
    assert cash(r, 0) == 1500


def test_house_and_hotel_rents_follow_the_deed(replay_text):
    base = HEAD + 'set square "Mediterranean Avenue" owner=Bob houses=3\n'
    r = replay_text(base + 'set square "Baltic Avenue" owner=Bob houses=3\nAnn roll 1 2\n')
    assert cash(r, 0) == 1500 - 180
    r = replay_text(HEAD + 'set square "Mediterranean Avenue" owner=Bob houses=4\n'
             'set square "Baltic Avenue" owner=Bob hotel=true\nAnn roll 1 2\n')
    assert cash(r, 0) == 1500 - 450


def test_railroad_rent_is_25_50_100_200_by_railroads_owned(replay_text):
    roads = ["Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad", "Short Line"]
    for count, rent in zip(range(1, 5), (25, 50, 100, 200), strict=True):
        lines = "".join(f'set square "{name}" owner=Bob\n' for name in roads[:count])
        r = replay_text(HEAD + lines + "Ann roll 2 3\n")
        assert cash(r, 0) == 1500 - rent, count


def test_utility_rent_is_4x_or_10x_the_roll(replay_text):
    r = replay_text(HEAD + 'set square "Electric Company" owner=Bob\nAnn roll 6 6\n')
    assert cash(r, 0) == 1500 - 48
    r = replay_text(HEAD + 'set square "Electric Company" owner=Bob\nset square "Water Works" owner=Bob\n'
             "Ann roll 6 6\n")
    assert cash(r, 0) == 1500 - 120


def test_no_rent_on_your_own_lot(replay_text):
    r = replay_text(HEAD + 'set square "Baltic Avenue" owner=Ann\nAnn roll 1 2\n')
    assert cash(r, 0) == 1500


def test_jailed_owner_still_collects_rent(replay_text):
    r = replay_text(HEAD + 'set player Bob in_jail=true\nset square "Baltic Avenue" owner=Bob\nAnn roll 1 2\n')
    assert cash(r, 1) == 1504


def test_rent_must_be_claimed_option(replay_text):
    base = HEAD.replace("seed 1", "seed 1\noption rent_must_be_claimed=true")
    r = replay_text(base + 'set square "Baltic Avenue" owner=Bob\nAnn roll 1 2\n')
    assert cash(r, 0) == 1500  # not claimed yet
    r = replay_text(base + 'set square "Baltic Avenue" owner=Bob\nAnn roll 1 2\nBob claim_rent "Baltic Avenue"\n')
    assert cash(r, 0) == 1496
    r = replay_text(base + 'set square "Baltic Avenue" owner=Bob\nAnn roll 1 2\nAnn end\nBob roll 2 3\n')
    assert cash(r, 0) == 1500 and not r.state.claimable  # too late: the next roll came first
