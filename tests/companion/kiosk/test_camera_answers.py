"""What the camera reads reaches the table screen through the game's presenter: a die of
another player's colour is refused on the dice pad (game-blind: the reading carries each die's
colour tag), a fight's throw gives each fighter their die, and a coin shown to the camera
pre-selects the answer a player confirms (Dungeon Crawl, rulings C-25)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from companion.kiosk.dice_flow import DiceSeen
from companion.kiosk.inputs import Menu
from companion.kiosk.screens import GameScreen
from companion.kiosk.table_feed import TableReading
from companion.session import Session
from companion.transcript import replay
from hardware.buttons import CONFIRM


class ReadingFeed:
    """A live camera that hands over the readings it is given, one per poll."""

    def __init__(self) -> None:
        self.queue: list[DiceSeen] = []
        self.expected: list[tuple[Any, Any]] = []
        self.index = 0

    def poll(self) -> TableReading | None:
        if not self.queue:
            return None
        self.index += 1
        return TableReading(self.index, np.zeros((9, 16, 3), np.uint8),
                            settled=self.queue.pop(0))

    def status(self) -> tuple[bool, str]:
        return True, "camera running"

    def set_expected(self, expected: Any) -> None:
        pass

    def reset_dice(self) -> None:
        pass

    def expect_dice(self, sides: Sequence[int] | None, kinds: Sequence[str] | None = None) -> None:
        self.expected.append((sides, tuple(kinds) if kinds else None))

    def close(self) -> None:
        pass


def crawl(*lines: str) -> Session:
    text = "\n".join(["variant dungeon_crawl", "seed 1", "player Ann red", "player Bob black",
                      "player Cat yellow", "set tile 0,0 suns:0", "set tile 1,0 moons:0",
                      "set tile 2,0 crowns:0", *lines]) + "\n"
    result = replay(text)
    return Session(result.rules, result.state, text.splitlines(), None)


def test_another_players_die_is_refused_on_the_pad_and_the_right_one_confirmed() -> None:
    session = crawl("set coin 3,0 4", "set player Ann at=0,0", "set player Bob at=2,1",
                    "Ann move 3,0", "Ann reveal suns")
    feed = ReadingFeed()
    screen = GameScreen(session, feed, (800, 480))
    entry = screen.dice_entry()
    assert entry is not None and entry.mode == "camera"
    feed.queue.append(DiceSeen((5,), colours=("moons",)))
    screen.update(0.05)
    assert entry.mode == "camera" and entry.seen is None
    assert entry.problem == ("The camera sees the moons die (black): that is Bob's die. "
                             "Ann rolls the suns die (red)")
    feed.queue.append(DiceSeen((2,), colours=("suns",)))
    screen.update(0.05)
    assert entry.mode == "confirm" and entry.values == [2] and entry.problem == ""
    screen.handle(CONFIRM)
    assert session.lines[-1] == "Ann roll 2"


def test_one_throw_gives_the_attacker_and_the_defender_their_own_dice() -> None:
    session = crawl("set player Ann at=0,0", "set player Bob at=2,1", "set player Cat at=none",
                    "Ann move 1,0", "Ann attack Bob")
    feed = ReadingFeed()
    screen = GameScreen(session, feed, (800, 480))
    feed.queue.append(DiceSeen((4, 2), colours=("moons", "suns")))
    screen.update(0.05)
    entry = screen.dice_entry()
    assert entry is not None and entry.mode == "confirm" and entry.values == [2]
    screen.handle(CONFIRM)
    assert session.lines[-1] == "Ann roll 2"
    defence = screen.dice_entry()
    assert defence is not None and defence.prompt.player == 1
    assert defence.mode == "confirm" and defence.values == [4]  # Bob's die from the same throw
    screen.handle(CONFIRM)
    assert session.lines[-1] == "Bob roll 4"


def test_a_coin_read_by_the_camera_preselects_the_reveal_for_a_player_to_confirm() -> None:
    session = crawl("set coin 3,0 4", "set player Ann at=0,0", "set player Bob at=2,1",
                    "Ann move 3,0")
    feed = ReadingFeed()
    screen = GameScreen(session, feed, (800, 480))
    assert feed.expected[-1] == (None, ("piecepack coin",))  # the coin reader, not the dice
    menu = screen.stack[0]
    assert isinstance(menu, Menu) and screen.top is menu
    feed.queue.append(DiceSeen((3,), colours=("",)))  # the wrong coin, value side up
    screen.update(0.05)
    assert menu.index == 0
    assert any("landed on a 4" in b.text for b in screen.banners)
    feed.queue.append(DiceSeen((None,), colours=("crowns",)))
    screen.update(0.05)
    assert menu.options[menu.index].label == "Ann: the coin is crowns (treasure)"
    screen.handle(CONFIRM)
    assert session.lines[-1] == "Ann reveal crowns"
    assert not any("The camera" in b.text for b in screen.banners)
    assert feed.expected[-1][1] != ("piecepack coin",)  # back to the dice readers


class BoardFeed(ReadingFeed):
    """A live camera handing over board readings (pawns on places), one per poll."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: list[Any] = []

    def poll(self) -> TableReading | None:
        if not self.boards:
            return None
        self.index += 1
        return TableReading(self.index, np.zeros((9, 16, 3), np.uint8),
                            board=self.boards.pop(0))


def board(session: Session, **pawns: tuple[int, int]) -> Any:
    """A stable board reading with each named player's pawn on a dungeon space."""
    from companion.kiosk.pawn_check import BoardSeen

    presenter = GameScreen(session, None).presenter
    return BoardSeen("ok", "", {place(presenter, space): (name,)
                                for name, space in pawns.items()}, True)


def place(presenter: Any, space: tuple[int, int]) -> int:
    """The kiosk's place number of a dungeon space, as the game's presenter numbers it."""
    for n in range(0, 256 * 256):
        if presenter.place_name(n) == f"{space[0]},{space[1]}":
            return n
    raise AssertionError(space)


def test_a_pawn_moved_on_the_table_puts_the_cursor_on_that_square() -> None:
    from companion.kiosk.inputs import MapPicker

    session = crawl("set coin 3,0 4", "set player Ann at=0,0", "set player Bob at=2,1",
                    "set player Cat at=5,0")
    feed = BoardFeed()
    screen = GameScreen(session, feed, (800, 480))
    picker = screen.top
    assert isinstance(picker, MapPicker) and picker.index == 0
    feed.boards.append(board(session, Ann=(1, 1), Bob=(2, 1), Cat=(5, 0)))
    screen.update(0.05)
    cursor = picker.cursor
    assert cursor is not None and cursor.label == "move 1 north-east"
    assert any("The camera sees it on the table (move 1 north-east)" in b.text
               for b in screen.banners)
    screen.handle(CONFIRM)
    assert session.lines[-1] == "Ann move 1,1"
    assert not any("The camera sees it" in b.text for b in screen.banners)  # done: no longer news
    # after the move the pawn check holds Ann to 1,1: the camera seeing her on 1,0 is named
    for _ in range(3):
        feed.boards.append(board(session, Ann=(1, 0), Bob=(2, 1), Cat=(5, 0)))
        screen.update(0.05)
    problems = [p.sentence(screen.presenter) for p in screen.pawns.problems()]
    assert problems == ["the camera sees Ann on 1,0, the game has Ann on 1,1: move the piece to "
                        "1,1"]


def test_a_piece_out_of_the_cameras_view_is_not_called_missing() -> None:
    from companion.kiosk.pawn_check import BoardSeen

    session = crawl("set coin 3,0 4", "set player Ann at=0,0", "set player Bob at=2,1",
                    "set player Cat at=5,0")
    feed = BoardFeed()
    screen = GameScreen(session, feed, (800, 480))
    screen.handle(CONFIRM)  # Ann moves to the picker's first square
    ann = session.state.players[0].at
    assert ann is not None and screen.pawns.expect
    seat = next(iter(screen.pawns.expect))
    cell = screen.pawns.expect[seat]
    for covers in (frozenset({cell + 1}), None):
        for _ in range(3):
            feed.boards.append(BoardSeen("ok", "", {}, True, None, covers))
            screen.update(0.05)
        unseen = [p for p in screen.pawns.problems() if p.status == "unseen"]
        assert (unseen == []) if covers is not None else (len(unseen) == 1)


def test_the_refusal_and_the_coin_read_fit_the_small_screen() -> None:
    import pygame

    from companion.kiosk.painter import Painter

    cases = [(crawl("set coin 3,0 4", "set player Ann at=0,0", "set player Bob at=2,1",
                    "Ann move 3,0", "Ann reveal suns"), DiceSeen((5,), colours=("moons",)),
              "that is Bob's die"),
             (crawl("set coin 3,0 4", "set player Ann at=0,0", "set player Bob at=2,1",
                    "Ann move 3,0"), DiceSeen((None,), colours=("crowns",)),
              "The camera reads the coin")]
    for session, seen, words in cases:
        feed = ReadingFeed()
        screen = GameScreen(session, feed, (800, 480))
        feed.queue.append(seen)
        screen.update(0.05)
        painter = Painter()
        screen.draw(pygame.Surface((800, 480)), painter)
        panels = {p.name: pygame.Rect(p.rect) for p in painter.panels}
        for d in painter.drawn:
            assert panels[d.panel].contains(pygame.Rect(d.rect)), d
            assert d.size >= 14, d
        assert words in " ".join(painter.texts("decision"))


def test_a_long_pawn_check_stays_inside_its_card_at_800x480() -> None:
    import pygame

    from companion.kiosk.painter import Painter
    from companion.kiosk.theme import layout_for
    from companion.kiosk.views import players as players_view

    session = crawl("set player Ann at=0,0", "set player Bob at=2,1", "set player Cat at=5,0")
    screen = GameScreen(session, None, (800, 480))
    check = "the camera cannot find Bob's piece: it belongs on 2,1"
    cards = screen.presenter.player_cards(session.state, {1: check})
    lay = layout_for((800, 480), grid=True)
    painter = Painter()
    painter.begin(pygame.Surface((800, 480)))
    players_view.draw(painter, lay.players, lay, cards)
    cells = players_view.grid(len(cards), lay.players, lay.pad)
    words = [d for d in painter.drawn if d.text and d.text in check]
    assert words, "the note is drawn, at least its first line"
    for d in words:
        assert cells[1].contains(pygame.Rect(d.rect)), d
