"""Team rosters (``companion/games/dungeonbowl/roster.py``, ruling B-32): the file format and
its errors, the bundled rosters, and a roster team at setup, on transcripts and on the kiosk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.games.dungeonbowl import roster
from companion.games.dungeonbowl.actions import AddModel, Kickoff
from companion.games.dungeonbowl.roster import RosterError, RosterModel, parse
from companion.games.dungeonbowl.state import Team
from companion.transcript import replay, state_json

from .table import GAME, LAB, act, model, position, refused

ORCS_V_ELVES = (("Orcs", "orcs"), ("Elves", "elves"))


def setup_game(teams: tuple[tuple[str, str], ...] = ORCS_V_ELVES):  # type: ignore[no-untyped-def]
    return GAME.new_game(list(teams), {"dungeon": LAB})


# -- the format ----------------------------------------------------------------------------
def test_a_roster_lists_models_with_their_characteristics_and_numbered_copies() -> None:
    r = parse("; comment\nname Night Raiders\n\nseer college=Fire skills=leap\n"
              "lineman x3 ma=5 st=4 ag=2\nrunner ma=8\n")
    assert r.name == "Night Raiders"
    assert [m.id for m in r.models] == ["seer", "lineman1", "lineman2", "lineman3", "runner"]
    assert r.models[0] == RosterModel("seer", 6, 3, 3, "fire", ("leap",))
    assert r.models[2] == RosterModel("lineman2", 5, 4, 2)
    assert r.models[4] == RosterModel("runner", 8, 3, 3)
    assert Team("Rats", squad=r.models).on_roster("LINEMAN3") is r.models[3]


@pytest.mark.parametrize(("text", "where", "words"), [
    ("a ma=6\nb skills=fly\n", "line 2, column 3", "unknown skill 'fly'"),
    ("a ma=13\n", "line 1, column 3", "ma takes a whole number from 1 to 12"),
    ("a st=0\n", "line 1, column 3", "st takes a whole number from 1 to 9"),
    ("a speed=6\n", "line 1, column 3", "unexpected 'speed=6'"),
    ("a ma=6 ma=7\n", "line 1, column 8", "ma= is given twice"),
    ("  9lives\n", "line 1, column 3", "is not a model id"),
    ("a\nb\na\n", "line 3, column 1", "a is listed twice (first on line 1)"),
    ("a x17\n", "line 1, column 3", "a line lists 1 to 16 models"),
    ("a x9\nb x8\n", "line 2, column 1", "at most 16 models"),
    ("a\nname Late\n", "line 2, column 1", "the 'name' line comes before the models"),
    ("; nothing\n", "line 1", "lists no models"),
    ("a college=fire+ice\n", "line 1, column 3", "college takes one word"),
])
def test_a_bad_roster_line_is_named_by_line_and_column(text: str, where: str,
                                                       words: str) -> None:
    with pytest.raises(RosterError) as info:
        parse(text)
    assert str(info.value).startswith(where + ":"), str(info.value)
    assert words in str(info.value)


def test_the_bundled_rosters_load_and_no_two_share_a_model_id() -> None:
    names = roster.bundled()
    assert set(names) >= {"orcs", "elves", "dwarfs", "goblins"}
    ids: list[str] = []
    for name in names:
        r = roster.load(name)
        assert 11 <= len(r.models) <= roster.MAX_MODELS, name
        assert any(m.college for m in r.models) or name == "goblins"
        ids += [m.id for m in r.models]
    assert len(ids) == len(set(ids))


def test_a_roster_file_loads_and_a_missing_one_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text("name Mine\ncaptain ma=7 skills=block\nbrawler x2 st=4\n", encoding="utf-8")
    assert [m.id for m in roster.load(str(path)).models] == ["captain", "brawler1", "brawler2"]
    with pytest.raises(ValueError, match="no bundled roster called 'trolls'.*orcs"):
        roster.load("trolls")
    with pytest.raises(ValueError, match="cannot read the roster .*check the path.*orcs"):
        roster.load(str(tmp_path / "gone.txt"))
    path.write_text("captain ma=70\n", encoding="utf-8")  # edited: read again
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    with pytest.raises(RosterError, match=r"line 1, column 9: .* \(in the roster .*mine.txt\)"):
        roster.load(str(path))
    path.write_bytes(b"captain \xff\xfe\n")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 2_000_000))
    with pytest.raises(ValueError, match="cannot read the roster .*mine.txt.*check the file"):
        roster.load(str(path))


# -- a roster team in the game -------------------------------------------------------------
def test_a_team_plays_its_roster_and_standard_means_none() -> None:
    state = GAME.new_game([("Orcs", "orcs"), ("Elves", "standard")], {"dungeon": LAB})
    orcs, elves = state.players
    assert orcs.roster == "orcs" and len(orcs.squad) == len(roster.load("orcs").models)
    assert elves.roster == "" and elves.squad == ()
    with pytest.raises(ValueError, match="the roster of Elves: no bundled roster called 'elfs'"):
        GAME.new_game([("Orcs", "orcs"), ("Elves", "elfs")], {"dungeon": LAB})


def test_two_teams_with_the_same_roster_get_their_own_model_names() -> None:
    state = setup_game((("Orcs", "orcs"), ("Ogres", "orcs")))
    first, second = (tuple(m.id for m in t.squad) for t in state.players)
    assert first[0] == "t1-blitzer1" and second[0] == "t2-blitzer1"
    assert not set(first) & set(second)
    state, _ = act(state, "Ogres add t2-troll 9,1")
    assert model(state, "t2-troll").st == 5 and model(state, "t2-troll").team == 1


def test_setup_offers_each_roster_model_not_yet_fielded_with_its_characteristics() -> None:
    state = GAME.new_game([("Orcs", "orcs"), ("Elves", "")], {"dungeon": LAB})
    adds = [a for a in GAME.legal_actions(state) if isinstance(a, AddModel)]
    zone = state.dungeon.endzone(1)
    orc_adds = {(a.model, a.at): a for a in adds if a.player == 0}
    assert set(orc_adds) == {(m.id, q) for m in state.players[0].squad for q in zone}
    assert orc_adds["shaman", zone[0]].college == "fire" and orc_adds["troll", zone[2]].st == 5
    # a standard team: its next standard model, on any free square
    assert [(a.model, a.at) for a in adds if a.player == 1] == \
        [("e1", q) for q in state.dungeon.endzone(2)]
    state, _ = act(state, "Orcs add troll 1,1")
    again = [a for a in GAME.legal_actions(state) if isinstance(a, AddModel)]
    assert "troll" not in {a.model for a in again} and "shaman" in {a.model for a in again}
    assert (1, 1) not in {a.at for a in again}  # the troll's square is taken
    state, _ = act(state, "Elves add e1 9,1")
    assert any(isinstance(a, Kickoff) for a in GAME.legal_actions(state))


def test_an_add_line_takes_the_rosters_characteristics_for_those_left_out() -> None:
    state, events = act(setup_game(), "Orcs add shaman 1,3", "Elves add wardancer2 9,2 ag=4")
    shaman, dancer = model(state, "shaman"), model(state, "wardancer2")
    assert (shaman.ma, shaman.st, shaman.ag, shaman.college) == (5, 3, 3, "fire")
    assert (dancer.ma, dancer.ag, set(dancer.skills)) == (7, 4, {"leap", "block"})
    line = GAME.format_action(state, AddModel(0, "troll", (1, 4), 4, 5, 1, "",
                                              ("mighty_blow", "big_guy")))
    assert line == "Orcs add troll 1,4 ma=4 st=5 ag=1 skills=mighty_blow+big_guy"
    after, _ = act(state, line)
    assert model(after, "troll").skills == ("mighty_blow", "big_guy")


def test_a_model_off_the_roster_or_unlike_it_is_refused_and_nothing_changes() -> None:
    state = setup_game()
    refused(state, "Orcs add gobbo 1,1", "gobbo is not on the roster of Orcs (orcs)",
            "field one of blitzer1")
    refused(state, "Orcs add troll 1,1 st=6", "troll is on the roster of Orcs as ma=4 st=5 "
            "ag=1 skills=mighty_blow+big_guy", "leave its characteristics out")
    refused(state, "Orcs add shaman 1,1 college=ice", "college=fire")
    refused(state, "Orcs add wardancer1 1,1", "not on the roster of Orcs")
    ok, _ = act(state, "Orcs add troll 1,1 skills=big_guy+mighty_blow")  # any order
    assert model(ok, "troll").st == 5
    shouted, _ = GAME.apply(state, AddModel(0, "TROLL", (1, 1), 4, 5, 1, "",
                                            ("mighty_blow", "big_guy")))
    assert [m.id for m in shouted.models] == ["troll"]  # the roster's own spelling


def test_a_model_back_from_the_reserves_keeps_its_roster_characteristics_on_any_free_square() -> None:
    state = position("""
        set model Orcs troll - status=reserves
    """, teams=ORCS_V_ELVES)
    back = [a for a in GAME.legal_actions(state) if isinstance(a, AddModel) and a.model == "troll"]
    assert [a.at for a in back] == list(state.dungeon.endzone(1))  # any free square
    assert {(a.ma, a.st, a.ag) for a in back} == {(4, 5, 1)}
    state, _ = act(state, GAME.format_action(state, back[0]))
    assert model(state, "troll").status == "standing" and model(state, "troll").st == 5


def test_a_transcript_names_a_teams_roster_on_its_player_line(tmp_path: Path) -> None:
    mine = tmp_path / "rats.txt"
    mine.write_text("name Rat Pack\nrat x3 ma=7 st=2\n", encoding="utf-8")
    text = (f"variant dungeonbowl\noption dungeon={LAB}\nplayer Orcs orcs\n"
            f"player Rats {mine}\nOrcs add shaman 1,1\nRats add rat2 9,1\nOrcs kickoff\n")
    state = replay(text).state
    assert model(state, "rat2").ma == 7 and model(state, "shaman").college == "fire"
    assert state_json(GAME, state)["teams"][1]["roster"] == str(mine)


def test_a_kiosk_game_records_its_rosters_and_resumes_with_them(tmp_path: Path) -> None:
    from companion.session import Session

    path = tmp_path / "game.jsonl"
    s = Session.new(path, "dungeonbowl", [("Orcs", "orcs"), ("Elves", "standard")],
                    options={"dungeon": LAB})
    assert "player Orcs orcs" in s.header and "player Elves standard" in s.header
    s.apply(AddModel(0, "troll", (1, 1), 4, 5, 1, "", ("mighty_blow", "big_guy")))
    again = Session.resume(path)
    assert again.state.players[0].squad == s.state.players[0].squad
    assert again.state.model("troll") is not None


def test_the_kiosk_offers_rosters_as_each_teams_choice_and_shows_it_on_the_card() -> None:
    from companion.kiosk.presenter import presenter_of
    from companion.kiosk.setup import default_setup

    p = presenter_of(GAME)
    assert p.role_word == "roster"
    assert p.roles() == (*roster.bundled(), "standard")
    setup = default_setup("dungeonbowl", 2)
    assert [s.role for s in setup.seats] == list(roster.bundled()[:2])
    state = GAME.new_game(setup.players(), {"dungeon": LAB})
    cards = p.player_cards(state, {})
    assert cards[0].role == roster.load(setup.seats[0].role).name
    standard = GAME.new_game([("Orcs", "standard"), ("Elves", "")], {"dungeon": LAB})
    assert p.player_cards(standard, {})[0].role == ""
