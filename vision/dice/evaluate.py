"""Measure the dice reader against ground truth: recall, right, unsure and confident-wrong rates.

Rates are per die-size band (the longer side of the true box: >= 48 px, 32-48 px, < 32 px) and
per die type. Among detected dice every die is exactly one of: read right, read wrong
(*confident-wrong*: the worst outcome, counted on its own), or unsure/cocked (abstained).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import cv2
import numpy as np

from . import dataset
from .finder import iou
from .reader import read_dice
from .types import STATUS_COCKED, STATUS_READ, DiceConfig, DiceObservation
from .unreadable import is_unreadable

BANDS = (">=48", "32-48", "<32")
MATCH_IOU = 0.4
NUMBERED_SEED = 20_000
"""The first seed of the benchmark's rendered frames of numbered dice (``benchmarks/vision_dice.py``;
``unreadable.RENDERED_NUMBERED`` names dice of them)."""


def _fbox(box: tuple[int, int, int, int]) -> tuple[float, float, float, float]:
    return (float(box[0]), float(box[1]), float(box[2]), float(box[3]))


def band_of(box: tuple[float, float, float, float]) -> str:
    side = max(box[2], box[3])
    return ">=48" if side >= 48 else "32-48" if side >= 32 else "<32"


class Boxed(Protocol):
    """Anything with a true box (x, y, w, h): a ``Truth`` or a labelled die of a photo set."""

    @property
    def box(self) -> tuple[float, float, float, float]: ...


@dataclass(frozen=True)
class Truth:
    box: tuple[float, float, float, float]
    kind: str
    value: int
    cocked: bool = False
    unreadable: bool = False  # listed in ``unreadable``: no person can read it either


@dataclass
class Tally:
    dice: int = 0
    detected: int = 0
    right: int = 0
    wrong: int = 0
    unsure: int = 0
    cocked_right: int = 0  # a cocked die reported as cocked
    guessed: int = 0  # an unsure die whose best guess (what the kiosk pre-fills) is right
    unreadable: int = 0  # a detected die no person can read (``unreadable``): honestly, unsure
    unreadable_right: int = 0  # such a die read right all the same (by luck)

    def add(self, other: Tally) -> None:
        for k in ("dice", "detected", "right", "wrong", "unsure", "cocked_right", "guessed", "unreadable",
                  "unreadable_right"):
            setattr(self, k, getattr(self, k) + getattr(other, k))

    def rates(self) -> dict[str, float | int]:
        d = max(1, self.detected)
        return {
            "dice": self.dice,
            "recall": round(self.detected / max(1, self.dice), 4),
            "right": round(self.right / d, 4),
            "unsure": round(self.unsure / d, 4),
            "confident_wrong": round(self.wrong / d, 4),
            "wrong_n": self.wrong,
            "unsure_guess_right": round(self.guessed / max(1, self.unsure), 4),
            # the reader's top guess (its value when read, its guess when unsure) is right
            "top_right": round((self.right + self.guessed) / d, 4),
            "unreadable_n": self.unreadable,
            # the most an honest reader can read right: every detected die but the unreadable
            "ceiling": round((self.detected - self.unreadable) / d, 4),
            # read right among the detected dice a person can read
            "readable_right": round((self.right - self.unreadable_right) / max(1, self.detected - self.unreadable), 4),
        }


@dataclass
class Report:
    by_band: dict[str, Tally] = field(default_factory=lambda: {b: Tally() for b in BANDS})
    by_kind: dict[str, Tally] = field(default_factory=dict)
    false_positives: int = 0
    false_read: int = 0
    """Of the false detections, those read as a value (not left unsure): a wrong die the table
    would be shown as sure."""
    images: int = 0
    errors: int = 0
    ms: list[float] = field(default_factory=list)
    wrong_examples: list[str] = field(default_factory=list)

    def total(self) -> Tally:
        t = Tally()
        for v in self.by_band.values():
            t.add(v)
        return t

    def to_dict(self) -> dict[str, object]:
        return {
            "images": self.images,
            "errors": self.errors,
            "all": self.total().rates(),
            "by_band": {b: t.rates() for b, t in self.by_band.items()},
            "by_kind": {k: t.rates() for k, t in sorted(self.by_kind.items())},
            "false_positives": self.false_positives,
            "false_read": self.false_read,
            "median_ms": round(float(np.median(self.ms)), 2) if self.ms else None,
        }


def match_dice(obs: DiceObservation, truths: Sequence[Boxed]) -> dict[int, int]:
    """Each true die matched to at most one reading, greedily by IoU (at least ``MATCH_IOU``):
    {truth index: reading index}."""
    pairs = sorted(
        ((iou(t.box, _fbox(d.box)), ti, di) for ti, t in enumerate(truths) for di, d in enumerate(obs.dice)),
        reverse=True,
    )
    used_d: set[int] = set()
    match: dict[int, int] = {}
    for v, ti, di in pairs:
        if v < MATCH_IOU:
            break
        if ti in match or di in used_d:
            continue
        used_d.add(di)
        match[ti] = di
    return match


def score_image(
    obs: DiceObservation, truths: Iterable[Truth], report: Report, name: str = ""
) -> None:
    """Match readings to truths (greedy by IoU) and tally them into ``report``."""
    truths = list(truths)
    report.images += 1
    if obs.status == "error":
        report.errors += 1
    match = match_dice(obs, truths)
    report.false_positives += len(obs.dice) - len(match)
    matched = set(match.values())
    report.false_read += sum(1 for di, d in enumerate(obs.dice) if di not in matched and d.status == STATUS_READ)
    for ti, t in enumerate(truths):
        tally = Tally(dice=1)
        if ti in match:
            d = obs.dice[match[ti]]
            tally.detected = 1
            tally.unreadable = int(t.unreadable)
            if t.cocked:
                if d.status == STATUS_COCKED:
                    tally.cocked_right = 1
                    tally.right = 1
                elif d.status == STATUS_READ:
                    tally.wrong = 1
                else:
                    tally.unsure = 1
            elif d.status == STATUS_READ and d.kind == t.kind and d.value == t.value:
                tally.right = 1
                tally.unreadable_right = int(t.unreadable)
            elif d.status == STATUS_READ:
                tally.wrong = 1
                if len(report.wrong_examples) < 50:
                    report.wrong_examples.append(
                        f"{name} box={tuple(int(v) for v in t.box)} true={t.kind}:{t.value} "
                        f"read={d.kind}:{d.value} conf={d.confidence:.3f}"
                    )
            else:
                tally.unsure = 1
                tally.guessed = int(not t.cocked and d.kind == t.kind and d.guess == t.value)
        report.by_band[band_of(t.box)].add(tally)
        report.by_kind.setdefault("cocked" if t.cocked else t.kind, Tally()).add(tally)


def timed_read(
    image: np.ndarray, config: DiceConfig | None, report: Report | None = None,
    region: tuple[int, int, int, int] | None = None,
) -> DiceObservation:
    t0 = time.perf_counter()
    obs = read_dice(image, region, config)
    if report is not None:
        report.ms.append((time.perf_counter() - t0) * 1000.0)
    return obs


def real_items(
    folder: str, split: str | None = None, limit: int | None = None, errata: bool = False
) -> Iterator[tuple[str, np.ndarray | None, list[Truth]]]:
    """(name, BGR image or None if unreadable, truths) for a YOLO folder; ``errata`` corrects
    the labels known to be wrong (``dataset.RUNE55_ERRATA``)."""
    n = 0
    for item in dataset.iter_folder(folder, split=split, errata=errata):
        if limit is not None and n >= limit:
            return
        n += 1
        img = cv2.imread(str(item.path), cv2.IMREAD_COLOR)
        if img is not None and img.shape[:2] != (640, 640):
            h, w = img.shape[:2]
            labels = dataset.read_labels(item.path.parent.parent / "labels" / (item.path.stem + ".txt"), w, h)
            if errata:
                labels = dataset.apply_errata(item.path, labels)
        else:
            labels = item.dice
        stem = item.path.stem
        yield item.path.name, img, [Truth(d.box, d.kind, d.value, unreadable=is_unreadable(stem, i, d.kind, d.value))
                                    for i, d in enumerate(labels)]


def evaluate_real(
    folder: str, split: str | None = None, limit: int | None = None, config: DiceConfig | None = None,
    errata: bool = False,
) -> Report:
    report = Report()
    for name, img, truths in real_items(folder, split, limit, errata):
        if img is None:
            report.errors += 1
            continue
        obs = timed_read(img, config, report)
        score_image(obs, truths, report, name)
    return report


def synthetic_items(
    count: int, seed: int = 2024, size: tuple[int, int] = (1280, 720), kinds: tuple[str, ...] | None = None,
    cocked_rate: float = 0.05, die_px: tuple[float, float] = (30.0, 72.0),
) -> Iterator[tuple[str, np.ndarray, list[Truth]]]:
    from vision.synthetic import dice as synth

    for i in range(count):
        rng = np.random.default_rng(seed + i)
        img, truths = synth.render_dice_scene(
            rng, size, n_dice=int(rng.integers(1, 9)), kinds=kinds or synth.KINDS,
            cocked_rate=cocked_rate, die_px=die_px,
        )
        name = f"synthetic-{seed + i}"
        seen = [t for t in truths if t.box[2] > 0]
        yield name, img, [Truth(_fbox(t.box), t.kind, t.value, t.cocked,
                                is_unreadable(name, j, t.kind, t.value)) for j, t in enumerate(seen)]


TRAY_SEED = 80_000
"""The first seed of the benchmark's rendered single numbered dice in a tray (``tray_items``)."""


def tray_items(
    count: int, kind: str = "d20", seed: int = TRAY_SEED, size: tuple[int, int] = (1296, 972),
    die_px: tuple[float, float] = (150.0, 250.0), background: np.ndarray | None = None,
    blur: tuple[float, float] | None = None, look: str = "realistic",
) -> Iterator[tuple[str, np.ndarray, list[Truth]]]:
    """One rendered numbered die a frame, lying in a tray seen from above, in the realistic look
    and a random colour, ``die_px`` across (the renderer's die size; a d20's box is about 0.92
    of it and its number 0.18-0.2 of it: a d20 of 150-250 px shows a number of about 28-50
    px): frame ``i`` shows face ``i % faces + 1``, so every ``faces`` frames show each face once.
    ``look`` "plastic": a d8, d10, d12 or d20 drawn as opaque plastic dice look instead
    (``vision.synthetic.plastic``; the number reader's renders include that look, the other
    networks never saw it).
    ``background``: the tray (e.g. dice-polyhedral's empty tray photo, resized to ``size``);
    default a dark speckled tray. ``blur``: the range of the camera's blur (Gaussian sigma,
    pixels; default the renderer's 0-1.2, right for a 1280x720 frame; a whole 2592x1944 photo
    of a real tray is softer)."""
    from vision.synthetic import dice as synth

    faces = synth.FACES[kind]
    w, h = size
    for i in range(count):
        rng = np.random.default_rng(seed + i)
        bg = cv2.resize(background, size) if background is not None else synth.speckled_background(rng, w, h)
        s = float(rng.uniform(*die_px))
        centre = (float(rng.uniform(0.3, 0.7) * w), float(rng.uniform(0.3, 0.7) * h))
        img = bg.copy()
        if look == "plastic":
            from vision.synthetic.plastic import draw_plastic_die

            t = draw_plastic_die(img, kind, i % faces + 1, centre, s, rng)
        else:
            spec = replace(synth.random_spec(rng, centre, s, (kind,), realistic=True), value=i % faces + 1)
            t = synth.draw_die(img, spec, rng)
        img = synth.camera_effects(img, rng, blur=None if blur is None else float(rng.uniform(*blur)))
        name = f"tray-{kind}-{seed + i}"
        yield name, img, [Truth(_fbox(t.box), t.kind, t.value, False)]


def evaluate_tray(count: int, kind: str = "d20", config: DiceConfig | None = None, **kw: object) -> Report:
    """``tray_items`` read as ``config`` says (the kiosk gives the roll's type: ``kinds``)."""
    report = Report()
    for name, img, truths in tray_items(count, kind, **kw):  # type: ignore[arg-type]
        obs = timed_read(img, config, report)
        score_image(obs, truths, report, name)
    return report


COLOUR_TRAY_SEED = 8_000_000
"""The first seed of the benchmark's rendered colour dice in a tray (``colour_tray_items``);
no network was trained on these seeds. ``COLOUR_TRAY_TUNE_SEED``'s frames are for choosing
thresholds, never for the figures."""
COLOUR_TRAY_TUNE_SEED = 8_500_000


TRAY_FLOOR = (520, 320, 1980, 1800)
"""The floor of the tray in dice-polyhedral's empty-tray photo (x0, y0, x1, y1 at 2592x1944)."""
FELTS = ((30, 70, 25), (70, 35, 20), (35, 25, 90), (60, 60, 60), (20, 20, 20), (40, 60, 90), (150, 170, 180))
"""Felt colours (BGR) a tray floor is dyed in half the frames: green, navy, burgundy, grey,
black, brown, beige."""


def _tray_floor(photo: np.ndarray, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A frame of ``size`` of the tray floor in ``photo`` (a random part of it, scaled to the
    photo's size if it is not 2592x1944, mirrored half the time; sometimes a little of its wall),
    lit anew, and in half the frames dyed a felt colour (its texture kept)."""
    h, w = photo.shape[:2]
    sx, sy = w / 2592, h / 1944
    x0, y0, x1, y1 = TRAY_FLOOR
    fw = (x1 - x0) * sx
    cw = float(rng.uniform(0.5, 1.0)) * min(fw, (y1 - y0) * sy * size[0] / size[1])
    ch = cw * size[1] / size[0]
    reach = 60 * sx  # at most this far onto the wall
    cx0 = float(rng.uniform(x0 * sx - reach, x1 * sx + reach - cw))
    cy0 = float(rng.uniform(y0 * sy - reach, y1 * sy + reach - ch))
    cx0, cy0 = min(max(cx0, 0.0), w - cw), min(max(cy0, 0.0), h - ch)
    part = photo[int(cy0):int(cy0 + ch), int(cx0):int(cx0 + cw)]
    bg = cv2.resize(part, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    if rng.random() < 0.5:
        bg = bg[:, ::-1]
    if rng.random() < 0.5:
        grey = bg.mean(axis=2, keepdims=True)
        texture = np.clip(0.85 + 0.3 * (grey / max(float(grey.mean()), 1.0) - 1.0), 0.5, 1.5)
        felt = np.array(FELTS[int(rng.integers(len(FELTS)))], np.float32)
        bg = texture * felt * float(rng.uniform(0.8, 1.25))
    else:
        bg *= float(rng.uniform(0.7, 1.3))
    return np.ascontiguousarray(np.clip(bg, 0, 255).astype(np.uint8))


def colour_tray_items(
    count: int, seed: int = COLOUR_TRAY_SEED, size: tuple[int, int] = (1296, 972),
    die_px: tuple[float, float] = (22.0, 90.0), background: np.ndarray | None = None,
    max_tilt: float = 4.0,
) -> Iterator[tuple[str, str, np.ndarray, list[Truth]]]:
    """(name, look, BGR frame, truths) of rendered d6 lying in a tray seen straight from above
    (the product's own scene): 2-6 dice a frame, each with a side of ``die_px`` (one size a
    frame, give or take 8%, spread evenly on a log scale; turned, a die's box is up to 1.4x its
    side: boxes of about 24-125 px), ray-marched (``vision.synthetic.d6_3d``) with a
    camera at most ``max_tilt`` degrees from straight down, one lamp, cast shadows, glare, then
    soft focus and sensor noise. Frame ``i`` holds dice of one look, ``d6_3d.TRAY_LOOKS[i % 5]``
    (opaque, colour, marbled, translucent, grey-matched pips). ``background``: the tray photo
    (dice-polyhedral's empty tray; :func:`_tray_floor`); default a dark speckled tray."""
    from vision.synthetic import d6_3d
    from vision.synthetic import dice as synth

    w, h = size
    for i in range(count):
        rng = np.random.default_rng(seed + i)
        kind = d6_3d.TRAY_LOOKS[i % len(d6_3d.TRAY_LOOKS)]
        if background is not None:
            bg = _tray_floor(background, size, rng)
        else:
            bg = synth.speckled_background(rng, w, h)
        s = float(np.exp(rng.uniform(np.log(die_px[0]), np.log(die_px[1]))))

        def look(r: np.random.Generator, value: int, px: float, tilt: float, kind: str = kind) -> d6_3d.D6Look:
            return d6_3d.tray_look(r, value, px, tilt, kind)

        img, truths = d6_3d.render_scene(rng, size, n_dice=int(rng.integers(2, 7)), die_px=(0.92 * s, 1.08 * s),
                                         max_tilt=max_tilt, background=np.ascontiguousarray(bg), look=look)
        name = f"colour-tray-{kind}-{seed + i}"
        yield name, kind, img, [Truth(_fbox(t.box), t.kind, t.value, False) for t in truths if t.box[2] > 0]


def evaluate_colour_tray(count: int, config: DiceConfig | None = None, seed: int = COLOUR_TRAY_SEED,
                         keep: list[tuple[str, np.ndarray, str]] | None = None,
                         **kw: object) -> tuple[Report, dict[str, Report]]:
    """``colour_tray_items`` read as a d6 roll as ``config`` says: the report of all frames and
    one per look. ``keep``: gets (name, crop, what) of every die left unsure or read wrong
    (what: 'unsure 3 (true 5)', 'WRONG 2 (true 6)', 'missed (true 4)') for a sheet to look at."""
    report = Report()
    looks: dict[str, Report] = {}
    for name, kind, img, truths in colour_tray_items(count, seed, **kw):  # type: ignore[arg-type]
        obs = timed_read(img, config, report)
        score_image(obs, truths, report, name)
        score_image(obs, truths, looks.setdefault(kind, Report()), name)
        if keep is None:
            continue
        match = match_dice(obs, truths)
        for ti, t in enumerate(truths):
            d = obs.dice[match[ti]] if ti in match else None
            if d is not None and d.status == STATUS_READ and d.value == t.value:
                continue
            what = ("missed" if d is None else f"WRONG {d.value}" if d.status == STATUS_READ
                    else f"{d.status} {d.guess}")
            x, y, bw, bh = (int(v) for v in t.box)
            m = max(bw, bh) // 4
            crop = img[max(0, y - m):y + bh + m, max(0, x - m):x + bw + m]
            keep.append((name, crop.copy(), f"{what} (true {t.value}, {max(bw, bh)} px)"))
    return report, looks


def evaluate_synthetic(
    count: int, seed: int = 2024, config: DiceConfig | None = None, **kw: object
) -> Report:
    report = Report()
    for name, img, truths in synthetic_items(count, seed, **kw):  # type: ignore[arg-type]
        obs = timed_read(img, config, report)
        score_image(obs, truths, report, name)
    return report


def edge_items(
    count: int, seed: int = 7_000, size: tuple[int, int] = (640, 480), crisp: bool | None = None,
) -> Iterator[tuple[str, np.ndarray, list[Truth]]]:
    """(name, BGR frame, truths) of rendered frames each holding one d6 of 40-90 px whose centre
    lies within 0.3 of its side of a frame edge (a random one): a fifth to four fifths of the
    die shows. A *crisp* frame is a plain table in sharp focus with a white, red, black or blue
    die of the first pip style turned 0-90 degrees; the others are textured tables, any die
    (``random_spec``) and the camera's blur and noise. ``crisp`` None alternates the two,
    starting crisp. Bad input the issue names (a die off the edge of the frame): a reading of
    such a die is right only by luck; the crisp frames are where the reader fails."""
    from vision.synthetic import dice as synth

    width, height = size
    for i in range(count):
        rng = np.random.default_rng(seed + i)
        plain = (i % 2 == 0) if crisp is None else crisp
        side = float(rng.uniform(40, 90))
        off = float(rng.uniform(-0.3, 0.3)) * side
        along = float(rng.uniform(0.25, 0.75))
        edge = int(rng.integers(4))
        at = [(off, along * height), (along * width, off), (width - off, along * height),
              (along * width, height - off)][edge]
        centre = (float(at[0]), float(at[1]))
        if plain:
            img = np.empty((height, width, 3), np.uint8)
            img[:] = [int(v) for v in rng.integers(20, 200, 3)]
            colour = str(rng.choice(["white", "red", "black", "blue"]))
            spec = synth.DieSpec("d6", int(rng.integers(1, 7)), centre, side, angle=float(rng.uniform(0, 90)),
                                 colour=colour)
        else:
            img = synth.table_background(rng, width, height)
            spec = synth.random_spec(rng, centre, side, kinds=("d6",))
        truth = synth.draw_die(img, spec, rng)
        if not plain:
            img = synth.camera_effects(img, rng)
        truths = [Truth(_fbox(truth.box), truth.kind, truth.value)] if truth.box[2] > 0 else []
        yield f"edge-{seed + i}", img, truths


def evaluate_edge(count: int, seed: int = 7_000, config: DiceConfig | None = None,
                  crisp: bool | None = None) -> dict[str, object]:
    """How the reader answers for dice cut by the frame's edge (:func:`edge_items`). Each frame
    holds one die, so every reading in it is of that die: counted as read right, read wrong,
    unsure, cocked, or not reported at all, with a few of the wrong ones."""
    counts = {"frames": 0, "read_right": 0, "read_wrong": 0, "unsure": 0, "cocked": 0, "not_reported": 0}
    wrong: list[str] = []
    for name, img, truths in edge_items(count, seed, crisp=crisp):
        if not truths:
            continue
        counts["frames"] += 1
        obs = read_dice(img, None, config)
        if not obs.dice:
            counts["not_reported"] += 1
        for d in obs.dice:
            if d.status == STATUS_READ and d.value == truths[0].value:
                counts["read_right"] += 1
            elif d.status == STATUS_READ:
                counts["read_wrong"] += 1
                if len(wrong) < 10:
                    wrong.append(f"{name} box={d.box} true={truths[0].value} read={d.value} conf={d.confidence:.4f}")
            elif d.status == STATUS_COCKED:
                counts["cocked"] += 1
            else:
                counts["unsure"] += 1
    return {**counts, "wrong_examples": wrong}


def evaluate_closer(
    items: Iterable[tuple[str, np.ndarray | None, list[Truth]]], config: DiceConfig | None = None,
    shrink: int = 2, check_below_px: float | None = None,
) -> tuple[Report, Report]:
    """A closer look measured: each image shrunk ``shrink`` times stands for the camera's video
    frame and the image itself for its full-resolution still (``vision.dice.closer``; a roll
    with an unsure die, or one under ``check_below_px`` (the settler's default when None), is
    looked at closer). Returns
    (frames read alone, frames with those closer looks), scored in frame pixels; the second
    report's times are those of the closer reads alone."""
    from hardware.camera import Still

    from .closer import CHECK_BELOW_PX, look_closer, wants_closer_look

    below = CHECK_BELOW_PX if check_below_px is None else check_below_px
    alone, closer = Report(), Report()
    for name, img, truths in items:
        if img is None:
            alone.errors += 1
            closer.errors += 1
            continue
        h, w = img.shape[:2]
        small = cv2.resize(img, (w // shrink, h // shrink), interpolation=cv2.INTER_AREA)
        sx, sy = w / small.shape[1], h / small.shape[0]
        scaled = [replace(t, box=(t.box[0] / sx, t.box[1] / sy, t.box[2] / sx, t.box[3] / sy))
                  for t in truths]
        obs = timed_read(small, config, alone)
        score_image(obs, scaled, alone, name)
        if wants_closer_look(obs, below):
            t0 = time.perf_counter()
            obs = look_closer(obs, Still(img, (sx, sy)), None, config)
            closer.ms.append((time.perf_counter() - t0) * 1000.0)
        score_image(obs, scaled, closer, name)
    return alone, closer


TABLE_DIE_HALF_MM = 8.0 * 0.72
"""Half the side of the synthetic table's d6 top face (a 16 mm footprint drawn at 0.72)."""
TABLE_AREA_HALF_MM = 110.0
"""The table throws its dice within 90 mm of the board's centre; the dice area is this square."""


def _table_project(truth: object, pts_mm: np.ndarray) -> np.ndarray:
    """Board millimetres to (distorted) frame pixels of a synthetic table frame."""
    h = truth.homography  # type: ignore[attr-defined]
    p = cv2.perspectiveTransform(pts_mm.reshape(1, -1, 2).astype(np.float64), h)[0]
    return np.asarray(truth.camera.distort_points(p), np.float64)  # type: ignore[attr-defined]


def table_dice_area(truth: object) -> tuple[int, int, int, int]:
    """The board's middle (where the synthetic table throws its dice) in frame pixels: the
    region board registration hands the reader."""
    from vision.board.geometry import DEFAULT_SPEC

    c, r = DEFAULT_SPEC.side_mm / 2, TABLE_AREA_HALF_MM
    pts = _table_project(truth, np.array([[c - r, c - r], [c + r, c - r], [c + r, c + r], [c - r, c + r]]))
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    return int(x0), int(y0), int(np.ceil(x1 - x0)), int(np.ceil(y1 - y0))


def table_truths(truth: object) -> list[Truth]:
    """Frame-pixel boxes and values of the d6 a synthetic table frame shows."""
    out = []
    for d in truth.dice:  # type: ignore[attr-defined]
        a = np.radians(d.angle_deg)
        u = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * TABLE_DIE_HALF_MM * 1.05
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        p = _table_project(truth, u @ rot.T + np.array(d.centre_mm))
        x0, y0 = p.min(axis=0)
        x1, y1 = p.max(axis=0)
        out.append(Truth((float(x0), float(y0), float(x1 - x0), float(y1 - y0)), "d6", int(d.value)))
    return out


def table_items(
    count: int, seed: int = 900, n_dice: int = 2, random_conditions: bool = False,
    size: tuple[int, int] = (1280, 720),
) -> Iterator[tuple[str, np.ndarray, tuple[int, int, int, int], list[Truth]]]:
    """(name, BGR frame of ``size``, dice area, truths) of seeded synthetic table frames: a
    random camera pose, ``n_dice`` d6 in the board's middle, a pawn (``vision.synthetic.table``).
    The kiosk's camera default is 2304x1296; 1280x720 makes the same dice about 16 px."""
    from vision.synthetic.table import Conditions, SyntheticTable, default_camera, random_pose

    table = SyntheticTable(camera=default_camera(*size))
    for i in range(count):
        rng = np.random.default_rng(seed + i)
        values = [int(v) for v in rng.integers(1, 7, n_dice)]
        cond = Conditions.random(rng) if random_conditions else None
        frame = table.render({"Ann": int(rng.integers(0, 40))}, values, seed=seed + i,
                             pose=random_pose(rng), conditions=cond)
        yield (f"table-{seed + i}", frame.image, table_dice_area(frame.truth),
               table_truths(frame.truth))


REGISTRATION_JITTER: tuple[tuple[int, int], ...] = ((0, 0), (-5, -3), (4, 6), (-7, 5), (6, -7))
"""Offsets (x, y) of the dice area within the kiosk's tolerance (``companion.kiosk.dice_area.MOVE_PX``,
8 px): the kiosk keeps a region until the board's registration moves it further than that, so
the area it reads can sit anywhere within a few pixels of where the board maps it."""


def evaluate_table(
    count: int, seed: int = 900, config: DiceConfig | None = None,
    shifts: tuple[tuple[int, int], ...] = ((0, 0),), **kw: object,
) -> Report:
    """The reader on the synthetic table's dice, reading the dice area of each frame, once per
    offset in ``shifts`` (each frame's dice count once per offset). A die read at one offset of
    the area and misread at another is not rare on dice of 15-35 px (measured at 53a37f0: the
    detector's boxes move with the area's pixel grid), so one offset alone flatters or damns
    by luck: the benchmark reads each frame at ``REGISTRATION_JITTER``."""
    report = Report()
    for name, img, region, truths in table_items(count, seed, **kw):  # type: ignore[arg-type]
        x, y, w, h = region
        for dx, dy in shifts:
            obs = timed_read(img, config, report, (x + dx, y + dy, w, h))
            score_image(obs, truths, report, name if (dx, dy) == (0, 0) else f"{name}@{dx},{dy}")
    return report


POLY_NAME = r"D(\d+) \((\w+)\) \((\d+)\)"


def polyhedral_value(sides: int, index: int, zero_is_ten: bool = True) -> int:
    """The value a dice-polyhedral photo shows, from its file name's die size and face index.

    The names number each die's faces 1..n, which is the face shown for every die but the d10:
    its faces are printed 0..9, and its photo "(n)" shows n - 1 (looked at: "(1)" shows 0,
    "(10)" shows 9). The 0 reads as 10 where the table uses 1-10 (``zero_is_ten``)."""
    if sides != 10:
        return index
    shown = index - 1
    return 10 if shown == 0 and zero_is_ten else shown


def tray_photo(folder: str | os.PathLike[str] | None) -> np.ndarray | None:
    """The empty tray's photo of a dice-polyhedral folder (its ``background*.jpg``, BGR), or None
    when there is none (no folder, no such file, or a file OpenCV cannot read)."""
    if not folder:
        return None
    from pathlib import Path

    path = next(iter(sorted(Path(folder).glob("background*.jpg"))), None)
    return cv2.imread(str(path)) if path is not None else None


def tray_region(background: np.ndarray) -> tuple[int, int, int, int]:
    """The black dice-tower tray in the polyhedral photos: the largest dark area, inset 2%."""
    v = cv2.cvtColor(background, cv2.COLOR_BGR2HSV)[:, :, 2]
    dark = cv2.morphologyEx((v < 60).astype(np.uint8), cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    if n < 2:
        h, w = background.shape[:2]
        return (0, 0, w, h)
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[i, :4])
    return (x + w // 50, y + h // 50, w - w // 25, h - h // 25)


def evaluate_polyhedral(folder: str, config: DiceConfig | None = None,
                        roll_kind: bool = False, whole: bool = False) -> tuple[Report, list[str]]:
    """Single numbered dice in a tray (dice-polyhedral): the file name gives type and value.

    Each photo holds one die in the tray; the reading with the highest confidence is scored (its
    box is not labelled, so any detection counts as found). D100 (tens die) is not a type the
    reader knows and is listed, not scored. ``roll_kind``: each photo is read as the kiosk reads
    a roll, told the die's type (``kinds`` set to it). ``whole``: each photo read whole, as
    ``companion dice read`` reads it without ``--region`` (the wooden table around the tray, and
    the other dice some photos show there, in view; the most confident reading is still scored,
    so a die outside the tray read with more confidence than the tray's die counts against it).
    """
    import re
    from pathlib import Path

    root = Path(folder)
    region = None
    if not whole:
        bg = tray_photo(root)
        if bg is not None:
            region = tray_region(bg)
    base = config or DiceConfig()
    report = Report()
    lines: list[str] = []
    for path in sorted(root.glob("D*.jpg")):
        m = re.match(POLY_NAME, path.name)
        if not m:
            continue
        sides = int(m.group(1))
        value = polyhedral_value(sides, int(m.group(3)), base.d10_zero_is_ten)
        img = cv2.imread(str(path))
        if img is None:
            report.errors += 1
            continue
        cfg = replace(base, kinds=(f"d{sides}",)) if roll_kind and sides != 100 else base
        t0 = time.perf_counter()
        obs = read_dice(img, region, cfg)
        report.ms.append((time.perf_counter() - t0) * 1000)
        best = max(obs.dice, key=lambda d: d.confidence, default=None)
        got = "none" if best is None else f"{best.kind}:{best.value if best.value is not None else best.status}"
        lines.append(f"{path.name}: true d{sides}:{value} read {got} ({len(obs.dice)} found)")
        if sides == 100:
            continue
        kind = f"d{sides}"
        tally = Tally(dice=1)
        if best is not None:
            tally.detected = 1
            if best.status == STATUS_READ and best.kind == kind and best.value == value:
                tally.right = 1
            elif best.status == STATUS_READ:
                tally.wrong = 1
            else:
                tally.unsure = 1
                tally.guessed = int(best.kind == kind and best.guess == value)
            report.false_positives += len(obs.dice) - 1
        report.images += 1
        band = band_of(_fbox(best.box)) if best is not None else ">=48"
        report.by_band[band].add(tally)
        report.by_kind.setdefault(kind, Tally()).add(tally)
    return report, lines


CALIBRATION_GRID = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999]


def pick_threshold(sets: dict[str, list[tuple[float, bool]]], target: float,
                   grid: list[float] = CALIBRATION_GRID,
                   totals: dict[str, int] | None = None) -> tuple[float, list[str]]:
    """The read threshold for one die type, and the table that shows why: walking down the grid
    from its top, the lowest value before the first one at which some set's confident-wrong
    share (wrong readings at or above it, over the set's total) exceeds ``target``. ``sets``
    maps a set's name to the (confidence, read right) pairs of the dice read as this type;
    ``totals`` gives a set's total (default: its number of pairs), e.g. all the dice of one
    true type, so that a d8 taken for a d10 counts against the d8s' share, as the benchmark
    counts it. If even the top of the grid fails, the top is returned (the strictest there
    is); an empty set constrains nothing."""
    totals = totals or {}
    lines = []
    choice = grid[-1]
    for t in reversed(grid):
        if all(sum(1 for c, ok in pairs if c >= t and not ok) <= target * totals.get(name, len(pairs))
               for name, pairs in sets.items()):
            choice = t
        else:
            break
    for name, pairs in sets.items():
        n = max(1, totals.get(name, len(pairs)))
        lines.append(f"  {name}: {len(pairs)} dice read as this type"
                     + (f" of {totals[name]}" if name in totals else ""))
        for t in grid:
            right = sum(1 for c, ok in pairs if c >= t and ok)
            wrong = sum(1 for c, ok in pairs if c >= t and not ok)
            lines.append(f"    t={t:<6} right {right / n:.4f} conf-wrong {wrong / n:.4f} ({wrong})")
    return choice, lines


def contact_sheet(crops: Sequence[tuple[str, np.ndarray, str]], cell: int = 128, cols: int = 10) -> np.ndarray:
    """One BGR image of ``crops`` ((name, crop, caption), e.g. ``evaluate_colour_tray``'s
    ``keep``), each scaled to ``cell`` px with its caption below it, ``cols`` a row."""
    rows = max(1, -(-len(crops) // cols))
    sheet = np.full((rows * (cell + 16), cols * cell, 3), 255, np.uint8)
    for k, (_name, crop, caption) in enumerate(crops):
        r, c = divmod(k, cols)
        if crop.size:
            img = crop if crop.ndim == 3 else cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
            sheet[r * (cell + 16):r * (cell + 16) + cell, c * cell:(c + 1) * cell] = cv2.resize(img, (cell, cell))
        cv2.putText(sheet, caption[:22], (c * cell + 2, r * (cell + 16) + cell + 12), cv2.FONT_HERSHEY_PLAIN,
                    0.8, (0, 0, 200) if "WRONG" in caption else (0, 0, 0), 1)
    return sheet
