"""Screens: ``handle(input)``, ``update(dt)``, ``draw(surface)``; draw never changes state.

:class:`GameScreen` is the table: it owns the stack of pads of the decision at hand (menu,
pickers, dice entry), sends chosen actions to the :class:`~companion.session.Session` (which
commits them to the journal before the state changes), feeds camera readings to the dice entry
and the pawn check, and builds a plain :class:`~companion.kiosk.views.ScreenModel` in
``update`` that the views draw. :class:`MessageScreen` shows a problem (a damaged saved game)
and what the buttons do about it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from companion.core.actions import Action
from companion.core.errors import IllegalActionError
from companion.kiosk import die_readers, theme
from companion.kiosk.dice_flow import DiceEntry, DiceSeen
from companion.kiosk.dice_learning import DIE_KINDS_TO_SHOW, DiceLearner, FaceSetup, TunePad
from companion.kiosk.inputs import (
    Command,
    MapPicker,
    Menu,
    Option,
    Outcome,
    Pad,
    Pop,
    Push,
    Submit,
)
from companion.kiosk.map_view import MapView
from companion.kiosk.painter import Painter
from companion.kiosk.pawn_check import PawnCheck
from companion.kiosk.presenter import Presenter, game_title, presenter_of
from companion.kiosk.table_feed import (
    Feed,
    NoFeed,
    TableReading,
    can_learn,
    move_context,
    reads_dice,
)
from companion.kiosk.theme import Layout, layout_for
from companion.kiosk.views import (
    CameraModel,
    DecisionModel,
    DiceModel,
    HeaderModel,
    InfoPanel,
    MapModel,
    PeekModel,
    PlayerCard,
    ScreenModel,
    TableBanner,
)
from companion.kiosk.views import banners as banners_view
from companion.kiosk.views import camera as camera_view
from companion.kiosk.views import decision as decision_view
from companion.kiosk.views import grid_map as grid_map_view
from companion.kiosk.views import header as header_view
from companion.kiosk.views import log as log_view
from companion.kiosk.views import players as players_view
from companion.session import Applied, Session, SessionError
from hardware.buttons import Input, InputKind

HINT = "PREV/NEXT: choose  -  CONFIRM: OK  -  BACK: back"
NOTES_PAGE_SECONDS = 4.0  # a decision's notes that need more than one page turn this often
PICK_HINT = "PREV/NEXT: square  CONFIRM: OK  BACK: menu"
NO_REFERENCE = ("Pieces not checked: the camera needs to see the empty board once. Take the "
                "pieces off, then Referee > learn the empty board")
LEARN_ROW = ("Camera: learn the empty board (pieces off first)", "learn_board")
TUNE_ROW = ("Dice: tune to this table", "dice_tune")
FACES_ROW = ("Dice: show me each face (new dice)", "dice_faces")
# the camera bar's short words for the board reader's states (its messages are long)
BOARD_STATES = {
    "no_reference": "pieces not read: no empty-board picture",
    "moving": "board: waiting for the table to be still",
    "hands": "board: hands over it",
    "board_not_found": "board not found: is the whole board in view?",
    "bad_frame": "camera picture unusable",
}


@dataclass
class Banner:
    text: str
    colour: tuple[int, int, int]
    until: float | None  # screen clock time; None = until cleared


class GameScreen:
    def __init__(self, session: Session, feed: Feed | None = None, size: tuple[int, int] = (
            1280, 720), export_dir: Path | None = None,
                 referee: Sequence[tuple[str, str]] = (),
                 learner: DiceLearner | None = None) -> None:
        self.session = session
        self.learner = learner  # keeps confirmed rolls for tuning (None: not kept)
        self._faces_shown = False  # a "show me each face" set-up told the camera its die
        self.referee = list(referee)  # more referee rows: (label, command) -> ``request``
        self.request: str | None = None  # a referee command for the app (e.g. new_game)
        self.board_note = ""  # why pieces are not checked (board reader state)
        self.feed: Feed = feed if feed is not None else NoFeed()
        self.export_dir = export_dir
        self.clock = 0.0  # seconds of screen time (advanced by update)
        self.stack: list[Pad] = []
        self.presenter: Presenter = presenter_of(session.rules)
        lying = getattr(self.feed, "lying_dice", None)
        if callable(lying):  # the game's other dice may lie in the tray from its first roll on
            lying(self.presenter.table_dice())
        self.map_view: MapView | None = self.presenter.map_view(session.state)
        self.layout: Layout = layout_for(size, grid=self.map_view is not None,
                                         seats=len(session.state.players))
        self.peek_seat: int | None = None  # whose REACT button is held down (a private peek)
        self.pawns = PawnCheck(self.presenter)
        self.banners: list[Banner] = []
        self.reading: TableReading | None = None
        self.thumb: pygame.Surface | None = None
        self.settled: DiceSeen | None = None  # a settled roll not used yet
        self.held: DiceSeen | None = None  # a throw that also holds the next roll (both fighters)
        self.seen_choice: Action | None = None  # the choice last pre-selected from the camera
        self.table_notes: tuple[str, ...] = ()  # what the camera sees differ on the table
        self._camera_banners: list[str] = []  # lines about the decision at hand from the camera
        self.camera_live, self.camera_message = self.feed.status()
        self.model: ScreenModel | None = None
        self.key_help = ""  # the keys, under the log (the app sets it in keyboard mode)
        self.dice_latencies: list[float] = []  # settled -> on screen, seconds
        self.on_applied: list[Callable[[Applied, Any, Any], None]] = []
        self.presses = 0
        self._touched: set[int] = set()  # pads whose cursor a player moved (ids)
        self._announced: tuple[int, int] = (0, -1)  # (pad id, row) the camera last chose
        self._built_version = -1
        self._cards: tuple[PlayerCard, ...] = ()
        self._rebuild()

    # -- decisions ---------------------------------------------------------------------------
    @property
    def top(self) -> Pad:
        return self.stack[-1]

    @property
    def camera_dice(self) -> bool:
        """The camera reads the dice (live, with a working dice reader)."""
        return self.camera_live and reads_dice(self.feed)

    def dice_entry(self) -> DiceEntry | None:
        top = self.stack[-1] if self.stack else None
        return top if isinstance(top, DiceEntry) else None

    def _rebuild(self) -> None:
        """New decision: a fresh menu; the dice entry on top when a roll is due."""
        s = self.session
        self.stack = [self.presenter.menu(s.state, referee=self._referee_rows())]
        entry = self._new_dice_entry()
        self.map_view = self.presenter.map_view(s.state)
        if entry is not None and s.state.outcome is None:
            self.stack.append(entry)
        elif self.map_view is not None and self.map_view.targets and s.state.outcome is None:
            # a choice of square: the cursor on the map (BACK: the menu with every option)
            self.stack.append(MapPicker(self.stack[0].title, list(self.map_view.targets)))
        self._expect_for(entry)
        self._expect_choice()
        self.seen_choice = None
        # what the camera read for the last decision is no longer news
        self.banners = [b for b in self.banners if b.text not in self._camera_banners]
        self._camera_banners = []
        self._built_version = s.version
        self._follow_table()
        held, self.held = self.held, None
        if entry is not None and held is not None and s.state.outcome is None:
            self._offer(entry, held)  # the same throw holds this roll too

    def _follow_table(self) -> None:
        """Tell a board reader that follows the game (a game's own reader, ``follow(state)``)
        where the game is now."""
        board = getattr(getattr(self.feed, "processor", None), "board", None)
        follow = getattr(board, "follow", None)
        if callable(follow):
            follow(self.session.state)

    def _offer(self, entry: DiceEntry, seen: DiceSeen) -> None:
        """A settled camera reading for the roll at hand: the game's presenter says whose dice
        they are (``roll_read``); the entry shows them for confirming, or the refusal."""
        read = self.presenter.roll_read(self.session.state, entry.prompt, seen)
        if read.seen is None:
            entry.refuse(read.problem)
        else:
            entry.offer(read.seen)
        self.held = seen if read.keep else None

    def _answer(self, seen: DiceSeen) -> None:
        """Pieces the camera read for a decision that is not a roll (``camera_pieces``): the
        answer's menu row is pre-selected for a player to confirm, or what is wrong shown."""
        answer = self.presenter.camera_answer(self.session.state, seen)
        if answer is None:
            return
        if answer.action is not None and self._select(answer.action):
            self.flash(answer.text, theme.GOOD, 10.0)
        elif answer.text:
            self.flash(answer.text, theme.WARN, 10.0)
        else:
            return
        self._camera_banners.append(answer.text)

    def _select(self, action: Action) -> bool:
        """Put the cursor on ``action`` (the picker's square or the top menu's row); False when
        no pad on screen offers it."""
        top = self.stack[-1] if self.stack else None
        if isinstance(top, MapPicker):
            for i, t in enumerate(top.targets):
                if t.action == action:
                    top.index = i
                    return True
        root = self.stack[0] if self.stack else None
        if isinstance(root, Menu):
            at = root.find(action)
            if at is not None:
                self.stack = self.stack[:1]
                root.index = at
                return True
        return False

    def _expect_choice(self) -> None:
        """A move being chosen: the pawn check accepts the piece on any place offered, and the
        camera looks for it there."""
        state = self.session.state
        lookup = getattr(self.presenter, "piece_choices", None)
        choices = dict(lookup(state)) if callable(lookup) and state.outcome is None else {}
        self.pawns.choose(state, choices)
        self._touched.clear()
        if not choices:
            return
        seat = min(choices)
        start = self.presenter.place_of(state, seat)
        if start is None:
            return
        names = {state.players[i].name for i in choices}
        positions = {n: c for n, c in self.pawns.expected_positions(state).items()
                     if n not in names}
        self.feed.set_expected(move_context(state.players[seat].name, start,
                                            tuple(choices[seat]), positions))

    def _preselect(self) -> None:
        """Put the menu's cursor on the row that moves a piece where the camera sees it (the
        player still confirms), unless a player has moved the cursor in this pad."""
        top = self.top
        if not isinstance(top, Menu) or id(top) in self._touched or not self.pawns.seen_choice:
            return
        for i, option in enumerate(top.options):
            cell = self.pawns.seen_choice.get(option.seat) if option.seat is not None else None
            if cell is not None and option.enabled and cell in option.places:
                top.index = i
                if self._announced != (id(top), i):
                    self._announced = (id(top), i)
                    name = self.session.state.players[option.seat].name
                    self.flash(f"The camera sees {name} on {self.presenter.place_name(cell)}: "
                               "CONFIRM to choose it", theme.GOOD)
                return

    def _new_dice_entry(self) -> DiceEntry | None:
        """The dice pad for the roll the game waits for (None: no roll is due)."""
        state = self.session.state
        prompt = self.presenter.dice_prompt(state)
        if prompt is None:
            return None

        def make(values: tuple[int, ...]) -> Action:
            return self.presenter.roll_action(state, prompt, values)
        return DiceEntry(prompt, state.players[prompt.player].name, self.camera_dice, make)

    def _expect_dice(self, sides: tuple[int, ...] | None,
                     kinds: tuple[str, ...] | None = None) -> None:
        """Tell the camera which dice the game waits for (feeds that cannot: ignored); the
        kinds' names too when a registered reader reads them, alone or beside numbered dice
        (``die_readers``)."""
        expect = getattr(self.feed, "expect_dice", None)
        if callable(expect):
            if die_readers.factory_for(kinds) is not None or die_readers.mixed(kinds) is not None:
                expect(sides, kinds=kinds)
            else:
                expect(sides)

    def _referee_rows(self) -> list[tuple[str, str]]:
        rows = list(self.referee)
        if can_learn(self.feed):
            rows.insert(0, LEARN_ROW)
        if self.learner is not None and reads_dice(self.feed):
            rows[1 if rows and rows[0] == LEARN_ROW else 0:0] = [TUNE_ROW, FACES_ROW]
        return rows

    def handle(self, inp: Input) -> None:
        if inp.released:
            self.release(inp)
            return
        self.presses += 1
        if inp.held and inp.kind is InputKind.REACT:
            self.peek_seat = inp.seat  # shown while the button stays down
            return
        if inp.held and inp.kind is InputKind.BACK:
            # BACK held: the referee menu (undo, save, end) from anywhere
            self.stack = self.stack[:1]
            menu = self.stack[0]
            if isinstance(menu, Menu) and menu.options:
                opener = menu.options[-1].open
                if opener is not None:
                    self.stack.append(opener())
            return
        if inp.kind is InputKind.REACT and isinstance(self.top, MapPicker) and len(self.stack) > 1:
            self.stack.pop()  # a seat's button: to the menu, at that seat's options
        if inp.kind in (InputKind.PREV, InputKind.NEXT, InputKind.REACT):
            self._touched.add(id(self.top))  # the camera no longer moves this cursor
        outcome = self.top.handle(inp)
        self._follow(outcome)

    def release(self, inp: Input) -> None:
        """A held button let go: a peek ends."""
        if inp.kind is InputKind.REACT and inp.seat == self.peek_seat:
            self.peek_seat = None

    def _follow(self, outcome: Outcome | None) -> None:
        if outcome is None:
            return
        if isinstance(outcome, Submit):
            self.submit(outcome.action)
        elif isinstance(outcome, Push):
            self.stack.append(outcome.pad)
        elif isinstance(outcome, Pop):
            if len(self.stack) > 1:
                self.stack.pop()
        elif isinstance(outcome, Command):
            self.command(outcome.name)

    def command(self, name: str) -> None:
        s = self.session
        if name == "dice":
            entry = self._new_dice_entry()
            if entry is not None:
                self.stack.append(entry)
        elif name == "undo":
            try:
                taken = s.undo(1)
            except SessionError as exc:
                self.flash(str(exc), theme.BAD)
                return
            self.pawns.resync(s.state)
            self.held = None
            self.flash(f"Undone: {'; '.join(taken)}", theme.WARN)
            self._rebuild()
        elif name == "export":
            self.export()
        elif name == "dice_tune" and self.learner is not None:
            self.stack.append(TunePad(self.learner, self._use_table))
        elif name == "dice_faces" and self.learner is not None:
            self.stack.append(Menu("Show me each face: which die?", [
                Option(kind, command=f"dice_faces:{kind}") for kind in DIE_KINDS_TO_SHOW]))
        elif name.startswith("dice_faces:") and self.learner is not None:
            kind = name.split(":", 1)[1]
            self.stack.append(FaceSetup(kind, self.learner))
            self.settled = None
            self._faces_shown = True
            expect = getattr(self.feed, "expect_dice", None)
            if callable(expect):
                expect((int(kind[1:]),))
        elif name == "dice_faces_done":
            self._faces_shown = False
            self._rebuild()  # back to the game's decision, the camera waiting for its dice
        elif name == "dice_faces_tune" and self.learner is not None:
            self._faces_shown = False
            self._rebuild()  # the camera waits for the game's dice again ...
            self.stack.append(TunePad(self.learner, self._use_table))  # ... while the table tunes
        elif name == "learn_board":
            processor = getattr(self.feed, "processor", None)
            if processor is not None and can_learn(self.feed):
                processor.learn_empty_board()
                self.flash("The camera learns the empty board from the next picture: keep the "
                           "pieces off until it says so", theme.WARN, 8.0)
            self.stack = self.stack[:1]
        else:
            self.request = name  # for the app: new_game ...

    def _use_table(self, adaptation: Any) -> None:
        from vision.dice.tune import DAMAGED_KIOSK, STALE_KIOSK

        processor = getattr(self.feed, "processor", None)
        use = getattr(processor, "use_table", None)
        # a new tuning is saved: the start's note that the saved one was not used no longer holds
        self.banners = [b for b in self.banners if b.text not in (STALE_KIOSK, DAMAGED_KIOSK)]
        if callable(use) and use(adaptation):
            self.flash("The camera now reads the dice with this table's tuning", theme.GOOD)
        else:
            self.flash("Tuning saved; this camera's dice reader cannot use it", theme.WARN)

    def export(self) -> Path | None:
        folder = self.export_dir or (
            self.session.journal.path.parent if self.session.journal else Path.cwd())
        path = folder / time.strftime("game-%Y%m%d-%H%M%S.txt")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(self.session.export_transcript(), encoding="utf-8")
        except OSError as exc:
            self.flash(f"could not save the transcript: {exc}", theme.BAD)
            return None
        self.flash(f"Saved the game as {path}", theme.GOOD)
        return path

    def submit(self, action: Action, source: str = "buttons") -> Applied | None:
        """Apply an action through the session (journal first); report a refusal on screen."""
        s = self.session
        before = s.state
        entry = self.dice_entry()
        try:
            applied = s.apply(action)
        except IllegalActionError as exc:
            self.flash(f"Not allowed: {exc}", theme.WARN)
            return None
        except SessionError as exc:
            self.flash(f"Not saved, try again: {exc}", theme.BAD)
            return None
        except Exception as exc:  # a bug in a rule set must not take the table down
            self.flash(f"The rules failed on this action ({type(exc).__name__}: {exc}); nothing "
                       "was changed: choose another option and report the bug", theme.BAD, 15.0)
            return None
        if entry is not None and entry.source and entry.submitted == action:
            how = "read by the camera" if entry.source == "camera" else "entered on the buttons"
            s.log.append(f"(dice {'-'.join(map(str, entry.values))} {how})")
            if self.learner is not None and entry.seen is not None:
                # a confirmed roll: a labelled example of this table's dice (written off the
                # frame loop; a roll the camera saw differently in number is not kept)
                self.learner.keep(entry.seen.crops, entry.values)
        moved = self.pawns.moved(before, s.state, applied.events)
        if moved:
            seat = moved[0]
            name = s.state.players[seat].name
            start, end = self.presenter.place_of(before, seat), self.pawns.expect[seat]
            if start is not None:
                self.feed.set_expected(move_context(name, start, end,
                                                    self.pawns.expected_positions(s.state)))
        self.settled = None
        for hook in self.on_applied:
            hook(applied, before, s.state)
        self._rebuild()
        return applied

    def _see_choice(self, board: Any) -> None:
        """The camera sees a legal choice made on the table (a pawn moved to a square it may
        go to): the cursor goes there for a player to confirm (once per choice seen)."""
        choice = self.presenter.seen_choice(self.session.state, board)
        if choice is None or choice == self.seen_choice:
            return
        self.seen_choice = choice
        if self._select(choice):
            said = self.presenter.action_label(self.session.state, choice)
            self.flash(f"The camera sees it on the table ({said}): CONFIRM to accept",
                       theme.GOOD, 8.0)
            self._camera_banners.append(self.banners[-1].text)

    def flash(self, text: str, colour: tuple[int, int, int], seconds: float = 6.0) -> None:
        self.banners = [b for b in self.banners if b.text != text][-2:]
        self.banners.append(Banner(text, colour, self.clock + seconds))

    # -- time --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.clock += dt
        s = self.session
        if s.version != self._built_version:
            self._rebuild()
        live, message = self.feed.status()
        if live != self.camera_live:
            self.camera_live = live
            entry = self.dice_entry()
            if not live:
                self.flash(message, theme.WARN)
                if entry is not None:
                    entry.camera_lost()
        self.camera_message = message
        reading = self.feed.poll()
        if reading is not None:
            self._take_reading(reading)
        self._use_settled()
        if self.learner is not None and (problem := self.learner.problem()):
            self.flash(problem, theme.WARN, 15.0)
        self.banners = [b for b in self.banners if b.until is None or b.until > self.clock]
        self.model = self._model()

    def _take_reading(self, reading: Any) -> None:
        """A new camera reading: the thumbnail, what it settled, its problems and the board."""
        s = self.session
        self.reading = reading
        h, w = reading.thumbnail.shape[:2]
        raw = pygame.image.frombuffer(reading.thumbnail.tobytes(), (w, h), "RGB")
        box = self.layout.camera
        k = min(box.w / w, box.h / h)
        self.thumb = pygame.transform.scale(raw, (max(1, int(w * k)), max(1, int(h * k))))
        if reading.settled is not None:
            self.settled = reading.settled
        if reading.problem:
            self.flash(reading.problem, theme.WARN, 15.0)
            entry = self.dice_entry()
            if entry is not None and not reads_dice(self.feed):
                entry.camera_lost()
        if reading.learned is True:
            self.board_note = ""
            self.flash("The camera learned the empty board: put the pieces back where the "
                       "game has them", theme.GOOD, 10.0)
        elif reading.learned is False:
            self.flash("The camera could not find the board to learn it: point it at the "
                       "whole board and try again (Referee menu)", theme.BAD, 10.0)
        board = reading.board
        if board is None:
            return
        if board.status == "no_reference":
            self.board_note = NO_REFERENCE
        elif board.status == "ok":
            self.board_note = ""
        for result in self.pawns.observe(s.state, board):
            if result.status == "ok" and result.seat not in self.pawns.choices:
                s.log.append(f"Checked: {result.sentence(self.presenter)}")
        self._preselect()
        if board.status == "ok" and board.stable:
            self.table_notes = tuple(self.presenter.table_notes(s.state, board))
            self._see_choice(board)

    def _use_settled(self) -> None:
        """A settled reading goes to the roll at hand, the decision the camera reads pieces
        for, or the face set-up."""
        entry = self.dice_entry()
        if entry is not None and self.settled is not None:
            self._offer(entry, self.settled)
            self.settled = None
        elif self.settled is not None and self.presenter.camera_pieces(self.session.state):
            self._answer(self.settled)
            self.settled = None
        elif isinstance(self.top, FaceSetup) and self.settled is not None:
            self.top.offer(self.settled)
            self.settled = None
        if self._faces_shown and not any(isinstance(p, FaceSetup) for p in self.stack):
            # the set-up was left some other way (BACK held): the camera waits for the game's
            # dice (or pieces) again
            self._faces_shown = False
            self._expect_for(self._new_dice_entry())

    def _expect_for(self, entry: DiceEntry | None) -> None:
        """The camera looks for the roll at hand's dice, else the pieces the game reads for
        the decision at hand (``camera_pieces``), else nothing."""
        if entry is not None:
            self._expect_dice(entry.sides, entry.kinds())
        else:
            self._expect_dice(None, self.presenter.camera_pieces(self.session.state) or None)

    def presented(self) -> None:
        """Called by the app right after a frame is on screen (for the dice latency)."""
        entry = self.dice_entry()
        if entry is not None and entry.mode == "confirm" and entry.shown_at is None:
            entry.shown_at = time.perf_counter()
            if entry.seen is not None and entry.seen.settled_at:
                self.dice_latencies.append(entry.shown_at - entry.seen.settled_at)

    # -- view models -------------------------------------------------------------------------
    def _model(self) -> ScreenModel:
        s = self.session
        st = s.state
        if s.version != getattr(self, "_cards_version", None) or self._cards_dirty():
            self._cards_checks = self._check_notes()
            self._cards = self.presenter.player_cards(st, self._cards_checks)
            self._cards_version = s.version
        facts = self.presenter.header(st)
        over = self.presenter.game_over(st)
        camera_note = ("camera: " + ("on" if self.camera_live else "off"))
        header = HeaderModel(game_title(s.rules.name), facts.turn, st.players[facts.current].name,
                             self.presenter.seat_colour(st, facts.current), facts.pot,
                             facts.bank,
                             camera_note, self.camera_live, over.header if over else "",
                             self._table_banners())
        return ScreenModel(header, self._cards, self._decision(), self._camera(),
                           tuple(s.log)[-12:], self._map(), self._peek())

    def _map(self) -> MapModel | None:
        if self.map_view is None:
            return None
        top = self.top
        if isinstance(top, MapPicker):
            cursor = top.cursor
            return MapModel(self.map_view, tuple(top.targets),
                            cursor.square if cursor is not None else None)
        if isinstance(top, Menu) and self.map_view.targets and top.options:
            # the menu instead of the cursor: the row's square, when it is one, still shows
            chosen = top.options[top.index].action
            at = next((t.square for t in self.map_view.targets if t.action == chosen), None)
            return MapModel(self.map_view, self.map_view.targets, at)
        return MapModel(self.map_view)

    def _peek(self) -> PeekModel | None:
        seat = self.peek_seat
        players = self.session.state.players
        if seat is None or not 0 <= seat < len(players):
            return None
        lines = getattr(self.presenter, "private_lines", None)
        shown = tuple(lines(self.session.state, seat)) if callable(lines) else ()
        return PeekModel(players[seat].name, self.presenter.seat_colour(self.session.state, seat),
                         shown)

    def _table_banners(self) -> tuple[TableBanner, ...]:
        """The game's table-wide effects (a presenter without the hook: none)."""
        hook = getattr(self.presenter, "banners", None)
        return tuple(hook(self.session.state)) if callable(hook) else ()

    def _panel(self) -> InfoPanel | None:
        """The game's facts about the decision at hand (none while the game is over)."""
        hook = getattr(self.presenter, "panel", None)
        if not callable(hook) or self.session.state.outcome is not None:
            return None
        panel: InfoPanel | None = hook(self.session.state)
        return panel

    def _check_notes(self) -> dict[int, str]:
        return {r.seat: r.sentence(self.presenter) for r in self.pawns.problems()}

    def _cards_dirty(self) -> bool:
        return self._check_notes() != getattr(self, "_cards_checks", {})

    def _decision(self) -> DecisionModel:
        s = self.session
        st = s.state
        root = self.stack[0]
        title = root.title
        banners: list[tuple[str, tuple[int, int, int]]] = []
        over = self.presenter.game_over(st)
        if over is not None:
            title = over.title
            if over.standings:
                banners.append((over.standings, theme.GOOD))
        banners += [(p.sentence(self.presenter), theme.BAD) for p in self.pawns.problems()]
        if self.board_note:
            banners.append((self.board_note, theme.WARN))
        banners += [(note, theme.BAD) for note in self.table_notes]
        banners += [(b.text, b.colour) for b in self.banners[-2:]]
        top = self.top
        entry = self.dice_entry()
        notes = tuple(root.notes) if isinstance(root, Menu) and over is None else ()
        page = int(self.clock // NOTES_PAGE_SECONDS)
        if entry is not None:
            dice = DiceModel(entry.captions(), tuple(entry.values), entry.labels(),
                             entry.mode, entry.cursor, entry.problem, tuple(entry.guessed))
            return DecisionModel(title, entry.title, (), entry.hint(), dice, tuple(banners),
                                 len(self.stack) - 1, notes, page, self._panel())
        rows = tuple((r.text, r.selected, r.enabled) for r in top.rows())
        pad_title = "" if isinstance(top, Menu) and top.top else top.title
        hint = HINT if len(self.stack) > 1 else "PREV/NEXT: choose  -  CONFIRM: OK"
        if isinstance(top, MapPicker):
            hint = PICK_HINT
        own_hint = getattr(top, "hint", None)
        if callable(own_hint):
            hint = str(own_hint())
        return DecisionModel(title, pad_title, rows, hint, None, tuple(banners),
                             len(self.stack) - 1, notes if len(self.stack) == 1 else (), page,
                             self._panel())

    def _camera(self) -> CameraModel:
        r = self.reading
        status = self.camera_message
        if r is not None:
            bits = []
            if r.dice_state:
                bits.append(f"dice: {r.dice_state}")
            if r.board is not None:
                bits.append(
                    BOARD_STATES.get(r.board.status, r.board.message) if r.board.status != "ok"
                    else f"board: {sum(len(v) for v in r.board.occupants.values())} piece(s) seen")
            status = "  ".join(bits) or status
            if not self.camera_live:
                status = self.camera_message
        bad = {c.name for c in self.pawns.problems()}
        names = [p.name for p in self.session.state.players]
        pieces = tuple((pm.name, pm.xy, theme.seat_colour(names.index(pm.name))
                        if pm.name in names else (128, 128, 128), pm.name in bad)
                       for pm in (r.pieces if r else ()))
        warning = r is not None and r.board is not None and r.board.status != "ok"
        marks: tuple[tuple[str, tuple[int, int]], ...] = ()
        if r is not None and r.places:  # the board is seen: its squares' marks
            marks = tuple((" ".join(m), r.places[place]) for place, m in
                          sorted(self.presenter.place_marks(self.session.state).items())
                          if 0 <= place < len(r.places))
        return CameraModel(self.thumb if r is not None else None, self.camera_live, status,
                           tuple((d.box, d.value, d.status) for d in (r.dice if r else ())),
                           pieces, r.corners if r else (),
                           r.thumbnail.shape[1] if r is not None else 1, warning, marks)

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, painter: Painter) -> None:
        """Draw the last model (built by update); changes nothing."""
        m = self.model
        if m is None:
            return
        lay = self.layout
        painter.begin(surface)
        surface.fill(theme.BG)
        header_view.draw(painter, lay.header, lay, m.header)
        players_view.draw(painter, lay.players, lay, m.players)
        log_rect = lay.log
        used = banners_view.draw(painter, lay.log, lay, m.header.banners)
        if used:  # the table's effects on top of the log panel, the log under them
            log_rect = pygame.Rect(lay.log.x, lay.log.y + used + lay.pad // 2, lay.log.w,
                                   lay.log.h - used - lay.pad // 2)
        log_view.draw(painter, log_rect, lay, m.log, self.key_help)
        camera_view.draw(painter, lay.camera, lay, m.camera)
        decision_view.draw(painter, lay.decision, lay, m.decision)
        if lay.map is not None and m.map is not None:
            grid_map_view.draw(painter, lay.map, lay, m.map)
        if m.peek is not None:
            players_view.draw_peek(painter, lay.map or lay.players, lay, m.peek)


class MessageScreen:
    """A problem and what the buttons do about it (e.g. a saved game that cannot be opened)."""

    def __init__(self, title: str, message: str, choices: list[tuple[str, str]],
                 size: tuple[int, int]) -> None:
        self.title = title
        self.message = message
        self.menu = Menu(title, [_choice(label, name) for label, name in choices], top=True)
        self.layout = layout_for(size)
        self.chosen: str | None = None

    def handle(self, inp: Input) -> None:
        out = self.menu.handle(inp)
        if isinstance(out, Command):
            self.chosen = out.name

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface, painter: Painter) -> None:
        lay = self.layout
        painter.begin(surface)
        surface.fill(theme.BG)
        w, h = lay.size
        rect = pygame.Rect(w // 10, h // 10, w * 8 // 10, h * 8 // 10)
        painter.enter("message", rect)
        painter.rect(rect, theme.PANEL, radius=10)
        painter.rect(rect, theme.BAD, width=3, radius=10)
        x = rect.x + lay.pad * 3
        y = rect.y + lay.pad * 3
        painter.text(self.title, (x, y), lay.font(40), theme.BAD, max_width=rect.w - 6 * lay.pad)
        y += lay.font(40) + lay.pad
        for line in painter.wrap(self.message, lay.font(24), rect.w - 6 * lay.pad, 8):
            painter.text(line, (x, y), lay.font(24), theme.TEXT)
            y += lay.font(24) + 2
        y += lay.pad * 2
        for row in self.menu.rows():
            r = pygame.Rect(x - 4, y, rect.w - 6 * lay.pad, lay.font(28) + 8)
            if row.selected:
                painter.rect(r, theme.SELECT, radius=5)
            painter.text(row.text, (x + 4, r.centery), lay.font(28), theme.TEXT,
                         anchor="midleft")
            y += r.h + 4
        painter.text(HINT, (x, rect.bottom - lay.pad * 2 - lay.font(20)), lay.font(20),
                     theme.MUTED)


def _choice(label: str, name: str) -> Any:
    from companion.kiosk.inputs import Option

    return Option(label, command=name)
