"""What the block and scatter dice reader says, and its settings (thresholds live here)."""

from __future__ import annotations

from dataclasses import dataclass

KINDS: tuple[str, ...] = ("block", "scatter")

BLOCK_LABELS: tuple[str, ...] = (
    "attacker down", "both down", "pushed", "pushed", "defender stumbles", "defender down",
)
"""The block die's faces 1..6 as the kind ``block`` reads them out."""

SCATTER_LABELS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""The compass directions the reader tells apart, clockwise from north (up the board as it is
registered); a reading's ``label`` is one of them."""

SCATTER_FACES: tuple[int, ...] = (2, 3, 5, 8, 7, 6, 4, 1)
"""The scatter die's face value (the kind ``scatter``: the base game's template, 1 up-left,
2 up, 3 up-right, 4 left, 5 right, 6 down-left, 7 down, 8 down-right) for each of
``SCATTER_LABELS``."""

STATUS_READ = "read"
STATUS_UNSURE = "unsure"


class SpecialDiceError(ValueError):
    """A request the reader cannot serve (unknown kind, a bad orientation); the message says why."""


@dataclass(frozen=True)
class SpecialDieReading:
    """One block or scatter die in one frame.

    ``box`` (x, y, w, h) in pixels of the frame passed in; ``value`` is None unless ``status``
    is ``'read'`` (the reader never gives a value it is not sure of); ``guess`` is the value it
    finds most likely even when unsure (only for a person to check); ``label`` names ``value``
    (or the guess, when unsure). A block die reads 1, 2, 3 (pushed: its faces 3 and 4 look
    alike and both read 3), 5 or 6. For a scatter die ``bearing_deg`` is the arrow's measured
    compass bearing on the board (0 = north, clockwise), whatever the status."""

    box: tuple[int, int, int, int]
    kind: str
    value: int | None
    confidence: float
    status: str
    guess: int | None = None
    label: str = ""
    bearing_deg: float | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "box": list(self.box), "kind": self.kind, "value": self.value,
            "confidence": round(self.confidence, 4), "status": self.status, "guess": self.guess,
            "label": self.label,
            "bearing_deg": None if self.bearing_deg is None else round(self.bearing_deg, 1),
        }


@dataclass(frozen=True)
class SpecialDiceObservation:
    """The dice read in one frame: ``status`` 'ok' (every die read), 'unsure' (at least one
    not), 'empty' (none found) or 'error' (the frame could not be used: ``message`` says why)."""

    dice: tuple[SpecialDieReading, ...]
    status: str
    message: str = ""

    @property
    def values(self) -> tuple[int | None, ...]:
        return tuple(d.value for d in self.dice)

    def to_dict(self) -> dict[str, object]:
        return {"status": self.status, "message": self.message, "dice": [d.to_dict() for d in self.dice]}


@dataclass(frozen=True)
class SpecialDiceConfig:
    """Thresholds of the block and scatter dice reader. The read thresholds are chosen on
    rendered tuning frames only (``benchmarks/vision_special_dice.py --tune``, seeds 3,000,000
    on): the lowest at which none of the tuning dice of either kind was read wrong and nothing
    was read where no die lies, plus a margin (docs/vision-special-dice.md, Figures)."""

    kinds: tuple[str, ...] = KINDS
    """The kinds in play: a die that looks like another kind is unsure, not read as one in play."""
    find_threshold: float = 0.04
    """Minimum finder heat for a candidate die (on the tuning frames: 237 of 248 block and 256 of
    273 scatter dice found and kept by the reader, with 2 and 13 candidates in 100 frames a kind
    left where no die lies, none of them read)."""
    none_threshold: float = 0.5
    """A candidate the reader calls "not a block or scatter die" this surely is dropped."""
    screen_none: float = 0.98
    """A candidate whose first view (the crop as it is) the reader already calls "no die" with at
    least this probability is not read in the other views (``views``): averaged with any second
    view it would be dropped by ``none_threshold`` all the same, unless that view were almost
    certain of a die. Frames with tokens or pipped dice beside the block dice hold up to 24
    candidates; reading each once instead of twice took the benchmark's 90th-percentile frame
    time from about 23 to about 16 ms, every reading the same. A weak candidate (``weak_heat``)
    is screened as soon as one view decides it exactly. 1.0: every candidate in every view."""
    screen_die: float = 0.002
    """The screen (``nets.SCREEN_PATH``): a tiny network that looks at every finder candidate, cut
    small (32 px, axis-aligned) from the grey frame, all in one run, before the reader does; a
    candidate it gives less than this probability of being a die is dropped unread. 0.0: no screen,
    every candidate goes to the reader. Chosen on 2,000 tuning frames a kind
    (``benchmarks/vision_special_dice_screen.py``): the highest step of the sweep at which no die
    read right or left unsure without the screen was lost, for both kinds, was 0.005 (0.01 lost
    three block dice left unsure); 0.002 is one step lower (the margin). There no die was lost or
    read otherwise, none read wrong, and the 90th percentile of reader runs a frame fell from 34
    to 19 (block) and 32 to 17 (scatter)."""
    weak_heat: float = 0.2
    """A candidate the finder gives less heat than this is kept only when the reader is at least
    ``weak_die`` sure it is a die of these kinds (the finder's threshold is low so that few dice
    are missed; the reader then throws out most of what is not a die)."""
    weak_die: float = 0.8
    relook_heat: float = 0.04
    """A candidate with at least this finder heat that the reader turned down (``none_threshold``,
    ``weak_die``) while giving "no die" less than ``relook_none`` may get a second look: crops a
    quarter of a side to the left and to the right, a quarter smaller and a third larger
    (``reader.RELOOK_VARIANTS``), each read in one view, the likeliest in its other views too."""
    relook_none: float = 0.97
    """The second look is only for candidates the reader gave "no die" less than this (1.0: any
    candidate turned down; 0.0: no second look)."""
    relook_max: int = 1
    """Second looks a frame at most, the strongest candidates first (one costs a reader run per
    crop of ``reader.RELOOK_VARIANTS`` and one per view). On the tuning frames one look found 3 of
    the 4 dice that looks at every doubtful candidate (in six crops each) found, for 2.1 more
    reader runs a frame on average (12.6 -> 14.7) instead of about 10."""
    relook_die: float = 0.9
    """A second look's crop is a die when the reader gives it at least this probability of being a
    die of a kind in play. On the tuning frames none was read wrong from 0.8; at 0.8 two and at 0.85
    one unsure box were added where no die lies, none from 0.9."""
    search_grid: float = 0.75
    """The missed-dice search (``reader.find_missing``: a settled roll with fewer dice found than
    thrown) has the screen score the places a die could lie, every this much of a die's side
    across the dice area (0: no search). On the kiosk table's tuning frames 0.5, 0.6 and 0.75 left
    22-24 of 400 rolls to correct; 0.75 scores less than half as many places (about 47 ms a
    search here, 81 at 0.5)."""
    search_max: int = 8
    """The search looks at the likeliest this many places (no two within 0.6 of a side), each as
    the second look looks (``reader.RELOOK_VARIANTS``), once per settled roll."""
    search_die: float = 0.5
    """A place the search looks at is taken for a missed die when the reader gives one of its
    crops at least this probability of being a die of a kind in play (the likeliest first, as
    many as are missing). Such a die is never read: it is unsure, with its guess."""
    search_die_alone: float = 0.8
    """The same bar when the reader found none of the roll's dice: the search may then be looking
    at an empty tray a hand passed over. On 100 empty trays of the kiosk's table (random camera
    pose and light, seeds 8,990,500 on), searched for two dice, 0.5 added 3 (block) and 5
    (scatter) dice where none lay, 0.7 to 0.9 none; of the dice of the tuning frames' throws the
    reader found none of, 0.8 finds 10 of 10 block and 2 of 6 scatter dice (0.5: 10 and 4)."""
    block_threshold: float = 0.9
    """A block die is read when its symbol has at least this probability (the scatter class
    left out when only block dice are rolled). Chosen on 500 tuning frames (block reader, four
    views, 1,175 dice found) by the rule in docs/vision-special-dice.md ("Thresholds"): wrong
    0.26% at 0.8, 0.085% (1) from 0.85; 0.9 is the next step of the sweep (the margin)."""
    scatter_threshold: float = 0.998
    """A scatter die is read when it is a scatter die and its arrow lies in one direction's
    45-degree sector with at least this probability together: an arrow close to the line
    between two directions stays unsure (a person decides, as at the table; ruling B-31: an
    arrow measured 2 degrees off the line with a 2-degree spread has 0.84 in its sector, so it
    stays unsure). The plain reader (no board homography) never gets under 0.2% wrong on the
    500 tuning frames (1,224 dice found: 0.65% at 0.85, 0.25% (3) from 0.995), so the rule's
    fallback, the lowest threshold with the fewest wrong plus one step: 0.998, which reads about a
    quarter of the dice. Register the board to read scatter dice with the upright reader."""
    views: int = 2
    """Views of each crop the reader averages (1, 2: also turned half a turn, 4: every quarter
    turn, 8: and their mirror images); more views cost reader time."""
    block_views: int = 4
    """Views of each crop when only block dice are rolled (read by the block reader,
    ``nets.BLOCK_READER_PATH``)."""
    upright: bool = True
    """Read with the upright reader (``nets.UPRIGHT_READER_PATH``) when the board's homography is
    known: each crop turned so that the way to the camera's nadir (``upright.nadir``) points down,
    which puts the die's visible side faces at the bottom of the crop and its top face above them.
    Without a homography (``Orientation(up_deg=...)``) the nadir is unknown and the plain readers
    read the roll."""
    upright_block_threshold: float = 0.97
    """``block_threshold`` for the upright readers: on 500 tuning frames (the upright reader, two
    upright views, 1,175 dice found) 0.51% were read wrong at 0.8, 0.17% at 0.95, the first step
    at or under 0.2%; 0.97 is the next step (the margin; 0.085%, one die). The block upright
    reader in 8 bits, on 2,000 tuning frames: 5 wrong (0.10%) at 0.93, the first such step; the
    rule's 0.95 read 20 more dice in the end than 0.97 with 2 more wrong, so 0.97 stays for both."""
    upright_scatter_threshold: float = 0.85
    """``scatter_threshold`` for the upright reader. On 2,000 tuning frames (seeds 3,500,000-
    3,501,999; 4,746 dice found), with the second opinion after it: 0.85 is the step the rule
    gives (6 wrong, 0.13%, all the upright reader's own; 4,026 read right, 84.8% of those found,
    against 3,789 at 0.9 without the second opinion). Ruling B-31 needs at least 0.85 (an arrow 2
    degrees off a sector line with a 2-degree spread has 0.84 in its sector and must stay
    unsure)."""
    second_opinion: tuple[str, ...] = ("block", "scatter")
    """The kinds whose dice get a second opinion when the upright reader leaves them unsure for
    want of confidence alone (not cut by the frame's edge, not looking like the other kind; one
    kind in play, the board registered); ``()`` for none. The die is cropped again a tenth of a
    side to the left and to the right (``reader.SECOND_VARIANTS``), each crop read in
    ``upright_views`` views, and the value probabilities of its three crops are averaged; the
    die is read when the likeliest value has at least ``second_block_threshold`` /
    ``second_scatter_threshold`` of that mean. Dice read before stay as they were. Costs two
    crops in ``upright_views`` views per such die (about half a die a frame). Block dice: on the
    third held-out range 83.2% of the block dice read right (76.8% without), none wrong. Scatter
    dice (with ``upright_scatter_threshold`` 0.85, both chosen on 2,000 tuning frames): on the
    fifth held-out range 77.5% read right (72.7% with 0.9 and no second opinion), the same one
    die wrong (0.13%) either way (docs/vision-special-dice.md, Figures)."""
    second_block_threshold: float = 0.9
    """The block threshold of ``second_opinion`` (it applies to rolls of block dice only, read by
    the block upright reader). On 2,000 tuning frames (seeds 3,000,000-3,001,999; 4,888 block
    dice found), with that reader in 8 bits at ``upright_block_threshold``: 5 wrong (0.10%) at
    0.85, the first step under the rule (docs/vision-special-dice.md, "Thresholds"); 0.9 is the
    next step: 2 wrong (0.04%), 4,464 read right (91.3% of those found; the upright reader of
    both kinds in 8 bits, as block rolls were read before, with 0.93: 4,156, 85.3%)."""
    second_scatter_threshold: float = 0.85
    """The scatter threshold of ``second_opinion``. On 2,000 tuning frames (3,500,000-3,501,999;
    4,746 found): 7 wrong (0.15%) at 0.8, the first step under the rule; 0.85 is the next: 6 wrong
    (0.13%, the upright reader's own six), 3,962 read right (83.5%; alone at 0.9: 3,789, 79.8%).
    A mean of sector masses keeps an arrow on a sector line unsure (ruling B-31 needs at least
    0.85, as for ``upright_scatter_threshold``)."""
    upright_8bit: tuple[str, ...] = ("block",)
    """The kinds whose rolls (that kind alone) are read by their upright network's 8-bit form
    (``nets.eight_bit_of``: ``special_upright_block_reader.int8.onnx`` for block rolls) instead
    of the float network, when that form was made from the float network in place; ``()`` for
    none. On 2,000 tuning frames the 8-bit block reader read 4,464 block dice right and 2 wrong,
    the float one 4,475 and 3; an 8-bit crop takes about three quarters of the time (docs/vision-special-dice.md, "The reader in
    8 bits"). No 8-bit form of the upright reader of both kinds ships: it read about half a
    percent fewer scatter dice. A trial network set in ``reader.upright_reader`` is used for
    every roll."""
    upright_views: int = 2
    """Views of each upright crop the upright reader averages: 1 (as it is) or 2 (and mirrored
    left-right, which keeps the way down)."""
    die_mm: float = 16.0
    """A die's side on the table in millimetres (a block die; a scatter die is about as wide):
    with a region and the board's registration, how large a die looks there (``enlarge_to_px``)."""
    enlarge_to_px: float = 48.0
    """A region (the kiosk's dice area) read with the board's registration, where a die of
    ``die_mm`` would be under this size divided by 1.15, is enlarged so that a die is about this
    many pixels across (at most ``max_enlarge`` times) before it is read: the networks learned dice
    30 to 64 pixels across and read the small end worst. 0 turns it off. Chosen on the synthetic
    table (16 mm dice about 32 px at 2304x1296; seeds 8,000,000 and 8,500,000 on, 100 frames a
    kind: 1.25, 1.5 and 1.75 times read block dice 63.5% -> 75.6%, 78.7%, 73.6% right, scatter
    45.6% -> 70.7%, 76.7%, 82.8%, none wrong); 48 px is 1.5 times there
    (docs/vision-special-dice.md, "At the kiosk's table")."""
    max_enlarge: float = 2.0
    """The most a region is enlarged (``enlarge_to_px``)."""
    area_find_threshold: float = 0.02
    """``find_threshold`` in an enlarged region: there most dice left unread were never found (on
    the synthetic table's tuning frames 32 of 45 block and 24 of 44 scatter dice), their heat
    between 0.02 and 0.04. At 0.02: block 152 -> 160 and scatter 171 -> 175 of 197 and 215 read
    right, none wrong, nothing read or left unsure on 60 frames a kind with only d6 and a pawn
    in the area (0.015 and 0.01 read the same dice); docs/vision-special-dice.md, "At the kiosk's
    table"."""
    min_side_px: float = 10.0
    """Found dice smaller than this (pixels) are ignored."""
    max_dice: int = 12
    edge_px: int = 2
    """A die whose box comes this close to the edge of the frame (or region) may be cut: unsure."""
    channel_order: str = "bgr"
    """Channel order of colour frames: 'bgr' (OpenCV) or 'rgb' (picamera2, PIL)."""
