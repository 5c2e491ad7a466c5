"""The two small networks and what they see: constants, crops, preprocessing, ONNX sessions.

- the **finder** (``models/special_finder.onnx``) looks at the frame shrunk ``DET_SCALE`` times
  (grey, normalised per frame) and answers on a grid of cells ``DET_SCALE * DET_STRIDE`` frame
  pixels wide: a die-centre heat (logit), the die's size (log of its side over ``SIZE_REF``
  pixels) and the centre's offset inside the cell;
- the **reader** (``models/special_reader.onnx``) looks at a square grey crop around one found
  die (``crop``; 64 px for the shipped reader, the size its input says) and answers the class (``CLASSES``: not a die of these kinds,
  the five block symbols, a scatter die) and, for a scatter die, the arrow's angle in the picture
  as a distribution over ``ANGLE_BINS`` bins.

Both are trained by ``scripts/train_special_dice.py`` on rendered frames
(``vision.synthetic.special_dice``) and run with onnxruntime.
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path

import cv2
import numpy as np

from vision.dice.models import fingerprint
from vision.onnx_session import session_options

MODEL_DIR = Path(__file__).resolve().parent / "models"
FINDER_PATH = MODEL_DIR / "special_finder.onnx"
READER_PATH = MODEL_DIR / "special_reader.onnx"
BLOCK_READER_PATH = MODEL_DIR / "special_block_reader.onnx"
"""The reader used when only block dice are rolled (the same network shape and classes, trained
longer; on its own it is surer of some scatter arrows it reads wrong, so rolls with a scatter die
keep ``READER_PATH``)."""
SCREEN_PATH = MODEL_DIR / "special_screen.onnx"
"""The screen: a tiny network that gives each of the finder's candidates, cut small and
axis-aligned (``screen_crop``), one logit that it is a die of either kind; candidates it is
near-certain are no die are dropped before the reader sees them (``SpecialDiceConfig.screen_die``)."""
SCREEN_CROP = 32
"""The screen's input side in pixels."""
UPRIGHT_READER_PATH = MODEL_DIR / "special_upright_reader.onnx"
"""The upright reader (the same shape and classes): trained on crops turned so that the way to the
camera's nadir points down (``upright``), read only with crops turned that way."""
UPRIGHT_BLOCK_READER_PATH = MODEL_DIR / "special_upright_block_reader.onnx"
"""The upright reader of rolls of block dice only (the same shape, classes and upright crops):
the upright reader trained further on 12,000 more upright frames. It reads block dice better
than ``UPRIGHT_READER_PATH`` but is surer of some boxes a little off a scatter die, so scatter
rolls and mixed ones keep that one (docs/vision-special-dice.md, "The block upright reader")."""


def eight_bit_of(float_path: Path) -> Path:
    """Where the 8-bit form of the network at ``float_path`` is kept, beside it
    (``scripts/quantize_special_reader.py``; ``NAME.int8.onnx`` for ``NAME.onnx``): about
    three quarters of the float network's time a crop, for the rolls of
    ``SpecialDiceConfig.upright_8bit``. Used only while it was made from the float network in
    place (``made_from``)."""
    return float_path.with_name(float_path.stem + ".int8.onnx")


UPRIGHT_BLOCK_READER_8BIT_PATH = eight_bit_of(UPRIGHT_BLOCK_READER_PATH)
"""The block upright reader in 8 bits: what reads a roll of block dice on a registered board."""
FLOAT_SOURCE = "float_source_sha256"
"""The 8-bit file's metadata key naming its float network (``scripts/onnx_int8.py``)."""

DET_SCALE = 4
"""The finder sees the frame shrunk this many times."""
DET_STRIDE = 4
"""The finder answers once per this many of its input pixels."""
CELL = DET_SCALE * DET_STRIDE
SIZE_REF = 32.0

CROP = 48
"""The reader's input side in pixels when its network does not say (the reader takes it from the
exported network's input, so a network trained at another size works)."""
CROP_MARGIN = 1.5
"""The reader's crop is this many times the die's side."""

CLASSES: tuple[str, ...] = (
    "none", "attacker down", "both down", "pushed", "defender stumbles", "defender down", "scatter",
)
BLOCK_CLASS_VALUE: dict[int, int] = {1: 1, 2: 2, 3: 3, 4: 5, 5: 6}
"""Reader class -> block face value (pushed reads as 3: the die's two pushed faces look alike)."""
SCATTER_CLASS = 6
NONE_CLASS = 0
ANGLE_BINS = 144
"""The arrow's angle in the picture, in bins of 2.5 degrees: bin k covers k * 2.5 +- 1.25 degrees,
measured as atan2(dy, dx) with y down (0 = pointing right, 90 = pointing down). The reader
takes the bin count from the network's output, so a network trained with another count works."""


class ModelMissingError(RuntimeError):
    """A model file is missing: run scripts/train_special_dice.py or reinstall the package."""


def normalise(grey: np.ndarray) -> np.ndarray:
    """uint8 grey images (N x H x W) to the networks' float input (N x 1 x H x W): each image
    scaled to zero mean and unit spread."""
    x = grey.astype(np.float32) * (1.0 / 255.0)
    mean = x.mean(axis=(1, 2), keepdims=True)
    std = x.std(axis=(1, 2), keepdims=True)
    return np.ascontiguousarray(((x - mean) / (std + 0.02))[:, None], np.float32)


def shrink(grey: np.ndarray) -> np.ndarray:
    """The finder's view of a grey frame: ``DET_SCALE`` times smaller, each side a multiple of
    ``DET_STRIDE`` (padded by repeating the edge). A side that is not a multiple of ``DET_SCALE``
    is padded to one first, so the shrink averages whole blocks of pixels (OpenCV's fast path; a
    cell is then exactly ``CELL`` frame pixels)."""
    h, w = grey.shape[:2]
    ph, pw = (-h) % DET_SCALE, (-w) % DET_SCALE
    if ph or pw:
        grey = cv2.copyMakeBorder(grey, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        h, w = h + ph, w + pw
    small = cv2.resize(grey, (max(1, w // DET_SCALE), max(1, h // DET_SCALE)), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    ph, pw = (-sh) % DET_STRIDE, (-sw) % DET_STRIDE
    if ph or pw:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    return np.asarray(small)


CROP_SAMPLE = 64
"""Crops are sampled at this size and shrunk to the reader's input size (as the training crops were)."""


def crop(grey: np.ndarray, centre: tuple[float, float], side: float, size: int = CROP,
         turn: float = 0.0) -> np.ndarray:
    """A ``size`` x ``size`` crop of ``grey`` centred on ``centre``, ``CROP_MARGIN * side``
    pixels across (edges replicated past the frame); the picture turned ``turn`` degrees about
    the centre (an angle ``a`` in the frame is ``a + turn`` in the crop, atan2 with y down;
    0: axis-aligned, angles kept)."""
    big = crop_sample(grey, centre, side, turn)
    if size == CROP_SAMPLE:
        return big
    return np.asarray(cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA))


def crop_sample(grey: np.ndarray, centre: tuple[float, float], side: float, turn: float = 0.0) -> np.ndarray:
    """The ``CROP_SAMPLE`` x ``CROP_SAMPLE`` crop that ``crop`` shrinks (the training data keeps these)."""
    window = max(side * CROP_MARGIN, 4.0)
    scale = CROP_SAMPLE / window
    cx, cy = centre
    if scale < 0.75:
        # shrink first so thin symbol strokes are averaged, not skipped (a turned crop reaches
        # sqrt(2) times as far from the centre)
        f = 1.0 / scale
        reach = window if turn % 90.0 == 0.0 else window * 1.5
        x0, y0 = int(max(0, cx - reach)), int(max(0, cy - reach))
        x1, y1 = int(min(grey.shape[1], cx + reach)), int(min(grey.shape[0], cy + reach))
        if x1 - x0 > 4 and y1 - y0 > 4:
            sub = cv2.resize(grey[y0:y1, x0:x1], (max(1, int(round((x1 - x0) / f * 1.5))),
                                                  max(1, int(round((y1 - y0) / f * 1.5)))),
                             interpolation=cv2.INTER_AREA)
            fx, fy = sub.shape[1] / (x1 - x0), sub.shape[0] / (y1 - y0)
            return crop_scaled(sub, ((cx - x0) * fx, (cy - y0) * fy), window * fx, turn)
    return crop_scaled(grey, centre, window, turn)


def crop_scaled(grey: np.ndarray, centre: tuple[float, float], window: float, turn: float = 0.0) -> np.ndarray:
    """One warp: the ``window``-pixel square around ``centre``, turned ``turn`` degrees, to
    ``CROP_SAMPLE`` pixels."""
    scale = CROP_SAMPLE / window
    cx, cy = centre
    t = np.radians(turn)
    c, s = scale * np.cos(t), scale * np.sin(t)
    m = np.array([[c, -s, CROP_SAMPLE / 2 - (c * cx - s * cy)], [s, c, CROP_SAMPLE / 2 - (s * cx + c * cy)]],
                 np.float32)
    return np.asarray(cv2.warpAffine(grey, m, (CROP_SAMPLE, CROP_SAMPLE), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE))


def screen_crop(grey: np.ndarray, centre: tuple[float, float], side: float, size: int = SCREEN_CROP
                ) -> np.ndarray:
    """The screen's ``size`` x ``size`` crop: the axis-aligned square ``CROP_MARGIN * side`` pixels
    across around ``centre`` (edges replicated past the frame), shrunk by area averaging."""
    window = max(int(round(side * CROP_MARGIN)), 4)
    h, w = grey.shape[:2]
    x0, y0 = int(round(centre[0] - window / 2)), int(round(centre[1] - window / 2))
    x1, y1 = x0 + window, y0 + window
    part = grey[max(0, y0):max(0, min(h, y1)), max(0, x0):max(0, min(w, x1))]
    if part.size == 0:
        return np.full((size, size), int(grey[min(h - 1, max(0, y0)), min(w - 1, max(0, x0))]), np.uint8)
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        part = cv2.copyMakeBorder(part, max(0, -y0), max(0, y1 - h), max(0, -x0), max(0, x1 - w),
                                  cv2.BORDER_REPLICATE)
    return np.asarray(cv2.resize(part, (size, size), interpolation=cv2.INTER_AREA))


def to_grey(frame: np.ndarray, channel_order: str = "bgr") -> np.ndarray:
    if frame.ndim == 2:
        return frame
    code = cv2.COLOR_BGR2GRAY if channel_order == "bgr" else cv2.COLOR_RGB2GRAY
    if frame.shape[2] == 4:
        code = cv2.COLOR_BGRA2GRAY if channel_order == "bgr" else cv2.COLOR_RGBA2GRAY
    return np.asarray(cv2.cvtColor(frame, code))


class Network:
    """One ONNX network run by onnxruntime on one thread."""

    def __init__(self, path: Path) -> None:
        import onnxruntime as ort

        options = session_options(1)
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        first = self._session.get_inputs()[0]
        self._input = first.name
        self.metadata: dict[str, str] = dict(self._session.get_modelmeta().custom_metadata_map)
        self.input_shape: tuple[int | str | None, ...] = tuple(first.shape)

    def run(self, x: np.ndarray) -> list[np.ndarray]:
        return [np.asarray(o) for o in self._session.run(None, {self._input: x})]


def made_from(eight_bit: Path, float_path: Path) -> bool:
    """Whether the 8-bit network at ``eight_bit`` was made from the float one at ``float_path``
    as it is now (its recorded digest): a retrained float network, or a missing 8-bit file,
    says no, and the float network reads instead."""
    if not eight_bit.exists():
        return False
    recorded = load(eight_bit).metadata.get(FLOAT_SOURCE, "")
    return bool(recorded) and recorded == fingerprint(float_path)


_lock = threading.Lock()


@functools.cache
def _load(path: Path) -> Network:
    if not path.exists():
        raise ModelMissingError(f"special dice model {path.name} is missing from {path.parent}: run "
                                "scripts/train_special_dice.py or reinstall the package")
    return Network(path)


def load(path: Path) -> Network:
    """The network at ``path``, loaded once per process."""
    with _lock:
        return _load(path)


def reader_crop_size(net: Network) -> int:
    """The side of the square crop the reader network takes (its input's last axis; ``CROP``
    when the network leaves it open)."""
    side = net.input_shape[-1] if net.input_shape else None
    return side if isinstance(side, int) and side > 0 else CROP
