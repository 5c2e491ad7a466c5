"""Monopoly's own transcript lines (companion/games/monopoly/transcript.py): verbs, ``set`` and
``deck`` lines, options and the JSON of ``companion script --json``; and the Game protocol
methods the rules offer the game-blind consumers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.dice import D6
from companion.core.events import Event
from companion.core.registry import find_game
from companion.games.monopoly.actions import EndGame, Roll
from companion.transcript import TranscriptError, header_lines, replay

VECTORS = Path(__file__).resolve().parents[3] / "conformance" / "vectors"


def test_script_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["script", str(VECTORS / "monopoly" / "trade-and-build.txt"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("variant", "current_player", "pot", "bank", "players", "squares",
                "legal_actions", "events"):
        assert key in out
    player = out["players"][0]
    for key in ("name", "cash", "position", "in_jail", "bankrupt", "properties",
                "get_out_of_jail_cards"):
        assert key in player
    assert set(out["bank"]) == {"houses", "hotels"}
    assert out["squares"]["Boardwalk"] == {"owner": None, "houses": 0, "hotel": False,
                                           "mortgaged": False}


@pytest.mark.parametrize("text, problem", [
    ("player Ann\nplayer Bob\nAnn fly\n", "unknown verb"),
    ("player Ann\nplayer Bob\nAnn build Atlantis\n", "no square named"),
    ("player Ann\nplayer Bob\nset player Zed cash=5\n", "no player named"),
    ("player Ann\nplayer Bob\noption house_rules=on\n", "unknown option"),
    ("option free_parking_pot=maybe\nplayer Ann\nplayer Bob\n", "true or false"),
    ('player Ann\nplayer Bob\nset square "Boardwalk" houses=2\n', "unowned"),
    ("player Ann\nplayer Ann\n", "same name"),
    ("deck tarot fool\nplayer Ann\nplayer Bob\n", "deck chance|community_chest"),
    ("deck chance no_such_card\nplayer Ann\nplayer Bob\n", "unknown chance cards"),
])
def test_bad_transcripts_say_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(TranscriptError, match=problem):
        replay(text)


def test_a_deck_line_fixes_the_order_and_is_written_back() -> None:
    result = replay("deck chance advance_to_boardwalk\nplayer Ann\nplayer Bob\n")
    assert result.state.chance[0] == "advance_to_boardwalk"
    lines = header_lines(result.rules, result.state)
    assert lines[:2] == ["variant monopoly", "seed 0"]
    assert lines[2].startswith("deck chance advance_to_boardwalk ")
    assert lines[3].startswith("deck community_chest ")
    assert lines[4:] == ["player Ann", "player Bob"]
    assert replay("\n".join(lines)).state == result.state


def test_the_rules_ask_for_two_d6_to_move_and_fill_a_roll_placeholder() -> None:
    rules = find_game("monopoly")
    state = rules.new_game(["Ann", "Bob"], seed=1)
    prompt = rules.dice_prompt(state)
    assert prompt is not None
    assert (prompt.player, prompt.dice, prompt.purpose) == (0, (D6, D6), "move")
    placeholder = next(a for a in rules.legal_actions(state) if isinstance(a, Roll))
    assert rules.needs_dice(placeholder) and not rules.needs_dice(Roll(0, (3, 4)))
    assert rules.roll_action(state, prompt, (3, 4)) == Roll(0, (3, 4))
    after, _ = rules.apply(state, Roll(0, (3, 4)))
    assert rules.dice_prompt(after) is None


def test_the_rules_tell_events_and_leave_turn_markers_out_of_the_account() -> None:
    rules = find_game("monopoly")
    state = rules.new_game(["Ann", "Bob"])
    assert rules.describe(state, Event("rolled", 0, 7, detail="3 4")) == "Ann rolled 3 4 (7)"
    assert not rules.tells(Event("turn", 1))
    assert not rules.tells(Event("paid", 0, 60, detail="bought Baltic Avenue"))
    assert rules.tells(Event("paid", 0, 50, detail="jail"))


def test_the_rules_stop_a_game_and_print_its_standings() -> None:
    rules = find_game("monopoly")
    state = rules.new_game(["Ann", "Bob"])
    assert list(rules.result_lines(state))[0].startswith("Standings so far")
    action = rules.end_game_action(state)
    assert action == EndGame(0)
    over, _ = rules.apply(state, action)
    assert over.outcome is not None and over.outcome.reason == "agreement"
    assert list(rules.result_lines(over))[0].startswith("Final standings")


def test_the_rules_offer_the_heuristic_bot() -> None:
    from companion.games.monopoly.bots import HeuristicBot

    assert dict(find_game("monopoly").bots()) == {"heuristic": HeuristicBot}


# --- errors that list what is valid (issue 33) --------------------------------------------------
@pytest.mark.parametrize("text, listed", [
    ("player Ann\nplayer Bob\nset player Ann cahs=5\n",
     "unknown player field 'cahs'; the fields are cash, position, in_jail, jail_turns, "
     "jail_cards, bankrupt"),
    ("variant dungeonopoly\nplayer Ann fighter\nplayer Bob wizard\nset player Ann lvl=5\n",
     "unknown player field 'lvl'; the fields are cash, position, in_jail, jail_turns, "
     "jail_cards, bankrupt, class, level, ep, skills"),
    ('player Ann\nplayer Bob\nset square "Boardwalk" houss=2\n',
     "unknown square field 'houss'; the fields are owner, houses, hotel, mortgaged"),
    ('variant dungeonopoly\nplayer Ann fighter\nplayer Bob wizard\nset square "GO" owner=Ann\n',
     "unknown square field 'owner'; GO is not a lot, so it takes enchantments"),
    ("player Ann\nplayer Bob\nAnn breakdown greeen 1,1,1\n",
     "no group named 'greeen'; the colour groups are brown, light_blue, pink, orange, red, "
     "yellow, green, dark_blue"),
])
def test_unknown_set_fields_and_group_names_list_the_valid_ones(text: str, listed: str) -> None:
    with pytest.raises(TranscriptError) as caught:
        replay(text)
    assert listed in caught.value.problem


def test_a_bad_value_of_a_known_field_keeps_its_own_message() -> None:
    with pytest.raises(TranscriptError, match="level is 1 to 10"):
        replay("variant dungeonopoly\nplayer Ann fighter\nplayer Bob wizard\n"
               "set player Ann level=50\n")
