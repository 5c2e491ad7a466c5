"""Plain observation types and the reader's configuration (thresholds live here, not in code)."""

from __future__ import annotations

from dataclasses import dataclass, field

DIE_KINDS: tuple[str, ...] = ("d4", "d6", "d8", "d10", "d12", "d20")
"""Die types the reader knows, by number of faces."""

FACES: dict[str, int] = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d12": 12, "d20": 20}

STATUS_READ = "read"
STATUS_UNSURE = "unsure"
STATUS_COCKED = "cocked"


class DiceError(ValueError):
    """A frame the dice reader cannot use (wrong type, size or colour layout); the message says why."""


SYNTHETIC_KIND_THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("d6", 0.98), ("d4", 0.6), ("d8", 0.5), ("d10", 0.97), ("d12", 0.7), ("d20", 0.8),
)
"""What ``scripts/train_dice_reader.py calibrate`` chose with the shipped networks (real d6
photos, rendered dice of every type): too low for real numbered dice, so not the default."""


@dataclass(frozen=True)
class DieReading:
    """One die as seen in one frame.

    ``box`` is ``(x, y, w, h)`` in pixels of the frame passed in. ``value`` is None unless
    ``status == 'read'``: the reader never invents a value it is not confident of.
    A d10 reads 1..10 (its "0" face is 10); a d6 reads its pip count.

    ``guess`` is the value the reader finds most likely even when it is not sure of it (the
    same as ``value`` for a read die, None for a cocked one): never a reading, only a starting
    point a person checks (the kiosk pre-fills an unsure die's button entry with it).
    """

    box: tuple[int, int, int, int]
    kind: str
    colour: str
    value: int | None
    confidence: float
    status: str
    guess: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "box": list(self.box),
            "kind": self.kind,
            "colour": self.colour,
            "value": self.value,
            "confidence": round(self.confidence, 4),
            "status": self.status,
            "guess": self.guess,
        }


@dataclass(frozen=True)
class DiceObservation:
    """What the reader saw in one frame (or one settled roll).

    ``status`` is one of:
    - ``'ok'``: every die found was read confidently;
    - ``'unsure'``: at least one die is unsure or cocked (ask the player to confirm);
    - ``'empty'``: no die in the dice area;
    - ``'error'``: the frame could not be used (``message`` says why); ``dice`` is empty.
    For a settler: ``'moving'`` while the dice roll, ``'settled'`` is never used here; the
    settler returns a :class:`SettledRoll`.
    """

    dice: tuple[DieReading, ...]
    status: str
    message: str = ""

    @property
    def values(self) -> tuple[int | None, ...]:
        return tuple(d.value for d in self.dice)

    def to_dict(self) -> dict[str, object]:
        return {
            "status": self.status,
            "message": self.message,
            "dice": [d.to_dict() for d in self.dice],
        }


@dataclass(frozen=True)
class DiceConfig:
    """Thresholds and sizes for the dice reader (defaults tuned on the Rune55 tuning split)."""

    detect_threshold: float = 0.3
    """Minimum detector heat for a die candidate."""
    refine_window: int = 96
    """Each found die's box is measured again by the detector on a window of this many pixels
    around it (``finder.refine_boxes``); 0 keeps the first pass's boxes."""
    refine_die_px: int = 40
    """The die's size in that refining window."""
    second_look_whole: bool = True
    """A die left unsure that the detector saw whole or enlarged (a 640x640 photo, the kiosk's
    dice area) gets a second look too, not only one it saw shrunk: its box measured again, the
    two looks' probabilities averaged. The second look counts only when it reads the die (else
    the first reading, with its box, stands), the pip counter is not asked about it, and a die
    at the frame's edge is judged on its first box. Real eval d6 read right: >= 48 px 86.0% ->
    86.7%, 32-48 px 64.5% -> 66.1%, none more read wrong (benchmarks/results/vision-dice-history.md,
    "A second look for every unsure die")."""
    read_threshold: float = 0.98
    """Minimum classifier confidence to report a value; below it the die is 'unsure' (chosen by
    ``scripts/train_dice_reader.py calibrate`` on held-back tune photos, fresh synthetic frames
    and synthetic table frames: the lowest value with confident-wrong <= 0.15% on each)."""
    kind_read_thresholds: tuple[tuple[str, float], ...] = ()
    """(die type, threshold) pairs that replace ``read_threshold`` for that type: confidence
    means something different for a d6 read from pips than for a d20's small number, so each
    type gets the lowest threshold that keeps it under the confident-wrong target (chosen per
    type by ``scripts/train_dice_reader.py calibrate``). Empty: ``read_threshold`` for all.

    Empty by default: calibrated on rendered numbered dice the numbered types would get
    ``SYNTHETIC_KIND_THRESHOLDS``, but no real numbered photo has been calibrated on, and on the
    real dice-polyhedral photos those lower thresholds read 10 of 55 dice confidently wrong
    (docs/vision-dice.md). A table whose dice are calibrated can set its own."""
    face_readers: tuple[str, ...] = ("d4", "d6", "d8", "d10", "d12", "d20")
    """Die types whose value is read by the type's own face reader network (that type's faces
    only) once the classifier has typed the die, instead of by the classifier's own classes for
    that type (``scripts/train_face_reader.py``). The classifier tells the types apart well (its
    type is right on all but a handful of rendered dice) but its values of the many-faced types
    are not: on rendered d20 its top value is right about 70% of the time, the d20 face
    reader's 97%. The d6 reader (a residual network trained on the real tune photos'
    pips at the labelled and the detector's boxes, rendered pips seen flat and at a slant, and
    the synthetic table's small dice) reads more real pips than the classifier
    (benchmarks/results/vision-dice-history.md, "The d6 reader"). Empty: the classifier reads
    every value."""
    face_reader_skip_above: float = 0.9999
    """A die whose value the classifier already gives at least this probability keeps the
    classifier's answer and skips its face reader. Only near-certain answers skip: at 0.98 a
    rendered d8 the classifier called "d10:2" never reached the d10 reader and was read
    confidently wrong; at 0.995 (its earlier value) a rendered d12 "9" the classifier called "6" at
    0.9995 did the same (the d12 reader reads it 9). About half a millisecond a frame of
    numbered dice against 0.995 (docs/vision-dice.md, step 3)."""
    type_reader: bool = True
    """Weigh the type of a numbered die the classifier doubts between numbered types with the
    type reader's answer (``reader.with_type_reader``, ``scripts/train_type_reader.py``): the
    numbered share is split in proportion to the product of the two networks' answers. On
    rendered numbered dice it reads one or two dice in a hundred more with none wrong; on the real
    dice-polyhedral photos it read 6 of 8 d8 (none before) and nothing wrong
    (benchmarks/results/vision-dice-history.md, "Type reader"). Off: the classifier's type
    stands."""
    type_reader_skip_above: float = 0.9999
    """A die whose top numbered type already has this share of the classifier's numbered
    probability keeps the classifier's split and skips the type reader. 0.995 at first:
    a rendered d12 and a d8 whose detected box held only the top face were typed d10 by the
    classifier at 0.998 and, never shown to the type reader, read confidently wrong (100 frames
    of seed 40,000); shown to it, one is read right and the other left unsure. Costs at most
    about half a millisecond a frame of numbered dice (benchmarks/results/vision-dice-history.md,
    "The skips at 0.9999")."""
    type_reader_always_px: int = 120
    """A numbered die at least this large (the longer side of its box, in the frame's pixels)
    is shown to the type reader however sure the classifier is of its type. Close up (a single
    die of 150-250 px in a tray) the classifier took rendered d12 for d20 at 0.9999 and more:
    6 of 40 read confidently wrong; the type reader calls them d12 and the product of the two
    leaves them unsure (0 wrong; d4, d8, d10, d20 read the same). Such frames hold a die or two,
    so the extra type-reader pass is cheap there; for the many smaller dice of a table the
    skip above stands."""
    overview_die_px: int = 100
    """Dice at least this large (in the detector's view of the frame) are taken from a second
    detector pass at half the scale (``finder.find_dice``): close-up dice larger than the
    detector learned. The pass runs only when the detector's view is at least four times this
    and the first pass found no clearly small die (one with a die's score, under half this);
    its box is trusted only where the first pass holds no small die (0: off)."""
    overview_recheck: bool = True
    """Look for a close-up die with the overview pass once more after the classifier has judged
    the candidates (``finder.overview_wanted``), counting as dice only the candidates it takes
    for dice: the first view takes the numbers printed on a close-up d20 for small dice, and
    those kept the pass from running. Costs nothing on a frame of small dice the classifier
    takes for dice."""
    detect_max_side: int = 640
    """The frame (or region) is scaled so its longer side is at most this for the detector."""
    detect_two_step: bool = False
    """Shrink the detector's view in two steps (``finder.shrink``): halved with INTER_AREA (each
    pixel the mean of 2x2, OpenCV's fast path) while it stays at least twice the size it is
    shrunk to, then INTER_LINEAR the rest of the way; a frame shrunk by a whole factor, or by less
    than 2, is shrunk in one INTER_AREA step either way. About a tenth of the one step's time
    (INTER_AREA by a fraction is slow on a large frame), but other pixels: off, because the
    detector then finds and reads fewer of the rendered colour tray's dice
    (``benchmarks/dice_shrink.py``; docs/vision-dice.md, "The shrink")."""
    detect_min_side: int = 448
    """A frame or region whose longer side is shorter than this is enlarged for the detector
    (at most ``detect_max_zoom`` times): a small dice area holds small dice."""
    detect_max_zoom: float = 2.0
    min_die_px: int = 8
    """Boxes smaller than this (in frame pixels) are ignored."""
    max_dice: int = 24
    edge_margin_px: int = 2
    """A box within this margin of the edge of what the reader sees may be cut off by it."""
    mirror_reach: float = 0.5
    """A d6 read within this many box sides of the edge of what the reader sees is read only if
    the classifier also gives its value the read threshold on a crop whose part past that edge
    is the mirror of what lies inside it (0: off). A die the edge cuts looks like another face
    once its visible part is mirrored; a whole die beside the edge has only table mirrored
    (benchmarks/results/vision-dice-history.md, "Dice cut by the frame's edge")."""
    region_margin: float = 0.06
    """The reader sees this share of the region's longer side (at least ``edge_margin_px`` + 8
    px) beyond each side of the region, clipped to the frame, and keeps the dice whose centre
    lies in the region: a die lying across the region's edge is seen whole, not cut by it."""
    edge_read_threshold: float = 0.99
    """A die cut by the edge needs this confidence to be read (hidden pips could change it)."""
    edge_min_aspect: float = 0.8
    """A die at the edge whose box is narrower than this (short/long side) is cut off: unsure.
    So is a d6 whose silhouette, where it touches the frame's edge, reaches from it less than
    this share of its length along it (``silhouette_cut``)."""
    pip_outside_below_px: int = 48
    """A d6 read whose box is smaller than this (longer side, px) and has a spot like its pips
    just outside the box (``pips.pip_outside``) has its box measured again
    (``finder.refine_boxes``), and stays read only if the classifier names the same value on
    the new box's crop: the detector's box of a small die can sit a few pixels off it and miss
    a column of pips, and the classifier then reads the rest confidently (a 3 as 2; 0: off)."""
    silhouette_cut: bool = True
    """A d6 read near the frame's edge is separated from the table by colour
    (``outline.visible_share``), and when its silhouette touches the edge and is cut by it
    (narrower than ``edge_min_aspect``) it is unsure: the detector's box of a cut die can be
    square or stop short of the edge (benchmarks/results/vision-dice-history.md,
    "Dice cut by the frame's edge")."""
    min_contrast: float = 0.0
    """Candidates whose centre crop has a grey standard deviation below this are dropped (0: off;
    measured: 14 drops 1.3% of real large dice and almost none of the tray-noise detections)."""
    turns_below: float = 0.97
    """A die whose first classification is less sure than this (but at least ``turns_above``)
    is classified again turned (``turns``) and the answers averaged (0: never; the read
    threshold is calibrated with these settings)."""
    turns_above: float = 0.5
    """Below this first confidence a die is not turned: averaging seldom lifts such a crop to
    the read threshold (measured on the real eval crops: the same share read, a third fewer
    crops turned)."""
    turns: tuple[int, ...] = (2,)
    """Quarter turns classified again for a hard die: (2,) is half a turn, one extra pass, and
    read as many real dice as all three turns (docs/vision-dice.md)."""
    none_threshold: float = 0.5
    """A candidate the classifier calls 'not a die' with at least this probability is dropped."""
    speck_ratio: float = 0.35
    """A candidate not read (unsure or cocked) whose box is smaller than this share of the
    largest candidate in the frame that is at least ``speck_confidence`` likely a die (of any
    type, or cocked) is dropped as a speck: dice thrown together lie at about one distance
    from an overhead camera, so a thing a third the size of a die beside it is dust, a crumb
    or a mark on the tray. A die read is always kept (0: off)."""
    speck_confidence: float = 0.5
    pip_agree_above: float = 0.3
    """A d6 whose most likely value has at least this share of the classifier's probability,
    but not enough to be read, is read when the classical pip counter (``vision.dice.pips``)
    counts the same value on its top face (0: off). Never at the edge of what the reader sees.
    Only a die whose box is square (``pips.FLAT_BOX``: lying flat) is asked. Measured: the
    same readings from 0.1 to 0.5 on the rendered sets, none of them wrong, and no new wrong
    reading on the real photos (benchmarks/results/vision-dice-history.md, "Pip agreement")."""
    pip_agree_min_px: float = 26.0
    """The pip agreement asks only about a die whose box is at least this many pixels across
    (0: any). On smaller dice the counter sees pips of two or three pixels and agreed with wrong
    guesses: over 1,680 synthetic table dice at 1280x720 (14-17 px), 7 confident-wrong readings
    with it and none without. On the kiosk's 2304x1296 dice (26-34 px) it keeps half to two
    thirds of what it added, and still agrees with a wrong guess about once in 600 dice
    (benchmarks/results/vision-dice-history.md, "Pip agreement on small dice")."""
    d4_outline: bool = True
    """A d4 left unsure only for its type or for lying flat (the classifier gives the d4 type at
    least half its probability, and the value's share of the type's probability reaches the read
    threshold) is read when its outline is an equilateral triangle (``vision.dice.outline``):
    what a d4 lying on a face shows from above, and no other die. Never at the edge."""
    d6_head: bool = True
    """Judge every d6 again with the d6 head (``vision.dice.d6head``, ``reader._d6_pass``): the d6
    face reader corrected by the head fitted on the real photos (and the table's own, ``d6_table``)
    keeps a d6 the first look read only when the head names the same value, and reads a d6 the
    first look left unsure when its score (``reader.d6_score``: the head's top value, made surer
    when the first reading or the pip counter names the same value, less sure when the first
    reading names another) reaches its size band's threshold; an unsure die's guess is the
    head's top value. False: the first look alone."""
    d6_read_thresholds: tuple[tuple[str, float], ...] = (
        (">=48", 0.99955), ("32-48", 0.9635), ("<32", 0.99),
        (">=48/slanted", 2.0), ("32-48/slanted", 0.99), ("<32/slanted", 0.99))
    """(size band and view, threshold): a d6 the first look left unsure is read when its score
    reaches this (chosen by ``scripts/train_d6_head.py calibrate`` on the calibration photos of
    both real sets, on the dice the first look left unsure: per group the lowest score at which
    each set's dice are read wrong at most 0.4% of the time; 0.99 where a group has under 50
    calibration dice; the view is the detector's box). A slanted
    die of 48 px and more is never read this way: the colour photos' dice seen from the side are
    read wrong at full confidence (the networks learned dice seen from above and read the side
    face turned to the camera)."""
    d6_slanted_unsure: bool = False
    """Leave every slanted d6 of 48 px and more unsure, even one the first look read: on the
    colour photos seen from the side the first look reads about one in thirteen of them wrong
    with confidence; on the grey close-ups it reads most of them right."""
    d6_pip_trust: float = 0.9
    """How far the pip counter's agreement counts in a d6's score (``reader.d6_score``; 0: not)."""
    d6_table: object | None = None
    """A table's own adaptation (``vision.dice.tune.Adaptation``, ``companion dice tune``)."""
    d6_colour: bool = True
    """Ask the colour d6 reader (``vision.dice.d6colour``: ImageNet-pretrained EfficientNet-Lite0
    blocks and a head trained on real colour and grey photos) about every d6 the d6 pass judges,
    and combine its answer with the grey looks (``reader.colour_verdict``). Needs ``d6_head``.
    On the eval photos it read 3.5 points more of the colour photos' d6 of 48 px and more and
    none wrong that was not before (docs/vision-dice.md, "The colour d6 reader")."""
    d6_colour_veto: float = 2.0
    """A d6 the grey looks read is left unsure when the colour reader names another value with
    at least this probability (2.0: never; on the calibration photos a veto at 0.9 doubted
    three dice, all read right)."""
    d6_colour_agree: float = 0.9
    """A d6 the grey looks left unsure is read when the colour reader names their guess with at
    least this probability (the lowest that added no wrong reading on the calibration photos)."""
    d6_colour_agree_bands: tuple[tuple[str, float], ...] = ()
    """(size band, threshold) pairs that replace ``d6_colour_agree`` for the d6 of that band of
    box side (">=48", "32-48", "<32"; ``reader.band_group`` without the view). Empty: one
    threshold for all."""
    d6_colour_alone: float = 2.0
    """A d6 the grey looks left unsure is read as the colour reader's value when it has at least
    this probability (2.0: never; at 0.999 it read no die of the calibration photos)."""
    d6_colour_min_chroma: float = 20.0
    """A d6 whose colour crop is at least this colourful (``d6colour.crop_chroma``: the 75th
    percentile of max - min channel over the middle of the crop) is a *colour die*, where the
    colour reader sees what grey hides; under it (a grey photo, a white, ivory or black die)
    the grey networks see as much, and ``d6_colour_agree_grey`` applies."""
    d6_colour_agree_grey: float = 0.0
    """The least agreement (``d6_colour_agree``) asked of the colour reader for a die that is
    not a colour die (0: no more than for a colour die). A colour reader fine-tuned on colour-tray
    renders needed 0.97 here on the calibration photos (it agreed with wrong grey guesses more
    often); the shipped one needs nothing more."""
    d6_colour_product: float = 0.99
    """A colour die (``d6_colour_min_chroma``) of 32 px or more seen from above (a square box)
    that the grey looks left unsure is read when the d6 head and the colour reader name the
    same value first and their probabilities multiplied and normalised
    (``reader.colour_product``) give it at least this (2.0: never). Two witnesses that each lean the same way count for
    more than either alone, where the agreement rule (``d6_colour_agree``) asks the colour
    reader alone to be sure. 0.99: the lowest at which it read no die wrong on the calibration
    photos of both real sets and on 200 rendered colour-tray frames of the tuning seeds
    (``evaluate.COLOUR_TRAY_TUNE_SEED``); on the eval photos it read two more colour-photo dice and
    none more wrong (docs/vision-dice.md, "Colour dice in a tray from above")."""
    d6_contrast: bool = True
    """A second grey look at a *colour die* (``d6_colour_min_chroma``) of ``d6_contrast_min_px``
    or more, seen from above (a square box), that the d6 pass leaves unsure: the same d6 networks read a grey made from the die's
    own colours (``vision.dice.contrast``: the face's colours projected on their first principal
    component, body light and pips dark), where a die whose pips match its body in luminance
    shows its pips. The die is read when that look names a value with at least
    ``d6_contrast_head`` and an independent witness names the same value: the colour reader with
    at least ``d6_contrast_witness``, or the pip counter on the same grey. On 150 rendered
    colour-tray frames (figures' seeds) it read 67% of the grey-matched dice found where the
    reader without it read 54%, and nothing more wrong there, on the eval and calibration
    photos, the rendered table or the dice cut by the edge (docs/vision-dice.md, "The contrast
    look"). False: the readings without it, exactly."""
    d6_contrast_head: float = 0.95
    """The least probability the contrast look (``d6_contrast``) gives the value it reads (with
    ``d6_contrast_witness`` 0.7: the lowest that read no die wrong on the calibration photos of
    both real sets and on 500 rendered colour-tray frames of the tuning seeds)."""
    d6_contrast_witness: float = 0.7
    """The least probability the colour reader gives the same value for the contrast look to
    read it (the pip counter on the contrast grey naming it counts as well; 2.0: only the pips)."""
    d6_contrast_min_px: float = 32.0
    """The contrast look is asked only about d6 whose box is at least this many pixels across."""
    number_reader: bool = True
    """Ask the number reader (``vision.dice.numbers``: ImageNet-pretrained EfficientNet-Lite0
    blocks and a head trained on renders made to look like photos, in colour) about every d8,
    d10, d12 and d20 the grey looks leave unsure, and read it when the two agree
    (``reader.number_verdict``; docs/vision-dice.md, "The number reader"). It reads a die only
    when the roll gives its type (the one numbered type in ``kinds``, as the kiosk's rolls do);
    with several numbered types in play it only sharpens the guess."""
    number_reader_kinds: tuple[str, ...] = ("d8", "d10", "d12", "d20")
    """The numbered types the number reader is asked about."""
    number_min_px: float = 48.0
    """The number reader is asked only about dice at least this wide (its renders were 50-100
    px; on 18-30 px d20 its answers flickered from frame to frame, and a roll that never reads
    the same twice in a row is not reported)."""
    number_any_roll_kinds: tuple[str, ...] = ("d8", "d20")
    """In a roll that does not name the die's type (several numbered types in ``kinds``, e.g.
    every type), the number reader may read a die of these types only, and only when the
    classifier alone and the type reader alone both give that type at least ``number_type_agree``
    (``reader.type_agreed``). Not d10 or d12: on the real dice-polyhedral photos a barrel d4 and
    the digit d6 were typed d10 or d12 by both networks at 0.87-1.0, and the number reader named
    their (shared) number; no real die of another type was typed d8 or d20 by both
    (docs/vision-dice.md, "The number reader"). Empty: only a roll that names the type."""
    number_type_agree: float = 0.9
    """Each network's share on the die's type (the classifier's of its numbered types, turned as
    the first look turns it; the type reader's) for ``number_any_roll_kinds``."""
    number_type_reader_alone: tuple[tuple[str, float], ...] = (("d20", 0.99),)
    """(type, probability) pairs: a die of one of ``number_any_roll_kinds`` whose type the type
    reader alone gives at least that probability is agreed to be that type without the
    classifier's share (``reader.type_agreed``; the final reading must still give the type at
    least half). On real numbered photos the classifier's share of the type is what varies
    (real d8 0.12-0.92 of their numbered share) while the type reader named all 8 real d8 and
    10 real d10 at 0.99-1.0; it gave d20 at most 0.17 to any real die of dice-polyhedral
    (d4, digit d6, d8, d10, d12, d100; whole photos), so for the d20 it is a witness of its own.
    Not the d8: it gave a real d100 0.989 of d8. Empty: both witnesses always."""
    number_agree: float = 0.5
    """An unsure numbered die is read when the number reader names the grey looks' top value
    with at least this probability (two methods that fail differently agree). With
    ``number_agree_grey``, chosen for the number reader trained with the plastic look, one real
    type held out at a time (``benchmarks/dice_number_rule.py --turns --turns-grid 1 --plastic
    20``; docs/vision-dice.md, "Renders in the plastic look")."""
    number_agree_grey: tuple[float, float] = (0.1, 0.5)
    """(the number reader's least probability, the grey looks' least probability): an unsure
    numbered die is also read when the number reader names the grey looks' top value with at
    least the first while the grey looks' own probability of that type and value (the
    classifier's share of the type times the face reader's, not renormalised over the type) is
    at least the second: the face reader and the number reader, which fail differently, name
    it (the reading's confidence is then the larger of the two). Chosen on the real
    dice-polyhedral photos of the other numbered types and tuning renders, one real type held
    out at a time (``benchmarks/dice_number_rule.py``; with the number reader before the plastic
    look, (0.2, 0.4) read the real d10 4 of 10, 0 before: docs/vision-dice.md, "Each real die,
    network by network"; the present pair goes with ``number_agree``). (2.0, 2.0): never."""
    number_turns: int = 1
    """The number reader reads each die the numbered pass asks about at this many evenly spaced
    turns of its crop and averages the glyph probabilities (``numbers.read_glyphs``; a die's
    numbers are printed at any angle, so every turn is a fair look). 1: the crop as cut, once.
    Its cost is per die asked (``benchmarks/number_turns_cost.py``: about 4 ms a die at 1 turn,
    57 at 16). Not adopted: the rule chosen with it, one real type held out
    (``benchmarks/dice_number_rule.py --turns``), read one more real d8 than the same search at
    one turn but, measured, a real d10 and a rendered d20 fewer (docs/vision-dice.md, "Reading
    the number at several turns")."""
    number_alone: float = 2.0
    """An unsure numbered die is read as the number reader's value when it has at least this
    probability, whatever the grey looks say (2.0: never). Never: chosen with the rule, 0.9 read
    no more held-out real dice than never (12 either way), and on rendered plastic d20 read as a
    d20 roll it read an "11" as 1 at 0.98 (docs/vision-dice.md, "Renders in the plastic look")."""
    number_type_veto: float = 0.5
    """In a roll that does not name the die's type (several numbered types in ``kinds``), a d8,
    d10 or d12 the grey looks read (a d20 has every number it could show) is left unsure when the number reader puts at least this
    probability on numbers its type does not have (a "14" read as a d8's 4: the type was wrong;
    ``reader._number_names_type``). Asked only about dice of ``number_min_px`` and more, clear of
    the frame's edge. 2.0: never (docs/vision-dice.md, "A number only a d20 has")."""
    number_names_d20: float = 0.9
    """In a roll that does not name the die's type, with the d20 among the types in play, a
    numbered die of ``number_min_px`` and more (clear of the edge) that the number reader gives at
    least this probability of a number from 13 to 20, which only a d20 has, is read again as a
    roll of one d20 reads it (the same view, ``kinds`` the d20 alone), whatever type the grey
    looks gave it. The highest such share of any real non-d20 die of dice-polyhedral was 0.83 (a
    d100's "40"), of rendered plastic d8, d10 and d12 0.82 (a d12's "11"). 2.0: never."""
    face_reader_names_type: tuple[float, float, float] = (0.95, 0.95, 0.5)
    """(its value mass, its top value, the number reader's share of that number): a numbered
    type's own face reader, asked whatever share of the type the classifier gave, reads a die as
    that type (``reader._face_reader_names_type``). It asks about an unsure die in a roll of one
    numbered type, and, with the d20 in play, about an unsure die typed d20 or d8 or one read as
    a d8 whose number a d8 does not have (9-20). The face reader must put at least the first on
    its values (the rest is its "not this type" output) and the second on one value, and the
    number reader at least the third on that same number; the die must be clear of the frame's
    edge, not cocked, and of ``number_min_px`` and more. An unsure die of any size whose face
    reader puts the first on its values gets that reader's value as its guess. Chosen on plastic
    d20 renders of the tuning seeds (docs/vision-dice.md, "A type's face reader names its own
    dice"). (2.0, 2.0, 2.0): never."""
    d6_colour_near: float = 2.0
    """A d6 of 32 px or more near the frame's edge (within a side of it, its box clear of the
    edge margin) that the first look left unsure is read when the d6 head and the colour reader
    both name its value with at least this probability (2.0: never, such a die stays unsure; a
    die the edge may cut, its box within the margin, is never read this way). Off: at 0.9
    (chosen on the calibration photos, where it read 5 such dice, all right) it read 2 more
    Rune55 eval dice of 48 px and more right, and of the colour photos' 9 more right and one
    more wrong (docs/vision-dice.md, "The colour d6 reader")."""
    tuned_edge_clear: float = 0.1
    """A d6 within a side of the frame's edge that the first look left unsure, and that the d6
    pass therefore does not read, may still be read by a table's own adaptation (``d6_table``,
    ``tune.tuned_read``) when its box keeps at least this share of its side (and at least
    ``edge_margin_px``) clear of every edge of the frame and its silhouette is not cut
    (``outline.visible_share``): a die lying whole near the edge of a close-up photo. The table's
    examples show what such dice look like; a die the edge may cut stays unsure (negative: never).
    A tenth: the least margin at which none of 203 rendered d6 cut by the frame's edge that the
    reader left unsure (``evaluate.edge_items``, 400 frames) would be given to the table (at 0.05,
    the edge margin's own share, 2 would); on the Rune55 numbered photos it gives the table 12
    of their 63 unsure dice (docs/vision-dice.md, "Learning the table's own dice")."""
    d6_evidence: bool = False
    """Compute the d6 head's evidence even when ``d6_head`` is off (calibration)."""
    channel_order: str = "bgr"
    """Channel order of colour frames passed in: 'bgr' (OpenCV) or 'rgb' (picamera2, PIL)."""
    kinds: tuple[str, ...] = field(default=DIE_KINDS)
    """Die types the table uses (or the roll expects); the classifier's answers of other types
    are ignored, and their share counts against the confidence (so a die that looks like a type
    not in play is unsure rather than read as the nearest type in play)."""
    d10_zero_is_ten: bool = True
    """Report the d10 face '0' as 10 (tables that read 1-10)."""

    def threshold_for(self, kind: str) -> float:
        """The confidence a die of ``kind`` needs to be read (away from the frame's edge)."""
        for k, t in self.kind_read_thresholds:
            if k == kind:
                return t
        return self.read_threshold
