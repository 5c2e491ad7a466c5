from companion.words import count, possessive


def test_count_says_one_thing_and_many_things() -> None:
    assert count(1, "action") == "1 action"
    assert count(0, "action") == "0 actions"
    assert count(2, "die", "dice") == "2 dice"


def test_possessive_of_a_name_and_of_a_team_ending_in_s() -> None:
    assert possessive("Ann") == "Ann's"
    assert possessive("Orcs") == "Orcs'"
    assert possessive("ELVES") == "ELVES'"
