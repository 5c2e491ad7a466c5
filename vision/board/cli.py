"""Command line: `board read`, `board watch`, `markers`, `calibrate-camera`.

`register(subparsers)` adds these to the `companion` command (wired in by `companion/cli.py`).
Every command returns an exit code and prints a plain message on bad input, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.board.calibration import (
    CalibrationError,
    CameraModel,
    CharucoSpec,
    calibrate_charuco,
    load_model,
    model_path,
    save_model,
)
from vision.board.geometry import IN_JAIL
from vision.board.pawns import DEFAULT_PLAYERS, STICKER_COLOURS, PawnConfig
from vision.board.pipeline import BoardObservation, BoardPipeline, PipelineConfig


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    board = subparsers.add_parser("board", help="read the board from camera images")
    bsub = board.add_subparsers(dest="board_command", required=True)
    read = bsub.add_parser("read", help="read one or more images of the board")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON object per image")
    read.add_argument("--reference", metavar="EMPTY",
                      help="picture of the empty board from the same camera (needed to read "
                           "pieces: without it printed coloured circles look like rings)")
    read.add_argument("--guess-pieces", action="store_true",
                      help="without --reference, read pieces anyway (weak: confidence <= 0.3)")
    _common(read)
    read.set_defaults(func=cmd_read, command_kind="read")
    watch = bsub.add_parser("watch", help="read the board continuously from a frame source")
    watch.add_argument("--source", default="device:0",
                       help="folder, video, device:N, synthetic or picamera2 (default device:0)")
    watch.add_argument("--frames", type=int, default=0, help="stop after N frames (0 = never)")
    watch.add_argument("--json", action="store_true")
    _common(watch)
    watch.set_defaults(func=cmd_watch, command_kind="watch")
    markers = subparsers.add_parser("markers", help="write the printable marker sheet")
    markers.add_argument("--out", required=True, type=Path, help="FILE (.png and .pdf written)")
    markers.set_defaults(func=cmd_markers)
    cal = subparsers.add_parser("calibrate-camera", help="ChArUco lens calibration")
    cal.add_argument("--source", help="frames showing the ChArUco board (folder, video, ...)")
    cal.add_argument("--camera-id", default="default")
    cal.add_argument("--frames", type=int, default=40, help="frames to use at most")
    cal.add_argument("--board-out", type=Path,
                     help="write the ChArUco board image to print, then stop")
    cal.set_defaults(func=cmd_calibrate)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--camera-id", default="default", help="use this camera's stored calibration")
    p.add_argument("--players", default="",
                   help="owner=colour,... (default " +
                   ",".join(f"{o}={c}" for o, c in DEFAULT_PLAYERS.items()) + ")")
    p.add_argument("--outline-rotation", type=int, default=0,
                   help="without markers: quarter turns from the image's top-left to the "
                        "board's Free Parking corner")


def _config(args: argparse.Namespace) -> PipelineConfig:
    players = dict(DEFAULT_PLAYERS)
    if args.players:
        players = {}
        for part in args.players.split(","):
            owner, _, colour = part.partition("=")
            if not owner or colour not in STICKER_COLOURS:
                raise ValueError(f"bad --players entry {part!r}: use NAME=COLOUR with a colour "
                                 f"from {', '.join(STICKER_COLOURS)}")
            players[owner.strip()] = colour
    camera: CameraModel | None = load_model(args.camera_id)
    return PipelineConfig(pawns=PawnConfig(players=players), camera=camera,
                          outline_rotation=args.outline_rotation,
                          auto_reference=args.command_kind == "watch",
                          guess_without_reference=bool(getattr(args, "guess_pieces", False)))


def _describe(name: str, obs: BoardObservation) -> str:
    lines = [f"{name}: {obs.status} - {obs.message}"]
    if obs.corners is not None:
        pts = ", ".join(f"({x:.1f}, {y:.1f})" for x, y in obs.corners)
        lines.append(f"  found by {obs.method}, corners {pts}, quality {obs.quality:.2f}")
    for cell, readings in sorted(obs.occupants.items()):
        who = ", ".join(f"{r.owner or 'unknown'} ({r.colour}, {r.confidence:.2f})"
                        for r in readings)
        label = "In Jail" if cell == IN_JAIL else f"square {cell}"
        lines.append(f"  {label}: {who}")
    for u in obs.unexpected:
        lines.append(f"  unexpected: {u.owner} on {u.square} ({u.reason})")
    return "\n".join(lines)


def _read_image(path: Path) -> np.ndarray | None:
    """An image file as BGR, or None; quietly (OpenCV's loader would print its own warning)."""
    if not path.is_file():
        return None
    data = np.fromfile(str(path), np.uint8)
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None


def cmd_read(args: argparse.Namespace) -> int:
    try:
        config = _config(args)
    except (ValueError, CalibrationError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    reference = None
    if args.reference:
        reference = _read_image(Path(args.reference))
        if reference is None:
            print(f"error: cannot read the empty-board picture {args.reference} as an image",
                  file=sys.stderr)
            return 2
    worst = 0
    for name in args.images:
        img = _read_image(Path(name))
        if img is None:
            msg = (f"{name}: no such file" if not Path(name).exists() else
                   f"{name}: a folder, not an image" if Path(name).is_dir() else
                   f"{name}: not a readable image (corrupt or not an image file)")
            if args.json:
                print(json.dumps({"image": name, "status": "bad_frame", "message": msg}))
            else:
                print(msg)
            worst = max(worst, 1)
            continue
        pipe = BoardPipeline(config)  # each image on its own: register and read once
        if reference is not None and not pipe.set_reference(reference):
            msg = (f"{args.reference}: the board was not found in the empty-board picture "
                   "(is it from the same camera, with the markers visible?)")
            print(json.dumps({"image": args.reference, "status": "board_not_found",
                              "message": msg}) if args.json else msg)
            return 1
        obs = pipe.read_once(img)
        if obs.status not in ("ok", "no_reference"):
            worst = max(worst, 1)
        if args.json:
            print(json.dumps({"image": name, **obs.to_json()}))
        else:
            print(_describe(name, obs))
    return worst


def cmd_watch(args: argparse.Namespace) -> int:
    from hardware.camera import CameraError, open_source

    try:
        import vision.synthetic.table  # noqa: F401  (registers the 'synthetic' source)

        config = _config(args)
        source = open_source(args.source)
    except (ValueError, CalibrationError, CameraError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    pipe = BoardPipeline(config)
    last = None
    n = 0
    try:
        while args.frames <= 0 or n < args.frames:
            frame = source.read()
            if frame is None:
                break
            n += 1
            obs = pipe.process(frame)
            key = (obs.status, tuple(sorted((c, tuple(r.owner for r in v))
                                            for c, v in obs.occupants.items())), obs.stable)
            if key != last:
                last = key
                print(json.dumps({"frame": n, **obs.to_json()}) if args.json
                      else _describe(f"frame {n}", obs), flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        source.close()
    return 0


def cmd_markers(args: argparse.Namespace) -> int:
    from vision.board.sheet import write_sheet

    try:
        png, pdf = write_sheet(args.out)
    except OSError as exc:
        print(f"error: cannot write the marker sheet: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {png} and {pdf}: print at 100% scale (A4), check the 100 mm bar, and follow "
          "the placement notes on the sheet")
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    spec = CharucoSpec()
    if args.board_out is not None:
        img = spec.image()
        if not cv2.imwrite(str(args.board_out), img):
            print(f"error: cannot write {args.board_out}", file=sys.stderr)
            return 2
        print(f"wrote {args.board_out}: print it flat at 100% (squares {spec.square_mm:.0f} mm), "
              "then run calibrate-camera --source with 15+ views at different tilts")
        return 0
    if not args.source:
        print("error: give --source (frames showing the printed ChArUco board) or --board-out",
              file=sys.stderr)
        return 2
    from hardware.camera import CameraError, open_source

    try:
        source = open_source(args.source)
    except CameraError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    frames: list[np.ndarray] = []
    try:
        while len(frames) < args.frames:
            f = source.read()
            if f is None:
                break
            frames.append(f)
    finally:
        source.close()
    try:
        result = calibrate_charuco(frames, camera_id=args.camera_id, spec=spec)
    except CalibrationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    path = save_model(result.model, model_path(args.camera_id))
    m = result.model
    print(f"calibrated camera {m.camera_id!r} from {result.frames_used} views: "
          f"rms {m.rms_px:.3f} px, f={m.fx:.1f}, dist={[round(d, 4) for d in m.dist]}; "
          f"saved to {path}")
    for note in result.frames_rejected[:10]:
        print(f"  skipped {note}")
    return 0
