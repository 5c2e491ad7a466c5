"""The demo's bots play a whole game with a map on the buttons alone: the map cursor for
moves, grouped menus for tiles and coins, the dice pad for the piecepack die (null included)."""

from __future__ import annotations

from companion.core.dice import DicePrompt
from companion.games.dungeon_crawl.pieces import PIECEPACK_DIE
from companion.kiosk.demo import Autopilot, numbered
from companion.kiosk.dice_flow import DiceEntry
from companion.kiosk.inputs import MapPicker
from companion.kiosk.screens import GameScreen
from companion.kiosk.table_feed import NoFeed
from companion.session import Session
from hardware.buttons import CONFIRM, NEXT, PREV, InputQueue


def test_bots_on_the_buttons_finish_a_whole_map_game() -> None:
    session = Session.memory("dungeon_crawl", [("Ann", "red"), ("Ben", "black"),
                                               ("Cai", "yellow")], 11)
    screen = GameScreen(session, None, (800, 480))
    queue = InputQueue()
    pilot = Autopilot(screen, queue, seed=11, think=0.0, press=0.0)
    picked = 0
    for _ in range(60_000):
        if session.state.outcome is not None:
            break
        pilot.tick(0.2)
        for inp in queue.drain():
            if inp.kind is CONFIRM.kind and isinstance(screen.top, MapPicker):
                picked += 1
            screen.handle(inp)
        screen.update(0.2)
    assert session.state.outcome is not None, session.rules.waiting_for(session.state)
    assert pilot.direct == 0  # every action by button presses
    assert picked > 10  # the moves went through the map's cursor
    assert pilot.button_rolls > 0


def test_the_dice_pad_enters_every_piecepack_face_by_name() -> None:
    prompt = DicePrompt(0, (PIECEPACK_DIE,), "the trap (3)")
    entry = DiceEntry(prompt, "Ann", False, lambda values: values)  # type: ignore[arg-type,return-value]
    assert entry.values == [0] and entry.labels() == ("null",)
    assert "1 piecepack die" in entry.title
    entry.handle(PREV)
    assert entry.labels() == ("5",)
    entry.handle(NEXT)
    entry.handle(NEXT)
    assert entry.labels() == ("ace",)
    assert entry.plan_entry((0,)) == [NEXT] * 5 + [CONFIRM]
    assert entry.check((6,)) == "a piecepack die cannot show 6: press CONFIRM to enter the values"
    assert entry.check((0,)) == ""


class SeeingNothing(NoFeed):
    """A live camera that never reads anything (the dice are then entered on the buttons)."""

    def status(self) -> tuple[bool, str]:
        return True, "camera running"


class Table:
    """The demo table's calls, recorded (a table without ``can_throw`` draws numbered dice only)."""

    def __init__(self) -> None:
        self.rolls: list[tuple[int, ...]] = []

    def roll(self, values: tuple[int, ...], kinds: tuple[str, ...] = ()) -> None:
        self.rolls.append(tuple(values))

    def place(self, *args: object, **kwargs: object) -> None:
        pass


def test_the_demo_never_throws_a_piecepack_die_on_the_synthetic_table() -> None:
    session = Session.memory("dungeon_crawl", [("Ann", "red"), ("Ben", "black")], 4)
    screen = GameScreen(session, SeeingNothing(), (800, 480))
    table = Table()
    pilot = Autopilot(screen, InputQueue(), seed=4, table=table,
                      think=0.0, press=0.0, camera_wait=0.4)
    for _ in range(20_000):
        if pilot.button_rolls >= 3 or session.state.outcome is not None:
            break
        pilot.tick(0.2)
        for inp in pilot.queue.drain():
            screen.handle(inp)
        screen.update(0.2)
    assert pilot.button_rolls >= 3
    assert table.rolls == []
    assert numbered((1, 2, 3, 4, 5, 6)) and not numbered(PIECEPACK_DIE.faces)


class ShowingTable(Table):
    """A game's own demo table whose camera never reads what is shown on it."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[object] = []
        self.states: list[object] = []

    def present(self, state: object, action: object) -> bool:
        self.shown.append(action)
        return True

    def show(self, state: object) -> None:
        self.states.append(state)

    def can_throw(self, prompt: DicePrompt) -> bool:
        return False


def test_the_bots_choice_is_asked_once_while_the_camera_is_given_time() -> None:
    """Waiting for the camera to read a coin turned over must not ask the bot again (its
    table draws the coin's hidden suit when asked): every choice shown on the table once."""
    from companion.games.dungeon_crawl.actions import Reveal

    session = Session.memory("dungeon_crawl", [("Ann", "red"), ("Ben", "black")], 4)
    screen = GameScreen(session, SeeingNothing(), (800, 480))
    table = ShowingTable()
    pilot = Autopilot(screen, InputQueue(), seed=4, table=table, think=0.0, press=0.0,
                      camera_wait=1.0)
    for _ in range(20_000):
        if sum(isinstance(a, Reveal) for a in table.shown) >= 3 or \
                session.state.outcome is not None:
            break
        pilot.tick(0.2)
        for inp in pilot.queue.drain():
            screen.handle(inp)
        screen.update(0.2)
    reveals = [a for a in table.shown if isinstance(a, Reveal)]
    assert len(reveals) >= 3
    assert len(table.shown) == pilot.camera_choices and pilot.camera_picked == 0
    applied = [ln for ln in session.lines if " reveal " in ln]
    assert len(applied) >= 2  # the suit each bot drew once is the one entered
    assert applied == [session.rules.format_action(session.state, a)
                       for a in reveals[:len(applied)]]
    assert len(table.states) == len(session.lines)  # the table shown after every action
