"""Command line: ``companion dice read IMAGE... [--json]`` and ``companion dice watch``.

Numbered dice are read by this package's reader; ``--kinds block``, ``scatter`` or
``block,scatter`` read the fantasy-football dice with ``vision.special_dice`` instead (a scatter
arrow relative to the picture turned by ``--north``); both kinds of types at once
(``--kinds d6,scatter``) read a throw of both with both readers (``vision.mixed_roll``).

``register(subparsers)`` adds the ``dice`` command to the companion's argparse tree; this module
also runs on its own: ``python3 -m vision.dice.cli read photo.jpg``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.camera import IMAGE_SUFFIXES

from .reader import read_dice
from .settle import DiceSettler, SettleConfig
from .types import DiceConfig, DiceObservation

EXIT_OK = 0
EXIT_FAILED = 1  # some input could not be read
EXIT_USAGE = 2


def _region(text: str | None) -> tuple[int, int, int, int] | None:
    if not text:
        return None
    try:
        x, y, w, h = (int(v) for v in text.split(","))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--region wants X,Y,W,H in pixels, got {text!r}") from exc
    return (x, y, w, h)


SPECIAL_KINDS = ("block", "scatter")
"""Die kinds read by ``vision.special_dice``, not by the numbered dice reader."""


def _kinds_given(args: argparse.Namespace) -> tuple[str, ...]:
    return tuple(dict.fromkeys(k.strip() for k in (args.kinds or "").split(",") if k.strip()))


def _special_kinds(args: argparse.Namespace) -> tuple[str, ...] | None:
    """The block and scatter dice ``--kinds`` asks for, or None for numbered dice only (with
    what is wrong when a numbered dice option is given for block or scatter dice alone)."""
    north = getattr(args, "north", None)
    kinds = _kinds_given(args)
    special = tuple(k for k in kinds if k in SPECIAL_KINDS)
    if not special:
        if north is not None:
            raise argparse.ArgumentTypeError("--north is for scatter dice: add --kinds scatter")
        return None
    if north is not None and not -360.0 <= north <= 360.0:
        raise argparse.ArgumentTypeError(f"--north {north}: give degrees from -360 to 360")
    if len(special) != len(kinds):
        return special  # with numbered dice: their options are for those
    for name, given in (("--threshold", args.threshold), ("--tuned", getattr(args, "tuned", None)),
                        ("--d6-colour", getattr(args, "d6_colour", None)),
                        ("--number-reader", getattr(args, "number_reader", None))):
        if given is not None:
            raise argparse.ArgumentTypeError(
                f"{name} is for numbered dice: block and scatter dice are read with their own "
                "thresholds (vision.special_dice.SpecialDiceConfig)")
    return special


def _numbered_kinds(args: argparse.Namespace) -> tuple[str, ...]:
    """The numbered types ``--kinds`` names beside block or scatter dice (() for none)."""
    return tuple(k for k in _kinds_given(args) if k not in SPECIAL_KINDS)


def _special_line(d: Any) -> str:
    x, y, w, h = d.box
    if not hasattr(d, "bearing_deg"):  # a die stood in for (vision.mixed_roll.StandIn)
        return (f"{d.kind} = unsure (its reader did not find it; the numbered reader saw a die "
                f"there) at {x},{y} {w}x{h}")
    value = f"{d.value} {d.label}" if d.value is not None else f"unsure (looks like {d.guess} {d.label})"
    bearing = f", arrow at {d.bearing_deg:.0f} degrees" if d.bearing_deg is not None else ""
    return f"{d.kind} = {value} ({d.confidence:.2f}{bearing}) at {x},{y} {w}x{h}"


def _numbered_line(d: Any) -> str:
    x, y, w, h = d.box
    value = str(d.value) if d.value is not None else d.status
    if d.value is None and d.guess is not None:
        value += f" (looks like {d.guess})"
    return f"{d.colour} {d.kind} = {value} ({d.confidence:.2f}) at {x},{y} {w}x{h}"


def format_special(obs: object) -> str:
    """A block and scatter dice reading (``vision.special_dice.SpecialDiceObservation``), or one
    of both kinds of dice (``vision.mixed_roll.MixedObservation``), as text."""
    status, message = str(getattr(obs, "status", "")), str(getattr(obs, "message", ""))
    dice = tuple(getattr(obs, "dice", ()))
    if status == "error":
        return f"error: {message}"
    if not dice:
        return "no dice"
    parts = [_special_line(d) if d.kind in SPECIAL_KINDS else _numbered_line(d) for d in dice]
    return status + "\n  " + "\n  ".join(parts)


def _config(args: argparse.Namespace) -> DiceConfig:
    kinds = tuple(k for k in _kinds_given(args) if k not in SPECIAL_KINDS) or DiceConfig().kinds
    bad = [k for k in kinds if k not in DiceConfig().kinds]
    if bad:
        raise argparse.ArgumentTypeError(f"unknown die type(s) {bad}: use d4,d6,d8,d10,d12,d20, block "
                                         "or scatter")
    adaptation = None
    if getattr(args, "tuned", None):
        from .tune import Adaptation, TuneError, stale_message

        try:
            adaptation = Adaptation.load(args.tuned)
        except TuneError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from exc
        if adaptation is None:
            raise argparse.ArgumentTypeError(f"--tuned {args.tuned}: no adaptation there: run "
                                             "'companion dice tune --examples DIR' first")
        if stale := adaptation.stale():
            # the JSON on stdout stays as it is; the reader leaves those parts unused
            print(f"warning: --tuned {args.tuned}: {stale_message(stale)}", file=sys.stderr)
    choice = getattr(args, "d6_colour", None)
    colour = DiceConfig().d6_colour if choice is None else choice == "on"
    number = getattr(args, "number_reader", None)
    numbers = DiceConfig().number_reader if number is None else number == "on"
    if args.threshold is None:  # DiceConfig's thresholds (per type where it has them)
        return DiceConfig(kinds=kinds, channel_order="bgr", d6_table=adaptation, d6_colour=colour,
                          number_reader=numbers)
    return DiceConfig(read_threshold=args.threshold, kind_read_thresholds=(), kinds=kinds,
                      channel_order="bgr", d6_table=adaptation, d6_colour=colour, number_reader=numbers)


def format_observation(obs: DiceObservation) -> str:
    if obs.status == "error":
        return f"error: {obs.message}"
    if not obs.dice:
        return "no dice"
    parts = [_numbered_line(d) for d in obs.dice]
    head = f"{obs.status}" + (f" ({obs.message})" if obs.message else "")
    return head + "\n  " + "\n  ".join(parts)


def _expand(names: Sequence[str]) -> list[str]:
    """The image files named, a folder standing for the images in it (sorted by name)."""
    out: list[str] = []
    for name in names:
        path = Path(name)
        images = (sorted(str(p) for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
                  if path.is_dir() else [])
        out.extend(images or [name])
    return out


def cmd_read(args: argparse.Namespace) -> int:
    special = _special_kinds(args)
    numbered = _numbered_kinds(args) if special is not None else ()
    config = _config(args) if special is None or numbered else None
    region = _region(args.region)
    status = EXIT_OK
    for name in _expand(args.images):
        path = Path(name)
        if path.is_dir():
            obs = DiceObservation((), "error", f"{name}: a folder with no images in it "
                                  f"({', '.join(sorted(IMAGE_SUFFIXES))})")
        elif not path.is_file():
            obs = DiceObservation((), "error", f"{name}: no such file")
        else:
            data = np.fromfile(str(path), np.uint8)
            image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
            if image is None:
                obs = DiceObservation((), "error", f"{name}: not a readable image (corrupt or not an image file)")
            elif special is not None:
                from vision.special_dice import Orientation, read_special_dice

                obs = read_special_dice(image, special, Orientation(up_deg=args.north or 0.0),  # type: ignore[assignment]
                                        region)
                if numbered and obs.status != "error":
                    from vision.mixed_roll import merge

                    obs = merge(read_dice(image, region, config), obs, _kinds_given(args),  # type: ignore[assignment]
                                special, counted=False)
            else:
                obs = read_dice(image, region, config)
        if obs.status == "error":
            status = EXIT_FAILED
        if args.json:
            print(json.dumps({"image": name, **obs.to_dict()}))
        else:
            print(f"{name}: {format_observation(obs) if special is None else format_special(obs)}")
    return status


def cmd_watch(args: argparse.Namespace) -> int:
    from hardware.camera import CameraError, open_source, still_taker
    from vision.synthetic.dice import register_dice_source

    register_dice_source()
    special = _special_kinds(args)
    numbered = _numbered_kinds(args) if special is not None else ()
    settler: Any
    if special is None or numbered:
        settler = DiceSettler(_config(args), _region(args.region), SettleConfig(still_frames=args.still_frames))
    if special is not None:
        from vision.special_dice import SpecialDiceSettler

        settles = SpecialDiceSettler(special, settle_frames=args.still_frames, up_deg=args.north or 0.0)
        settles.region = _region(args.region)
        if numbered:
            from vision.mixed_roll import MixedRollReader

            settler = MixedRollReader(settler, settles, _kinds_given(args), special, counted=False)
        else:
            settler = settles
    show = format_observation if special is None else format_special
    try:
        source = open_source(args.source)
    except (CameraError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if special is None or numbered:
        settler.closer = still_taker(source)  # a camera that takes stills: doubtful rolls get a closer look
    n = 0
    rolls = 0
    try:
        while args.max_frames is None or n < args.max_frames:
            frame = source.read()
            if frame is None:
                break
            n += 1
            roll = settler.update(frame)
            if roll is None:
                continue
            rolls += 1
            if args.json:
                print(json.dumps({"frame": n, **roll.to_dict()}), flush=True)
            else:
                values = " ".join(str(d.value) if d.value is not None else "?" for d in roll.dice)
                print(f"roll {rolls} (frame {n}): {values}  [{show(roll)}]", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        source.close()
    if getattr(settler, "message", ""):
        print(f"note: {settler.message}", file=sys.stderr)
    if rolls == 0:
        print(f"no roll read: the source gave {n} frame{'s' if n != 1 else ''} and a roll is "
              f"read once the dice have lain still for {args.still_frames} frames "
              "(--still-frames)", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def _examples_dir(args: argparse.Namespace) -> Path:
    if args.examples:
        return Path(args.examples).expanduser()
    from companion.config import load_config

    return load_config().dice.examples


def cmd_tune(args: argparse.Namespace) -> int:
    """Fit the table's adaptation to its confirmed dice (``vision.dice.tune``)."""
    from .tune import TuneError, saved_state, status_lines, tune_folder

    folder = _examples_dir(args)
    if args.status:
        lines, readable = status_lines(folder)
        print("\n".join(lines))
        return EXIT_OK if readable else EXIT_FAILED
    before = saved_state(folder)
    try:
        _, report = tune_folder(folder, target=args.target)
    except TuneError as exc:
        print(f"error: {exc} (examples folder: {folder})", file=sys.stderr)
        if before:
            print(f"note: {before}", file=sys.stderr)
        return EXIT_FAILED
    from .tune import ExampleStore

    total = sum(n for _, n in ExampleStore(folder).counts().values())
    print(f"tuned on {total} confirmed dice in {folder}")
    for line in report.lines():
        print("  " + line)
    if before:
        print(f"  {before}; this tuning replaces it.")
    print(f"saved {folder / 'adaptation.npz'}; 'dice read --tuned {folder}' uses it")
    return EXIT_OK


def keep_face(store: object, img: np.ndarray, value: int, kind: str,
              region: tuple[int, int, int, int] | None = None, config: DiceConfig | None = None) -> Path:
    """Keep the one die in a BGR photo as a ``kind`` showing ``value`` in ``store``
    (``tune.ExampleStore``): its grey and its colour crop at the box the reader finds, read as a
    roll of ``kind``. Raises ``tune.TuneError`` saying what was wrong (not exactly one die seen)."""
    from .d6head import grey_crops
    from .tune import TuneError, colour_crops

    obs = read_dice(img, region, config or DiceConfig(kinds=(kind,)))
    if obs.status == "error":
        raise TuneError(f"skipped: {obs.message}")
    if len(obs.dice) != 1:
        raise TuneError(f"skipped: {len(obs.dice)} dice seen, a face photo must show exactly one die "
                        "(give --region around it)")
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    x, y, w, h = (float(v) for v in obs.dice[0].box)
    box = (x, y, w, h)
    die = obs.dice[0]
    shown = die.value if die.kind == kind and die.status == "read" else None
    path: Path = store.add_crop(grey_crops(grey, [box])[0], value, kind, shown,  # type: ignore[attr-defined]
                                colour_crops(img, [box])[0])
    return path


def cmd_learn(args: argparse.Namespace) -> int:
    """'Show me each face': photos of one die each (``--kind``), with the value it shows, kept
    as examples (its grey crop and its colour crop)."""
    from .tune import ExampleStore, TuneError, faces_of

    kind = args.kind
    try:
        faces = faces_of(kind)
    except TuneError as exc:
        print(f"error: --kind {exc}", file=sys.stderr)
        return EXIT_USAGE
    if kind not in DiceConfig().kinds:
        print(f"error: --kind {kind}: the reader knows {', '.join(DiceConfig().kinds)}", file=sys.stderr)
        return EXIT_USAGE

    values = [int(v) for v in args.values.split(",")] if args.values else []
    if len(values) not in (1, len(args.images)):
        print(f"error: {len(args.images)} photos but {len(values)} values: give one --values entry "
              "per photo (e.g. --values 1,2,3,4,5,6), or one for all", file=sys.stderr)
        return EXIT_USAGE
    store = ExampleStore(_examples_dir(args))
    cfg = DiceConfig(kinds=(kind,))
    failed = 0
    for k, name in enumerate(args.images):
        value = values[0] if len(values) == 1 else values[k]
        img = cv2.imread(name, cv2.IMREAD_COLOR)
        if img is None:
            print(f"{name}: error: cannot read the image (missing or not an image)")
            failed += 1
            continue
        try:
            path = keep_face(store, img, value, kind, _region(args.region), cfg)
        except TuneError as exc:
            print(f"{name}: {exc}")
            failed += 1
            continue
        print(f"{name}: kept as a {kind} showing {value} ({path.name})")
    seen = sorted({e.value for e in store.examples(kind)})
    missing = [v for v in range(1, faces + 1) if v not in seen]
    if missing:
        print(f"faces still to show: {', '.join(map(str, missing))}")
    print("then run 'companion dice tune'")
    return EXIT_FAILED if failed else EXIT_OK


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Add ``dice read`` and ``dice watch`` to a parent parser's subcommands."""
    dice: argparse.ArgumentParser = subparsers.add_parser(
        "dice", help="read physical dice from photos or a camera"
    )
    sub = dice.add_subparsers(dest="dice_command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--json", action="store_true", help="one JSON object per line")
        p.add_argument("--region", help="dice area X,Y,W,H in pixels (default: the whole view)")
        p.add_argument("--kinds", help="die types in use, e.g. d6 or d6,d20 (default: all numbered "
                       "types); block, scatter or block,scatter read those dice instead; "
                       "d6,scatter reads a throw of both")
        p.add_argument("--north", type=float, default=None, metavar="DEG",
                       help="with scatter dice: where the board's north (up the board) points in the "
                            "picture, degrees clockwise from the picture's up (default 0)")
        p.add_argument("--threshold", type=float, default=None,
                       help="one confidence below which a die of any type is 'unsure' "
                       f"(default {DiceConfig().read_threshold}, or DiceConfig's per-type "
                       "thresholds where it has them)")
        p.add_argument("--d6-colour", choices=["on", "off"], default=None,
                       help="the colour d6 reader's look at every d6 (DiceConfig.d6_colour; default: on)")
        p.add_argument("--number-reader", choices=["on", "off"], default=None,
                       help="the number reader's look at unsure d8/d10/d12/d20 of a roll of that type "
                       "(DiceConfig.number_reader; default: on)")

    read = sub.add_parser("read", help="read the dice in image files")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    common(read)
    read.set_defaults(func=cmd_read)
    watch = sub.add_parser("watch", help="print each settled roll from a live source")
    watch.add_argument("--source", default="device:0",
                       help="frame source: device:N, a video file, a folder, 'synthetic-dice' (default %(default)s)")
    watch.add_argument("--max-frames", type=int, default=None)
    watch.add_argument("--still-frames", type=int, default=SettleConfig().still_frames)
    common(watch)
    watch.set_defaults(func=cmd_watch)
    for p in (read, watch):
        p.add_argument("--tuned", metavar="DIR", default=None,
                       help="use the table's adaptation saved in DIR by 'dice tune'")
    tune = sub.add_parser("tune", help="adapt the reader to the table's own confirmed dice")
    tune.add_argument("--examples", default=None,
                      help="folder of confirmed dice (default: [dice] examples in the settings file)")
    tune.add_argument("--target", type=float, default=0.0,
                      help="the share of stored dice (judged without their own roll) that may "
                           "be read wrong when choosing when to read (default %(default)s)")
    tune.add_argument("--status", action="store_true",
                      help="only say what is kept and what of the saved tuning the reader uses "
                           "(a tuning made with another version of a network is not used)")
    tune.set_defaults(func=cmd_tune)
    learn = sub.add_parser("learn", help="keep photos of one die showing a known face as examples")
    learn.add_argument("--kind", default="d6", help="the die's type: d4, d6, d8, d10, d12 or d20 (default d6)")
    learn.add_argument("images", nargs="+", metavar="IMAGE")
    learn.add_argument("--values", required=True, help="the face each photo shows: one value, or one per photo")
    learn.add_argument("--examples", default=None,
                       help="folder of confirmed dice (default: [dice] examples in the settings file)")
    learn.add_argument("--region", help="dice area X,Y,W,H in pixels (default: the whole view)")
    learn.set_defaults(func=cmd_learn)
    return dice


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] if sys.argv[1:2] == ["dice"] else ["dice", *sys.argv[1:]]))
