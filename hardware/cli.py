"""Bring-up checks for a new Pi: ``companion hw buttons`` and ``companion hw camera``.

``register(subparsers)`` adds them to the ``companion`` command (wired in by ``companion/cli.py``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any, TextIO

from companion.config import Config, ConfigError, load_config
from hardware.buttons import ButtonError, GpioButtons, InputQueue
from hardware.camera import CameraError, still_taker
from hardware.capture import CaptureState, CaptureWorker, open_camera


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("hw", help="check the buttons and the camera on this machine")
    parser.add_argument("--config", help="settings file (default: $COMPANION_CONFIG or /etc/...)")
    sub = parser.add_subparsers(dest="hw_command", required=True)
    buttons = sub.add_parser("buttons", help="print every button press until Ctrl-C")
    buttons.add_argument("--seconds", type=float, default=0.0, help="stop after this long")
    buttons.set_defaults(func=_cmd_buttons)
    camera = sub.add_parser("camera", help="read the configured camera and report frame rate")
    camera.add_argument("--seconds", type=float, default=5.0)
    camera.add_argument("--save-still", default=None, metavar="PATH",
                        help="save the still taken for the dice reader's closer look here")
    camera.set_defaults(func=_cmd_camera)


def _load(args: argparse.Namespace) -> Config | None:
    try:
        return load_config(args.config)
    except ConfigError as exc:
        print(f"error: {exc}")
        return None


def _cmd_buttons(args: argparse.Namespace) -> int:
    config = _load(args)
    return 1 if config is None else watch_buttons(config, args.seconds)


def _cmd_camera(args: argparse.Namespace) -> int:
    config = _load(args)
    return 1 if config is None else check_camera(config, args.seconds, save_still=args.save_still)


def watch_buttons(
    config: Config,
    seconds: float = 0.0,
    pin_factory: Any = None,
    out: TextIO | None = None,
    ready: Callable[[], None] | None = None,
) -> int:
    """Print inputs from the GPIO buttons as they arrive (``seconds`` <= 0: until Ctrl-C)."""
    write = (lambda text: print(text, file=out, flush=True)) if out else print
    queue = InputQueue()
    try:
        pad = GpioButtons(config.buttons, pin_factory=pin_factory, queue=queue)
    except ButtonError as exc:
        write(f"error: {exc}")
        return 1
    seats = {f"seat {i + 1}": p for i, p in enumerate(config.buttons.react_pins)}
    pins = {**config.buttons.pins, **seats}
    write("press buttons (" + ", ".join(f"{k}={v}" for k, v in pins.items()) + "); Ctrl-C ends")
    if ready is not None:
        ready()
    deadline = time.monotonic() + seconds if seconds > 0 else None
    try:
        while deadline is None or time.monotonic() < deadline:
            item = queue.get(timeout=0.1)
            if item is not None:
                write(str(item))
    except KeyboardInterrupt:
        pass
    finally:
        pad.close()
    return 0


def check_camera(config: Config, seconds: float = 5.0, out: TextIO | None = None,
                 save_still: str | None = None) -> int:
    """Open the configured camera, take one still for the dice reader's closer look (when the
    camera takes stills), then read for ``seconds`` and print frames, size and status."""
    write = (lambda text: print(text, file=out, flush=True)) if out else print
    if config.camera.backend == "none":
        write('[camera] backend = "none": no camera configured, dice are entered with buttons')
        return 0
    write(f"opening camera {config.camera.backend!r} ...")
    try:
        source = open_camera(config.camera)
    except CameraError as exc:
        write(f"error: {exc}")
        return 1
    if source is None:
        return 0
    still_ok = check_still(source, write, save_still)
    worker: CaptureWorker[tuple[int, ...]] = CaptureWorker(
        source, lambda frame: tuple(frame.shape), stall_timeout=config.camera.stall_timeout
    ).start()
    start = time.monotonic()
    while time.monotonic() - start < seconds and worker.status().live:
        time.sleep(0.05)
    status = worker.status()
    elapsed = time.monotonic() - start
    worker.stop()
    latest = worker.latest()
    shape = "x".join(map(str, latest.value)) if latest else "none"
    write(
        f"{status.frames} frames in {elapsed:.1f} s ({status.frames / max(elapsed, 1e-9):.1f} "
        f"fps), frame shape {shape}, status {status.state.value}: {status.message}"
    )
    ok = status.frames > 0 and status.state is not CaptureState.FAILED and still_ok
    return 0 if ok else 1


def check_still(source: object, write: Callable[[str], None], save: str | None = None) -> bool:
    """Take one still (``hardware.camera.still_taker``), print its size, how long it took and
    how frame pixels map into it; False only when the camera failed to take it. The frames read
    afterwards show that the video went on after the mode switch."""
    take = still_taker(source)
    if take is None:
        write("still: this camera takes none (the dice reader reads the frames alone)")
        return True
    start = time.monotonic()
    try:
        still = take()
    except CameraError as exc:
        write(f"still: failed ({exc}); set [camera] closer_look = false to read the frames alone")
        return False
    if still is None:
        write("still: none (the sensor has no more pixels than the frames, or closer_look is off)")
        return True
    (sx, sy), (ox, oy) = still.scale, still.offset
    height, width = still.image.shape[:2]
    write(f"still {width}x{height} in {time.monotonic() - start:.2f} s: frame pixel (x, y) is "
          f"still pixel ({sx:.3f} x + {ox:.1f}, {sy:.3f} y + {oy:.1f})")
    if save:
        import cv2

        if not cv2.imwrite(save, still.image):
            write(f"still: could not be saved to {save}")
    return True
