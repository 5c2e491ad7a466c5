"""The test-only race meets the Game protocol honestly: its rules, dice, transcripts and JSON."""

from __future__ import annotations

import random

import pytest

from companion.core.dice import D6
from companion.core.errors import IllegalActionError
from companion.core.game import Game
from companion.core.registry import find_game
from companion.kiosk.presenter import BasicPresenter
from companion.transcript import replay
from tests.companion.testgame import NAME, Race, RaceOptions, RaceState, RollDie, Run, transcript


def play_out(game: Race, state: RaceState, seed: int) -> tuple[RaceState, list[object]]:
    rng = random.Random(seed)
    actions = []
    while state.outcome is None:
        acts = game.legal_actions(state)
        assert acts, "a race in progress always has a move"
        action = rng.choice(acts)
        state, _events = game.apply(state, action)
        actions.append(action)
    return state, actions


def test_it_is_a_registered_game(race_game: Race) -> None:
    assert isinstance(race_game, Game)
    assert find_game(NAME) is race_game
    assert isinstance(race_game.presenter(), BasicPresenter)
    for method in ("default_options", "new_game", "legal_actions", "is_legal", "apply",
                   "deciders", "waiting_for", "dice_prompt", "roll_action", "describe",
                   "state_json", "setup_lines", "new_game_from_header", "parse_action",
                   "format_action", "apply_set", "presenter"):
        assert callable(getattr(race_game, method)), method


def test_a_turn_asks_for_one_d6_then_a_run() -> None:
    game = Race()
    state = game.new_game([("Ann", "hare"), ("Ben", "tortoise")], seed=2)
    prompt = game.dice_prompt(state)
    assert prompt is not None and prompt.dice == (D6,) and prompt.player == 0
    assert prompt.check((7,)) == "die 1 (d6) cannot show 7"
    with pytest.raises(ValueError, match="expected 1 dice"):
        game.roll_action(state, prompt, (3, 4))
    state, events = game.apply(state, game.roll_action(state, prompt, (6,)))
    assert [e.kind for e in events] == ["rolled"] and game.dice_prompt(state) is None
    assert game.deciders(state) == (0,) and game.waiting_for(state) == "Ann to run"
    assert game.legal_actions(state) == [Run(0, n) for n in range(1, 7)]
    assert game.legal_actions(state, players=(1,)) == []
    state, events = game.apply(state, Run(0, 6))
    assert state.players[0].position == 6 and state.current == 1
    assert game.describe(state, events[0]) == "Ann runs 6 to square 6"
    state, _ = game.apply(state, RollDie(1, (6,)))
    state, _ = game.apply(state, Run(1, 6))
    assert state.players[1].position == 7  # a tortoise goes one further on a 6
    assert state.turn == 2


def test_refused_actions_leave_the_state_as_it_was() -> None:
    game = Race()
    state = game.new_game(["Ann", "Ben"])
    for action in (Run(0, 3), RollDie(1, (3,)), RollDie(0, (7,))):
        with pytest.raises(IllegalActionError, match="waits for Ann to roll the die"):
            game.apply(state, action)
        assert not game.is_legal(state, action)
    assert state == game.new_game(["Ann", "Ben"])
    with pytest.raises(ValueError, match="at least two"):
        game.new_game(["Ann"])
    with pytest.raises(ValueError, match="no role 'wizard'"):
        game.new_game([("Ann", "wizard"), "Ben"])


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_race_replays_from_its_transcript(race_game: Race, seed: int) -> None:
    game = race_game
    options = RaceOptions(short_track=seed % 2 == 0)
    start = game.new_game([("Ann", "tortoise"), ("Ben", "")], options, seed=seed)
    end, actions = play_out(game, start, seed)
    assert end.outcome is not None and end.outcome.reason == "finished"
    assert end.outcome.winner == end.outcome.standings[0][0]
    text = transcript(start, game, actions)
    replayed = replay(text)  # the shared framing reads the header, the game its lines
    assert replayed.actions == actions
    assert replayed.state == end
    assert game.state_json(replayed.state) == game.state_json(end)
    assert game.state_json(end)["outcome"]["winner"] == end.outcome.winner
    for line in replayed.lines:
        assert line.split()[1] in ("roll", "run")


def test_set_lines_and_bad_lines() -> None:
    game = Race()
    state = game.new_game(["Ann", "Ben"])
    state = game.apply_set(state, ["set", "ben", "position=5"])
    assert state.players[1].position == 5
    assert game.state_json(state)["players"][1] == {"name": "Ben", "role": "", "position": 5}
    with pytest.raises(ValueError, match="a square from 0 to 12"):
        game.apply_set(state, ["set", "Ann", "position=13"])
    with pytest.raises(ValueError, match="no runner called 'Cai'"):
        game.parse_action(state, ["Cai", "roll", "3"])
    with pytest.raises(ValueError, match="verbs roll and run"):
        game.parse_action(state, ["Ann", "jump", "3"])
    with pytest.raises(ValueError, match="not a setting"):
        game.parse_option("long", "true")
