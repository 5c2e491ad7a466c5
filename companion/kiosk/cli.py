"""``companion play`` (the kiosk, ``--demo``, ``--replay``) and ``companion kiosk`` (frames).

``companion/cli.py`` owns the ``play`` parser and calls :func:`run_play`; :func:`register` adds
``companion kiosk frames`` (render the demo to PNG frames without a display).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEMO_HEADLESS_FRAMES = 600
DEMO_CAMERA = (2304, 1296)
"""The synthetic camera's frame size in the demo: the default camera size at a real table (the
Camera Module 3's full-view mode), so the dice in the board's middle are as large as the dice
reader would see them there (about 26 px; 15 px at 1280x720)."""
TUNING_NOTE_SECONDS = 30.0
"""How long the game screen shows that the saved dice tuning is not used (damaged, or made with
another version of the dice reader), from the start of a game."""


def add_play_arguments(play: argparse.ArgumentParser) -> None:
    play.add_argument("--demo", action="store_true",
                      help="the kiosk fed by the synthetic table, bots pressing the buttons "
                           "(any key takes over); without a display it renders PNG frames")
    play.add_argument("--replay", "--transcript", dest="replay", metavar="FILE",
                      help="print a turn-by-turn account of a transcript instead (no kiosk)")
    play.add_argument("--script", type=Path, default=None, metavar="FILE",
                      help="with --demo: a new game from a transcript's header whose action "
                           "lines the demo players press, one by one (then the bots play on)")
    play.add_argument("--headless", action="store_true",
                      help="render PNG frames instead of opening a window")
    play.add_argument("--frames", type=int, default=None,
                      help=f"stop after this many frames (headless default "
                           f"{DEMO_HEADLESS_FRAMES})")
    play.add_argument("--out", type=Path, default=None,
                      help="folder for headless PNG frames (default out/kiosk-frames)")
    play.add_argument("--size", default=None,
                      help="screen size WxH, e.g. 800x480 (default: the config file's)")
    play.add_argument("--window", action="store_true", help="a window, not full screen")
    play.add_argument("--seed", type=int, default=None,
                      help="seed of a new game's decks (and the demo's dice and bots; demo "
                           "default 1); default: random")
    play.add_argument("--journal", type=Path, default=None,
                      help="saved game file (default: the config file's [journal] path)")
    play.add_argument("--players", default=None,
                      help="new game seats, e.g. 'Ann:fighter,Ben:wizard' (default: demo seats)")
    play.add_argument("--variant", default=None,
                      help="rule set of a new game (default: the config file's [table] game)")
    play.add_argument("--option", action="append", metavar="NAME=VALUE",
                      help="a table option of a new game (repeatable), e.g. --option "
                           "teams=Ann+Cai,Ben+Dee or --option quicker_game=true")


def _options(texts: list[str] | None, variant: str) -> Any:
    """The new game's table options from ``--option NAME=VALUE`` words (None: the defaults);
    raises ValueError naming the bad word."""
    if not texts:
        return None
    from companion.core.registry import find_game
    from companion.kiosk.presenter import presenter_of
    from companion.transcript import variant_options

    rules = find_game(variant)
    presenter = presenter_of(rules)
    return variant_options(rules, dict(presenter.parse_option(text) for text in texts))


def _size(text: str | None, default: tuple[int, int]) -> tuple[int, int]:
    if not text:
        return default
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size {text!r}: give WIDTHxHEIGHT, e.g. 1280x720 or 800x480") \
            from None
    if not (320 <= w <= 8192 and 240 <= h <= 8192):
        raise ValueError(f"--size {text!r}: width 320-8192 and height 240-8192 pixels")
    return (w, h)


def _players(text: str | None, variant: str, options: Any = None) -> list[tuple[str, str]]:
    """The new game's seats from ``--players`` words; without them the demo's seats, as many as
    the game seats with these ``options`` (its ``default_players``: one team per end zone of
    a dungeon map), else four."""
    from companion.kiosk.demo import demo_players

    if not text:
        return demo_players(_roles(variant), _seat_count(variant, options))
    out = []
    for item in text.split(","):
        name, _, role = item.strip().partition(":")
        if not name:
            raise ValueError(f"--players {text!r}: give NAME[:CLASS] separated by commas")
        out.append((name, role))
    return out


def _seat_count(variant: str, options: Any) -> int:
    """How many seats a new demo game of ``variant`` gets when nobody says: the game's own
    ``default_players`` for ``options`` (a game's options dataclass, or None for its defaults)."""
    from dataclasses import asdict, is_dataclass

    from companion.cli import default_players
    from companion.core.registry import find_game

    chosen = asdict(options) if is_dataclass(options) and not isinstance(options, type) else {}
    return default_players(find_game(variant), chosen)


def _roles(variant: str) -> list[str]:
    """The roles (e.g. classes) the game's players pick from, in the setup screen's order."""
    from companion.core.registry import find_game
    from companion.kiosk.presenter import presenter_of

    return list(presenter_of(find_game(variant)).roles())


def run_play(args: argparse.Namespace) -> int:
    """``companion play``: the kiosk (``--demo``: on the synthetic table)."""
    from companion.config import ConfigError, load_config

    try:
        config = load_config()
        size = _size(args.size, config.kiosk.resolution)
    except (ConfigError, ValueError) as exc:
        print(f"companion play: {exc}", file=sys.stderr)
        return 2
    if args.frames is not None and args.frames < 1:
        print("companion play: --frames must be 1 or more", file=sys.stderr)
        return 2
    if getattr(args, "variant", None) is None:
        args.variant = config.table.game
    if args.demo:
        return run_demo(args, size, fullscreen=config.kiosk.fullscreen and not args.window)
    return run_table(args, config, size)


def _session_for_demo(args: argparse.Namespace) -> tuple[Any, Path]:
    from companion.session import Session, choose_variant

    if getattr(args, "script", None) is not None:
        return _session_for_script(args)
    variant = choose_variant(args.variant)
    options = _options(getattr(args, "option", None), variant)
    players = _players(args.players, variant, options)
    path = args.journal or Path(tempfile.mkdtemp(prefix="companion-demo-")) / "demo.sqlite"
    return Session.open_or_new(path, variant, players, seed=args.seed, options=options), path


def script_parts(text: str) -> tuple[list[str], list[str]]:
    """A transcript split into its header lines and its action lines (comments dropped);
    ValueError when it has position lines (a scripted demo starts from a new game)."""
    from companion.transcript import FRAMING_WORDS

    header: list[str] = []
    actions: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head = line.split()[0]
        if head == "set":
            raise ValueError("a demo script starts from a new game: no 'set' lines")
        if head in FRAMING_WORDS and not actions:
            header.append(line)
        else:
            actions.append(line)
    return header, actions


def _session_for_script(args: argparse.Namespace) -> tuple[Any, Path]:
    """A new game from the script's header; the whole script is replayed first, so a bad line
    is reported before the demo starts."""
    import shlex

    from companion.session import Session
    from companion.transcript import TranscriptError, replay

    try:
        text = args.script.read_text(encoding="utf-8")
        header, actions = script_parts(text)
        replay(text)
        start = replay("\n".join(header))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read the script {args.script}: {exc}") from None
    except TranscriptError as exc:
        raise ValueError(f"{args.script}: {exc}") from None
    seats = [(w[1], w[2] if len(w) > 2 else "") for w in map(shlex.split, header)
             if w[0] == "player"]
    state = start.state
    path = args.journal or Path(tempfile.mkdtemp(prefix="companion-demo-")) / "demo.sqlite"
    session = Session.new(path, start.rules.name, seats, seed=state.seed, options=state.options)
    args.script_lines = actions
    return session, path


def run_demo(args: argparse.Namespace, size: tuple[int, int], fullscreen: bool) -> int:
    from companion.kiosk.app import KioskApp, open_display
    from companion.kiosk.demo import Autopilot, make_demo_feed
    from companion.kiosk.headless import DEFAULT_OUT, init_headless
    from companion.kiosk.screens import GameScreen
    from companion.session import SessionError
    from hardware.buttons import InputQueue, KeyboardButtons

    if args.seed is None:
        args.seed = 1
    window = None if args.headless else open_display(size, fullscreen)
    headless = window is None
    if headless:
        init_headless()
    try:
        session, path = _session_for_demo(args)
    except (SessionError, ValueError) as exc:
        print(f"companion play --demo: {exc}", file=sys.stderr)
        return 2
    names = [p.name for p in session.state.players]
    from companion.kiosk.presenter import presenter_of

    feed, table, note = make_demo_feed(names, DEMO_CAMERA, args.seed, threaded=not headless,
                                       presenter=presenter_of(session.rules),
                                       state=session.state)
    out = args.out or DEFAULT_OUT
    screen = GameScreen(session, feed, size, export_dir=path.parent)
    if note:
        screen.flash(note, (250, 160, 60), 10.0)
    queue = InputQueue()
    scripted = list(getattr(args, "script_lines", None) or ())
    # headless frames of a scripted drive: quicker hands (every press still drawn)
    quick = headless and bool(scripted)
    pilot = Autopilot(screen, queue, seed=args.seed, table=table,
                      think=(0.15 if quick else 0.3) if headless else 0.9,
                      press=(0.05 if quick else 0.07) if headless else 0.15,
                      camera_wait=1.5 if headless else 3.0,
                      show_read=0.3 if quick else 0.6)
    script_done: list[int] = []
    if scripted:
        from companion.kiosk.demo import ScriptedPlayers

        pilot.bot = ScriptedPlayers(session, scripted, pilot.bot)
        start = len(session.lines)

        def played(applied: Any, before: Any, after: Any) -> None:
            if not script_done and len(session.lines) - start >= len(scripted):
                script_done.append(app.frame)

        screen.on_applied.append(played)
    keyboard = KeyboardButtons(queue) if not headless else None
    frames = args.frames if args.frames is not None else (DEMO_HEADLESS_FRAMES if headless
                                                          else None)
    app = KioskApp(screen, size, window=window, queue=queue, keyboard=keyboard,
                   frames_dir=out if headless else None, save_every=20, pilot=pilot,
                   key_help=keyboard is not None)
    if headless:
        print(f"No display here: rendering the demo to PNG frames in {out}/ "
              f"({frames} frames, a PNG every 20)")
    else:
        print("Demo running: bots press the buttons; arrows/Enter/Escape/1-8 take over; "
              "F10 or Ctrl+Q quits")
    started = time.perf_counter()
    try:
        app.run(max_frames=frames)
    finally:
        feed.close()
        session.close()
    took = time.perf_counter() - started
    state = session.state
    print(f"{app.frame} frames in {took:.1f} s; {len(session.lines)} actions played "
          f"(turn {state.turn_number}); saved game: {path}")
    if scripted:
        done = (f"all {len(scripted)} played by frame {script_done[0]}" if script_done else
                f"{min(len(session.lines), len(scripted))} of {len(scripted)} played")
        print(f"Script: {args.script} action lines: {done}")
    def rolls(n: int) -> str:
        return f"{n} roll{'' if n == 1 else 's'}"
    wrong = pilot.camera_rolls - pilot.camera_right
    fixed = f", {wrong} corrected on the buttons" if wrong else ""
    guessed = (f"; {pilot.guess_rolls} started from the camera's guesses, right "
               f"{pilot.guess_right} of {pilot.guess_rolls}" if pilot.guess_rolls else "")
    print(f"Dice: {rolls(pilot.camera_rolls)} read by the camera ({pilot.camera_right} with every "
          f"die right{fixed}), {rolls(pilot.button_rolls)} entered on "
          f"the buttons (the camera could not read them{guessed})")
    if len(pilot.by_kind) > 1:
        parts = [f"{kind} {camera} read ({right} right), {buttons} on the buttons"
                 for kind, (camera, right, buttons) in sorted(pilot.by_kind.items())]
        print("Dice by kind: " + "; ".join(parts))
    if pilot.camera_choices:
        print(f"Table: {pilot.camera_picked} of {pilot.camera_choices} choices shown on the table "
              "were pre-selected by the camera")
    if headless:
        print(f"Frames: {len(app.saved)} PNG files in {out.resolve()}/ "
              f"(last: {app.saved[-1].name if app.saved else 'none'})")
    return 0


def _table_tuning(folder: Path) -> tuple[Any, str]:
    """The table's saved dice tuning (``vision.dice.tune``) as the reader may use it (None: none,
    damaged, or all of it made with other networks), and a line for the screen when it cannot
    all be used ("": nothing to say). What was wrong goes to stderr in full."""
    from vision.dice.tune import DAMAGED_KIOSK, STALE_KIOSK, Adaptation, TuneError, stale_message

    try:
        saved = Adaptation.load(folder)
    except TuneError as exc:
        print(f"companion play: dice tuning not used: {exc}", file=sys.stderr)
        return None, DAMAGED_KIOSK
    if saved is None:
        return None, ""
    if stale := saved.stale():
        print(f"companion play: {stale_message(stale)}", file=sys.stderr)
        return saved.in_force(), STALE_KIOSK
    return saved, ""


def run_table(args: argparse.Namespace, config: Any, size: tuple[int, int]) -> int:
    """The kiosk at a real table: config, saved game (resume or new), the setup screen for a
    new game, camera, buttons (``companion/kiosk/flow.py`` picks the screens)."""
    from companion.kiosk import theme
    from companion.kiosk.app import KioskApp, open_display
    from companion.kiosk.flow import TableFlow
    from companion.kiosk.screens import GameScreen
    from companion.kiosk.table_feed import (
        NoFeed,
        TableProcessor,
        ThreadedFeed,
        vision_board_reader,
        vision_dice_reader,
    )
    from companion.session import Session, choose_variant
    from hardware.buttons import ButtonError, InputQueue, KeyboardButtons, open_buttons

    window = None if args.headless else open_display(size, config.kiosk.fullscreen
                                                     and not args.window)
    if window is None and not args.headless:
        print("companion play: no display to show the kiosk on (set SDL_VIDEODRIVER=kmsdrm on "
              "a Pi console, run it inside a desktop session, or use --headless)",
              file=sys.stderr)
        return 2
    if window is None:
        import pygame

        from companion.kiosk.headless import init_headless

        init_headless()
        try:
            pygame.display.init()  # the dummy driver: an event queue for keys, no window
        except pygame.error:
            pass
    variant = choose_variant(args.variant)
    players = None
    try:
        options = _options(args.option, variant)
        if args.players:
            players = _players(args.players, variant)
    except ValueError as exc:
        print(f"companion play: {exc}", file=sys.stderr)
        return 2
    if options is not None and players is None:
        print("companion play: --option sets up a new game: give its --players too (or choose "
              "the options on the setup screen)", file=sys.stderr)
        return 2
    path = args.journal or config.journal.path
    queue = InputQueue()
    try:
        buttons = open_buttons(config.buttons, queue)
    except ButtonError as exc:
        print(f"companion play: {exc}; using the keyboard", file=sys.stderr)
        buttons = None
    keyboard = KeyboardButtons.from_config(config.buttons, queue)

    from companion.kiosk.dice_area import DiceArea

    tuning_notes: list[str] = []  # what the saved dice tuning's loading has to tell the table

    def make_feed(session: Session) -> Any:
        if config.camera.backend == "none":
            return NoFeed()
        from companion.kiosk.presenter import presenter_of

        names = [p.name for p in session.state.players]
        dice, _ = vision_dice_reader()
        # the game's own reader of its pieces on the table (tiles and pawns on the marker
        # sheet ...), else the standard board's
        board = presenter_of(session.rules).board_reader(session.state)
        if board is None:
            board, _ = vision_board_reader(
                {n: ("red", "blue", "green", "yellow", "purple", "orange", "white", "black")[i % 8]
                 for i, n in enumerate(names)})
        area = DiceArea.parse(config.camera.dice_area)
        processor = TableProcessor(dice, board, dice_area=area)
        if learner is not None:
            processor.keep_crops = learner.enabled
            table, note = _table_tuning(learner.folder)
            if note:
                tuning_notes.append(note)
            if table is not None:
                processor.use_table(table)
        return ThreadedFeed(lambda: _open(config), processor, config.camera.stall_timeout)

    from companion.kiosk.dice_learning import DiceLearner

    learner = (DiceLearner(config.dice.examples, config.dice.max_mb, config.dice.learn)
               if config.camera.backend != "none" else None)

    def game(session: Session, referee: Any) -> GameScreen:
        screen = GameScreen(session, make_feed(session), size, referee=referee,
                            learner=learner)
        while tuning_notes:
            screen.flash(tuning_notes.pop(0), theme.WARN, TUNING_NOTE_SECONDS)
        return screen

    seed = (lambda: int(args.seed)) if args.seed is not None else None
    flow = TableFlow(Path(path), size, game, variant=variant, seed=seed, players=players,
                     options=options)
    frames_dir = (args.out or Path("out/kiosk-frames")) if window is None else None
    app = KioskApp(flow.first(), size, window=window, queue=queue, keyboard=keyboard,
                   next_screen=flow.next_screen, frames_dir=frames_dir, save_every=30,
                   key_help=buttons is None)
    if window is None:
        print(f"No display: the kiosk is drawn to PNG frames in {frames_dir}/ "
              f"(keyboard input only through a window)")
    try:
        app.run(max_frames=args.frames)
    finally:
        if buttons is not None:
            buttons.close()
        current = app.screen
        if isinstance(current, GameScreen):
            current.feed.close()
            current.session.close()
        else:
            owned = getattr(current, "session", None)
            if isinstance(owned, Session):
                owned.close()
    return 0


def _open(config: Any) -> Any:
    from hardware.camera import CameraError
    from hardware.capture import open_camera

    source = open_camera(config.camera)
    if source is None:
        raise CameraError("no camera configured")
    return source


def replay_account(path: Path) -> int:
    """``companion play --replay FILE``: the turn-by-turn account of a transcript."""
    from companion.narrate import account
    from companion.transcript import TranscriptError, read_text, replay

    try:
        result = replay(read_text(path))
    except (OSError, ValueError, TranscriptError) as exc:
        print(f"companion play: {path}: {exc}", file=sys.stderr)
        return 2
    print(f"Replaying {path.name}: {result.rules.name}, "
          f"{', '.join(p.name for p in result.state.players)}")
    turn: list[Any] = []
    number = 1
    for event in [*result.events, None]:
        if event is None or event.kind == "turn_ended":
            lines = account(result.rules, result.state, turn)
            if lines:
                print(f"Turn {number}:")
                for line in lines:
                    print(f"  {line}")
            number += 1
            turn = []
        else:
            turn.append(event)
    return 0


def cmd_frames(args: argparse.Namespace) -> int:
    """``companion kiosk frames``: the demo rendered headless to PNG frames."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    args.demo = True
    args.headless = True
    args.window = False
    from companion.config import TableConfig

    for name, default in (("journal", None), ("players", None), ("variant", None)):
        if not hasattr(args, name):
            setattr(args, name, default)
    if args.variant is None:
        args.variant = TableConfig.game
    try:
        size = _size(args.size, (1280, 720))
    except ValueError as exc:
        print(f"companion kiosk frames: {exc}", file=sys.stderr)
        return 2
    return run_demo(args, size, fullscreen=False)


def _count(low: int) -> Any:
    from companion.cli import count_arg

    return count_arg(low)


def register(subparsers: Any) -> None:
    """``companion kiosk frames [--frames N] [--size WxH] [--out DIR]``."""
    kiosk = subparsers.add_parser("kiosk", help="kiosk tools (render demo frames headless)")
    sub = kiosk.add_subparsers(dest="kiosk_command", required=True)
    frames = sub.add_parser("frames", help="render the demo to PNG frames without a display")
    frames.add_argument("--frames", type=_count(1), default=DEMO_HEADLESS_FRAMES,
                        help=f"frames to render (default {DEMO_HEADLESS_FRAMES}; a PNG is saved "
                             "every 20th)")
    frames.add_argument("--size", default="1280x720",
                        help="screen size WIDTHxHEIGHT (default 1280x720; the Pi's display is "
                             "800x480)")
    frames.add_argument("--out", type=Path, default=None,
                        help="folder for the PNG frames (default out/kiosk-frames)")
    frames.add_argument("--seed", type=_count(0), default=1,
                        help="seed of the demo's dice and bots (default 1)")
    frames.set_defaults(func=cmd_frames)
