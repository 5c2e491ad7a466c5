"""Kiosk speed: frame render time at 1280x720, and time from dice settled to values on screen.

1. Render: a mid-game Dungeonopoly table (4 characters with properties, houses, hotels,
   mortgages, EP, an enchantment; a camera thumbnail) drawn ``--frames`` times off-screen at
   1280x720 (and 800x480); the figure is ``screen.draw`` (the whole frame), with ``update``
   (building the view model, converting a new camera thumbnail) timed separately.
2. Dice latency: the camera thread runs the synthetic table renderer and the board pipeline on
   every frame, with a dice reader that reports a settled roll a few frames after each throw
   (the real dice reader does not read the synthetic table's dice yet); the UI loop runs at 30
   fps. Latency = from the moment the settler reported the roll (in the camera thread) to the
   end of the first frame that shows the values for confirmation.

3. Map render: a Dungeon Crawl game played by four bots to its middle (a 24-tile dungeon, the
   map with coins, pawns and the mover's targets under the cursor) drawn the same way.

Run: ``python3 benchmarks/kiosk.py`` (last line: one JSON object); ``--map-only`` runs part 3.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from companion.kiosk.painter import Painter  # noqa: E402
from companion.kiosk.screens import GameScreen  # noqa: E402
from companion.kiosk.table_feed import TableReading  # noqa: E402
from companion.session import Session, choose_variant  # noqa: E402
from companion.transcript import replay  # noqa: E402
from hardware.buttons import CONFIRM  # noqa: E402


def midgame() -> Session:
    variant = choose_variant("dungeonopoly")
    roles = ["fighter", "wizard", "cleric", "rogue"] if variant == "dungeonopoly" else [""] * 4
    if variant == "dungeonopoly":
        try:
            from companion.games.monopoly.dungeonopoly.abilities import class_names

            have = class_names()
            roles = [r if r in have else have[0] for r in roles]
        except ImportError:  # the layer is being edited: plain Monopoly
            variant, roles = "monopoly", [""] * 4
    lines = [f"variant {variant}", "seed 4"]
    lines += [f"player {n} {r}".rstrip() for n, r in zip(["Ann", "Ben", "Cai", "Dee"], roles,
                                                         strict=True)]
    lines += ['set square "Boardwalk" owner=Ann houses=2', 'set square "Park Place" owner=Ann '
              'houses=2', 'set square "Reading Railroad" owner=Ann mortgaged=true',
              'set square "Baltic Avenue" owner=Ben', 'set square "Kentucky Avenue" owner=Cai '
              'hotel=true', 'set square "Indiana Avenue" owner=Cai hotel=true',
              'set square "Illinois Avenue" owner=Cai hotel=true', "set pot 350"]
    if variant == "dungeonopoly":
        lines += ["set player Ann ep=17", "set player Cai ep=31 enchantments=shield_of_faith"]
    r = replay("\n".join(lines) + "\n")
    s = Session(r.rules, r.state, lines, None)
    s.log.extend(f"log line {i}: Bob paid Ann $2,000 rent for Boardwalk" for i in range(12))
    return s


class StaticFeed:
    def __init__(self) -> None:
        self.n = 0
        self.img = (np.random.default_rng(0).random((270, 480, 3)) * 255).astype(np.uint8)

    def poll(self) -> TableReading | None:
        self.n += 1
        return TableReading(self.n, self.img) if self.n % 3 == 1 else None

    def status(self) -> tuple[bool, str]:
        return True, "camera running"

    def set_expected(self, expected: Any) -> None:
        pass

    def expect_dice(self, sides: Any, kinds: Any = None) -> None:
        pass

    def reset_dice(self) -> None:
        pass

    def close(self) -> None:
        pass


def crawl_midgame() -> Session:
    """Four heuristic bots' Dungeon Crawl game (seed 3) after 88 actions: Ben to move."""
    from companion.games.dungeon_crawl.bots import play_bot_game

    seats = [("Ann", "red"), ("Ben", "black"), ("Cai", "yellow"), ("Dee", "blue")]
    game = play_bot_game(3, [n for n, _ in seats], ("heuristic",) * 4)
    session = Session.memory("dungeon_crawl", seats, 3)
    for action in game.actions[:88]:
        session.apply(action)
    return session


def bench_render(size: tuple[int, int], frames: int,
                 session: Session | None = None) -> dict[str, float]:
    screen = GameScreen(session or midgame(), StaticFeed(), size)
    surface = pygame.Surface(size)
    painter = Painter()
    draw, update = [], []
    for _ in range(20):  # warm the text cache
        screen.update(1 / 30)
        screen.draw(surface, painter)
    for _ in range(frames):
        t0 = time.perf_counter()
        screen.update(1 / 30)
        t1 = time.perf_counter()
        screen.draw(surface, painter)
        t2 = time.perf_counter()
        update.append(t1 - t0)
        draw.append(t2 - t1)
    return {"draw_ms_median": 1000 * statistics.median(draw),
            "draw_ms_p95": 1000 * sorted(draw)[int(0.95 * len(draw))],
            "update_ms_median": 1000 * statistics.median(update),
            "texts_per_frame": len(painter.drawn)}


def bench_setup(size: tuple[int, int], frames: int) -> float:
    """Median draw time (ms) of the new-game setup screen."""
    from companion.kiosk.setup import SetupScreen

    def start(setup: Any) -> Session:
        raise RuntimeError("not started in the benchmark")

    screen = SetupScreen(size, start)
    surface = pygame.Surface(size)
    painter = Painter()
    times = []
    for i in range(frames + 20):
        screen.update(1 / 30)
        t0 = time.perf_counter()
        screen.draw(surface, painter)
        if i >= 20:
            times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


@dataclass
class _Die:
    box: tuple[int, int, int, int]
    value: int
    status: str = "read"


@dataclass
class _Obs:
    dice: tuple[_Die, ...]
    status: str = "ok"
    message: str = ""


class ScriptedSettler:
    """Reports a settled roll ``after`` frames after each throw (DiceReader protocol)."""

    def __init__(self, after: int = 6) -> None:
        self.after = after
        self.count = -1
        self.values: tuple[int, ...] = ()
        self.state = "waiting"
        self.last: _Obs | None = None

    def throw(self, values: tuple[int, ...]) -> None:
        self.values = values
        self.count = self.after

    def update(self, frame: Any) -> _Obs | None:
        if self.count < 0:
            self.state = "settled"
            return None
        self.count -= 1
        self.state = "settling"
        if self.count == 0:
            self.count = -1
            self.state = "settled"
            self.last = _Obs(tuple(_Die((300 + 40 * i, 300, 30, 30), v)
                                   for i, v in enumerate(self.values)))
            return self.last
        return None

    def reset(self) -> None:
        self.count = -1


def bench_dice(rolls: int) -> dict[str, float]:
    from companion.kiosk.app import KioskApp
    from companion.kiosk.cli import DEMO_CAMERA
    from companion.kiosk.demo import DemoTable
    from companion.kiosk.table_feed import TableProcessor, ThreadedFeed, vision_board_reader

    session = Session.memory("monopoly", [("Ann", ""), ("Ben", "")], seed=3)
    table = DemoTable(["Ann", "Ben"], DEMO_CAMERA, 1)
    settler = ScriptedSettler()
    board, _ = vision_board_reader(table.players)
    feed = ThreadedFeed(table, TableProcessor(settler, board), stall_timeout=5.0)
    screen = GameScreen(session, feed, (1280, 720))
    app = KioskApp(screen, (1280, 720))
    rng = np.random.default_rng(2)
    done = 0
    thrown_for = -1
    confirm_at: float | None = None
    deadline = time.monotonic() + 120
    try:
        while done < rolls and time.monotonic() < deadline:
            frame_start = time.perf_counter()
            entry = screen.dice_entry()
            if entry is not None and thrown_for != len(session.lines):
                thrown_for = len(session.lines)
                settler.throw(tuple(int(v) for v in rng.integers(1, 7, 2)))
            if entry is not None and entry.mode == "confirm" and entry.shown_at is not None:
                confirm_at = confirm_at or time.perf_counter() + 0.2
                if time.perf_counter() >= confirm_at:
                    app.queue.put(CONFIRM)
                    confirm_at = None
                    done += 1
            elif entry is None and session.state.outcome is None:
                acts = session.rules.legal_actions(session.state,
                                                   session.rules.deciders(session.state))
                screen.submit(acts[-1] if len(acts) > 1 else acts[0])
            app.step(1 / 30)
            time.sleep(max(0.0, 1 / 30 - (time.perf_counter() - frame_start)))
    finally:
        feed.close()
    lat = screen.dice_latencies
    if not lat:
        return {"dice_to_screen_ms_median": float("nan"), "rolls": 0}
    return {"dice_to_screen_ms_median": 1000 * statistics.median(lat),
            "dice_to_screen_ms_max": 1000 * max(lat), "rolls": len(lat)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--rolls", type=int, default=15)
    ap.add_argument("--map-only", action="store_true", help="only the map render (part 3)")
    args = ap.parse_args()
    pygame.font.init()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, pygame-ce {pygame.version.ver} (SDL "
          f"{'.'.join(map(str, pygame.version.SDL))})")
    maps = {size: bench_render(size, args.frames, crawl_midgame())
            for size in ((1280, 720), (800, 480))}
    for (w, h), figures in maps.items():
        print(f"map render {w}x{h}: draw median {figures['draw_ms_median']:.2f} ms, p95 "
              f"{figures['draw_ms_p95']:.2f} ms, update median "
              f"{figures['update_ms_median']:.2f} ms, {figures['texts_per_frame']} texts")
    map_result = {f"map_render_{w}x{h}_{k}": round(v, 3)
                  for (w, h), figures in maps.items() for k, v in figures.items()}
    if args.map_only:
        print(json.dumps({**map_result, "targets": {"render_ms": 8}}))
        return 0
    big = bench_render((1280, 720), args.frames)
    print(f"render 1280x720: draw median {big['draw_ms_median']:.2f} ms, p95 "
          f"{big['draw_ms_p95']:.2f} ms, update median {big['update_ms_median']:.2f} ms, "
          f"{big['texts_per_frame']} texts per frame")
    small = bench_render((800, 480), args.frames)
    print(f"render 800x480: draw median {small['draw_ms_median']:.2f} ms")
    setup_big = bench_setup((1280, 720), args.frames)
    setup_small = bench_setup((800, 480), args.frames)
    print(f"setup screen: draw median {setup_big:.2f} ms at 1280x720, {setup_small:.2f} ms at "
          "800x480")
    dice = bench_dice(args.rolls)
    print(f"dice settled -> values on screen: median {dice['dice_to_screen_ms_median']:.1f} ms "
          f"over {dice['rolls']} rolls (max {dice.get('dice_to_screen_ms_max', 0):.1f} ms)")
    result = {
        "render_1280x720_draw_ms_median": round(big["draw_ms_median"], 3),
        "render_1280x720_draw_ms_p95": round(big["draw_ms_p95"], 3),
        "render_1280x720_update_ms_median": round(big["update_ms_median"], 3),
        "render_800x480_draw_ms_median": round(small["draw_ms_median"], 3),
        "setup_1280x720_draw_ms_median": round(setup_big, 3),
        "setup_800x480_draw_ms_median": round(setup_small, 3),
        "dice_to_screen_ms_median": round(dice["dice_to_screen_ms_median"], 1),
        "dice_to_screen_ms_max": round(dice.get("dice_to_screen_ms_max", float("nan")), 1),
        "dice_rolls": dice["rolls"],
        **map_result,
        "targets": {"render_ms": 8, "dice_to_screen_ms": 250},
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
