#!/usr/bin/env python3
"""Block and scatter dice thrown on the synthetic Monopoly table, read as the kiosk reads them.

The demo's table (``vision.synthetic.table``: the standard board under the Camera Module 3
Wide lens, straight above the board's middle) at the kiosk's camera size, 2304x1296, with 1-3
dice of one kind thrown in the board's middle (``SyntheticTable.render(special=...)``), read by
``vision.special_dice.read_special_dice`` in the dice area (``board_centre``) with the board's
registration (the frame's true homography, as the registered board gives it). Seeds are the
frame numbers from ``--seed``; each frame's faces are drawn from the same seed. A real block
die is about 16 mm across (``SPECIAL_DIE_MM``), about 32 px in this frame; ``--die-mm`` draws
them larger or smaller.

Printed per kind: dice, read right, unsure (found but not read, or not found), confidently
wrong, and the median reader time a frame; and per roll, what the kiosk's own dice pad makes of
it (``benchmarks/dice_at_table.kiosk_outcome``): **one press** (every die read and right),
**checked** (the pad's starting values, an unsure die's guess included, are all right),
**corrected** (a person changes a value) and **wrong as sure** (accepted with a wrong value).
The last line is one JSON object.

    nice -n 10 env OMP_NUM_THREADS=1 python3 benchmarks/special_dice_on_table.py --frames 200
    ... --die-mm 19   # dice 19 mm across (about 38 px)
    ... --enlarge-to-px 0   # the dice area read as it is, not enlarged
    ... --set area_find_threshold=0.04   # another SpecialDiceConfig number
    ... --frames 1 --seed 8000003 --picture docs/images/special-dice-at-the-table.png
    ... --kinds block --upright-reader /tmp/up.onnx   # block dice only, read by a trial upright reader
    ... --kinds d6+scatter   # a D6 and a scatter die thrown together (a Dungeonbowl living ball)
    ... --search off   # a roll short of dice not searched for the others (reader.find_missing)
    ... --kinds 2d6+old-block   # 2d6 thrown beside 1-2 block dice of an earlier roll
    ... --kinds block+old-scatter   # 1-3 block dice thrown beside a scatter die of an earlier roll

A kind ``2d6+old-block`` (or ``2d6+old-scatter``) throws 2d6 beside one or two dice of that kind
left from an earlier roll and gives the pad's outcomes of the d6 reader's reading as it is and
with the old dice left out as the kiosk's table feed leaves them out
(``vision.mixed_roll.leave_out``). A kind ``block+old-scatter`` (or ``scatter+old-block``) throws
1-3 dice of the first kind beside one die of the other left from an earlier roll, read for the
roll's kind only and with both kinds read and the old die left out, as the kiosk's settler does
once the table has rolled the other kind (``SpecialDiceSettler.lying``).

A mixed kind (``d6+scatter``, ``d6+block``) throws one d6 and one die of the other kind at once
and reads the frame as the kiosk reads such a roll (``vision.mixed_roll.merge``: the d6
reader told to read d6 only, the special reader, a d6 found on a special die left out). Printed
for it: each die kind's right / unsure / wrong and the rolls' outcomes at the pad (a roll read
whole and right is one press).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from dice_at_table import OUTCOMES, kiosk_outcome, shares  # noqa: E402

import vision.synthetic.table as synthetic_table  # noqa: E402
from companion.core.dice import BLOCK, D6, SCATTER  # noqa: E402
from companion.kiosk.dice_area import BOARD_CENTRE, DiceArea  # noqa: E402
from companion.kiosk.dice_flow import DiceSeen  # noqa: E402
from vision.special_dice import Orientation, SpecialDiceConfig, read_special_dice  # noqa: E402
from vision.special_dice.reader import find_missing  # noqa: E402
from vision.synthetic.special_dice import block_value  # noqa: E402

SIZE = (2304, 1296)
KINDS = {"block": BLOCK, "scatter": SCATTER}


def _drawn(image: np.ndarray, region: tuple[int, int, int, int], obs: object) -> np.ndarray:
    """The dice area, 480 px square, with each reading's box and face drawn."""
    x, y, w, h = region
    part = image[y:y + h, x:x + w].copy()
    for d in getattr(obs, "dice", ()):
        bx, by, bw, bh = d.box
        colour = (60, 200, 60) if d.status == "read" else (40, 150, 250)
        cv2.rectangle(part, (bx - x, by - y), (bx - x + bw, by - y + bh), colour, 3)
        text = d.label if d.status == "read" else f"unsure ({d.label}?)"
        cv2.putText(part, text, (bx - x, max(20, by - y - 8)), cv2.FONT_HERSHEY_SIMPLEX, 0.9, colour, 2,
                    cv2.LINE_AA)
    return np.asarray(cv2.resize(part, (480, 480), interpolation=cv2.INTER_AREA))


def _say_outcomes(name: str, outcomes: list[str]) -> dict[str, object]:
    found = shares(outcomes)
    print(f"{name}: {len(outcomes)} rolls: " + ", ".join(
        f"{o} {outcomes.count(o)} ({100 * found[o]:.1f}%)" for o in OUTCOMES))
    return found


def mixed(table: synthetic_table.SyntheticTable, area: DiceArea, kind: str, args: argparse.Namespace,
          config: SpecialDiceConfig) -> dict[str, object]:
    """One d6 and one ``kind`` die a frame, read as the kiosk reads a mixed roll."""
    from vision.dice import DiceConfig, read_dice
    from vision.mixed_roll import merge

    numbered_config = replace(DiceConfig(), kinds=("d6",))
    tally = {name: [0, 0, 0] for name in ("d6", kind)}  # right, unsure, wrong
    rolls: list[str] = []
    times: list[float] = []
    for i in range(args.frames):
        seed = args.seed + 910_000 + i + (0 if kind == "block" else 50_000)
        rng = np.random.default_rng(seed)
        d6, face = int(rng.integers(1, 7)), int(rng.integers(1, 7 if kind == "block" else 9))
        frame = table.render({}, [d6], seed=seed, special=[(kind, face)])
        want = (d6, block_value(face) if kind == "block" else face)
        region = area.region(frame.truth.homography, SIZE)
        t0 = time.perf_counter()
        a = read_dice(frame.image, region, numbered_config)
        orientation = Orientation(frame.truth.homography)
        b = read_special_dice(frame.image, (kind,), orientation, region, config)
        times.append(time.perf_counter() - t0)
        if args.search == "on" and not b.dice:  # as the kiosk's settler does once the throw lies still
            b = find_missing(frame.image, b, 1, (kind,), orientation, region, config, thrown=True)
        obs = merge(a, b, ("d6", kind), (kind,))
        rolls.append(kiosk_outcome(DiceSeen.of(obs), want, (D6, KINDS[kind])))
        for name, k in (("d6", 0), (kind, 1)):
            group = [d for d in obs.dice if d.kind == name]
            got = group[0].value if len(group) == 1 and group[0].status == "read" else None
            tally[name][0 if got == want[k] else 1 if got is None else 2] += 1
    ms = 1000 * statistics.median(times)
    out: dict[str, object] = {"rolls": args.frames, "ms_median": round(ms, 2),
                              "outcomes": _say_outcomes(f"d6+{kind}", rolls)}
    for name, (r, u, w) in tally.items():
        out[name] = {"right": r, "unsure": u, "wrong": w}
        print(f"d6+{kind}, the {name}: right {r} ({100 * r / args.frames:.1f}%), unsure or not found {u}, "
              f"confidently wrong {w}")
    print(f"d6+{kind}: both readers {ms:.1f} ms a frame (median)")
    return out


def beside_old(table: synthetic_table.SyntheticTable, area: DiceArea, old_kind: str,
               args: argparse.Namespace, config: SpecialDiceConfig) -> dict[str, object]:
    """2d6 thrown beside one or two ``old_kind`` dice left from an earlier roll: the d6 reader's
    settled reading at the pad as it is, and with the old dice left out as the kiosk's table
    feed does after a roll of that kind (``vision.mixed_roll.leave_out``)."""
    from vision.dice import DiceConfig, read_dice
    from vision.mixed_roll import leave_out

    numbered_config = replace(DiceConfig(), kinds=("d6",))
    before: list[str] = []
    after: list[str] = []
    times: list[float] = []
    for i in range(args.frames):
        seed = args.seed + 1_200_000 + i + (0 if old_kind == "block" else 50_000)
        rng = np.random.default_rng(seed)
        d6 = [int(v) for v in rng.integers(1, 7, 2)]
        old = [(old_kind, int(rng.integers(1, 7 if old_kind == "block" else 9)))
               for _ in range(int(rng.integers(1, 3)))]
        frame = table.render({}, d6, seed=seed, special=old)
        region = area.region(frame.truth.homography, SIZE)
        a = read_dice(frame.image, region, numbered_config)
        before.append(kiosk_outcome(DiceSeen.of(a), d6, D6))
        t0 = time.perf_counter()
        b = read_special_dice(frame.image, (old_kind,), Orientation(frame.truth.homography), region, config)
        kept = leave_out(a, b)
        times.append(time.perf_counter() - t0)
        after.append(kiosk_outcome(DiceSeen.of(kept), d6, D6))
    ms = 1000 * statistics.median(times)
    name = f"2d6 beside old {old_kind} dice"
    out: dict[str, object] = {"rolls": args.frames, "as_read": _say_outcomes(f"{name}, as read", before),
                              "left_out": _say_outcomes(f"{name}, left out", after),
                              "leave_out_ms_median": round(ms, 2)}
    print(f"{name}: leaving them out takes {ms:.1f} ms a reading (median)")
    return out


def beside_other(table: synthetic_table.SyntheticTable, area: DiceArea, kind: str, old_kind: str,
                 args: argparse.Namespace, config: SpecialDiceConfig) -> dict[str, object]:
    """1-3 ``kind`` dice thrown beside one ``old_kind`` die of an earlier roll: read for the
    roll's kind only, and as the kiosk's settler reads them once the table has rolled the other
    kind (both kinds read, the old die left out: ``SpecialDiceSettler.lying``), each with the
    settler's search of a roll short of dice; and the same throw drawn without the old die."""
    from vision.special_dice.settle import only_kinds

    ways = ("the same throw with no old die", "the roll's kind only", "both kinds, the old die left out")
    rolls: dict[str, list[str]] = {w: [] for w in ways}
    for i in range(args.frames):
        seed = args.seed + 1_300_000 + i + (0 if kind == "block" else 50_000)
        rng = np.random.default_rng(seed)
        n = int(rng.integers(1, 4))
        faces = [int(rng.integers(1, 7 if kind == "block" else 9)) for _ in range(n)]
        old = (old_kind, int(rng.integers(1, 7 if old_kind == "block" else 9)))
        alone = table.render({}, seed=seed, special=[(kind, f) for f in faces])
        frame = table.render({}, seed=seed, special=[*((kind, f) for f in faces), old])
        want = sorted(block_value(f) if kind == "block" else f for f in faces)
        region = area.region(frame.truth.homography, SIZE)
        orientation = Orientation(frame.truth.homography)
        for way in ways:
            image = alone.image if way == ways[0] else frame.image
            if way != ways[2]:
                raw = obs = read_special_dice(image, (kind,), orientation, region, config)
            else:
                raw = read_special_dice(frame.image, (kind, old_kind), orientation, region, config)
                obs = only_kinds(raw, (kind,))
            if args.search == "on" and len(obs.dice) < n:
                found = find_missing(image, raw if obs.dice else obs, n - len(obs.dice), (kind,),
                                     orientation, region, config, thrown=True)
                obs = only_kinds(found, (kind,))
            rolls[way].append(kiosk_outcome(DiceSeen.of(obs), want, KINDS[kind]))
    name = f"{kind} beside an old {old_kind} die"
    return {"rolls": args.frames, **{w: _say_outcomes(f"{name}, {w}", r) for w, r in rolls.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=200, help="frames per kind")
    ap.add_argument("--seed", type=int, default=8_000_000)
    ap.add_argument("--die-mm", type=float, default=synthetic_table.SPECIAL_DIE_MM)
    ap.add_argument("--picture", type=Path, metavar="PNG",
                    help="save the dice area of the first frame of each kind with the readings drawn "
                         "(green: read, with the face; orange: unsure) side by side")
    ap.add_argument("--enlarge-to-px", type=float, default=SpecialDiceConfig().enlarge_to_px,
                    help="SpecialDiceConfig.enlarge_to_px (0: the dice area read as it is)")
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=NUMBER",
                    help="another SpecialDiceConfig number, e.g. area_find_threshold=0.04")
    ap.add_argument("--kinds", default="block,scatter", help="the kinds thrown, one after the other")
    ap.add_argument("--upright-reader", type=Path,
                    help="a trial upright reader network")
    ap.add_argument("--search", choices=("on", "off"), default="on",
                    help="a roll with fewer dice found than thrown searched for the others, as the "
                         "kiosk's settler does (reader.find_missing); off: not")
    args = ap.parse_args()
    kinds = [k for k in args.kinds.split(",") if k]
    allowed = ("block", "scatter", "d6+block", "d6+scatter", "2d6+old-block", "2d6+old-scatter",
               "block+old-scatter", "scatter+old-block")
    if not kinds or any(k not in allowed for k in kinds):
        ap.error(f"--kinds {args.kinds}: give {', '.join(allowed)}, separated by commas")
    if args.upright_reader is not None:
        import vision.special_dice.reader as reader_module

        if not args.upright_reader.is_file():
            ap.error(f"--upright-reader {args.upright_reader}: no such file")
        reader_module.upright_reader = args.upright_reader
    synthetic_table.SPECIAL_DIE_MM = args.die_mm
    changes: dict[str, float] = {"enlarge_to_px": args.enlarge_to_px}
    for item in args.set:
        field, _, value = item.partition("=")
        if not hasattr(SpecialDiceConfig(), field):
            ap.error(f"--set {item}: SpecialDiceConfig has no field {field!r}")
        try:
            changes[field] = float(value)
        except ValueError:
            ap.error(f"--set {item}: give FIELD=NUMBER")
    config = replace(SpecialDiceConfig(), **changes)  # type: ignore[arg-type]
    table = synthetic_table.SyntheticTable(camera=synthetic_table.default_camera(*SIZE))
    area = DiceArea.named(BOARD_CENTRE)
    figures: dict[str, object] = {"machine": platform.machine(), "die_mm": args.die_mm,
                                  "frames": args.frames, "seed": args.seed,
                                  "config": changes}
    pictures: list[np.ndarray] = []
    for kind in kinds:
        if kind in ("block+old-scatter", "scatter+old-block"):
            roll_kind, _, old_kind = kind.partition("+old-")
            figures[kind] = beside_other(table, area, roll_kind, old_kind, args, config)
            continue
        if kind.startswith("2d6+old-"):
            figures[kind] = beside_old(table, area, kind.split("-")[1], args, config)
            continue
        if "+" in kind:
            figures[kind] = mixed(table, area, kind.split("+")[1], args, config)
            continue
        dice = right = wrong = 0
        rolls: list[str] = []
        times: list[float] = []
        search_ms: list[float] = []
        searched = [0, 0]  # rolls searched for missed dice, dice added
        for i in range(args.frames):
            seed = args.seed + i + (0 if kind == "block" else 500_000)
            rng = np.random.default_rng(seed)
            n = int(rng.integers(1, 4))
            faces = [int(rng.integers(1, 7 if kind == "block" else 9)) for _ in range(n)]
            frame = table.render({}, seed=seed, special=[(kind, f) for f in faces])
            want = sorted(block_value(f) if kind == "block" else f for f in faces)
            region = area.region(frame.truth.homography, SIZE)
            t0 = time.perf_counter()
            orientation = Orientation(frame.truth.homography)
            obs = read_special_dice(frame.image, (kind,), orientation, region, config)
            times.append(time.perf_counter() - t0)
            if args.search == "on" and len(obs.dice) < n:  # as the kiosk's settler does, once a roll
                t0 = time.perf_counter()  # (a roll with none found: once the thrown dice lie still)
                found = len(obs.dice)
                obs = find_missing(frame.image, obs, n - found, (kind,), orientation, region, config,
                                   thrown=True)
                search_ms.append(1000 * (time.perf_counter() - t0))
                searched[0] += 1
                searched[1] += len(obs.dice) - found
            if args.picture is not None and i == 0 and region is not None:
                pictures.append(_drawn(frame.image, region, obs))
            rolls.append(kiosk_outcome(DiceSeen.of(obs), want, KINDS[kind]))
            dice += len(want)
            left = list(want)
            for d in obs.dice:
                if d.status != "read" or d.value is None:
                    continue
                if d.value in left:
                    left.remove(d.value)
                    right += 1
                else:
                    wrong += 1
        unsure = dice - right - wrong
        ms = 1000 * statistics.median(times)
        print(f"{kind}: {dice} dice, right {right} ({100 * right / dice:.1f}%), unsure or not found "
              f"{unsure}, confidently wrong {wrong}; reader {ms:.1f} ms a frame (median)")
        if args.search == "on":
            print(f"{kind}: {searched[0]} rolls short of dice searched, {searched[1]} dice added (unsure); "
                  f"search {statistics.median(search_ms) if search_ms else 0:.1f} ms a roll (median)")
        figures[kind] = {"dice": dice, "right": right, "unsure": unsure, "wrong": wrong,
                         "right_pct": round(100 * right / dice, 2), "ms_median": round(ms, 2),
                         "searched": searched[0], "added": searched[1],
                         "search_ms_median": round(statistics.median(search_ms), 2) if search_ms else None,
                         "outcomes": _say_outcomes(kind, rolls)}
    if pictures:
        cv2.imwrite(str(args.picture), np.hstack(pictures))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
