#!/usr/bin/env python3
"""Dice reader figures: real photos (YOLO-labelled folder) and a rendered synthetic set.

Prints, per die-size band (>= 48 px, 32-48 px, < 32 px) and per die type: detection recall,
value accuracy among detected dice ('right'), the unsure rate and the confident-wrong rate,
and 'guess ok': the share of unsure dice whose best guess (the value the kiosk pre-fills for
a person to check) is right; plus median milliseconds per 640x640 real image and per 1280x720
synthetic frame, on one core unless --threads says otherwise. The last line is one JSON object with every figure.

    python3 benchmarks/vision_dice.py                    # everything (a few minutes)
    python3 benchmarks/vision_dice.py --limit 100 --synthetic 50   # a quick run

On the real set, 'eval' is the held-out part of the split by source photo (never used for
training or tuning); 'all' includes the photos the networks were trained on and flatters them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.dice import DiceConfig  # noqa: E402
from vision.dice.dataset import DEFAULT_REAL_DIR, RUNE55_ERRATA, split_of, stem_of  # noqa: E402
from vision.dice.evaluate import (  # noqa: E402
    COLOUR_TRAY_SEED,
    COLOUR_TRAY_TUNE_SEED,
    NUMBERED_SEED,
    REGISTRATION_JITTER,
    Report,
    evaluate_closer,
    evaluate_colour_tray,
    evaluate_edge,
    evaluate_polyhedral,
    evaluate_real,
    evaluate_synthetic,
    evaluate_table,
    evaluate_tray,
    real_items,
    synthetic_items,
    tray_photo,
)
from vision.dice.models import MODEL_DIR, default_backend  # noqa: E402

TABLE_TUNE_SEEDS = {1280: 60_000, 2304: 62_000}
"""The first seeds of the synthetic table frames ``--split calib`` reads (1280x720, 2304x1296)."""


def table(title: str, report: Report) -> str:
    d = report.to_dict()
    lines = [f"{title}: {d['images']} images, {d['errors']} unreadable, median {d['median_ms']} ms/image,"
             f" {d['false_positives']} false detections ({d['false_read']} of them read)"]
    lines.append(f"  {'group':<10}{'dice':>7}{'recall':>9}{'right':>9}{'unsure':>9}{'conf-wrong':>12}{'guess ok':>10}{'top ok':>9}")
    rows: list[tuple[str, Any]] = [("all", d["all"])]
    rows += [(k, v) for k, v in cast(dict[str, Any], d["by_band"]).items()]
    rows += [(k, v) for k, v in cast(dict[str, Any], d["by_kind"]).items()]
    for name, r in rows:
        lines.append(
            f"  {name:<10}{r['dice']:>7}{r['recall']:>9.2%}{r['right']:>9.2%}{r['unsure']:>9.2%}"
            f"{r['confident_wrong']:>12.2%}{r['unsure_guess_right']:>10.2%}{r['top_right']:>9.2%}"
        )
    # dice no person can read either (judged by eye, vision/dice/unreadable.py) cap the share
    # of detected dice any honest reader can read right
    judged = [(name, r) for name, r in rows if r["unreadable_n"]]
    if judged:
        lines.append("  no person can read (vision/dice/unreadable.py) -> at most this share right, and the "
                     "share of the other dice read right: "
                     + "; ".join(f"{name} {r['unreadable_n']} -> {r['ceiling']:.2%}, {r['readable_right']:.2%}"
                                 for name, r in judged))
    return "\n".join(lines)


def main() -> int:  # noqa: C901
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--real", default=str(DEFAULT_REAL_DIR), help="YOLO folder (default: Rune55)")
    p.add_argument("--split", choices=["eval", "tune", "all", "both", "calib"], default="both",
                   help="which part of the real set: 'both' reports eval and all (default); 'calib': "
                   "the calibration photos of both real sets (dataset.part_of), the synthetic table "
                   "and colour tray at their tuning seeds: for choosing thresholds and candidates")
    p.add_argument("--colour", default=str(DEFAULT_REAL_DIR.parent / "dice-colour-epanemu"),
                   help="YOLO folder of real colour photos, mostly slanted ('' to skip); its eval part "
                   "is split by file (one copy per photo)")
    p.add_argument("--limit", type=int, default=None, help="at most this many real images per part")
    p.add_argument("--synthetic", type=int, default=300, help="synthetic 1280x720 frames (0: none)")
    p.add_argument("--numbered", type=int, default=300, help="synthetic frames of numbered dice only")
    p.add_argument("--table", type=int, default=60,
                   help="synthetic table frames (the kiosk demo's camera), dice area read")
    p.add_argument("--poly", default=str(DEFAULT_REAL_DIR.parent / "dice-polyhedral"),
                   help="folder of single numbered dice photos ('' to skip)")
    p.add_argument("--closer", type=int, default=100,
                   help="a closer look: the real eval photos and this many numbered frames read "
                   "at half size, alone and with the full image as the camera's still (0: none)")
    p.add_argument("--edge", type=int, default=300,
                   help="rendered frames of one d6 cut by the frame's edge (0: none)")
    p.add_argument("--kinds", default=None, help="die types the table uses, e.g. d6 (default: all)")
    p.add_argument("--detect-threshold", type=float, default=None,
                   help=f"detector heat for a candidate (default {DiceConfig().detect_threshold})")
    p.add_argument("--read-threshold", type=float, default=None,
                   help="one classifier confidence to report a value of any type (default: the "
                   "per-type thresholds of DiceConfig)")
    p.add_argument("--threads", type=int, default=1,
                   help="OpenCV and onnxruntime threads (default: one core)")
    p.add_argument("--backend", choices=["onnxruntime", "opencv"], default=None,
                   help="what runs the networks (default: onnxruntime when installed)")
    p.add_argument("--d6-colour", choices=["on", "off"], default=None,
                   help="the colour d6 reader's second look (DiceConfig.d6_colour; default: as configured)")
    p.add_argument("--number-reader", choices=["on", "off"], default=None,
                   help="the number reader's second look at unsure numbered dice (DiceConfig.number_reader)")
    p.add_argument("--overview-recheck", choices=["on", "off"], default=None,
                   help="the second overview look for a close-up die (DiceConfig.overview_recheck)")
    p.add_argument("--number-any-roll", default=None, metavar="KINDS",
                   help="numbered types the number reader may read in a roll that does not name the type, when "
                   "the classifier and the type reader agree on it (DiceConfig.number_any_roll_kinds, e.g. "
                   "d8,d20; '': only a roll of one numbered type)")
    p.add_argument("--number-agree-grey", default=None, metavar="A,B",
                   help="the number reader's low-confidence agreement: it names the grey looks' top value with at "
                   "least A while the grey looks give it B (DiceConfig.number_agree_grey; 2,2: never)")
    p.add_argument("--number-turns", type=int, default=None, metavar="N",
                   help="the number reader reads each die it is asked about at N evenly spaced turns of its crop, "
                   "averaged (DiceConfig.number_turns; 1: once)")
    p.add_argument("--number-agree", type=float, default=None, metavar="P",
                   help="the number reader's agreement with the grey looks' top value (DiceConfig.number_agree)")
    p.add_argument("--number-alone", type=float, default=None, metavar="P",
                   help="the number reader alone reads at this probability (DiceConfig.number_alone; 2: never)")
    p.add_argument("--number-names-d20", type=float, default=None, metavar="P",
                   help="a die whose number is 13-20 with this probability is read as a d20 roll reads it, in a "
                        "roll that does not name the type (DiceConfig.number_names_d20; 2: never)")
    p.add_argument("--face-reader-names-type", default=None, metavar="M,V,N",
                   help="a type's own face reader reads an unsure die of a roll of that type (and, with the d20 in "
                        "play, a die typed d8 or d20) when it puts M on its values and V on one, and the number "
                        "reader N on that number (DiceConfig.face_reader_names_type; 2,2,2: never)")
    p.add_argument("--number-type-veto", type=float, default=None, metavar="P",
                   help="a die read as a type without the number shown with this probability is left unsure, in "
                        "a roll that does not name the type (DiceConfig.number_type_veto; 2: never)")
    p.add_argument("--tray", type=int, default=0,
                   help="rendered single d20 of 150-250 px in the dice-polyhedral tray, each face once "
                        "every 20 frames (0: none)")
    p.add_argument("--tray-kinds", default="d20",
                   help="the types of --tray's rendered single dice, e.g. d4,d8,d10,d12,d20 (default d20); "
                        "the d20 is also read as a d20 roll")
    p.add_argument("--tray-px", default="150,250", metavar="MIN,MAX",
                   help="the size range of --tray's dice (the renderer's die size; a d20's box is about 0.92 "
                        "of it), in pixels of the --tray-size frame (default 150,250)")
    p.add_argument("--tray-size", default="1296x972", metavar="WxH",
                   help="--tray's frame size, the tray photo resized to it (default 1296x972; 2592x1944 is the "
                        "whole photo, at the scale of a real d20 whose numbers are about 60 px: --tray-px 240,340)")
    p.add_argument("--tray-blur", default=None, metavar="MIN,MAX",
                   help="--tray's camera blur sigma range in pixels (default the renderer's 0-1.2)")
    p.add_argument("--colour-tray", type=int, default=0, metavar="N",
                   help="N rendered frames of 2-6 colour, marbled, translucent, opaque and grey-matched d6 "
                   "in a tray straight from above, 1296x972 (the product's scene; read as a d6 roll; 0: none)")
    p.add_argument("--colour-tray-seed", type=int, default=None,
                   help=f"the first seed of --colour-tray's frames (default {COLOUR_TRAY_SEED}: the figures' "
                   f"seeds; with --split calib {COLOUR_TRAY_TUNE_SEED}, the tuning seeds)")
    p.add_argument("--colour-tray-sheet", default=None, metavar="PNG",
                   help="save a sheet of --colour-tray's dice left unsure, read wrong or missed")
    p.add_argument("--d6-colour-agree", default=None, metavar="T48,T32,TSMALL",
                   help="the colour reader's agreement thresholds for d6 boxes of >= 48, 32-48 and "
                   "< 32 px (DiceConfig.d6_colour_agree_bands; default: as configured)")
    p.add_argument("--d6-colour-near", type=float, default=None, metavar="T",
                   help="read a d6 near the frame's edge the first look left unsure when the head and the "
                   "colour reader both give its value T (DiceConfig.d6_colour_near; 2: never)")
    p.add_argument("--d6-contrast", choices=("on", "off"), default=None,
                   help="the contrast look: the d6 networks read an unsure colour die in a grey made from its own "
                   "colours (DiceConfig.d6_contrast; default: as configured)")
    p.add_argument("--d6-contrast-head", type=float, default=None, metavar="T",
                   help="the least probability the contrast look gives its value (DiceConfig.d6_contrast_head)")
    p.add_argument("--d6-contrast-witness", type=float, default=None, metavar="T",
                   help="the least probability the colour reader gives the contrast look's value "
                   "(DiceConfig.d6_contrast_witness; 2: only the pip counter witnesses)")
    p.add_argument("--d6-colour-product", type=float, default=None, metavar="T",
                   help="read an unsure d6 of 32 px or more seen from above when the head's and the colour "
                   "reader's probabilities multiplied give its value T (DiceConfig.d6_colour_product; 2: never)")
    p.add_argument("--d6-colour-agree-grey", type=float, default=None, metavar="T",
                   help="the least agreement asked of the colour reader for a d6 whose crop is grey "
                   "(DiceConfig.d6_colour_agree_grey; 0: as for a colour die)")
    p.add_argument("--show-wrong", action="store_true", help="list confident-wrong dice")
    args = p.parse_args()
    cv2.setNumThreads(args.threads)
    if args.backend:
        os.environ["DICE_BACKEND"] = args.backend
    config = DiceConfig(kinds=tuple(args.kinds.split(","))) if args.kinds else DiceConfig()
    if args.detect_threshold is not None:
        config = replace(config, detect_threshold=args.detect_threshold)
    if args.d6_colour is not None:
        config = replace(config, d6_colour=args.d6_colour == "on")
    if args.number_reader is not None:
        config = replace(config, number_reader=args.number_reader == "on")
    if args.overview_recheck is not None:
        config = replace(config, overview_recheck=args.overview_recheck == "on")
    if args.number_any_roll is not None:
        config = replace(config, number_any_roll_kinds=tuple(k for k in args.number_any_roll.split(",") if k))
    if args.number_agree_grey is not None:
        low, need = (float(v) for v in args.number_agree_grey.split(","))
        config = replace(config, number_agree_grey=(low, need))
    if args.number_turns is not None:
        config = replace(config, number_turns=args.number_turns)
    if args.number_agree is not None:
        config = replace(config, number_agree=args.number_agree)
    if args.number_alone is not None:
        config = replace(config, number_alone=args.number_alone)
    if args.number_names_d20 is not None:
        config = replace(config, number_names_d20=args.number_names_d20)
    if args.face_reader_names_type is not None:
        m, v, n = (float(x) for x in args.face_reader_names_type.split(","))
        config = replace(config, face_reader_names_type=(m, v, n))
    if args.number_type_veto is not None:
        config = replace(config, number_type_veto=args.number_type_veto)
    if args.d6_colour_agree is not None:
        try:
            ts = [float(x) for x in args.d6_colour_agree.split(",")]
        except ValueError:
            ts = []
        if len(ts) != 3:
            p.error("--d6-colour-agree takes three thresholds: >= 48 px, 32-48 px, < 32 px (e.g. 0.8,0.99,0.9)")
        config = replace(config, d6_colour_agree_bands=tuple(zip((">=48", "32-48", "<32"), ts, strict=True)))
    if args.d6_colour_near is not None:
        config = replace(config, d6_colour_near=args.d6_colour_near)
    if args.d6_colour_agree_grey is not None:
        config = replace(config, d6_colour_agree_grey=args.d6_colour_agree_grey)
    if args.d6_contrast is not None:
        config = replace(config, d6_contrast=args.d6_contrast == "on")
    if args.d6_contrast_head is not None:
        config = replace(config, d6_contrast_head=args.d6_contrast_head)
    if args.d6_contrast_witness is not None:
        config = replace(config, d6_contrast_witness=args.d6_contrast_witness)
    if args.d6_colour_product is not None:
        config = replace(config, d6_colour_product=args.d6_colour_product)
    if args.read_threshold is not None:
        # one threshold for every type: the per-type thresholds are set aside
        config = replace(config, read_threshold=args.read_threshold, kind_read_thresholds=())
    result: dict[str, object] = {
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
        "opencv": cv2.__version__,
        "threads": args.threads,
        "backend": default_backend(),
        "models": str(MODEL_DIR),
        "read_threshold": config.read_threshold,
        "kind_read_thresholds": dict(config.kind_read_thresholds),
        "face_readers": list(config.face_readers),
        "detect_threshold": config.detect_threshold,
        "kinds": list(config.kinds),
        "d6_colour": config.d6_colour,
        "number_reader": config.number_reader,
        "overview_recheck": config.overview_recheck,
        "number_any_roll_kinds": list(config.number_any_roll_kinds),
        "number_agree_grey": list(config.number_agree_grey),
        "number_turns": config.number_turns,
        "number_agree": config.number_agree,
        "number_alone": config.number_alone,
        "number_names_d20": config.number_names_d20,
        "face_reader_names_type": list(config.face_reader_names_type),
        "number_type_veto": config.number_type_veto,
        "d6_colour_agree_bands": dict(config.d6_colour_agree_bands),
        "d6_colour_near": config.d6_colour_near,
        "d6_colour_product": config.d6_colour_product,
        "d6_contrast": config.d6_contrast,
        "d6_contrast_head": config.d6_contrast_head,
        "d6_contrast_witness": config.d6_contrast_witness,
        "d6_colour_agree_grey": config.d6_colour_agree_grey,
        "d6_colour_min_chroma": config.d6_colour_min_chroma,
    }
    calib = args.split == "calib"
    # the tuning seeds of the table frames are the d6 reader's calibration frames'
    # (scripts/train_dice_reader.py); the figures' are 40,000
    table_seeds = TABLE_TUNE_SEEDS if calib else {1280: 40_000, 2304: 40_000}
    colour_tray_seed = args.colour_tray_seed if args.colour_tray_seed is not None else (
        COLOUR_TRAY_TUNE_SEED if calib else COLOUR_TRAY_SEED)
    result["split"] = args.split
    t0 = time.time()
    real = Path(args.real)
    if real.is_dir():
        parts = {"both": ["eval", "all"], "all": ["all"], "eval": ["eval"], "tune": ["tune"],
                 "calib": ["calib"]}[args.split]
        for part in parts:
            # the calibration photos with the known label errors corrected, as the eval figures are
            rep = evaluate_real(str(real), None if part == "all" else part, args.limit, config,
                                errata=part == "calib")
            print(table(f"real {real.name} [{part}]" + (", errata" if part == "calib" else ""), rep))
            if args.show_wrong:
                print("\n".join("    " + w for w in rep.wrong_examples))
            result[f"real_{part}"] = rep.to_dict()
            if part == "eval" and real.name == "dice-rune55":
                # the same photos with the known label errors corrected (dataset.RUNE55_ERRATA)
                fixed = evaluate_real(str(real), "eval", args.limit, config, errata=True)
                n_fixed = sum(split_of(stem_of(name)) == "eval" for name in RUNE55_ERRATA)
                print(table(f"real {real.name} [eval], {n_fixed} mislabelled files corrected", fixed))
                result["real_eval_errata"] = fixed.to_dict()
    else:
        print(f"real set {real} not found: skipped (see ../shared/data/README.md)")
        result["real"] = None
    colour = Path(args.colour) if args.colour else None
    if colour is not None and colour.is_dir():
        for part in (args.split,) if args.split in ("tune", "calib") else ("eval",):
            rep = evaluate_real(str(colour), part, args.limit, config)
            print(table(f"real {colour.name} [{part}] (colour dice, mostly slanted)", rep))
            if args.show_wrong:
                print("\n".join("    " + w for w in rep.wrong_examples))
            result[f"real_colour_{part}"] = rep.to_dict()
    elif args.colour:
        print(f"colour set {colour} not found: skipped (see ../shared/data/README.md)")
    if args.synthetic:
        rep = evaluate_synthetic(args.synthetic, seed=10_000, config=config, cocked_rate=0.05)
        print(table("synthetic 1280x720, all kinds", rep))
        if args.show_wrong:
            print("\n".join("    " + w for w in rep.wrong_examples))
        result["synthetic"] = rep.to_dict()
    if args.numbered:
        rep = evaluate_synthetic(
            args.numbered, seed=NUMBERED_SEED, config=config, cocked_rate=0.0,
            kinds=("d4", "d8", "d10", "d12", "d20"),
        )
        print(table("synthetic 1280x720, numbered dice", rep))
        result["synthetic_numbered"] = rep.to_dict()
    if args.table:
        # the kiosk tells the reader which dice the roll asks for: two d6 to move
        table_config = config if args.kinds else replace(config, kinds=("d6",))
        for tw, th in ((1280, 720), (2304, 1296)):
            rep = evaluate_table(args.table, seed=table_seeds[tw], config=table_config, random_conditions=True,
                                 size=(tw, th), shifts=REGISTRATION_JITTER)
            print(table(f"synthetic table {tw}x{th} (16 mm d6, dice area at {len(REGISTRATION_JITTER)} "
                        f"offsets of up to 8 px, kinds {','.join(table_config.kinds)})", rep))
            if args.show_wrong:
                print("\n".join("    " + w for w in rep.wrong_examples))
            result["synthetic_table" if tw == 1280 else f"synthetic_table_{tw}x{th}"] = rep.to_dict()
    if args.tray:
        bg = tray_photo(args.poly)
        where = "the dice-polyhedral tray" if bg is not None else "a rendered dark tray"
        low, high = (float(v) for v in args.tray_px.split(","))
        tray_px = (low, high)
        tw, th = (int(v) for v in args.tray_size.lower().split("x"))
        blur = tuple(float(v) for v in args.tray_blur.split(",")) if args.tray_blur else None
        for kind in args.tray_kinds.split(","):
            for given in (False, True) if kind == "d20" else (False,):
                cfg = replace(config, kinds=(kind,)) if given else config
                rep = evaluate_tray(args.tray, kind, cfg, background=bg, die_px=tray_px, size=(tw, th), blur=blur)
                how = f"read as a {kind} roll" if given else f"kinds {','.join(config.kinds)}"
                print(table(f"synthetic {kind} of {tray_px[0]:g}-{tray_px[1]:g} px alone in {where}, {tw}x{th}, {how}",
                            rep))
                if args.show_wrong:
                    print("\n".join("    " + w for w in rep.wrong_examples))
                result[f"synthetic_tray_{kind}_roll" if given else f"synthetic_tray_{kind}"] = rep.to_dict()
    if args.colour_tray:
        # the tray floor of the shared dice-polyhedral photos, whether --poly reads them or not
        bg = tray_photo(DEFAULT_REAL_DIR.parent / "dice-polyhedral")
        where = "the dice-polyhedral tray floor" if bg is not None else "a rendered dark tray"
        d6_config = config if args.kinds else replace(config, kinds=("d6",))
        kept: list[tuple[str, Any, str]] | None = [] if args.colour_tray_sheet else None
        rep, looks = evaluate_colour_tray(args.colour_tray, d6_config, seed=colour_tray_seed,
                                          keep=kept, background=bg)
        print(table(f"synthetic colour d6 in {where}, from above, 1296x972, seeds from "
                    f"{colour_tray_seed} (renders: easier than real photos)", rep))
        for look, lrep in looks.items():
            print(table(f"  the same, {look} dice only", lrep))
        if args.show_wrong:
            print("\n".join("    " + w for w in rep.wrong_examples))
        result["synthetic_colour_tray"] = rep.to_dict()
        result["synthetic_colour_tray_looks"] = {k: v.to_dict() for k, v in looks.items()}
        if kept is not None:
            from vision.dice.evaluate import contact_sheet
            cv2.imwrite(args.colour_tray_sheet, contact_sheet(kept))
            print(f"sheet of {len(kept)} dice not read right: {args.colour_tray_sheet}")
    poly = Path(args.poly) if args.poly else None
    if poly is not None and poly.is_dir():
        for whole in (False, True):
            for given in (False, True):
                rep, lines = evaluate_polyhedral(str(poly), config, roll_kind=given, whole=whole)
                how = "each read as a roll of its own type" if given else f"kinds {','.join(config.kinds)}"
                where = "whole photo" if whole else "tray region"
                print(table(f"real {poly.name} (single numbered dice, 2592x1944, {where}, {how})", rep))
                if args.show_wrong:
                    print("\n".join("    " + line for line in lines))
                key = "real_polyhedral" + ("_whole" if whole else "") + ("_roll_kind" if given else "")
                result[key] = rep.to_dict()
    if args.closer:
        # a camera whose video frames have half the pixels of its stills (Camera Module 3:
        # 2304x1296 video, 4608x2592 sensor): every image read at half size, then a roll with
        # an unsure die or one under 32 px read again in the image itself (vision.dice.closer)
        sets = []
        if real.is_dir() and real.name == "dice-rune55":
            part = "calib" if args.split == "calib" else "eval"
            sets.append((f"real dice-rune55 [{part}], errata", f"real_{part}_errata",
                         real_items(str(real), part, args.limit, errata=True)))
        sets.append(("synthetic numbered dice", "synthetic_numbered",
                     synthetic_items(args.closer, seed=20_000, cocked_rate=0.0,
                                     kinds=("d4", "d8", "d10", "d12", "d20"))))
        for title, key, items in sets:
            alone, closer = evaluate_closer(items, config)
            print(table(f"closer look: {title} read at half size, frames alone", alone))
            print(table(f"closer look: {title} read at half size, rolls with an unsure or tiny die "
                        f"read again in the full image ({len(closer.ms)} stills)", closer))
            if args.show_wrong:
                print("\n".join("    " + w for w in closer.wrong_examples))
            result[f"closer_{key}_alone"] = alone.to_dict()
            result[f"closer_{key}"] = closer.to_dict()
    if args.edge:
        # bad input: a die the frame's edge cuts; any value read is right only by luck
        edge = evaluate_edge(args.edge, config=config)
        print(f"synthetic d6 cut by the frame's edge (640x480, a fifth to four fifths showing, half "
              f"of the frames crisp): "
              f"{edge['frames']} dice: read right {edge['read_right']}, read wrong {edge['read_wrong']}, "
              f"unsure {edge['unsure']}, cocked {edge['cocked']}, not reported {edge['not_reported']}")
        if args.show_wrong:
            print("\n".join("    " + w for w in edge["wrong_examples"]))  # type: ignore[attr-defined]
        result["synthetic_edge"] = edge
    result["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
