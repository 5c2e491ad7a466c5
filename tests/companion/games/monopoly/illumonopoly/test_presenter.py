"""What the kiosk shows of Illumonopoly: treasuries, cards, Illuminati and Legal Power on the
player cards, table-wide banners, the contest in the decision panel (PNGs at 1280x720 and
800x480 in out/kiosk-tests/ to look at)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.monopoly.illumonopoly import Illumonopoly, Support
from companion.kiosk.headless import render_one
from companion.kiosk.screens import GameScreen
from companion.session import Session
from companion.transcript import replay

PNG_DIR = Path("out") / "kiosk-tests"
CONTEST = """variant illumonopoly
seed 2
player Ann bavarian
player Ben gnomes
player Cai cthulhu
player Dee bermuda
set square "Boardwalk" owner=Ann houses=2
set square "Park Place" owner=Ann houses=2
set square "Reading Railroad" owner=Ben
set square "Pacific Avenue" owner=Cai
set player Ann treasury=dark_blue:350 court_hand=2
set player Ben treasury=railroad:120 court_hand=1
set player Dee audited=true
set player Cai court_hand=3
set square "Oriental Avenue" landmark=true
Ann sue Ben title "Reading Railroad"
Ann support plaintiff 30
Ben support defendant 10 from=railroad
"""


class Feed:
    def poll(self) -> None:
        return None

    def status(self) -> tuple[bool, str]:
        return False, "camera: off"

    def set_expected(self, expected: object) -> None:
        pass

    def reset_dice(self) -> None:
        pass

    def expect_dice(self, sides: object, kinds: object = None) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def contest() -> Session:
    result = replay(CONTEST)
    assert isinstance(result.rules, Illumonopoly)
    return Session(result.rules, result.state, CONTEST.splitlines()[:15], None)


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_contest_treasuries_and_banners_are_on_screen(contest: Session,
                                                      size: tuple[int, int]) -> None:
    screen = GameScreen(contest, Feed(), size)
    painter = render_one(screen, size, PNG_DIR / f"illumonopoly-contest-{size[0]}.png")
    texts = " ".join(painter.texts())  # type: ignore[attr-defined]
    assert "Bavarian Illuminati" in texts
    assert "LP 10" in texts and "Cards 2" in texts
    assert "dk blue $350" in texts and "Central $1420" in texts
    assert "IRS AUDIT: Dee" in texts  # the banner
    # the contest panel: 10 - 7 = 3, + 3 - 2 (Ben's $10 of railroad money counts double)
    assert "Ann (plaintiff) needs 4 or less on 2d6" in texts
    assert "Title defect, Reading Railroad: base 3" in texts
    assert "Spent: Ann $30, Ben $10 (+1)" in texts and "Passed: nobody yet" in texts
    assert "Landmark: Oriental Avenue" in texts


def test_labels_of_the_variants_actions(contest: Session) -> None:
    p = contest.rules.presenter()
    labels = [p.action_label(contest.state, a) for a in contest.rules.legal_actions(
        contest.state)]
    assert any(label.endswith("$10 for the plaintiff") for label in labels)
    assert any(label.endswith(": pass") for label in labels)


def test_support_and_transfers_use_amount_pickers(contest: Session) -> None:
    """A $310 spend is a few presses on the picker ($100 and $10 steps), not 31 presses of a
    $10 button."""
    from companion.kiosk.inputs import AmountPicker, Menu

    p = contest.rules.presenter()
    menu = p.menu(contest.state)
    assert isinstance(menu, Menu)
    row = next(o for o in menu.options if o.label.startswith("Ben: spend for the defendant"))
    assert row.open is not None
    picker = row.open()
    assert isinstance(picker, AmountPicker)
    plan = picker.plan(Support(1, "defendant", 310))
    assert plan is not None and len(plan) <= 10
    transfer = next(o for o in menu.options if o.label.startswith("Ann: move money"))
    assert transfer.open is not None
    sub = transfer.open()
    assert isinstance(sub, Menu) and any("dark blue > central" in o.label for o in sub.options)


def test_setup_offers_basic_or_an_illuminati(contest: Session) -> None:
    p = contest.rules.presenter()
    assert p.roles()[0] == "basic" and "discordian" in p.roles()
    assert p.role_word == "Illuminati"
    state = contest.rules.new_game([("Ann", "basic"), ("Ben", "gnomes")], seed=1)
    assert [getattr(q, "illuminati", None) for q in state.players] == ["", "gnomes"]
    with pytest.raises(ValueError, match="unknown Illuminati 'elves'"):
        contest.rules.new_game([("Ann", "elves"), ("Ben", "gnomes")])


def test_i8_private_treasuries_show_the_total_and_the_owner_peeks(contest: Session) -> None:
    """public_treasuries=false: the shared screen shows each player's total but not the
    split; the owner sees their treasuries while holding their button (800x480 PNG)."""
    from dataclasses import replace as dc_replace

    from hardware.buttons import Input, InputKind

    contest.state = dc_replace(contest.state, options=dc_replace(contest.state.options,
                                                                 public_treasuries=False))
    size = (800, 480)
    screen = GameScreen(contest, Feed(), size)
    painter = render_one(screen, size, PNG_DIR / "illumonopoly-private-800.png")
    texts = " ".join(painter.texts())  # type: ignore[attr-defined]
    assert "$1,770" in texts and "Treasuries private" in texts
    assert "Central $1420" not in texts and "dk blue $350" not in texts
    screen.handle(Input(InputKind.REACT, seat=0, held=True))
    painter = render_one(screen, size, PNG_DIR / "illumonopoly-private-peek-800.png")
    texts = " ".join(painter.texts())  # type: ignore[attr-defined]
    assert "Central $1420" in texts and "dark blue $350" in texts
    assert contest.rules.presenter().private_lines(contest.state, 1) == (
        "Central $1500", "railroad $110")


def test_the_contest_roll_comes_from_the_dice_camera(contest: Session) -> None:
    """Once every side has passed, the plaintiff's 2d6 is read by the camera like any roll:
    the settled dice show for confirmation and one press submits them as the contest roll."""
    import numpy as np

    from companion.kiosk.dice_flow import DiceSeen
    from companion.kiosk.table_feed import TableReading
    from hardware.buttons import CONFIRM

    class Camera(Feed):
        def __init__(self) -> None:
            self.readings: list[TableReading] = []

        def poll(self) -> TableReading | None:  # type: ignore[override]
            return self.readings.pop(0) if self.readings else None

        def status(self) -> tuple[bool, str]:
            return True, "camera running"

    from companion.games.monopoly.actions import Pass

    for seat in (1, 2, 3, 0):  # Ben, Cai, Dee, Ann: the support round ends
        contest.apply(Pass(seat))
    feed = Camera()
    screen = GameScreen(contest, feed, (800, 480))
    entry = screen.dice_entry()
    assert entry is not None and tuple(entry.sides) == (6, 6)
    feed.readings.append(TableReading(1, np.zeros((270, 480, 3), np.uint8),
                                      settled=DiceSeen((1, 2), "ok", "", 0.0)))
    painter = render_one(screen, (800, 480), PNG_DIR / "illumonopoly-contest-roll-800.png")
    texts = " ".join(painter.texts())  # type: ignore[attr-defined]
    assert "Ann rolls 2d6: 4 or less wins" in texts and "The camera read these values" in texts
    screen.handle(CONFIRM)
    assert contest.state.squares[5].owner == 0  # 3 <= 4: Ann takes Reading Railroad
