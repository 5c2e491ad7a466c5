"""Rendered block dice and scatter dice on a table, seen by a slanted pinhole camera.

Two die kinds of the fantasy-football chapters, drawn procedurally with exact ground truth:

- the **block die**: a cube whose six faces carry five symbols (``BLOCK_FACES``): attacker down
  (a skull), both down (a skull and an explosion), pushed (an arrow, on two faces), defender
  stumbles (an arrow ending in an explosion) and defender down (a big explosion with "POW!");
- the **scatter die**: a regular octahedron (a d8) with an arrow on every face. Lying on a face,
  its top face is a triangle and that face's arrow points across the table; the roll is the
  compass direction the arrow points in relative to the board (``SCATTER_DIRECTIONS``: face 1 is
  north, "up the board", then clockwise in steps of 45 degrees).

The scene is a table plane (board millimetres: ``x`` to the right, ``y`` down the board, so
north is ``-y``) under a pinhole camera with tilt, roll (the board turned in the picture) and
distance; the table's texture, every die's faces and shadows go through the same camera, so
the frame's perspective and the board's registration (:attr:`SceneTruth.board_to_frame`, the
homography of the table plane) agree. Light, blur (focus and motion), noise, colour cast,
exposure and JPEG are drawn per frame. All randomness comes from the generator passed in, so a
seed fixes a frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Protocol

import cv2
import numpy as np

from vision.synthetic.dice import training_background

BLOCK_FACES: tuple[str, ...] = (
    "attacker down", "both down", "pushed", "pushed", "defender stumbles", "defender down",
)
"""The block die's faces 1..6 (the kind's labels): pushed is on two faces (3 and 4)."""

BLOCK_SYMBOLS: tuple[int, ...] = (1, 2, 3, 5, 6)
"""The face value each distinct block symbol reads as: pushed reads as 3 (its first face)."""

SCATTER_DIRECTIONS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""The scatter die's faces 1..8: 1 is north (up the board, away from the near edge as the
board is registered), then clockwise seen from above."""

BGR = tuple[int, int, int]


class Projector(Protocol):
    """What drawing a die needs of a camera: board millimetres (w into the table) to pixels,
    and the direction from the camera to a point."""

    def project(self, pts: np.ndarray) -> np.ndarray: ...

    def view_dir(self, point: np.ndarray) -> np.ndarray: ...

# body, ink: block dice of real sets are mostly a bright body with dark symbols or the reverse
DIE_COLOURS: tuple[tuple[BGR, BGR], ...] = (
    ((235, 235, 232), (25, 25, 25)),
    ((40, 40, 200), (240, 240, 240)),
    ((190, 90, 30), (245, 245, 245)),
    ((30, 30, 32), (235, 235, 235)),
    ((60, 160, 40), (250, 250, 250)),
    ((40, 215, 235), (20, 20, 20)),
    ((20, 120, 240), (20, 20, 20)),
    ((140, 40, 120), (240, 240, 240)),
    ((200, 228, 240), (40, 30, 150)),
    ((128, 128, 128), (15, 15, 15)),
    ((150, 150, 20), (245, 245, 245)),
    ((40, 40, 200), (20, 20, 20)),
    ((235, 235, 232), (40, 40, 190)),
)

TEX = 128  # face texture side in pixels


# -- face symbols ---------------------------------------------------------------------------

def _pt(x: float, y: float) -> tuple[int, int]:
    return (int(round(x * 16)), int(round(y * 16)))


def _poly(img: np.ndarray, pts: np.ndarray, colour: BGR) -> None:
    cv2.fillPoly(img, [np.round(np.asarray(pts) * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


def _circle(img: np.ndarray, c: tuple[float, float], r: float, colour: BGR, thick: int = -1) -> None:
    cv2.circle(img, _pt(*c), int(round(r * 16)), colour, thick, cv2.LINE_AA, 4)


def draw_skull(img: np.ndarray, c: tuple[float, float], s: float, ink: BGR, body: BGR) -> None:
    """A skull of height about ``2 s`` centred at ``c``: a round cranium, a jaw with teeth,
    two dark eyes and a nose."""
    x, y = c
    _circle(img, (x, y - 0.15 * s), 0.78 * s, ink)
    jaw = np.array([[x - 0.5 * s, y + 0.3 * s], [x + 0.5 * s, y + 0.3 * s],
                    [x + 0.42 * s, y + 0.95 * s], [x - 0.42 * s, y + 0.95 * s]])
    _poly(img, jaw, ink)
    for dx in (-0.32, 0.32):
        _circle(img, (x + dx * s, y - 0.1 * s), 0.22 * s, body)
    _poly(img, np.array([[x, y + 0.15 * s], [x - 0.1 * s, y + 0.38 * s], [x + 0.1 * s, y + 0.38 * s]]), body)
    for dx in (-0.2, 0.0, 0.2):
        p0 = (x + dx * s, y + 0.62 * s)
        p1 = (x + dx * s, y + 0.95 * s)
        cv2.line(img, _pt(*p0), _pt(*p1), body, max(1, int(0.07 * s)), cv2.LINE_AA, 4)


def draw_burst(img: np.ndarray, c: tuple[float, float], r: float, ink: BGR, body: BGR,
               points: int = 10, text: str = "") -> None:
    """An explosion: a star with ``points`` spikes of outer radius ``r``, "POW!" inside when
    ``text`` says so (in the body colour)."""
    x, y = c
    ang = np.arange(2 * points) * math.pi / points - math.pi / 2
    rad = np.where(np.arange(2 * points) % 2 == 0, r, 0.58 * r)
    _poly(img, np.stack([x + rad * np.cos(ang), y + rad * np.sin(ang)], 1), ink)
    if text:
        scale = r / 42.0
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, max(1, int(2 * scale)))
        cv2.putText(img, text, (int(x - tw / 2), int(y + th / 2)), cv2.FONT_HERSHEY_DUPLEX, scale,
                    body, max(1, int(2.2 * scale)), cv2.LINE_AA)


def draw_arrow(img: np.ndarray, tail: tuple[float, float], tip: tuple[float, float], width: float,
               ink: BGR, head: float = 2.4) -> None:
    """A thick arrow from ``tail`` to ``tip``: shaft ``width`` wide, head ``head`` times as wide."""
    t, p = np.array(tail, float), np.array(tip, float)
    d = p - t
    n = float(np.linalg.norm(d))
    if n < 1e-6:
        return
    d /= n
    q = np.array([-d[1], d[0]])
    hl = min(0.45 * n, head * width * 0.9)
    base = p - d * hl
    w2, h2 = width / 2, head * width / 2
    _poly(img, np.array([t + q * w2, base + q * w2, base + q * h2, p, base - q * h2,
                         base - q * w2, t - q * w2]), ink)


def block_face(symbol: str, body: BGR, ink: BGR, rng: np.random.Generator) -> np.ndarray:
    """A ``TEX`` x ``TEX`` block die face (BGR) showing ``symbol`` (one of ``BLOCK_FACES``)."""
    img = np.empty((TEX, TEX, 3), np.uint8)
    img[:] = body
    s = TEX
    jit = rng.uniform(-0.03, 0.03, 2) * s
    cx, cy = s / 2 + jit[0], s / 2 + jit[1]
    if symbol == "attacker down":
        draw_skull(img, (cx, cy), 0.3 * s, ink, body)
    elif symbol == "both down":
        draw_burst(img, (cx + 0.14 * s, cy + 0.14 * s), 0.3 * s, ink, body, points=9)
        _circle(img, (cx - 0.16 * s, cy - 0.16 * s), 0.25 * s, body)
        draw_skull(img, (cx - 0.16 * s, cy - 0.14 * s), 0.2 * s, ink, body)
    elif symbol == "pushed":
        draw_arrow(img, (cx - 0.3 * s, cy + 0.3 * s), (cx + 0.32 * s, cy - 0.32 * s), 0.13 * s, ink)
    elif symbol == "defender stumbles":
        draw_arrow(img, (cx - 0.34 * s, cy + 0.34 * s), (cx + 0.06 * s, cy - 0.06 * s), 0.12 * s, ink)
        draw_burst(img, (cx + 0.16 * s, cy - 0.16 * s), 0.22 * s, ink, body, points=8)
    elif symbol == "defender down":
        draw_burst(img, (cx, cy), 0.4 * s, ink, body, points=11, text="POW!")
    else:
        raise ValueError(f"unknown block die symbol {symbol!r}: use one of {', '.join(BLOCK_FACES)}")
    return img


TRI = np.array([[TEX / 2, 6.0], [TEX - 6.0, TEX - 14.0], [6.0, TEX - 14.0]])
"""The scatter face texture's triangle (apex first); the arrow points from the base to the apex."""


def scatter_face(body: BGR, ink: BGR, rng: np.random.Generator) -> np.ndarray:
    """A ``TEX`` x ``TEX`` texture of a scatter die face: the triangle ``TRI`` with an arrow
    along its axis pointing at the apex (the texture outside the triangle is unused)."""
    img = np.empty((TEX, TEX, 3), np.uint8)
    img[:] = body
    centre = TRI.mean(axis=0)
    tip = TRI[0] + (centre - TRI[0]) * 0.28
    tail = centre + (centre - TRI[0]) * 0.55
    draw_arrow(img, (float(tail[0]), float(tail[1])), (float(tip[0]), float(tip[1])),
               float(rng.uniform(0.1, 0.13)) * TEX, ink, head=2.5)
    return img


# -- meshes ---------------------------------------------------------------------------------

def _cube() -> tuple[np.ndarray, list[list[int]]]:
    v = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    faces = []
    for axis in range(3):
        for sign in (1, -1):
            idx = [i for i in range(8) if v[i, axis] == sign]
            # order around the face, counter-clockwise seen from outside
            others = [a for a in range(3) if a != axis]
            c = v[idx][:, others]
            ang = np.arctan2(c[:, 1], c[:, 0])
            order = [idx[i] for i in np.argsort(ang)]
            n = np.zeros(3)
            n[axis] = sign
            p = v[order]
            if np.dot(np.cross(p[1] - p[0], p[2] - p[0]), n) < 0:
                order = order[::-1]
            faces.append(order)
    return v, faces


def _octahedron() -> tuple[np.ndarray, list[list[int]]]:
    v = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)
    faces = []
    for sx in (0, 1):
        for sy in (2, 3):
            for sz in (4, 5):
                order = [sx, sy, sz]
                n = v[sx] + v[sy] + v[sz]
                p = v[order]
                if np.dot(np.cross(p[1] - p[0], p[2] - p[0]), n) < 0:
                    order = order[::-1]
                faces.append(order)
    return v, faces


CUBE = _cube()
OCTA = _octahedron()


def _rotation_to_up(normal: np.ndarray) -> np.ndarray:
    """A rotation taking unit ``normal`` to world up (0, 0, -1) (the table's w axis points down)."""
    a = normal / np.linalg.norm(normal)
    b = np.array([0.0, 0.0, -1.0])
    v = np.cross(a, b)
    c = float(np.dot(a, b))
    if np.linalg.norm(v) < 1e-9:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    vx = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.asarray(np.eye(3) + vx + vx @ vx * (1 / (1 + c)))


def _rot_w(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


# -- camera ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the table plane (board mm: x right, y down the board, w into the
    table). ``tilt_deg`` leans it from straight down toward ``tilt_dir_deg``; ``roll_deg`` turns
    the picture (the board's north then points that many degrees clockwise from the image's up);
    ``height_mm`` is its distance from the point it looks at (``target``)."""

    width: int = 1280
    height: int = 720
    focal_px: float = 1000.0
    height_mm: float = 400.0
    tilt_deg: float = 0.0
    tilt_dir_deg: float = 0.0
    roll_deg: float = 0.0
    target: tuple[float, float] = (0.0, 0.0)

    def rotation(self) -> np.ndarray:
        """World to camera."""
        t, d, r = (math.radians(a) for a in (self.tilt_deg, self.tilt_dir_deg, self.roll_deg))
        # tilt about the horizontal axis perpendicular to the tilt direction
        axis = np.array([math.cos(d), math.sin(d), 0.0])
        k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        tilt = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * k @ k
        roll = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
        return np.asarray(roll @ tilt.T)

    def centre(self) -> np.ndarray:
        forward = self.rotation().T @ np.array([0.0, 0.0, 1.0])
        return np.asarray(np.array([self.target[0], self.target[1], 0.0]) - self.height_mm * forward)

    def K(self) -> np.ndarray:
        return np.array([[self.focal_px, 0, self.width / 2], [0, self.focal_px, self.height / 2], [0, 0, 1]])

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N x 3) to pixels (N x 2)."""
        cam = (self.rotation() @ (np.asarray(pts, float) - self.centre()).T).T
        uv = (self.K() @ cam.T).T
        return np.asarray(uv[:, :2] / uv[:, 2:3])

    def board_to_frame(self) -> np.ndarray:
        """The homography of the table plane (w = 0): board mm to pixels."""
        r = self.rotation()
        t = -r @ self.centre()
        h = self.K() @ np.column_stack([r[:, 0], r[:, 1], t])
        return np.asarray(h / h[2, 2])

    def view_dir(self, point: np.ndarray) -> np.ndarray:
        """Unit vector from the camera to ``point``."""
        d = np.asarray(point, float) - self.centre()
        return np.asarray(d / np.linalg.norm(d))


# -- dice -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class SpecialDieTruth:
    """One rendered die: ``kind`` 'block' or 'scatter'; ``value`` its face (block 1..6, the
    symbol read as ``BLOCK_SYMBOLS``' value: 4 is drawn but reads as 3; scatter 1..8 the
    direction relative to the board); ``box`` (x, y, w, h) in frame pixels of its silhouette;
    ``centre`` the silhouette's centre; for a scatter die ``bearing_deg`` the arrow's compass
    bearing on the board (0 = north, clockwise) and ``image_deg`` its angle in the picture
    (atan2 of the image direction, degrees, y down)."""

    kind: str
    value: int
    box: tuple[int, int, int, int]
    centre: tuple[float, float]
    bearing_deg: float | None = None
    image_deg: float | None = None
    colour: BGR = (0, 0, 0)


@dataclass(frozen=True)
class SceneTruth:
    dice: tuple[SpecialDieTruth, ...]
    board_to_frame: np.ndarray
    camera: Camera
    distractors: tuple[tuple[int, int, int, int], ...] = field(default=())


def bearing_to_value(bearing_deg: float) -> int:
    """The scatter face (1..8) of a compass bearing on the board (0 = north, clockwise)."""
    return int(round((bearing_deg % 360.0) / 45.0)) % 8 + 1


def scatter_value(compass: int) -> int:
    """The scatter die's face value a reader gives for a truth's compass direction (1 = north,
    clockwise: ``bearing_to_value``)."""
    from vision.special_dice.types import SCATTER_FACES

    return SCATTER_FACES[compass - 1]


def block_value(face: int) -> int:
    """What a block face (1..6) reads as: pushed's two faces both read 3."""
    return 3 if face == 4 else face


@dataclass(frozen=True)
class Light:
    direction: np.ndarray  # unit vector toward the light (world)
    ambient: float
    diffuse: float
    gloss: float
    shadow: float


def random_light(rng: np.random.Generator) -> Light:
    elev = math.radians(rng.uniform(30, 85))
    az = rng.uniform(0, 2 * math.pi)
    d = np.array([math.cos(elev) * math.cos(az), math.cos(elev) * math.sin(az), -math.sin(elev)])
    return Light(d, float(rng.uniform(0.35, 0.6)), float(rng.uniform(0.4, 0.75)),
                 float(rng.uniform(0.0, 0.6)), float(rng.uniform(0.2, 0.55)))


def _draw_die(img: np.ndarray, cam: Projector, light: Light, kind: str, centre_mm: tuple[float, float],
              size_mm: float, rng: np.random.Generator, top: int | None = None,
              colours: tuple[BGR, BGR] | None = None) -> SpecialDieTruth | None:
    """Draw one die on ``img`` (in place); None when it falls outside the frame."""
    body, ink = colours if colours is not None else DIE_COLOURS[int(rng.integers(len(DIE_COLOURS)))]
    body = tuple(int(np.clip(c + rng.normal(0, 10), 0, 255)) for c in body)  # type: ignore[assignment]
    if kind == "block":
        verts, faces = CUBE
        scale = size_mm / 2
        face_idx = int(rng.integers(6)) if top is None else top - 1
        symbols = BLOCK_FACES
        textures = [block_face(symbols[i], body, ink, rng) for i in range(6)]
        corners = [np.array([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]], float)] * 6
        normals = [verts[f].mean(axis=0) for f in faces]
        up = _rotation_to_up(normals[face_idx])
        rest = scale  # half height
    elif kind == "scatter":
        verts, faces = OCTA
        scale = size_mm * 0.75  # vertex radius: opposite faces size_mm * 0.87 apart
        face_idx = int(rng.integers(8)) if top is None else int(rng.integers(8))
        textures = [scatter_face(body, ink, rng) for _ in range(8)]
        corners = []
        for _ in range(8):
            k = int(rng.integers(3))  # which vertex of the face the arrow points at
            corners.append(np.roll(TRI, k, axis=0))
        normals = [verts[f].mean(axis=0) for f in faces]
        up = _rotation_to_up(normals[face_idx])
        rest = scale / math.sqrt(3)
    else:
        raise ValueError(f"unknown special die kind {kind!r}: use 'block' or 'scatter'")
    yaw = float(rng.uniform(0, 360))
    rot = _rot_w(yaw) @ up
    world_c = np.array([centre_mm[0], centre_mm[1], -rest])
    wv = (rot @ (verts * scale).T).T + world_c
    px = cam.project(wv)
    x0, y0 = np.floor(px.min(axis=0)).astype(int) - 3
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 3
    H, W = img.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > W or y1 > H:
        return None
    # shadow: the die's vertices cast along the light onto the table
    ld = light.direction
    t = wv[:, 2] / ld[2]  # walk away from the light until the table (w = 0)
    cast = wv - (t[:, None] * ld)
    cast[:, 2] = 0
    shadow_px = cam.project(np.vstack([cast, wv[wv[:, 2] > -1e-6]]))
    hull = cv2.convexHull(shadow_px.astype(np.float32)).reshape(-1, 2)
    sx0, sy0 = np.maximum(np.floor(hull.min(axis=0)).astype(int) - 12, 0)
    sx1, sy1 = np.minimum(np.ceil(hull.max(axis=0)).astype(int) + 12, [W, H])
    if sx1 > sx0 and sy1 > sy0:
        m = np.zeros((sy1 - sy0, sx1 - sx0), np.float32)
        cv2.fillPoly(m, [np.round((hull - [sx0, sy0]) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        m = cv2.GaussianBlur(m, (0, 0), float(rng.uniform(1.0, 4.0)))
        patch = img[sy0:sy1, sx0:sx1].astype(np.float32)
        img[sy0:sy1, sx0:sx1] = np.clip(patch * (1 - light.shadow * m[..., None]), 0, 255).astype(np.uint8)
    # faces, supersampled in a patch
    ss = 3
    pw, ph = (x1 - x0) * ss, (y1 - y0) * ss
    acc = np.zeros((ph, pw, 3), np.float32)
    alpha = np.zeros((ph, pw), np.float32)
    top_img: tuple[float, float] | None = None
    for fi, f in enumerate(faces):
        fv = wv[f]
        n = rot @ normals[fi]
        n = n / np.linalg.norm(n)
        centre_w = fv.mean(axis=0)
        if np.dot(n, cam.view_dir(centre_w)) >= -0.02:
            continue  # faces away from the camera
        # Lambert toward the light, Blinn-Phong gloss toward the camera
        lam = max(0.0, float(np.dot(n, light.direction)))
        shade = light.ambient + light.diffuse * lam
        half = light.direction - cam.view_dir(centre_w)
        half /= max(float(np.linalg.norm(half)), 1e-9)
        spec = light.gloss * max(0.0, float(np.dot(n, half))) ** 30
        dst = (px[f] - [x0, y0]) * ss
        tex = textures[fi]
        src = corners[fi]
        if len(f) == 4:
            m = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
            warped = cv2.warpPerspective(tex, m, (pw, ph), flags=cv2.INTER_LINEAR)
        else:
            m = cv2.getAffineTransform(src.astype(np.float32), dst.astype(np.float32))
            warped = cv2.warpAffine(tex, m, (pw, ph), flags=cv2.INTER_LINEAR)
        mask = np.zeros((ph, pw), np.uint8)
        # faces meet at rounded edges: shrink the face a little toward its centre, darker rim
        c = dst.mean(axis=0)
        inner = c + (dst - c) * 0.94
        cv2.fillPoly(mask, [np.round(dst * 4).astype(np.int32)], 255, cv2.LINE_AA, 2)
        rim = np.zeros((ph, pw), np.uint8)
        cv2.fillPoly(rim, [np.round(inner * 4).astype(np.int32)], 255, cv2.LINE_AA, 2)
        mf = mask.astype(np.float32) / 255
        rf = rim.astype(np.float32) / 255
        col = warped.astype(np.float32) * (shade * (0.8 + 0.2 * rf))[..., None] + 255 * spec
        acc = acc * (1 - mf[..., None]) + col * mf[..., None]
        alpha = np.maximum(alpha, mf)
        if -n[2] > 0.99:  # the top face
            if kind == "scatter":
                # the arrow points from the face's centre toward the texture's apex vertex
                apex_tex = TRI[0]
                k = int(np.argmin(np.linalg.norm(src - apex_tex, axis=1)))
                tip_w = fv[k]
                top_w = centre_w
                a = cam.project(np.vstack([top_w, top_w + (tip_w - top_w) * 0.05]))
                d = a[1] - a[0]
                top_img = (float(math.degrees(math.atan2(d[1], d[0]))), 0.0)
                b = tip_w - top_w
                bearing = math.degrees(math.atan2(b[0], -b[1])) % 360.0
                top_img = (top_img[0], bearing)
    small = cv2.resize(acc, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    a_small = cv2.resize(alpha, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)[..., None]
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(region * (1 - a_small) + small * a_small, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(a_small[..., 0] > 0.5)
    if len(xs) == 0:
        return None
    box = (int(x0 + xs.min()), int(y0 + ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
    cxy = (box[0] + box[2] / 2, box[1] + box[3] / 2)
    if kind == "block":
        return SpecialDieTruth("block", face_idx + 1, box, cxy, colour=body)
    if top_img is None:
        return None
    return SpecialDieTruth("scatter", bearing_to_value(top_img[1]), box, cxy,
                           bearing_deg=top_img[1], image_deg=top_img[0], colour=body)


class _Shifted:
    """A camera whose pixels are moved by (-dx, -dy): a patch of a frame seen as a frame."""

    def __init__(self, cam: Projector, dx: int, dy: int) -> None:
        self.cam, self.dx, self.dy = cam, dx, dy

    def project(self, pts: np.ndarray) -> np.ndarray:
        return np.asarray(self.cam.project(pts) - [self.dx, self.dy])

    def view_dir(self, point: np.ndarray) -> np.ndarray:
        return self.cam.view_dir(point)


def draw_die_showing(img: np.ndarray, cam: Projector, light: Light, kind: str,
                     centre_mm: tuple[float, float], size_mm: float, value: int,
                     rng: np.random.Generator, tries: int = 80) -> SpecialDieTruth | None:
    """Draw one die on ``img`` (in place) lying at ``centre_mm`` and showing ``value`` as a
    reader gives it: a block die's face 1..6 (3 and 4 both pushed), a scatter die's direction
    in the base game's numbering (``scatter_value``: 1 up-left ... 8 down-right, relative to the
    board). A scatter die is thrown again, in a patch around it, until its arrow points that
    way (it may lie anywhere in that direction's 45 degrees, near a line between two as well).
    ``cam`` is any camera with ``project`` and ``view_dir`` (board millimetres, w into the
    table). The truth, or None when the die falls outside the frame."""
    if kind == "block":
        if value not in range(1, 7):
            raise ValueError(f"a block die has faces 1 to 6, not {value!r}")
        return _draw_die(img, cam, light, kind, centre_mm, size_mm, rng, top=value)
    if kind != "scatter":
        raise ValueError(f"unknown special die kind {kind!r}: use 'block' or 'scatter'")
    if value not in range(1, 9):
        raise ValueError(f"a scatter die has directions 1 to 8, not {value!r}")
    c = cam.project(np.array([[centre_mm[0], centre_mm[1], 0.0]]))[0]
    reach = float(np.linalg.norm(cam.project(np.array([[centre_mm[0] + size_mm, centre_mm[1], 0.0]]))[0] - c))
    r = int(reach * 4) + 8  # the die, its shadow and the blur around it
    H, W = img.shape[:2]
    x0, y0 = max(0, int(c[0]) - r), max(0, int(c[1]) - r)
    x1, y1 = min(W, int(c[0]) + r), min(H, int(c[1]) + r)
    if x1 <= x0 or y1 <= y0:
        return None
    shifted = _Shifted(cam, x0, y0)
    for _ in range(tries):
        patch = img[y0:y1, x0:x1].copy()
        truth = _draw_die(patch, shifted, light, kind, centre_mm, size_mm, rng)
        if truth is not None and scatter_value(truth.value) == value:
            img[y0:y1, x0:x1] = patch
            bx, by, bw, bh = truth.box
            return replace(truth, box=(bx + x0, by + y0, bw, bh),
                           centre=(truth.centre[0] + x0, truth.centre[1] + y0))
    return None


# -- scenes ---------------------------------------------------------------------------------

def random_camera(rng: np.random.Generator, width: int = 1280, height: int = 720,
                  die_px: tuple[float, float] = (30.0, 64.0), max_tilt: float = 35.0,
                  roll_deg: float | None = None, focal_ref: int | None = None) -> tuple[Camera, float]:
    """A camera and a die size (mm) such that dice come out about ``die_px`` pixels across.
    ``focal_ref``: the frame width the focal length is chosen for (default ``width``): a
    smaller frame with the focal length of a wider one is a window of that wider frame."""
    focal = float(rng.uniform(0.8, 1.3)) * (focal_ref or width)
    dist = float(rng.uniform(300, 800))
    px = float(rng.uniform(*die_px))
    size_mm = px * dist / focal / 1.15
    cam = Camera(width, height, focal, dist, float(rng.uniform(0, max_tilt)), float(rng.uniform(0, 360)),
                 float(rng.uniform(0, 360)) if roll_deg is None else roll_deg,
                 (float(rng.uniform(-100, 100)), float(rng.uniform(-100, 100))))
    return cam, size_mm


def _table(rng: np.random.Generator, cam: Camera) -> np.ndarray:
    """The table's texture in board mm, seen by ``cam``."""
    h = cam.board_to_frame()
    inv = np.linalg.inv(h)
    corners = np.array([[0, 0], [cam.width, 0], [cam.width, cam.height], [0, cam.height]], np.float32)
    mm = cv2.perspectiveTransform(corners.reshape(1, -1, 2), inv)[0]
    lo, hi = mm.min(axis=0), mm.max(axis=0)
    span = float(max(hi - lo))
    res = min(2.5, 1400.0 / max(span, 1.0))  # texture pixels per mm
    tw, th = int((hi[0] - lo[0]) * res) + 2, int((hi[1] - lo[1]) * res) + 2
    tex = training_background(rng, tw, th)
    tex_to_mm = np.array([[1 / res, 0, lo[0]], [0, 1 / res, lo[1]], [0, 0, 1]])
    out = cv2.warpPerspective(tex, h @ tex_to_mm, (cam.width, cam.height), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)
    return np.asarray(out)


def _distractor(img: np.ndarray, rng: np.random.Generator, cam: Camera, size_mm: float,
                at: tuple[float, float]) -> tuple[int, int, int, int] | None:
    """A pipped d6 or a plain token lying on the table: things that are not block or scatter dice."""
    p = cam.project(np.array([[at[0], at[1], 0.0]]))[0]
    s = float(size_mm * cam.focal_px / cam.height_mm)
    x, y = int(p[0]), int(p[1])
    H, W = img.shape[:2]
    if not (s < x < W - s and s < y < H - s):
        return None
    body = tuple(int(v) for v in rng.uniform(20, 240, 3))
    ink = (20, 20, 20) if sum(body) > 380 else (235, 235, 235)
    ang = rng.uniform(0, 2 * math.pi)
    if rng.random() < 0.6:  # a pipped d6 seen from above
        pts = np.array([[math.cos(ang + k * math.pi / 2 + math.pi / 4), math.sin(ang + k * math.pi / 2 + math.pi / 4)]
                        for k in range(4)]) * s * 0.7 + [x, y]
        cv2.fillPoly(img, [pts.astype(np.int32)], body, cv2.LINE_AA)
        n = int(rng.integers(1, 7))
        grid = [(-1, -1), (1, 1), (0, 0), (1, -1), (-1, 1), (-1, 0), (1, 0)][:n]
        for a, b in grid:
            q = np.array([a * math.cos(ang) - b * math.sin(ang), a * math.sin(ang) + b * math.cos(ang)])
            c = (np.array([x, y]) + q * s * 0.28).astype(int)
            cv2.circle(img, (int(c[0]), int(c[1])), max(1, int(s * 0.09)), ink, -1, cv2.LINE_AA)
    else:  # a round token or a coin
        cv2.circle(img, (x, y), int(s * 0.55), body, -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), int(s * 0.4), ink, max(1, int(s * 0.05)), cv2.LINE_AA)
    r = int(s * 0.75)
    return (x - r, y - r, 2 * r, 2 * r)


def camera_effects(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Exposure, colour cast, vignetting, focus and motion blur, sensor noise, JPEG."""
    out: np.ndarray = img.astype(np.float32)
    out *= rng.uniform(0.6, 1.3) * rng.uniform(0.88, 1.12, 3).astype(np.float32)
    if rng.random() < 0.5:
        gamma = float(rng.uniform(0.7, 1.4))
        out = 255.0 * np.power(np.clip(out, 0, 255) / 255.0, gamma)
    H, W = out.shape[:2]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    vig = 1 - rng.uniform(0, 0.35) * (((xx - W / 2) / W) ** 2 + ((yy - H / 2) / H) ** 2) * 2
    out *= vig[..., None]
    blur = float(rng.uniform(0, 1.6)) * strength
    if blur > 0.25:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), blur))
    if rng.random() < 0.35 * strength:  # a little motion (camera shake, a die still sliding)
        n = int(rng.integers(3, 8))
        k = np.zeros((n, n), np.float32)
        a = rng.uniform(0, math.pi)
        c = (n - 1) / 2
        cv2.line(k, (int(round(c - c * math.cos(a))), int(round(c - c * math.sin(a)))),
                 (int(round(c + c * math.cos(a))), int(round(c + c * math.sin(a)))), 1.0, 1)
        out = np.asarray(cv2.filter2D(out, -1, k / max(k.sum(), 1e-6)))
    out += rng.normal(0, rng.uniform(1, 7) * strength, out.shape).astype(np.float32)
    res: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, enc = cv2.imencode(".jpg", res, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 95))])
        if ok:
            res = np.asarray(cv2.imdecode(enc, cv2.IMREAD_COLOR))
    return np.asarray(res)


def render_scene(rng: np.random.Generator, kinds: tuple[str, ...] = ("block", "scatter"),
                 n_dice: int | None = None, width: int = 1280, height: int = 720,
                 die_px: tuple[float, float] = (30.0, 64.0), max_tilt: float = 35.0,
                 roll_deg: float | None = None, distractors: int | None = None,
                 effects: float = 1.0, focal_ref: int | None = None) -> tuple[np.ndarray, SceneTruth]:
    """A BGR frame with 1-4 dice of ``kinds`` (never overlapping) and its truth.

    ``roll_deg`` fixes how far the board is turned in the picture (None: any); ``distractors``
    pipped d6 and tokens are scattered too (None: 0-2); ``effects`` scales blur and noise;
    ``focal_ref`` makes the frame a window of a frame that wide (``random_camera``)."""
    for k in kinds:
        if k not in ("block", "scatter"):
            raise ValueError(f"unknown special die kind {k!r}: use 'block' or 'scatter'")
    cam, size_mm = random_camera(rng, width, height, die_px, max_tilt, roll_deg, focal_ref)
    img = _table(rng, cam)
    light = random_light(rng)
    n = int(rng.integers(1, 5)) if n_dice is None else n_dice
    inv = np.linalg.inv(cam.board_to_frame())
    placed: list[tuple[float, float]] = []
    dice: list[SpecialDieTruth] = []
    boxes: list[tuple[int, int, int, int]] = []
    spacing = size_mm * 1.9
    for _ in range(n * 12):
        if len(dice) >= n:
            break
        p = np.array([[[rng.uniform(0.06, 0.94) * width, rng.uniform(0.08, 0.92) * height]]], np.float32)
        at = cv2.perspectiveTransform(p, inv)[0, 0]
        at_t = (float(at[0]), float(at[1]))
        if any(math.hypot(at_t[0] - q[0], at_t[1] - q[1]) < spacing for q in placed):
            continue
        kind = str(rng.choice(list(kinds)))
        truth = _draw_die(img, cam, light, kind, at_t, size_mm * float(rng.uniform(0.92, 1.08)), rng)
        if truth is None:
            continue
        placed.append(at_t)
        dice.append(truth)
    nd = int(rng.integers(0, 3)) if distractors is None else distractors
    for _ in range(nd * 8):
        if len(boxes) >= nd:
            break
        p = np.array([[[rng.uniform(0.05, 0.95) * width, rng.uniform(0.05, 0.95) * height]]], np.float32)
        at = cv2.perspectiveTransform(p, inv)[0, 0]
        at_t = (float(at[0]), float(at[1]))
        if any(math.hypot(at_t[0] - q[0], at_t[1] - q[1]) < spacing for q in placed):
            continue
        b = _distractor(img, rng, cam, size_mm, at_t)
        if b is not None:
            placed.append(at_t)
            boxes.append(b)
    if effects > 0:
        img = camera_effects(img, rng, effects)
    return img, SceneTruth(tuple(dice), cam.board_to_frame(), cam, tuple(boxes))
