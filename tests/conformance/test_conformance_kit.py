"""The kit itself: it runs every registered game, and a test-only game is registered only
while a test uses it."""

from __future__ import annotations

from conformance.harness import TEST_GAMES, kit_cases, registered_names, sample_indices, using


def test_every_registered_and_test_only_game_has_a_case() -> None:
    covered = {case.variant for case in kit_cases()}
    assert covered == set(registered_names()) | set(TEST_GAMES)
    assert set(registered_names()) >= {"monopoly", "dungeonopoly"}


def test_a_test_only_game_is_registered_only_while_used() -> None:
    assert TEST_GAMES, "the kit carries at least one test-only game"
    for name in TEST_GAMES:
        assert name not in registered_names()
        with using(name) as game:
            assert name in registered_names() and game.name == name
            state = game.new_game(["Ann", "Ben"], seed=1)
            assert state.variant == name
        assert name not in registered_names()


def test_samples_spread_from_the_first_state_to_the_last() -> None:
    assert sample_indices(5, 12) == [0, 1, 2, 3, 4]
    picked = sample_indices(1000, 12)
    assert len(picked) == 12 and picked[0] == 0 and picked[-1] == 999
    assert picked == sorted(set(picked))
