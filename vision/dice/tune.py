"""Learning a table's own dice: confirmed rolls kept as examples, and an adaptation fitted on them.

Every roll a person confirms at the table is a labelled example of that table's dice under its
camera and light. :class:`ExampleStore` keeps each confirmed die as a small crop (the d6
reader's 64x64 grey crop, a PNG of about 3 kB) and beside it a 112x112 colour crop (about
20 kB; folders kept before hold grey only) named after its roll, its place in the roll, its
kind, the value a person confirmed and the value the kiosk showed ("u": unsure), in a folder
with a size cap (the oldest rolls go first).

:func:`tune_folder` adapts the d6 reader to them. The table's :class:`Adaptation` keeps a
*memory*: the d6 reader's 96-number summary of every stored d6 with its confirmed value. A new
die's summary is compared with them (cosine similarity, its ``k`` nearest) and the vote of
those neighbours is added to the reader's logits, so a die that looks like this table's 4s
reads 4. A threshold ``read_at`` is chosen on the stored rolls themselves (each quarter of the
rolls judged by a memory of the other three): the reader's d6 pass decides every d6 as without
tuning, and a d6 it leaves unsure is then read when the adapted probability of its top value
reaches ``read_at`` (a tuned table never loses a reading it had). The figure shown before saving
is measured on the newest quarter of the stored rolls, held back from a memory of the older
ones. Everything is numpy and takes well under a second on a few hundred
dice (on a Pi too).

Where the d6 were kept with their colour crops, the adaptation also keeps a
:class:`ColourMemory`: the colour d6 reader's features of those crops at four quarter turns,
with a rule and threshold chosen by folds of the stored rolls (none until the folds read at least
``COLOUR_MIN_RIGHT`` stored unsure d6 right with none wrong); a d6 still unsure after the grey
memory is read when the colour memory, the colour reader and the grey reading all name its value
(``reader._d6_pass``, :func:`colour_read`).

For each numbered kind (d4, d8, d10, d12, d20) with every face kept, the adaptation also keeps a
:class:`NumberMemory`: the number reader's features of the kept colour crops at four quarter
turns; a die of that kind the reader leaves unsure is read when the number reader's value
probabilities times the memory's vote reach ``NUMBER_READ_AT`` and the memory's own vote names
the same value (``reader._numbered_pass``).

The earlier table adaptation (:func:`fit`, a linear correction of the logits pulled towards no
change) is kept for the shipped head (``d6_head.npz``); on a single table it did not change what
was read, because the reader's decision (its thresholds and the first look) stayed as it was.

Each part keeps the fingerprints of the networks it was built on (:func:`grey_networks`,
:func:`number_network`, ``d6colour.fingerprint``); a part made under another network (a retrained
one shipped since) is not used (:meth:`Adaptation.stale`, :meth:`Adaptation.in_force`) and the
dice read as without tuning until the table tunes again; a file saved before fingerprints is
dated by its stored examples (:func:`date_old_file`).

``companion dice tune`` fits it; ``companion dice learn`` adds examples from photos of one die
showing a known face (the "show me each face" set-up of a new die set); the kiosk does both.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .d6head import EMBED_DIM, EMBED_SIZE, embed, grey_crops
from .models import crop_square, fingerprint

ADAPTATION_FILE = "adaptation.npz"
_OLD_NAME = re.compile(r"^(\d+)-d6-([1-6])\.png$")
_NAME = re.compile(r"^(\d{10})-(\d{2})-(d\d{1,3})-(\d{1,3})-(\d{1,3}|u|x)\.png$")
NOT_KNOWN = -1
"""A ``shown`` value: what the kiosk showed for the die is not known (photos given by hand)."""
KNN_K = 7
KNN_TEMP = 20.0
READ_TARGET = 0.0
"""How many wrong readings per stored d6 the chosen ``read_at`` may add among the stored d6 the
reader left unsure, each judged by a memory without its roll (0: none at all)."""
MIN_ROLLS = 8
MIN_UNSURE = 20
"""``read_at`` is chosen only from this many stored rolls and stored d6 the reader left unsure
(or photos given by hand) on: fewer say nothing about how often a new reading would be wrong."""
Progress = Callable[[float, str], None]
COLOUR_SIZE = 112
COLOUR_MARGIN = 1.2
"""The colour crop kept beside each grey one: ``COLOUR_SIZE`` pixels square, ``COLOUR_MARGIN``
times the die's box (BGR PNG, ``...-SHOWN.colour.png``): the colour d6 reader's view (80 px at
1.2) and the number reader's (96 px at 0.95, the middle of it) are cut from it."""
COLOUR_SUFFIX = ".colour.png"
NUMBERED = ("d4", "d8", "d10", "d12", "d20")
"""The kinds a table's number memory is kept for (the number reader names their top number)."""
NUMBER_K = 7
NUMBER_TEMP = 20.0
NUMBER_READ_AT = 0.97
"""A numbered die the reader leaves unsure is read with the table's memory of its kind when the
adapted probability of its top value reaches this (and the stored examples' own vote names the
same value)."""
NUMBER_TURNS = 4
"""Each stored colour crop is remembered at this many quarter turns (a number lies any way up)."""


COLOUR_TURNS = 4
"""Each stored d6's colour crop is remembered at this many quarter turns (a face lies any way up;
a mirrored d6 face is one of its turns)."""
COLOUR_RULES = ("colour", "both")
"""How a :class:`ColourMemory` weighs a d6: ``colour``, the colour reader's probabilities times
the memory's vote; ``both``, that times the grey reading's too (the d6 head with the table's grey
memory). Either way a die is read only when the memory's vote and the grey reading name the same
value as the result. Which one a table uses is chosen on its stored rolls (:func:`choose_colour_rule`)."""


COLOUR_MIN_RIGHT = 30
"""A colour memory reads only when, judged by folds of the stored rolls, its rule reads at least
this many stored unsure d6 right at its threshold (and none wrong)."""


class TuneError(ValueError):
    """Bad input to the table's learning: the message says what was wrong and what to do."""


RETUNE = ("the kept examples are still there: run 'companion dice tune' again (or the kiosk's Referee "
          "menu > Dice: tune to this table), which replaces it")

OLDER = "older"
"""The fingerprint given to a memory of a file saved before tunings kept them, when its stored
examples show that another network made it (never equal to a file's digest)."""
OLD_CHECK = 8
"""How many stored examples kept before an old file are read again to tell which network made
its memory (:func:`date_old_file`)."""
SAME_LOOK = 0.9999
"""A stored example read again matches its memory row when their cosine reaches this: the same
network gives 0.99999 or more (the memory's float16 and either backend), the d6 network with
one kernel moved by 0.1 already 0.990-0.998."""


def grey_networks() -> dict[str, str]:
    """The fingerprints of the networks the table's grey d6 memory and read threshold are built
    on: the d6 face reader with its summary (``d6_embed.onnx``) and the shipped head its logits
    pass through (``d6_head.npz``; "" when it is missing)."""
    from . import d6head

    return {p.name: fingerprint(p) for p in (d6head.embed_path(), d6head.head_path())}


def number_network() -> str:
    """The fingerprint of the number reader, whose features the number memories hold."""
    from . import numbers

    return fingerprint(numbers.number_path())


def network_files() -> tuple[object, ...]:
    """The files of the networks a table's tuning is built on (the d6 face reader with its
    summary, the shipped head, the number reader, the colour d6 reader) and the modification time
    of each folder holding them (-1: cannot be read): what :meth:`Adaptation.for_reading` checks
    before it trusts what it worked out."""
    from . import d6colour, d6head, numbers

    paths = tuple(map(str, (d6head.embed_path(), d6head.head_path(), numbers.number_path(), d6colour.colour_path())))
    times = []
    for folder in dict.fromkeys(map(os.path.dirname, paths)):
        try:
            times.append(os.stat(folder).st_mtime_ns)
        except OSError:
            times.append(-1)
    return (*paths, *times)


STALE_KIOSK = "The dice reader was updated: tune again to use your table's dice (Referee menu)"
"""What the kiosk shows when a table's saved tuning was made with another version of a network."""
DAMAGED_KIOSK = "The saved dice tuning is damaged and not used: tune again (Referee menu)"
"""What the kiosk shows when a table's saved tuning cannot be read."""


def stale_message(parts: Sequence[str]) -> str:
    """What to tell a person when the parts ``parts`` of a table's tuning (``Adaptation.stale``)
    were made with other networks than the ones in place."""
    return (f"the table's dice tuning of {', '.join(parts)} was made with another version of the dice "
            f"reader, so it is not used: those dice are read as without tuning; {RETUNE}")


@dataclass(frozen=True)
class NumberMemory:
    """A table's memory of one numbered kind: the number reader's features (``features``
    output) of each stored colour crop at ``NUMBER_TURNS`` quarter turns, unit length, with the
    value a person confirmed. A die of that kind that the reader leaves unsure is read when
    :meth:`verdict` says so."""

    kind: str
    memory: np.ndarray  # M x F float32, unit length
    values: np.ndarray  # M values 1..faces
    read_at: float = NUMBER_READ_AT
    k: int = NUMBER_K
    temp: float = NUMBER_TEMP
    network: str = ""
    """The fingerprint of the number reader that made the features (:func:`number_network`; "":
    not known, a memory made in memory by hand, trusted)."""

    def current(self) -> bool:
        """Whether the number reader in place made it (or it is not known which did)."""
        return not self.network or self.network == number_network()

    @property
    def faces(self) -> int:
        return faces_of(self.kind)

    def vote(self, features: np.ndarray) -> np.ndarray:
        """N x faces log-shares of the values among each die's nearest stored examples."""
        return knn_vote(self.memory, self.values, features, self.k, self.temp, self.faces)

    def probabilities(self, number: np.ndarray, features: np.ndarray) -> np.ndarray:
        """N x faces adapted value probabilities: the number reader's (``numbers.values_of``,
        over the kind's values) times the stored examples' vote."""
        own = np.asarray(number, np.float64)
        own = own / np.maximum(own.sum(axis=1, keepdims=True), 1e-12)
        return _softmax(np.log(np.maximum(own, 1e-6)) + self.vote(features))

    def verdict(self, number: np.ndarray, features: np.ndarray) -> tuple[int, bool, float]:
        """(value, whether it is read, its adapted probability) of one die the reader left unsure:
        its adapted top value, read when its probability reaches ``read_at`` and the stored
        examples' own vote names the same value (never against them)."""
        q = self.probabilities(number[None], features[None])[0]
        value = int(np.argmax(q))
        agrees = int(np.argmax(self.vote(features[None])[0])) == value
        return value + 1, bool(agrees and q[value] >= self.read_at), float(q[value])


@dataclass(frozen=True)
class ColourMemory:
    """A table's memory of its d6 in colour: the colour d6 reader's features (``features``
    output, the head's pooled input) of each stored d6's colour crop at ``COLOUR_TURNS``
    quarter turns, unit length, with the value a person confirmed; the rule (``COLOUR_RULES``)
    and the probability ``read_at`` chosen on the stored rolls (None: it reads nothing). A d6
    the reader and the table's grey memory leave unsure is read when :meth:`verdict` says so."""

    memory: np.ndarray  # M x F float32, unit length
    values: np.ndarray  # M values 1..6
    read_at: float | None = None
    rule: str = "colour"
    k: int = KNN_K
    temp: float = KNN_TEMP
    network: str = ""
    """The fingerprint of the colour d6 reader that made the features (``d6colour.fingerprint``)."""

    def vote(self, features: np.ndarray) -> np.ndarray:
        """N x 6 log-shares of the values among each die's nearest stored examples."""
        return knn_vote(self.memory, self.values, features, self.k, self.temp)

    def usable(self) -> bool:
        """Whether the reader may use it: a threshold was chosen, and the colour d6 reader in
        place gives features and is the one that made them (a retrained network: tune again)."""
        from .d6colour import fingerprint, has_features

        return self.read_at is not None and has_features() and self.network == fingerprint()

    def probabilities(self, colour: np.ndarray, features: np.ndarray, grey: np.ndarray) -> np.ndarray:
        """N x 6 adapted value probabilities: the colour reader's (``colour``) times the memory's
        vote, and (rule ``both``) times the grey reading's (``grey``: the d6 head's probabilities
        with the table's grey memory)."""
        z = np.log(np.maximum(np.asarray(colour, np.float64), 1e-6)) + self.vote(features)
        if self.rule == "both":
            z = z + np.log(np.maximum(np.asarray(grey, np.float64), 1e-12))
        return _softmax(z)

    def verdicts(self, colour: np.ndarray, features: np.ndarray, grey: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(values 1..6, read, adapted probability) per die: the adapted top value, read when its
        probability reaches ``read_at`` and the memory's own vote, the colour reader and the grey
        reading (``grey``'s top) all name it too: the memory and the readers agree."""
        q = self.probabilities(colour, features, grey)
        top = q.argmax(1)
        p = q.max(1)
        agree = ((self.vote(features).argmax(1) == top) & (np.asarray(grey).argmax(1) == top)
                 & (np.asarray(colour).argmax(1) == top))
        sure = agree & (p >= (2.0 if self.read_at is None else self.read_at))
        return top + 1, sure, p


@dataclass(frozen=True)
class Adaptation:
    """A correction to the d6 reader's logits: ``logits + embedding @ weight + bias``, plus the
    vote of the nearest stored examples (``memory``: unit-length summaries, ``memory_values``:
    their values 1..6) and, for a table, the probability ``read_at`` at which a d6 is read."""

    weight: np.ndarray  # 96 x 6
    bias: np.ndarray  # 6
    examples: int = 0
    memory: np.ndarray | None = None  # M x 96 float32, unit length
    memory_values: np.ndarray | None = None  # M values 1..6
    read_at: float | None = None
    k: int = KNN_K
    temp: float = KNN_TEMP
    numbers: dict[str, NumberMemory] = field(default_factory=dict)
    """Per numbered kind the table taught: its :class:`NumberMemory`."""
    colour: ColourMemory | None = None
    """The table's d6 in colour (None: kept without colour crops, or tuned before they were)."""
    networks: dict[str, str] = field(default_factory=dict)
    """The fingerprints of the networks its grey part (``weight``, ``bias``, ``memory``,
    ``read_at``, and the colour memory's threshold, chosen with the grey reading) was built on
    (:func:`grey_networks`; empty: not known, an adaptation made in memory, trusted)."""
    _reading: tuple[tuple[object, ...], Adaptation | None] | None = field(
        default=None, init=False, repr=False, compare=False)
    """What :meth:`for_reading` worked out, with the network files' state it was worked out at."""

    @property
    def has_grey(self) -> bool:
        """Whether it changes the d6 reader's grey reading at all."""
        return (self.memory is not None or self.read_at is not None
                or bool(np.any(self.weight)) or bool(np.any(self.bias)))

    def stale(self) -> tuple[str, ...]:
        """The parts made with other networks than the ones in place (a software update shipped
        retrained ones): "d6" (the grey memory, and the colour memory with it), "d6 in colour"
        (the colour memory alone), and each numbered kind. The reader does not use them."""
        out: list[str] = []
        grey_stale = self.has_grey and bool(self.networks) and self.networks != grey_networks()
        if grey_stale:
            out.append("d6")
        elif self.colour is not None:
            from .d6colour import fingerprint as colour_fingerprint

            if self.colour.network != colour_fingerprint():
                out.append("d6 in colour")
        out.extend(kind for kind, nm in self.numbers.items() if not nm.current())
        return tuple(out)

    def in_force(self) -> Adaptation | None:
        """What the reader may use of it: itself, or without the parts made with other networks
        (:meth:`stale`; the d6 then read as without tuning); None when nothing is left."""
        stale = self.stale()
        if not stale:
            return self
        out = self
        if "d6" in stale:
            out = replace(out, weight=np.zeros_like(self.weight), bias=np.zeros_like(self.bias), memory=None,
                          memory_values=None, read_at=None, colour=None)
        elif "d6 in colour" in stale:
            out = replace(out, colour=None)
        out = replace(out, numbers={k: m for k, m in self.numbers.items() if k not in stale})
        return out if out.has_grey or out.colour is not None or out.numbers else None

    def for_reading(self) -> Adaptation | None:
        """What the reader may use of it: :meth:`in_force`, with its colour memory only when
        :meth:`ColourMemory.usable` (None: nothing). The reader asks on every frame, so it is worked
        out once and again only when :func:`network_files` changes (a network replaced by a new
        file changes its folder's modification time, as an update or a copy into the folder does):
        a frame costs one ``stat`` of the networks' folder, not one a network file. A network file
        rewritten in place is noticed when the tuning is next loaded or tuned (:meth:`load`,
        :func:`tune_folder`: each gives a new adaptation, checked afresh); :meth:`stale` and
        :meth:`in_force` always look at the files."""
        state = network_files()
        memo = self._reading
        if memo is None or memo[0] != state:
            used = self.in_force()
            if used is not None and used.colour is not None and not used.colour.usable():
                used = replace(used, colour=None)
                used = used if used.has_grey or used.numbers else None
            memo = (state, used)
            object.__setattr__(self, "_reading", memo)  # a cache: the adaptation itself is unchanged
        return memo[1]

    def logits(self, logits: np.ndarray, embedding: np.ndarray) -> np.ndarray:
        out = logits + embedding.astype(np.float64) @ self.weight + self.bias
        if self.memory is not None and self.memory_values is not None and len(self.memory):
            out = out + knn_vote(self.memory, self.memory_values, embedding, self.k, self.temp)
        return np.asarray(out)

    def save(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        return self.save_file(folder / ADAPTATION_FILE)

    def save_file(self, path: Path) -> Path:
        tmp = path.with_name(path.stem + ".tmp.npz")
        extra: dict[str, np.ndarray] = {}
        if self.memory is not None and self.memory_values is not None:
            extra = {"memory": self.memory.astype(np.float16), "memory_values": self.memory_values,
                     "knn": np.array([self.k, self.temp], np.float64)}
        if self.read_at is not None:
            extra["read_at"] = np.array(self.read_at)
        if self.networks:
            extra["networks"] = np.array(json.dumps(self.networks, sort_keys=True))
        for kind, nm in self.numbers.items():
            extra[f"num_{kind}_memory"] = nm.memory.astype(np.float16)
            extra[f"num_{kind}_values"] = nm.values.astype(np.int64)
            extra[f"num_{kind}_knn"] = np.array([nm.k, nm.temp, nm.read_at], np.float64)
            if nm.network:
                extra[f"num_{kind}_network"] = np.array(nm.network)
        if self.colour is not None:
            c = self.colour
            extra["col_memory"] = c.memory.astype(np.float16)
            extra["col_values"] = c.values.astype(np.int64)
            extra["col_knn"] = np.array([c.k, c.temp, np.nan if c.read_at is None else c.read_at,
                                         COLOUR_RULES.index(c.rule)], np.float64)
            extra["col_network"] = np.array(c.network)
        extra.update(weight=self.weight, bias=self.bias, examples=np.array(self.examples))
        np.savez(tmp, **extra)  # type: ignore[arg-type]
        tmp.replace(path)  # never a half-written adaptation
        return path

    @staticmethod
    def load(folder: str | Path) -> Adaptation | None:
        """The table's adaptation saved in ``folder`` (its examples folder), or None when there is
        none. A file saved before tunings kept their networks' fingerprints is dated by its
        stored examples (:func:`date_old_file`)."""
        path = Path(folder) / ADAPTATION_FILE
        if not path.is_file():
            return None
        return date_old_file(Adaptation.load_file(path), Path(folder), path)

    @staticmethod
    def load_file(path: Path) -> Adaptation:
        try:
            d = np.load(path)
            w, b = np.asarray(d["weight"], np.float64), np.asarray(d["bias"], np.float64)
            memory = np.asarray(d["memory"], np.float32) if "memory" in d else None
            mv = np.asarray(d["memory_values"], np.int64) if "memory_values" in d else None
            knn = np.asarray(d["knn"], np.float64) if "knn" in d else np.array([KNN_K, KNN_TEMP])
            read_at = float(d["read_at"]) if "read_at" in d else None
            examples = int(d["examples"])
            networks = json.loads(str(d["networks"])) if "networks" in d else {}
            if not isinstance(networks, dict) or not all(
                    isinstance(k, str) and isinstance(v, str) for k, v in networks.items()):
                raise ValueError("its network fingerprints are not names and digests")
            numbers: dict[str, NumberMemory] = {}
            for key in d.files:  # an older file has none
                m = re.match(r"^num_(d\d{1,3})_memory$", key)
                if m:
                    kind = m.group(1)
                    k, temp, at = (float(v) for v in np.asarray(d[f"num_{kind}_knn"], np.float64))
                    net = str(d[f"num_{kind}_network"]) if f"num_{kind}_network" in d else ""
                    nm = NumberMemory(kind, np.asarray(d[key], np.float32),
                                      np.asarray(d[f"num_{kind}_values"], np.int64), at, int(k), temp, net)
                    if nm.memory.ndim != 2 or len(nm.values) != len(nm.memory) or not len(nm.values) or (
                            nm.values.min() < 1 or nm.values.max() > faces_of(kind)):
                        raise ValueError(f"its {kind} memory does not hold together")
                    numbers[kind] = nm
            colour = None
            if "col_memory" in d:  # a file saved before the colour memory has none
                k, temp, at, rule = (float(v) for v in np.asarray(d["col_knn"], np.float64))
                colour = ColourMemory(np.asarray(d["col_memory"], np.float32), np.asarray(d["col_values"], np.int64),
                                      None if np.isnan(at) else at, COLOUR_RULES[int(rule)], int(k), temp,
                                      str(d["col_network"]) if "col_network" in d else "")
                if colour.memory.ndim != 2 or len(colour.values) != len(colour.memory) or not len(colour.values) or (
                        colour.values.min() < 1 or colour.values.max() > 6):
                    raise ValueError("its colour memory does not hold together")
        except (OSError, ValueError, KeyError, EOFError, IndexError, TuneError, zipfile.BadZipFile) as exc:
            # a truncated or half-copied file too (zipfile): the examples it was made of are kept
            raise TuneError(f"{path} is damaged ({exc}), so it is not used: {RETUNE}") from exc
        if w.shape != (EMBED_DIM, 6) or b.shape != (6,) or (
                memory is not None and (memory.ndim != 2 or memory.shape[1] != EMBED_DIM or mv is None
                                        or len(mv) != len(memory))):
            raise TuneError(f"{path} does not fit this d6 reader, so it is not used: {RETUNE}")
        return Adaptation(w, b, examples, memory, mv, read_at, int(knn[0]), float(knn[1]), numbers, colour,
                          networks)


def same_network(memory: np.ndarray, features: np.ndarray) -> bool | None:
    """Whether ``features`` (stored examples read again by a network in place) are found in
    ``memory`` (rows a network made of them, among others): at least half of them have a row with
    cosine >= ``SAME_LOOK``. None when there are none to tell by."""
    if not len(features) or not len(memory):
        return None
    if features.shape[1] != memory.shape[1]:
        return False
    best = (unit(features) @ unit(memory).T).max(axis=1)
    return bool(np.mean(best >= SAME_LOOK) >= 0.5)


def _saved_before(examples: Sequence[Example], when: float, colour: bool = False) -> list[Example]:
    out = []
    for e in examples:
        try:
            if (e.colour_path if colour else e.path).stat().st_mtime <= when:
                out.append(e)
        except OSError:
            continue
    return out[-OLD_CHECK:]


def _reread(memory: np.ndarray, network: Callable[[np.ndarray], np.ndarray], kept: np.ndarray) -> bool | None:
    """Whether ``network`` (the one in place) made ``memory``, judged on stored examples ``kept``
    read again (:func:`same_network`); None (cannot tell) when the network cannot run here: a
    missing or broken network file is the reader's to report, not a reason to lose the tuning."""
    try:
        return same_network(memory, network(kept))
    except Exception:  # noqa: BLE001 - ModelMissingError, onnxruntime's and OpenCV's own errors
        return None


_dated: dict[tuple[object, ...], tuple[dict[str, str], dict[str, str]]] = {}
_dated_lock = threading.Lock()
DATED_KEPT = 16
"""How many old files' dates :func:`date_old_file` keeps in memory (the oldest go first)."""


def date_old_file(ad: Adaptation, folder: Path, path: Path) -> Adaptation:
    """``ad`` (loaded from ``path``), its memories saved without network fingerprints given them:
    the newest ``OLD_CHECK`` stored examples kept before the file are read again by the networks
    in place; found in the memory (the same network made it), or nothing to tell by (no such
    examples left), it gets the fingerprints in place and is used as before; not found, it gets
    ``OLDER`` and the reader leaves it unused (:meth:`Adaptation.stale`).

    A file is dated once a process: what was found is kept in memory for the file (its place and
    modification time, a digest of the memories dated), the examples folder's modification time
    (a die kept or removed since changes it) and the networks in place, so loading it again reads
    no example; a file written since, another file in its place, examples kept or removed, or
    another network in place, and it is dated afresh. Nothing is written to the file."""
    try:
        st = path.stat()
        kept_at = os.stat(folder).st_mtime_ns
    except OSError:
        return ad
    grey = bool(not ad.networks and ad.memory is not None and len(ad.memory))
    kinds = tuple(kind for kind, nm in ad.numbers.items() if not nm.network)
    if not grey and not kinds:
        return ad
    now = grey_networks() if grey else {}
    number_now = number_network() if kinds else ""
    digest = hashlib.blake2b(digest_size=16)
    for m in ([ad.memory] if grey and ad.memory is not None else []) + [ad.numbers[k].memory for k in kinds]:
        digest.update(np.ascontiguousarray(m).tobytes())
    key = (str(path.resolve()), st.st_mtime_ns, kept_at, grey, kinds, digest.hexdigest(), tuple(sorted(now.items())),
           number_now)
    with _dated_lock:
        found = _dated.get(key)
    if found is None:
        found = _date(ad, folder, st.st_mtime, grey, kinds, now, number_now)
        with _dated_lock:
            while len(_dated) >= DATED_KEPT:
                _dated.pop(next(iter(_dated)))
            _dated[key] = found
    networks, nets = found
    return replace(ad, networks=dict(networks) if grey else ad.networks,
                   numbers={k: replace(nm, network=nets[k]) if k in nets else nm for k, nm in ad.numbers.items()})


def _date(ad: Adaptation, folder: Path, when: float, grey: bool, kinds: Sequence[str], now: dict[str, str],
          number_now: str) -> tuple[dict[str, str], dict[str, str]]:
    """(the grey memory's networks, the number reader of each kind of ``kinds``) of an old file
    (:func:`date_old_file`): ``now`` / ``number_now`` where the stored examples kept before the
    file (``when``) are found in its memories or there is nothing to tell by, else ``OLDER``."""
    store = ExampleStore(folder)
    networks: dict[str, str] = {}
    if grey and ad.memory is not None:
        kept = _saved_before(store.examples("d6"), when)
        crops = [c for e in kept if (c := cv2.imread(str(e.path), cv2.IMREAD_GRAYSCALE)) is not None
                 and c.shape == (EMBED_SIZE, EMBED_SIZE)]
        same = _reread(ad.memory, lambda x: embed(x)[1], np.stack(crops)) if crops else None
        networks = dict(now) if same is not False else dict.fromkeys(now, OLDER)
    nets: dict[str, str] = {}
    for kind in kinds:
        from .numbers import glyphs_and_features

        kept = _saved_before(store.examples(kind), when, colour=True)
        colour = [c for e in kept if (c := cv2.imread(str(e.colour_path), cv2.IMREAD_COLOR)) is not None
                  and c.shape == (COLOUR_SIZE, COLOUR_SIZE, 3)]
        same = (_reread(ad.numbers[kind].memory, lambda x: glyphs_and_features(number_input(x))[1], np.stack(colour))
                if colour else None)
        nets[kind] = number_now if same is not False else OLDER
    return networks, nets


def knn_vote(memory: np.ndarray, values: np.ndarray, embedding: np.ndarray, k: int = KNN_K,
             temp: float = KNN_TEMP, faces: int = 6) -> np.ndarray:
    """N x ``faces`` log-shares of the values among each summary's ``k`` nearest stored examples
    (weighted by ``exp(temp * (cosine - 1))``; a value no neighbour has gets a small floor)."""
    x = unit(embedding)
    sims = x @ memory.astype(np.float32).T
    kk = min(k, memory.shape[0])
    idx = np.argpartition(-sims, kk - 1, axis=1)[:, :kk]
    near = np.take_along_axis(sims, idx, 1).astype(np.float64)
    w = np.exp(temp * (near - 1.0))
    votes = np.zeros((len(x), faces))
    for c in range(faces):
        votes[:, c] = (w * (values[idx] == c + 1)).sum(axis=1)
    votes += 1e-3
    return np.asarray(np.log(votes / votes.sum(axis=1, keepdims=True)))


def unit(embedding: np.ndarray) -> np.ndarray:
    x = np.asarray(embedding, np.float32)
    return np.asarray(x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9))


@dataclass(frozen=True)
class Example:
    """One stored die: its roll, its place in the roll, its kind, the value a person confirmed
    and the value the kiosk showed (None: it was unsure, or not known)."""

    path: Path
    roll: int
    die: int
    kind: str
    value: int
    shown: int | None = None
    shown_known: bool = True

    @property
    def colour_path(self) -> Path:
        """Where its colour crop is kept (it may be missing: older folders kept grey only)."""
        return self.path.with_name(self.path.name[:-4] + COLOUR_SUFFIX)


def parse_name(name: str, path: Path) -> Example | None:
    m = _NAME.match(name)
    if m:
        code = m.group(5)
        shown = None if code in ("u", "x") else int(code)
        return Example(path, int(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4)), shown,
                       code != "x")
    m = _OLD_NAME.match(name)
    if m:  # the first format: one d6 per file, nothing known of what was shown
        return Example(path, int(m.group(1)), 0, "d6", int(m.group(2)), None, False)
    return None


def _shown_code(shown: int | None) -> str:
    return "u" if shown is None else "x" if shown == NOT_KNOWN else str(int(shown))


def faces_of(kind: str) -> int:
    try:
        n = int(kind[1:]) if kind[:1] == "d" else 0
    except ValueError:
        n = 0
    if n < 2:
        raise TuneError(f"'{kind}' is not a numbered die kind: use d4, d6, d8, d10, d12 or d20")
    return n


def colour_crops(bgr: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray:
    """The colour crops kept of ``boxes`` in a BGR image (N x ``COLOUR_SIZE`` x ``COLOUR_SIZE`` x 3)."""
    if not boxes:
        return np.zeros((0, COLOUR_SIZE, COLOUR_SIZE, 3), np.uint8)
    return np.stack([crop_square(bgr, b, COLOUR_SIZE, COLOUR_MARGIN) for b in boxes])


def number_input(colour: np.ndarray, turns: int = 1) -> np.ndarray:
    """The number reader's input (N*turns x 3 x 96 x 96, RGB; ``numbers.number_crops``) cut
    from kept colour crops: the middle ``NUMBER_MARGIN / COLOUR_MARGIN`` of each, and with
    ``turns`` > 1 each crop again turned by a quarter, a half, ... (turn-major order)."""
    from .numbers import NUMBER_MARGIN, NUMBER_SIZE

    if not len(colour):
        return np.zeros((0, 3, NUMBER_SIZE, NUMBER_SIZE), np.float32)
    side = COLOUR_SIZE * NUMBER_MARGIN / COLOUR_MARGIN
    a = (COLOUR_SIZE - side) / 2
    m = np.array([[NUMBER_SIZE / side, 0, -a * NUMBER_SIZE / side], [0, NUMBER_SIZE / side, -a * NUMBER_SIZE / side]])
    cut = np.stack([cv2.warpAffine(c, m, (NUMBER_SIZE, NUMBER_SIZE), flags=cv2.INTER_AREA,
                                   borderMode=cv2.BORDER_REPLICATE) for c in colour])
    x = cut[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32)
    return np.ascontiguousarray(np.concatenate([np.rot90(x, k, axes=(2, 3)) for k in range(max(1, turns))]))


class ExampleStore:
    """Confirmed dice in ``folder`` (``RRRRRRRRRR-DD-KIND-VALUE-SHOWN.png``, the 64x64 grey crop
    the d6 reader sees, and beside it ``...-SHOWN.colour.png``, the die's colour crop), at most
    ``max_bytes`` in all (the oldest rolls go first)."""

    def __init__(self, folder: str | Path, max_bytes: int = 100_000_000) -> None:
        self.folder = Path(folder)
        self.max_bytes = max_bytes
        self._next = 0

    def add_crop(self, crop: np.ndarray, value: int, kind: str = "d6", shown: int | None = NOT_KNOWN,
                 colour: np.ndarray | None = None) -> Path:
        """Keep one confirmed die (a roll of its own): its crop (and colour crop) and the value a
        person confirmed."""
        return self.add_crops([crop], [value], [kind], [shown], [colour])[0]

    def add_crops(self, crops: Sequence[np.ndarray], values: Sequence[int], kinds: Sequence[str] | None = None,
                  shown: Sequence[int | None] | None = None,
                  colours: Sequence[np.ndarray | None] | None = None) -> list[Path]:
        """Keep the dice of one confirmed roll: each die's grey crop, the value confirmed, its
        kind, the value the kiosk showed for it (None: unsure) and its colour crop
        (``colour_crops``; None: none). Checks everything before writing anything; a failed
        write removes what this roll wrote."""
        kinds = list(kinds) if kinds is not None else ["d6"] * len(crops)
        shown = list(shown) if shown is not None else [NOT_KNOWN] * len(crops)
        colours = list(colours) if colours is not None else [None] * len(crops)
        if len(colours) != len(crops):
            raise TuneError(f"{len(crops)} dice but {len(colours)} colour crops: give one per die (or None)")
        for c in colours:
            if c is not None and (c.shape != (COLOUR_SIZE, COLOUR_SIZE, 3) or c.dtype != np.uint8):
                raise TuneError(f"a colour example is a {COLOUR_SIZE}x{COLOUR_SIZE} BGR uint8 crop, not "
                                f"{c.shape} {c.dtype}: cut it with vision.dice.tune.colour_crops")
        if not (len(crops) == len(values) == len(kinds) == len(shown)):
            raise TuneError(f"{len(crops)} dice but {len(values)} values and {len(kinds)} kinds: "
                            "give one value and one kind per die")
        for crop, v, kind in zip(crops, values, kinds, strict=True):
            if not 1 <= int(v) <= faces_of(kind):
                raise TuneError(f"a {kind} shows 1 to {faces_of(kind)}, not {v}: give the value the die shows")
            if crop.shape != (EMBED_SIZE, EMBED_SIZE) or crop.dtype != np.uint8:
                raise TuneError(f"an example is a {EMBED_SIZE}x{EMBED_SIZE} grey uint8 crop, not "
                                f"{crop.shape} {crop.dtype}: cut it with vision.dice.d6head.grey_crops")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise TuneError(f"cannot make the examples folder {self.folder} ({exc}): check the "
                            "[dice] examples setting and that the disk is writable") from exc
        roll = self._new_roll()
        written: list[Path] = []
        for i, (crop, v, kind, s, colour) in enumerate(zip(crops, values, kinds, shown, colours, strict=True)):
            path = self.folder / f"{roll:010d}-{i % 100:02d}-{kind}-{int(v)}-{_shown_code(s)}.png"
            for target, image in ((path, crop), (path.with_name(path.name[:-4] + COLOUR_SUFFIX), colour)):
                if image is None:
                    continue
                ok = False
                try:
                    ok = bool(cv2.imwrite(str(target), image))
                except cv2.error:
                    ok = False
                if not ok:
                    for p in written + [path, target]:
                        p.unlink(missing_ok=True)
                        p.with_name(p.name[:-4] + COLOUR_SUFFIX).unlink(missing_ok=True)
                    raise TuneError(f"cannot write {target} (the disk may be full or read-only): the "
                                    "roll was not kept; free some space or set [dice] learn = false")
            written.append(path)
        self._cap()
        return written

    def add_roll(self, grey: np.ndarray, boxes: Iterable[tuple[float, float, float, float]],
                 values: Iterable[int], kinds: Sequence[str] | None = None,
                 shown: Sequence[int | None] | None = None) -> int:
        """Keep the dice of one confirmed roll (their boxes in the grey frame and confirmed
        values); returns how many were kept."""
        boxes, values = list(boxes), list(values)
        if len(boxes) != len(values):
            raise TuneError(f"{len(boxes)} dice but {len(values)} values: give one value per die")
        self.add_crops(list(grey_crops(grey, boxes)), values, kinds, shown)
        return len(boxes)

    def _new_roll(self) -> int:
        """The next roll's number: one more than the newest kept (counted once, then in memory)."""
        if not self._next:
            self._next = max([e.roll for e in self.examples()] + [0]) + 1
        roll = self._next
        self._next += 1
        return roll

    def examples(self, kind: str | None = None) -> list[Example]:
        """The stored dice, oldest roll first (``kind``: only that kind)."""
        if not self.folder.is_dir():
            return []
        out = []
        for p in self.folder.iterdir():
            e = parse_name(p.name, p)
            if e is not None and (kind is None or e.kind == kind):
                out.append(e)
        return sorted(out, key=lambda e: (e.roll, e.die))

    def paths(self) -> list[Path]:
        return [e.path for e in self.examples()]

    def load(self, kind: str = "d6") -> tuple[np.ndarray, np.ndarray]:
        """(N x 64 x 64 grey crops, N values), oldest first; unreadable files are skipped."""
        crops, examples = self.load_examples(kind)
        return crops, np.array([e.value for e in examples], np.int64)

    def load_examples(self, kind: str = "d6") -> tuple[np.ndarray, list[Example]]:
        """(N x 64 x 64 grey crops, their examples), oldest first; unreadable files skipped."""
        return self._load(kind, colour=False)

    def load_colour(self, kind: str) -> tuple[np.ndarray, list[Example]]:
        """(N x ``COLOUR_SIZE`` x ``COLOUR_SIZE`` x 3 colour crops, their examples), oldest first:
        the stored dice of ``kind`` that have a readable colour crop (older folders have none)."""
        return self._load(kind, colour=True)

    def _load(self, kind: str, colour: bool) -> tuple[np.ndarray, list[Example]]:
        """The stored dice of ``kind`` whose grey (or ``colour``) crop is there and reads as one:
        (N crops stacked, their examples), oldest first."""
        shape = (COLOUR_SIZE, COLOUR_SIZE, 3) if colour else (EMBED_SIZE, EMBED_SIZE)
        crops, kept = [], []
        for e in self.examples(kind):
            path = e.colour_path if colour else e.path
            if not path.is_file():  # a die kept without a colour crop (or removed since it was listed)
                continue
            img = cv2.imread(str(path), cv2.IMREAD_COLOR if colour else cv2.IMREAD_GRAYSCALE)
            if img is None or img.shape != shape:
                continue
            crops.append(img)
            kept.append(e)
        if not crops:
            return np.zeros((0, *shape), np.uint8), []
        return np.stack(crops), kept

    def counts(self) -> dict[str, tuple[int, int]]:
        """Per kind: (rolls, dice) stored."""
        rolls: dict[str, set[int]] = {}
        dice: dict[str, int] = {}
        for e in self.examples():
            rolls.setdefault(e.kind, set()).add(e.roll)
            dice[e.kind] = dice.get(e.kind, 0) + 1
        return {k: (len(rolls[k]), dice[k]) for k in sorted(dice)}

    def _cap(self) -> None:
        examples = self.examples()

        def size(p: Path) -> int:
            try:
                return p.stat().st_size
            except OSError:
                return 0

        sizes = [size(e.path) + size(e.colour_path) for e in examples]
        total = sum(sizes)
        for e, s in zip(examples, sizes, strict=True):
            if total <= self.max_bytes:
                break
            e.path.unlink(missing_ok=True)
            e.colour_path.unlink(missing_ok=True)
            total -= s


def fit(logits: np.ndarray, emb: np.ndarray, values: np.ndarray, l2: float = 1.0,
        steps: int = 300, lr: float = 0.5) -> Adaptation:
    """The linear correction that best explains the confirmed ``values`` (1..6) from the
    reader's ``logits`` and ``emb``: full-batch gradient descent on the cross-entropy plus ``l2``
    times the squared size of the correction per example seen (few examples: a small
    correction). The shipped head is fitted with it."""
    if len(values) == 0:
        raise TuneError("no confirmed dice to learn from: confirm some rolls at the table, or "
                        "run 'companion dice learn' with photos of each face")
    if np.any((values < 1) | (values > 6)):
        raise TuneError("a d6 example must have a value 1 to 6")
    n = len(values)
    x = emb.astype(np.float64)
    scale = float(np.sqrt((x ** 2).sum(axis=1).mean())) or 1.0
    x = x / scale
    y = np.eye(6)[values - 1]
    w = np.zeros((x.shape[1], 6))
    b = np.zeros(6)
    reg = l2 / n
    for _ in range(steps):
        z = logits + x @ w + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - y) / n
        w -= lr * (x.T @ g + reg * w)
        b -= lr * (g.sum(axis=0) + reg * b)
    return Adaptation(w / scale, b, n)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return np.asarray(p / p.sum(axis=1, keepdims=True))


def _folds(rolls: np.ndarray, n: int = 4) -> np.ndarray:
    """Each die's fold (by roll: the dice of one roll are judged together)."""
    order = {r: i for i, r in enumerate(sorted(set(rolls.tolist())))}
    return np.array([order[r] % n for r in rolls.tolist()], np.int64)


def choose_read_at(logits: np.ndarray, emb: np.ndarray, values: np.ndarray, rolls: np.ndarray,
                   target: float = READ_TARGET, unsure: np.ndarray | None = None) -> float | None:
    """The lowest probability at which the stored d6 the reader left unsure (``unsure``; None:
    all of them), each judged by a memory of the rolls in the other folds, would add at most
    ``target`` wrong readings per stored d6 (None: too few rolls, or no such probability)."""
    cand = np.ones(len(values), bool) if unsure is None else np.asarray(unsure, bool)
    if len(set(rolls.tolist())) < MIN_ROLLS or cand.sum() < MIN_UNSURE:
        return None
    folds = _folds(rolls)
    q = np.zeros((len(values), 6))
    for f in range(4):
        a, b = folds != f, folds == f
        q[b] = _softmax(logits[b] + knn_vote(unit(emb[a]), values[a], emb[b]))
    top, p = q.argmax(1) + 1, q.max(1)
    grid = _grid()
    for t in grid:
        sure = cand & (p >= t)
        if ((top != values) & sure).sum() <= target * len(values):
            return float(t)
    return None


def table_adaptation(logits: np.ndarray, emb: np.ndarray, values: np.ndarray, rolls: np.ndarray,
                     target: float = READ_TARGET, unsure: np.ndarray | None = None) -> Adaptation:
    """The table's adaptation: a memory of every stored d6 and the ``read_at`` chosen on them
    (``unsure``: the stored d6 the reader had left unsure, the ones ``read_at`` decides)."""
    if len(values) == 0:
        raise TuneError("no confirmed d6 to learn from: confirm some rolls at the table, or "
                        "use 'Show me each face' (or 'companion dice learn') first")
    if np.any((values < 1) | (values > 6)):
        raise TuneError("a d6 example must have a value 1 to 6")
    return Adaptation(np.zeros((EMBED_DIM, 6)), np.zeros(6), len(values), unit(emb),
                      values.astype(np.int64), choose_read_at(logits, emb, values, rolls, target, unsure),
                      networks=grey_networks())


def tuned_probabilities(table: object, head: np.ndarray, emb: np.ndarray) -> np.ndarray:
    """The d6 value probabilities (N x 6, value 1 first) with ``table``'s adaptation applied to
    the head's (``head``: N x 6 probabilities; ``emb``: the N summaries)."""
    logits = np.log(np.maximum(np.asarray(head, np.float64), 1e-12))
    return _softmax(table.logits(logits, emb))  # type: ignore[attr-defined]


def tuned_read(q: np.ndarray, table: object, side: float, pips: int | None) -> tuple[int, bool]:
    """(value, sure) of one d6 the reader's d6 pass left unsure, with a table's adaptation
    (``q``: its tuned probabilities): its top value, read when the probability reaches the
    table's ``read_at`` (and, under 32 px, the pip counter names the same value: a box that
    small may be a fragment of a die)."""
    value = int(np.argmax(q)) + 1
    read_at = getattr(table, "read_at", None)
    if read_at is None or (side < 32 and pips != value):
        return value, False
    return value, float(q[value - 1]) >= read_at


def tuned_verdict(q: np.ndarray, read_at: float | None, shown: Sequence[int | None]) -> tuple[np.ndarray, np.ndarray]:
    """(value, sure) per stored die under a table's adaptation, as the reader decides: a die
    the kiosk showed as read (``shown``) stays as it was; a die it showed unsure is read when
    the adapted probability of its top value reaches ``read_at``."""
    top = q.argmax(1) + 1
    at = 2.0 if read_at is None else read_at
    vals = np.array([s if s is not None else t for s, t in zip(shown, top.tolist(), strict=True)], np.int64)
    sure = np.array([s is not None or p >= at for s, p in zip(shown, q.max(1).tolist(), strict=True)], bool)
    return vals, sure


def colour_input(colour: np.ndarray, turns: int = 1) -> np.ndarray:
    """The colour d6 reader's input (N*turns x 3 x 80 x 80, RGB; ``d6colour.colour_crops``) cut
    from kept colour crops (both are cut at the same margin, so it is a resize), and with
    ``turns`` > 1 each crop again turned by a quarter, a half, ... (turn-major order)."""
    from .d6colour import COLOUR_MARGIN as D6_MARGIN
    from .d6colour import COLOUR_SIZE as D6_SIZE

    assert D6_MARGIN == COLOUR_MARGIN  # the kept crop is the reader's view, larger
    if not len(colour):
        return np.zeros((0, 3, D6_SIZE, D6_SIZE), np.float32)
    small = np.stack([cv2.resize(c, (D6_SIZE, D6_SIZE), interpolation=cv2.INTER_AREA) for c in colour])
    x = small[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32)
    return np.ascontiguousarray(np.concatenate([np.rot90(x, k, axes=(2, 3)) for k in range(max(1, turns))]))


def colour_features(colour: np.ndarray, turns: int = COLOUR_TURNS,
                    progress: Callable[[float], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(N x 6 colour reader probabilities of the crops as kept, N*turns x F features, turn-major)
    of kept colour crops (``progress``: told the share done after each batch)."""
    from .d6colour import colour_and_features

    n, t = len(colour), max(1, turns)
    if not n:
        return np.zeros((0, 6), np.float32), np.zeros((0, 0), np.float32)
    probs = np.zeros((n, 6), np.float32)
    feats: np.ndarray | None = None
    step = max(1, 64 // t)  # crops a batch: the network's input is made a batch at a time
    for i in range(0, n, step):
        m = len(colour[i:i + step])
        p, f = colour_and_features(colour_input(colour[i:i + step], t))  # turn-major within the batch
        if feats is None:
            feats = np.zeros((t * n, f.shape[1]), np.float32)
        for k in range(t):
            feats[k * n + i:k * n + i + m] = f[k * m:(k + 1) * m]
        probs[i:i + m] = p[:m]
        if progress is not None:
            progress(min(1.0, (i + m) / n))
    assert feats is not None
    return probs, feats


def _grid() -> list[float]:
    """The read thresholds a table's rule is chosen among: 0.50-0.98 by 0.01, then up to 0.99999."""
    return sorted(set(np.r_[np.arange(0.5, 0.99, 0.01), 1.0 - np.logspace(-2, -5, 16)].round(6).tolist()))


def choose_colour_rule(colour: np.ndarray, features: np.ndarray, values: np.ndarray, rolls: np.ndarray,
                       logits: np.ndarray, emb: np.ndarray, target: float = READ_TARGET,
                       unsure: np.ndarray | None = None, min_right: int = COLOUR_MIN_RIGHT) -> tuple[str, float | None]:
    """(rule, read_at) of a table's colour memory, chosen on its stored d6 alone: each quarter of
    the rolls is judged by memories (colour and grey) of the other three; per rule of
    ``COLOUR_RULES`` the lowest probability at which the stored d6 the reader had left unsure
    (``unsure``; None: all) would add at most ``target`` wrong readings per stored d6, and the
    rule that then reads the most of them right. None (it reads nothing) below ``MIN_ROLLS``
    rolls or ``MIN_UNSURE`` such dice, or when no rule reads at least ``min_right`` of them right
    (none wrong in 30 says that at most about a tenth of the new readings would be wrong, at
    95%; fewer say too little).
    ``features``: N*``COLOUR_TURNS`` x F (turn-major); ``colour``: N x 6 (as kept);
    ``logits``, ``emb``: the d6 head's logits and summaries of the same dice."""
    n = len(values)
    cand = np.ones(n, bool) if unsure is None else np.asarray(unsure, bool)
    if len(set(rolls.tolist())) < MIN_ROLLS or cand.sum() < MIN_UNSURE:
        return COLOUR_RULES[0], None
    turns = len(features) // max(n, 1)
    folds = _folds(rolls)
    by_rule: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    for rule in COLOUR_RULES:
        top, p, ok = np.zeros(n, np.int64), np.zeros(n), np.zeros(n, bool)
        for f in range(4):
            a, b = folds != f, folds == f
            if not a.any() or not b.any():
                continue
            mem = ColourMemory(unit(np.concatenate([features[k * n:(k + 1) * n][a] for k in range(turns)])),
                               np.tile(values[a], turns), 0.0, rule)
            grey = _softmax(logits[b] + knn_vote(unit(emb[a]), values[a], emb[b]))
            v, ok[b], p[b] = mem.verdicts(colour[b], features[:n][b], grey)
            top[b] = v
        by_rule[rule] = (top, p, ok)
    best: tuple[int, str, float | None] = (0, COLOUR_RULES[0], None)
    for rule in COLOUR_RULES:
        top, p, ok = by_rule[rule]
        for t in _grid():
            sure = cand & ok & (p >= t)
            if ((top != values) & sure).sum() <= target * n:
                right = int(((top == values) & sure).sum())
                if right >= min_right and right > best[0]:
                    best = (right, rule, float(t))
                break
    return best[1], best[2]


def colour_memory(colour: np.ndarray | None, values: np.ndarray, rolls: np.ndarray, logits: np.ndarray,
                  emb: np.ndarray, target: float = READ_TARGET, unsure: np.ndarray | None = None,
                  min_right: int = COLOUR_MIN_RIGHT,
                  features: tuple[np.ndarray, np.ndarray] | None = None) -> ColourMemory | None:
    """The table's colour memory of its stored d6 (``colour``: their kept colour crops; ``logits``,
    ``emb``: the d6 head's of the same dice), with its rule and read threshold chosen on them;
    None without crops. ``features``: ``colour_features`` of the crops, when known already (the
    crops themselves are then not needed: ``colour`` may be None)."""
    if features is not None:
        p, f = features
    elif colour is not None:
        p, f = colour_features(colour)
    else:
        raise TuneError("a colour memory needs the kept colour crops or their colour_features")
    if not len(p):
        return None
    from .d6colour import fingerprint

    rule, read_at = choose_colour_rule(p, f, values, rolls, logits, emb, target, unsure, min_right)
    return ColourMemory(unit(f), np.tile(values.astype(np.int64), len(f) // len(values)), read_at, rule,
                        network=fingerprint())


def colour_read(table: object, colour: np.ndarray, features: np.ndarray, grey: np.ndarray,
                sides: Sequence[float], pips: Sequence[int | None]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values, read, probability) of d6 the reader and the table's grey memory left unsure,
    judged with the table's colour memory (``ColourMemory.verdicts``; ``grey``: their grey
    probabilities with the table's grey memory); under 32 px only when the pip counter names the
    same value (a box that small may be a fragment of a die)."""
    mem: ColourMemory | None = getattr(table, "colour", None)
    n = len(colour)
    if mem is None or not n:
        return np.zeros(n, np.int64), np.zeros(n, bool), np.zeros(n)
    v, sure, p = mem.verdicts(colour, features, grey)
    small = np.array([side < 32 and pc != int(val) for side, pc, val in zip(sides, pips, v, strict=True)], bool)
    return v, sure & ~small, p


@dataclass(frozen=True)
class TuneReport:
    """What tuning found: the dice it learned from, and on the newest quarter of the stored rolls
    (held back from a memory of the older ones) the share read right before (what the kiosk
    showed; None when not known) and after, and read wrong after."""

    dice: int
    rolls: int
    held_dice: int
    before_right: float | None
    before_wrong: float | None
    after_right: float | None
    after_wrong: float | None
    read_at: float | None
    other_kinds: dict[str, int]
    numbered: tuple[str, ...] = ()
    """One line for the d6 colour memory and one per numbered kind kept: what each learned, or
    what it still needs."""

    def lines(self) -> list[str]:
        if not self.dice:
            return ["No confirmed d6 kept yet: the d6 are read as before."] + list(self.numbered) + [
                f"{n} {kind} examples kept (this kind does not learn from them)." for kind, n in self.other_kinds.items()]
        out = [f"Learned from {self.dice} confirmed d6 in {self.rolls} rolls."]
        if self.held_dice:
            before = ("not known" if self.before_right is None else
                      f"{self.before_right:.0%} read right, {self.before_wrong or 0:.0%} wrong")
            after = ("as before (too few older rolls to choose when to read)" if self.after_right is None
                     else f"{self.after_right:.0%} read right, {self.after_wrong or 0:.0%} wrong")
            out.append(f"On the newest {self.held_dice} dice, held back: before {before}; after {after}.")
        else:
            out.append("Too few rolls to hold some back and measure: confirm more rolls.")
        if self.read_at is None:
            out.append("Not enough rolls yet to read more dice by itself: it only sharpens the guesses.")
        out.extend(self.numbered)
        for kind, n in self.other_kinds.items():
            out.append(f"{n} {kind} examples kept (this kind does not learn from them).")
        return out


def tune_examples(crops: np.ndarray, examples: Sequence[Example], progress: Progress | None = None,
                  target: float = READ_TARGET, colour: np.ndarray | None = None,
                  colour_rows: Sequence[int] | None = None) -> tuple[Adaptation, TuneReport]:
    """The table's adaptation of these stored d6, and its report (see :class:`TuneReport`).
    ``colour``: the kept colour crops (M x 112 x 112 x 3) of the dice ``colour_rows`` (M rising
    indices into ``examples``; None: every die, in order), for the table's colour memory of the
    dice that have one; None: no die has one."""
    from .d6head import shipped_head

    def say(share: float, text: str) -> None:
        if progress is not None:
            progress(share, text)

    values = np.array([e.value for e in examples], np.int64)
    rolls = np.array([e.roll for e in examples], np.int64)
    unsure = np.array([e.shown is None for e in examples], bool)  # or not known
    where = (np.zeros(0, np.int64) if colour is None else
             np.arange(len(colour)) if colour_rows is None else np.asarray(colour_rows, np.int64).reshape(-1))
    if colour is not None and (len(where) != len(colour) or np.any(np.diff(where) <= 0) or (
            len(where) and (where[0] < 0 or where[-1] >= len(values)))):
        raise TuneError(f"{len(colour)} colour crops for dice {where.tolist()[:8]} of {len(values)}: give one "
                        "crop a die, for rising indices into the examples")
    has_colour = np.zeros(len(values), bool)
    has_colour[where] = True
    say(0.05, f"reading {len(values)} stored dice")
    logits = np.zeros((0, 6))
    emb = np.zeros((0, EMBED_DIM), np.float32)
    parts_l, parts_e = [], []
    for i in range(0, len(crops), 64):
        lg, em = embed(crops[i:i + 64])
        parts_l.append(lg)
        parts_e.append(em)
        say(0.05 + 0.6 * min(1.0, (i + 64) / max(len(crops), 1)), f"reading {len(values)} stored dice")
    if parts_l:
        logits, emb = np.concatenate(parts_l), np.concatenate(parts_e)
    if (head := shipped_head()) is not None and len(logits):
        logits = head.logits(logits, emb)  # type: ignore[attr-defined]
    # the colour reader's features of every stored d6 with a colour crop, at each quarter turn (once)
    pos = np.full(len(values), -1)
    pos[where] = np.arange(len(where))
    col_p, col_f = (colour_features(colour, COLOUR_TURNS,
                                   lambda share: say(0.65 + 0.2 * share, f"reading {len(where)} stored dice in colour"))
                    if colour is not None and len(where) else (np.zeros((0, 6)), np.zeros((0, 0))))

    def of_colour(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(probabilities, turn-major features) of the stored dice of ``mask`` (all with colour)."""
        ix = pos[mask & has_colour]
        n = len(where)
        return col_p[ix], np.concatenate([col_f[k * n + ix] for k in range(len(col_f) // max(n, 1))])

    say(0.85 if len(where) else 0.7, "measuring on the newest rolls")
    order = sorted(set(rolls.tolist()))
    held = np.isin(rolls, order[len(order) - len(order) // 4:]) if len(order) >= 8 else np.zeros(len(rolls), bool)
    b_right = b_wrong = a_right = a_wrong = None
    if held.any():
        old = ~held
        ad_old = table_adaptation(logits[old], emb[old], values[old], rolls[old], target, unsure[old])
        if has_colour[old].any():
            say(0.85, "measuring the colour memory on the newest rolls")
            o = old & has_colour
            cm = colour_memory(None, values[o], rolls[o], logits[o], emb[o], target, unsure[o],
                               features=of_colour(o))
            ad_old = replace(ad_old, colour=cm)
        q = _softmax(ad_old.logits(logits[held], emb[held]))
        held_ix = [int(i) for i in np.flatnonzero(held)]
        shown = [examples[i].shown for i in held_ix]
        col_at = ad_old.colour.read_at if ad_old.colour is not None else None
        if ad_old.read_at is not None or col_at is not None:  # else the reader reads as before
            top, sure = tuned_verdict(q, ad_old.read_at, shown)
            # the colour memory judges what the grey memory leaves unsure (as the reader does)
            late = [j for j, i in enumerate(held_ix) if not sure[j] and has_colour[i]]
            if late and ad_old.colour is not None:
                rows = np.zeros(len(values), bool)
                rows[[held_ix[j] for j in late]] = True
                p0, f4 = of_colour(rows)
                v, ok, _ = colour_read(ad_old, p0, f4[:len(p0)], q[late], [99.0] * len(late), [None] * len(late))
                top[late] = np.where(ok, v, top[late])
                sure[late] = ok
            a_right = float(np.mean(sure & (top == values[held])))
            a_wrong = float(np.mean(sure & (top != values[held])))
        if all(examples[i].shown_known for i in held_ix):
            s = np.array([-1 if v is None else v for v in shown])
            b_right = float(np.mean(s == values[held]))
            b_wrong = float(np.mean((s > 0) & (s != values[held])))
    say(0.9, "learning from every stored roll")
    ad = table_adaptation(logits, emb, values, rolls, target, unsure)
    if has_colour.any():
        say(0.95, "learning the colour of every stored roll")
        ad = replace(ad, colour=colour_memory(None, values[has_colour], rolls[has_colour],
                                              logits[has_colour], emb[has_colour], target, unsure[has_colour],
                                              features=of_colour(has_colour)))
    say(1.0, "done")
    return ad, TuneReport(len(values), len(order), int(held.sum()), b_right, b_wrong, a_right, a_wrong,
                          ad.read_at, {})


def number_memory(kind: str, colour: np.ndarray, values: Sequence[int],
                  read_at: float = NUMBER_READ_AT) -> NumberMemory | None:
    """The table's memory of ``kind`` from its stored colour crops and confirmed values, or None
    while some face of it has no example (a memory without a face could only pull a die showing
    that face towards a look-alike: "show me each face" gives one of each)."""
    from .numbers import glyphs_and_features

    vals = np.asarray(values, np.int64)
    if not len(vals) or set(range(1, faces_of(kind) + 1)) - set(vals.tolist()):
        return None
    feats = [glyphs_and_features(number_input(colour[i:i + 16], NUMBER_TURNS))[1]
             for i in range(0, len(colour), 16)]
    f = np.concatenate(feats)
    # number_input is turn-major within each batch: the values repeat likewise
    v = np.concatenate([np.tile(vals[i:i + 16], NUMBER_TURNS) for i in range(0, len(vals), 16)])
    return NumberMemory(kind, unit(f), v, read_at, network=number_network())


def number_lines(store: ExampleStore, read_at: float = NUMBER_READ_AT) -> tuple[dict[str, NumberMemory], list[str]]:
    """The memories of every numbered kind kept in ``store`` with all its faces, and a line per
    numbered kind kept: what it learned, or what it still needs."""
    memories: dict[str, NumberMemory] = {}
    lines: list[str] = []
    for kind in NUMBERED:
        kept = store.examples(kind)
        if not kept:
            continue
        colour, examples = store.load_colour(kind)
        faces = faces_of(kind)
        have = sorted({e.value for e in examples})
        nm = number_memory(kind, colour, [e.value for e in examples], read_at) if len(colour) else None
        if nm is not None:
            memories[kind] = nm
            lines.append(f"{kind}: learned all {faces} faces from {len(examples)} examples; an unsure "
                         f"{kind} is read when they agree.")
        elif not examples:
            lines.append(f"{kind}: {len(kept)} examples kept without colour (kept before colour was): "
                         "show each face again (Show me each face) for it to learn.")
        else:
            missing = [v for v in range(1, faces + 1) if v not in have]
            lines.append(f"{kind}: {len(have)} of {faces} faces kept; show "
                         f"{', '.join(map(str, missing[:6]))}{' ...' if len(missing) > 6 else ''} "
                         "(Show me each face) before it learns.")
    return memories, lines


def colour_line(memory: ColourMemory | None, kept: int) -> str:
    """What the table's colour memory of its d6 learned, in a line."""
    if memory is None:
        return ("d6: no colour crops kept (kept before they were, or a grey camera): "
                "the d6 learn from their grey crops alone." if not kept else
                "d6: the colour crops could not be used.")
    n = len(memory.values) // COLOUR_TURNS
    if memory.read_at is None:
        return (f"d6: remembered {n} in colour; not yet sure enough of them to read a die by itself "
                "(it needs more rolls the reader was unsure of, with none read wrong).")
    return (f"d6: remembered {n} in colour; an unsure d6 is read when the colour memory and the "
            f"readers agree at {memory.read_at:.4g} or more.")


def saved_state(folder: str | Path) -> str:
    """What keeps the tuning saved in ``folder`` from being used, in a sentence ("" when it is
    fine or there is none): made with other networks than the ones in place, or damaged."""
    try:
        saved = Adaptation.load(folder)
    except TuneError:
        return "The tuning saved before is damaged (not used)"
    stale = saved.stale() if saved is not None else ()
    return (f"The tuning saved before was made with another version of the dice reader "
            f"({', '.join(stale)}: not used)" if stale else "")


def status_lines(folder: str | Path) -> tuple[list[str], bool]:
    """What ``companion dice tune --status`` prints: the examples kept in ``folder``, and what of
    the tuning saved there the reader uses; and whether the saved tuning could be read."""
    counts = ExampleStore(folder).counts()
    kept = ", ".join(f"{dice} {kind} in {rolls} rolls" for kind, (rolls, dice) in counts.items())
    lines = [f"examples kept in {folder}: {kept or 'none'}"]
    try:
        saved = Adaptation.load(folder)
    except TuneError as exc:
        return lines + [f"saved tuning: not used: {exc}"], False
    if saved is None:
        return lines + ["saved tuning: none yet: run 'companion dice tune' to make one"], True
    used = saved.in_force()
    parts = [] if used is None else (
        (["d6"] if used.has_grey else []) + (["d6 in colour"] if used.colour is not None else [])
        + sorted(used.numbers, key=faces_of))
    lines.append(f"saved tuning: in use for {', '.join(parts)}" if parts else "saved tuning: nothing of it in use")
    if stale := saved.stale():
        lines.append(f"not used: {stale_message(stale)}")
    return lines, True


def tune_folder(folder: str | Path, progress: Progress | None = None, save: bool = True,
                target: float = READ_TARGET) -> tuple[Adaptation, TuneReport]:
    """Fit the table's adaptation to the examples in ``folder`` (the d6 memory and read
    threshold, and a number memory per numbered kind with every face kept), save it there
    (``save``), and report what it did on held-back stored rolls."""
    from .d6colour import has_features

    store = ExampleStore(folder)
    crops, examples = store.load_examples("d6")
    memories, lines = number_lines(store)
    colour: np.ndarray | None = None
    rows: list[int] = []
    kept, with_colour = store.load_colour("d6") if len(examples) else (np.zeros(0), [])
    if with_colour and has_features():
        # the dice with a readable grey crop (the ones tuned on) and a colour crop that is not
        # all black (one says nothing of the die), in the examples' order
        at = {e.path: i for i, e in enumerate(examples)}
        lit = np.asarray(kept.reshape(len(kept), -1).any(axis=1), bool)
        pairs = sorted((at[e.path], j) for j, e in enumerate(with_colour) if e.path in at and lit[j])
        rows, use = [r for r, _ in pairs], [j for _, j in pairs]
        colour = kept if use == list(range(len(kept))) else kept[use]
    elif with_colour:
        lines.append("d6: the colour d6 reader has no features output, so the colour crops are not used: "
                     "run 'python3 scripts/train_d6_colour.py outputs'.")
    if len(examples):
        ad, report = tune_examples(crops, examples, progress, target, colour if rows else None, rows)
        lines.insert(0, colour_line(ad.colour, len(with_colour)))
    elif memories:
        ad = Adaptation(np.zeros((EMBED_DIM, 6)), np.zeros(6))
        report = TuneReport(0, 0, 0, None, None, None, None, None, {})
    else:
        raise TuneError("nothing to learn from yet: confirm some rolls at the table, or use "
                        "'Show me each face' (or 'companion dice learn') for every face of a die"
                        + (f" ({'; '.join(lines)})" if lines else ""))
    ad = replace(ad, numbers=memories)
    others = {k: n for k, (_, n) in store.counts().items() if k != "d6" and k not in NUMBERED}
    report = TuneReport(**{**report.__dict__, "other_kinds": others, "numbered": tuple(lines)})
    if save:
        ad.save(Path(folder))
    return ad, report
