"""Dice in the benchmark's sets that a person cannot read either, judged by eye.

A reader that is honest leaves such a die unsure, so a set holding them caps the share of its
detected dice any honest reader can read right (the *ceiling* the benchmark prints beside its
figures). The lists were made (at 4c6077a) by looking at every die the reader did not read right
in the benchmark's sets, enlarged with its surroundings, and keeping only the dice that show
nothing to read: no pip or number can be made out at all (a dark die blurred into a blob), or
glare or blur hides the number. A die that shows its value to a patient eye, however faint or
slanted, is not listed, nor is a die whose label is merely arguable. Dice the reader did read
right were not looked at, so each list is a lower bound ("at least these").

docs/vision-dice.md ("What a person can read") shows the listed dice and the ceilings.
"""

from __future__ import annotations

_BLOB = "dark die blurred into a blob: no pip can be made out"

RUNE55: dict[str, dict[int, tuple[str, int, str]]] = {
    # image file stem -> {die index in its label file: (type, value as labelled, why no one can
    # read it)}; all in the eval split
    # >= 48 px
    "IMG_20191208_111858_jpg.rf.41dbb4bbd0db288a5c025f8da63a5b28": {7: ("d6", 1, _BLOB)},
    "IMG_20191208_111858_jpg.rf.f5afc092d62da40b2e3325c1d257c9f9": {7: ("d6", 1, _BLOB)},
    "IMG_20191208_112104_jpg.rf.6d57e526e875f3f7957e2c0f5ed83ace": {
        6: ("d6", 3, _BLOB),
        0: ("d6", 6, _BLOB),  # this and the next: 32-48 px
        3: ("d6", 4, _BLOB),
    },
    "IMG_20191209_095915_jpg.rf.24dc48d14ab66487795eae8ac753d0b2": {2: ("d6", 2, _BLOB)},
    "IMG_20191209_095915_jpg.rf.ba465aca473a9033dcf85d476a6b90b1": {2: ("d6", 2, _BLOB)},
    "PXL_20240219_191658496_jpg.rf.b1da182f6e63b35e05d9983777757683": {
        0: ("d6", 2, "dark red die on red cloth, blurred: only a smear of colour shows")},
    # 32-48 px
    "IMG_20191208_111339_jpg.rf.a6193a3aa7d51409cc1a456beea9454d": {7: ("d6", 3, _BLOB)},
    "IMG_20191208_111530_jpg.rf.00324d9cf75536be778c6456130a9d57": {16: ("d6", 1, _BLOB)},
    "IMG_20191208_111530_jpg.rf.b8e99a8f965cdd14fb26b68efd67705e": {16: ("d6", 1, _BLOB)},
    "IMG_20191208_111913_jpg.rf.048b7b31858285fe60537a2ab515aaf0": {
        3: ("d6", 4, _BLOB),
        4: ("d6", 3, _BLOB),
        6: ("d6", 2, _BLOB),
    },
    "IMG_20191208_111913_jpg.rf.0bc34ecd92d5942c843d7af0a99ebff9": {
        3: ("d6", 4, _BLOB),
        4: ("d6", 3, _BLOB),
        6: ("d6", 2, _BLOB),
    },
    "IMG_20191208_111932_jpg.rf.5a3359dee635ed7d651ac6be0e2dbd22": {
        1: ("d6", 5, _BLOB),
        4: ("d6", 1, _BLOB),
    },
    "IMG_20191208_112005_jpg.rf.5e11a4d53783df320b8bf67362e042ab": {0: ("d6", 5, _BLOB)},
    "IMG_20191208_112020_jpg.rf.09841bd55ced593af54f837200fbc18e": {2: ("d6", 4, _BLOB)},
    "IMG_20191208_112020_jpg.rf.5baee266c2301452d832d65e3c33ebd3": {2: ("d6", 4, _BLOB)},
    "IMG_20191208_112025_jpg.rf.c813b17e87c8620b198bb48e98c0a2e9": {4: ("d6", 2, _BLOB)},
    "IMG_20191208_112239_jpg.rf.129d549971882a90b07792845e04f3b6": {
        0: ("d6", 6, _BLOB),
        8: ("d6", 3, _BLOB),
    },
    "IMG_20191208_112239_jpg.rf.85d752178ef3e72f74095070c8ab5c33": {
        0: ("d6", 6, _BLOB),
        8: ("d6", 3, _BLOB),
    },
    "IMG_20191208_112300_jpg.rf.f5cab7088fd5ed8824e8ed5d1f5cb40e": {2: ("d6", 2, _BLOB)},
}
"""Rune55 dice no one can read (the benchmark's eval split, the labels' own boxes)."""

_GLARE = "glare covers the number"
_BLUR = "blurred: the number cannot be made out"

RENDERED_NUMBERED: dict[str, dict[int, tuple[str, int, str]]] = {
    # frame name (``evaluate.synthetic_items``, seed 20,000 on: the benchmark's numbered set)
    # -> {index among the frame's truths: (type, value, why)}
    "synthetic-20014": {
        5: ("d20", 1, "yellow number on a yellow-green d20, blurred: it shows a wedge, not a 1"),
    },
    "synthetic-20016": {2: ("d10", 5, _GLARE)},
    "synthetic-20042": {0: ("d20", 17, "pink number on a pink d20 on orange, blurred")},
    "synthetic-20064": {0: ("d20", 9, _GLARE)},
    "synthetic-20075": {0: ("d20", 19, _BLUR + " (19 or 18)")},
    "synthetic-20092": {4: ("d12", 10, _GLARE)},
}
"""Rendered numbered dice no one can read (the benchmark's numbered frames as rendered at 4c6077a;
a change to the renderer changes the frames, and the list must be made again). The top face's
number is what is judged; a die large enough to show its side faces' numbers (which could name
the top face on a die of known layout) is not listed: the 48 px d20 under glare in frame 20081
is left out for that reason."""


def is_unreadable(name: str, index: int, kind: str, value: int) -> bool:
    """Whether die ``index`` of the image or frame ``name`` (a Rune55 file stem such as
    ``IMG_..._jpg.rf.HASH``, or a frame name such as ``synthetic-20014``) is listed, as this
    type and value: another folder's file of the same name, or a frame of the same name
    rendered otherwise, is not."""
    entry = (RUNE55.get(name) or RENDERED_NUMBERED.get(name) or {}).get(index)
    return entry is not None and entry[:2] == (kind, value)
