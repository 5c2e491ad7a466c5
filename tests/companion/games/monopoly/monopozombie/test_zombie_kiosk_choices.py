"""Moves chosen after the roll at the kiosk: the pawn check is given every square the roll can
reach (either way for zombies and apocalypse humans, every square a group member can reach
with two of the pooled dice), accepts the piece on any of them, and pre-selects the row where
the camera sees it (the player confirms); the group allocation editor reaches a split
allocation in a few presses (PNGs in out/kiosk-tests/monopozombie-group-*)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from zombie_table import Feed, session

from companion.games.monopoly.monopozombie.model import Allocate, GroupMove, Steer
from companion.kiosk.headless import render_one
from companion.kiosk.inputs import Menu
from companion.kiosk.screens import GameScreen
from companion.transcript import replay
from hardware.buttons import CONFIRM, NEXT

PNG_DIR = Path(__file__).resolve().parents[5] / "out" / "kiosk-tests"
SIZES = [(1280, 720), (800, 480)]
JAIL, GO, STATES, ILLINOIS, READING, KENTUCKY = 10, 0, 13, 24, 5, 21

ZOMBIE_TURN = """variant monopozombie
seed 1
player Ann
player Bob
player Cy
player Dee
set stage apocalypse
set square "Park Place" owner=Ann houses=2
set player Ann lap=done position=37 cash=0
set player Bob zombie=yes lap=done position=20 cash=0
set player Cy lap=done position=12 cash=0
set player Dee zombie=yes position=5 cash=0
set turn player=Dee
Dee roll 3 2
"""

GROUP_TURN = """variant monopozombie
seed 1
player Ann
player Bob
player Cy
player Dee
set stage apocalypse
set square "Park Place" owner=Ann houses=2
set player Ann lap=done position=10 cash=0
set player Bob zombie=yes position=20 cash=0
set player Cy lap=done position=13 cash=0
set player Dee zombie=yes position=20 cash=0
Ann roll 1 2 6
Ann move 2 1 forward
Ann group Cy
Ann end
Bob roll 1 2
Bob go "Indiana Avenue"
Bob end
Dee roll 1 1
Dee move back
Dee end
Ann roll 1 2 4 3 5 6
"""





def test_zombie_choice_gives_both_squares_to_the_pawn_check_and_the_camera() -> None:
    s = session(ZOMBIE_TURN)  # Dee on Reading Railroad rolled 3+2: Jail or GO
    pres = s.rules.presenter()
    assert pres.piece_choices(s.state) == {3: (GO, JAIL)}
    menu = pres.menu(s.state)
    steer_rows = [o for o in menu.options if isinstance(o.action, Steer)]
    assert sorted(o.places for o in steer_rows) == [(GO,), (JAIL,)]
    feed = Feed()
    GameScreen(s, feed, (800, 480))
    ctx = feed.expected
    assert ctx is not None
    assert ctx.player == "Dee" and ctx.from_square == READING  # type: ignore[attr-defined]
    assert set(ctx.candidates) == {GO, JAIL}  # type: ignore[attr-defined]
    assert "Dee" not in ctx.positions  # type: ignore[attr-defined]


@pytest.mark.parametrize("seen", [GO, JAIL])
def test_the_row_where_the_camera_sees_the_piece_is_preselected_then_confirmed(seen: int
                                                                               ) -> None:
    s = session(ZOMBIE_TURN)
    feed = Feed()
    screen = GameScreen(s, feed, (1280, 720))
    feed.see({seen: ("Dee",), 37: ("Ann",), 12: ("Cy",), 20: ("Bob",)})
    painter = render_one(screen, (1280, 720))
    texts = " ".join(painter.texts("decision"))  # type: ignore[attr-defined]
    where = "GO" if seen == GO else "Just Visiting"
    assert f"The camera sees Dee on {where}: CONFIRM to choose it" in texts
    assert "move the piece" not in texts  # either square is accepted
    top = screen.top
    assert isinstance(top, Menu)
    assert top.options[top.index].places == (seen,)
    assert s.state.players[3].position == READING  # pre-selected, not applied
    screen.handle(CONFIRM)
    assert s.state.players[3].position == seen


def test_a_cursor_moved_by_a_player_is_left_alone() -> None:
    s = session(ZOMBIE_TURN)
    feed = Feed()
    screen = GameScreen(s, feed, (1280, 720))
    render_one(screen, (1280, 720))
    screen.handle(NEXT)
    top = screen.top
    assert isinstance(top, Menu)
    chosen = top.index
    other = [o.places[0] for o in top.options if o.places and o is not top.options[chosen]]
    feed.see({other[0]: ("Dee",)})
    render_one(screen, (1280, 720))
    assert top.index == chosen


def test_a_piece_on_no_offered_square_is_named_with_the_squares_it_can_go_to() -> None:
    s = session(ZOMBIE_TURN)
    feed = Feed()
    screen = GameScreen(s, feed, (1280, 720))
    feed.see({STATES: ("Dee",)})
    painter = render_one(screen, (1280, 720))
    texts = " ".join(painter.texts("decision"))  # type: ignore[attr-defined]
    assert "the camera sees Dee on States Avenue; this move can take Dee to GO, Just " \
           "Visiting" in texts
    assert s.state.players[3].position == READING


def test_group_choice_every_square_two_pooled_dice_reach_for_each_member() -> None:
    s = session(GROUP_TURN)
    head = s.state.pending[0]
    assert isinstance(head, GroupMove) and head.members == (0, 2)
    choices = s.rules.presenter().piece_choices(s.state)
    totals = {3, 4, 5, 6, 7, 8, 9, 10, 11}  # two of 1 2 4 3 5 6 (not 1+1: one 1 rolled)
    reach = tuple(sorted({(STATES + t) % 40 for t in totals} | {(STATES - t) % 40
                                                                 for t in totals}))
    assert choices == {0: reach, 2: reach}


def test_group_editor_reaches_a_split_allocation_in_a_few_presses() -> None:
    s = session(GROUP_TURN)
    screen = GameScreen(s, Feed(), (800, 480))
    render_one(screen, (800, 480))
    # Ann keeps 6+5 and goes ahead; Cy keeps 4+2 and goes back: not a together move
    presses = [CONFIRM,            # share out the dice
               CONFIRM,            # Ann's first die: 6 (first row of 6 5 4 3 2 1)
               CONFIRM,            # with the 5 (first row of 5 4 3 2 1)
               CONFIRM,            # ahead
               CONFIRM,            # Cy's first die: 4 (first row of 4 3 2 1)
               NEXT, CONFIRM,      # with the 2 (second row of 3 2 1)
               NEXT]               # back
    for press in presses:
        screen.handle(press)
    top = screen.top
    assert isinstance(top, Menu)
    assert [o.action for o in top.options] == [
        Allocate(0, ((0, (6, 5), "forward"), (2, (4, 2), "forward"))),
        Allocate(0, ((0, (6, 5), "forward"), (2, (4, 2), "back")))]
    screen.handle(CONFIRM)  # move the group: nine presses in all
    assert s.lines[-1] == "Ann allocate Ann:6,5:forward Cy:4,2:back"
    assert s.state.players[0].position == ILLINOIS
    assert s.state.players[2].position == (STATES - 6) % 40


@pytest.mark.parametrize("size", SIZES)
def test_group_editor_readable_at_both_sizes(size: tuple[int, int]) -> None:
    s = session(GROUP_TURN)
    screen = GameScreen(s, Feed(), size)
    tag = f"{size[0]}x{size[1]}"
    PNG_DIR.mkdir(parents=True, exist_ok=True)
    shots = []
    for name, press in [("menu", None), ("first", CONFIRM), ("second", CONFIRM),
                        ("way", CONFIRM), ("cy-first", CONFIRM)]:
        if press is not None:
            screen.handle(press)
        path = PNG_DIR / f"monopozombie-group-{name}-{tag}.png"
        painter = render_one(screen, size, path)
        shots.append((name, painter, path))
    area = pygame.Rect(0, 0, *size)
    for name, painter, path in shots:
        texts = painter.texts("decision")  # type: ignore[attr-defined]
        for d in painter.drawn:  # type: ignore[attr-defined]
            assert area.contains(pygame.Rect(d.rect)), (name, d.text)
            assert d.size >= 13, f"{d.text!r} too small ({d.size}px)"
        assert texts, name
        assert path.stat().st_size > 0
    first = " ".join(shots[1][1].texts("decision"))  # type: ignore[attr-defined]
    assert "Ann: first die (left 6 5 4 3 2 1)" in first and "6 (rolled by Cy)" in first
    way = " ".join(shots[3][1].texts("decision"))  # type: ignore[attr-defined]
    assert "11 ahead to Illinois Avenue" in way
    cy = " ".join(shots[4][1].texts("decision"))  # type: ignore[attr-defined]
    assert "Cy: first die (left 4 3 2 1) [Ann 6+5 ahead]" in cy


GROUP_BEFORE_ROLL = GROUP_TURN.replace("Ann roll 1 2 4 3 5 6\n", "")


def test_z23_group_roll_without_colours_says_the_order_to_enter_the_dice() -> None:
    s = session(GROUP_BEFORE_ROLL)
    prompt = s.rules.presenter().dice_prompt(s.state)
    assert prompt is not None and len(prompt.dice) == 6 and prompt.colours == ()
    assert prompt.purpose == "group moves: 6d6; enter Ann's 3, then Cy's 3"


def test_z23_group_dice_attributed_to_members_by_colour() -> None:
    text = GROUP_BEFORE_ROLL.replace("seed 1\n", "seed 1\noption die_colours=red,green,blue,white\n")
    s = session(text)
    prompt = s.rules.presenter().dice_prompt(s.state)
    assert prompt is not None
    assert prompt.colours == ("red",) * 3 + ("blue",) * 3  # Ann red, Cy blue
    assert prompt.purpose == "group moves: 6d6, 3 each (Ann red, Cy blue)"
    feed = Feed()
    screen = GameScreen(s, feed, (800, 480))
    render_one(screen, (800, 480))
    from companion.kiosk.dice_flow import DiceSeen
    screen.settled = DiceSeen((6, 1, 5, 2, 3, 4),
                              colours=("blue", "red", "blue", "red", "blue", "red"))
    render_one(screen, (800, 480), PNG_DIR / "monopozombie-group-dice-colours-800x480.png")
    screen.handle(CONFIRM)
    head = s.state.pending[0]
    assert isinstance(head, GroupMove) and head.dice == (1, 2, 4, 6, 5, 3)
    assert head.own_dice(0) == (1, 2, 4) and head.own_dice(2) == (6, 5, 3)


def test_z23_die_colours_option_refuses_more_colours_than_seats() -> None:
    from companion.transcript import TranscriptError
    bad = GROUP_BEFORE_ROLL.replace("seed 1\n", "seed 1\noption die_colours=a,b,c,d,e\n")
    with pytest.raises(TranscriptError, match="die_colours takes one colour name per seat"):
        replay(bad)


def test_z29_d6_zombie_dice_prompts_name_the_dice_rolled_again() -> None:
    text = ZOMBIE_TURN.replace("seed 1\n", "seed 1\noption zombie_dice=d6\n").replace(
        "Dee roll 3 2\n", "")
    s = session(text)
    pres = s.rules.presenter()
    prompt = pres.dice_prompt(s.state)
    assert prompt is not None and [d.name for d in prompt.dice] == ["d6", "d6"]
    state, _ = s.rules.apply(s.state, pres.roll_action(s.state, prompt, (3, 6)))
    again = pres.dice_prompt(state)
    assert again is not None and [d.name for d in again.dice] == ["d6"]
    assert again.purpose == "Dee (zombie) rolls every 5 or 6 again: 1d6; the 3 stands"


def test_group_editor_rows_follow_the_pieces_the_camera_sees() -> None:
    s = session(GROUP_TURN)  # Ann and Cy on States Avenue; dice 1 2 4 | 3 5 6
    feed = Feed()
    screen = GameScreen(s, feed, (1280, 720))
    render_one(screen, (1280, 720))
    seen: dict[int, tuple[str, ...]] = {STATES + 6: ("Ann",), STATES - 7: ("Cy",)}
    for _ in range(7):  # the editor, then three rows per member, each pre-selected
        screen.handle(CONFIRM)
        feed.see(seen)
        render_one(screen, (1280, 720))
    assert s.lines[-1] == "Ann allocate Ann:5,1:forward Cy:4,3:back"
    assert s.state.players[0].position == STATES + 6
    assert s.state.players[2].position == STATES - 7


def test_the_demo_autopilot_finds_every_together_allocation_in_the_group_menu() -> None:
    s = session(GROUP_TURN)
    pres = s.rules.presenter()
    together = [a for a in s.rules.legal_actions(s.state) if isinstance(a, Allocate)]
    assert len(together) >= 2
    for action in together:
        screen = GameScreen(s, Feed(), (800, 480))
        menu = screen.stack[0]
        assert isinstance(menu, Menu)
        presses = pres.menu(s.state).plan(action)
        assert presses is not None
        before = s.lines[:]
        for press in presses:
            screen.handle(press)
        assert s.lines[len(before):] == [s.rules.format_action(replay(GROUP_TURN).state,
                                                               action)]
        s.undo(1)
