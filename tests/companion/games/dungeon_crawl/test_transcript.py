"""Transcript forms: action lines, set lines, the header, JSON and sentences."""

from __future__ import annotations

import shlex

import pytest

from companion.core.errors import IllegalActionError
from companion.core.game import Game
from companion.core.registry import find_game, game_names
from companion.games.dungeon_crawl.bots import play_bot_game
from companion.games.dungeon_crawl.rules import DungeonCrawl
from companion.games.dungeon_crawl.state import Options
from companion.transcript import replay

from .table import CORRIDOR, GAME, act, position


def test_registered_as_dungeon_crawl_meeting_the_game_protocol():
    assert "dungeon_crawl" in game_names()
    game = find_game("dungeon_crawl")
    assert isinstance(game, DungeonCrawl) and isinstance(game, Game)
    state = game.new_game(["Ann", "Bob"])
    assert (state.variant, state.seed, [p.name for p in state.players], state.outcome) == (
        "dungeon_crawl", 0, ["Ann", "Bob"], None)


def test_every_legal_action_formats_and_parses_back_to_itself():
    checked = 0

    def watch(state, action):
        nonlocal checked
        for a in GAME.legal_actions(state):
            line = GAME.format_action(state, a)
            assert GAME.parse_action(state, shlex.split(line)) == a, line
            checked += 1

    play_bot_game(3, players=("Ann Lee", "Bob", "Cat", "Dan"),
                  bots=("heuristic", "random", "heuristic", "random"), watch=watch)
    assert checked > 1000


def test_a_written_game_replays_to_the_same_end():
    game = play_bot_game(5)
    start = GAME.new_game(["Ann", "Bob", "Cat"], seed=5)
    lines, state = [], start
    for action in game.actions:
        lines.append(GAME.format_action(state, action))
        state, _ = GAME.apply(state, action)
    replayed = start
    for line in lines:
        replayed, _ = GAME.apply(replayed, GAME.parse_action(replayed, shlex.split(line)))
    assert replayed == game.state and replayed.outcome is not None


@pytest.mark.parametrize(("line", "problem"), [
    ("Ann dance", "unknown verb 'dance'"),
    ("Ann move 3", "write it X,Y"),
    ("Ann move 3,0 4,0", "'move' takes 1 argument"),
    ("Zed move 3,0", "no player named 'Zed'"),
    ("Ann reveal hearts", "not a suit"),
    ("Ann roll 7", "not a piecepack value"),
    ("Ann lay arms3 0,0", "write SUIT:VALUE"),
    ("Ann spoils gold", "'treasure' or 'equipment'"),
    ("Ann spend -1", "whole number of 0 or more"),
    ("Ann pawns north=suns east=moons south=crowns up=arms", "north=SUIT east=SUIT"),
])
def test_bad_action_lines_say_what_is_wrong(line, problem):
    state = GAME.new_game(["Ann", "Bob"])
    with pytest.raises(ValueError, match=problem) as raised:
        GAME.parse_action(state, line.split())
    assert not isinstance(raised.value, IllegalActionError)


@pytest.mark.parametrize(("line", "problem"), [
    ("set coin 9,9 3", "no tile holds space 9,9: set the tile first"),
    ("set tile 0,0 arms:1", "a tile already lies at 0,0"),
    ("set tile 5,5 suns:0", "suns:0 tile is laid already"),
    ("set player Ann at=0,0 wings=2", "not wings"),
    ("set player Ann damage=2 soaked=3", "soaked equipment cannot exceed"),
    ("set player Ann at=0,0 damage=5,5", "10 damage after equipment kills"),
    ("set door 1,1", "unknown position line 'set door'"),
    ("set coin 0,0 3 colour=red", "suit=SUIT"),
])
def test_bad_set_lines_say_what_is_wrong(line, problem):
    state = position(CORRIDOR)
    with pytest.raises(ValueError, match=problem):
        GAME.apply_set(state, line.split())


def test_set_lines_only_before_the_first_action():
    state, _ = act(position(CORRIDOR + "set player Ann at=0,0\nset player Bob at=5,1\n"
                            "set player Cat at=none"), "Ann move 1,0")
    with pytest.raises(ValueError, match="before the first action"):
        GAME.apply_set(state, "set coin 2,0 1".split())


def test_header_lines_recreate_the_new_game():
    state = GAME.new_game([("Ann", "blue"), "Bob"], Options(die="d6"), seed=7)
    lines = GAME.header_lines(state)
    assert lines == ["variant dungeon_crawl", "option die=d6", "seed 7", "player Ann blue",
                     "player Bob red"]
    assert replay("\n".join(lines) + "\n").state == state  # read back by the shared framing
    with pytest.raises(ValueError, match="option die takes piecepack or d6"):
        GAME.parse_option("die", "d20")
    with pytest.raises(ValueError, match="not a setting of dungeon_crawl"):
        GAME.parse_option("lives", "3")


def test_state_json_shows_the_dungeon_and_the_holdings():
    state = position(CORRIDOR + "set coin 3,0 4\nset stack 5,0 equipment=1\n"
                     "set player Ann at=0,0 treasures=2 damage=3 soaked=1 equipment=1\n"
                     "set player Bob at=none\nset player Cat at=4,1")
    state, events = act(state, "Ann move 3,0")
    out = GAME.state_json(state, events)
    assert out["phase"] == "play" and out["current_player"] == "Ann"
    assert [t["at"] for t in out["tiles"]] == [[0, 0], [1, 0], [2, 0]]
    assert out["coins"] == [] and out["stacks"] == [{"at": [5, 0], "treasures": [],
                                                     "equipment": 1}]
    ann = out["players"][0]
    assert (ann["at"], ann["treasure_count"], ann["wounds"], ann["colour"]) == ([3, 0], 1, 2,
                                                                                 "red")
    assert out["waiting_for"] == "Ann to turn over the 4 coin and say its suit"
    assert out["legal_actions"] == ["Ann reveal suns", "Ann reveal moons", "Ann reveal crowns",
                                    "Ann reveal arms"]
    assert out["events"] == [{"kind": "moved", "text": "Ann moves to 3,0.", "player": "Ann",
                              "detail": "3,0"}]


def test_sentences_for_a_fight():
    state = position(CORRIDOR + "set coin 3,0 4\nset player Ann at=0,0\nset player Bob at=2,1\n"
                     "set player Cat at=5,0 equipment=1")
    state, _ = act(state, "Ann move 3,0", "Ann reveal suns", "Ann roll 2")
    state, events = act(state, "Bob move 4,1", "Bob attack Cat", "Cat spend 1", "Bob roll 5",
                        "Cat roll ace")
    assert [GAME.describe(state, e) for e in events] == [
        "Bob moves to 4,1.", "Bob attacks Cat.", "Cat spends 1 equipment.",
        "Bob rolls 5 (5 attacking).", "Cat rolls ace (2 defending).",
        "Bob's attack on Cat succeeds.", "Cat has nothing to take."]
