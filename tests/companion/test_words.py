from companion.words import count


def test_count_says_one_thing_and_many_things() -> None:
    assert count(1, "action") == "1 action"
    assert count(0, "action") == "0 actions"
    assert count(2, "die", "dice") == "2 dice"
