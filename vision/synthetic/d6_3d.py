"""A ray-marched pipped d6 seen from a slanted camera: its top face foreshortened, sides showing.

The die is a rounded cube of half-side 1 centred at the origin, resting on the table plane
z = -1 with one face straight up (world +z). An orthographic camera looks at it from ``tilt_deg``
away from straight down, so one or two side faces show with their own pips. Each pixel of a
supersampled patch is sphere-traced against the rounded box's distance function; faces, pips
(shaded as dimples), Lambert and Blinn-Phong light, marbling and a translucent rim are worked
out per hit point. :func:`draw_d6_3d` puts a die with its shadow on a canvas and returns the
same :class:`~vision.synthetic.dice.DieTruth` as the flat renderer; :func:`render_scene` lays out
several dice on a table under one camera and one light.

All randomness comes from the ``numpy.random.Generator`` passed in, so a seed fixes the output.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.synthetic.dice import (
    PALETTE,
    PIP_LAYOUT,
    DieTruth,
    camera_effects,
    luma,
    table_background,
)

Vec3 = tuple[int, int, int]
BGR = tuple[int, int, int]

# value -> (outward normal, u, v) in the die's own frame, with u x v = normal; pips are laid out
# at PIP_LAYOUT's (a, b) * spacing along (u, v). Faces 1, 2, 3 are +x, +y, +z: they meet at
# corner (1, 1, 1) counter-clockwise seen from outside (a right-handed die); opposite faces sum
# to 7. The diagonals of 2 and 3 run through that corner.
FACE_TABLE: dict[int, tuple[Vec3, Vec3, Vec3]] = {
    1: ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    2: ((0, 1, 0), (0, 0, 1), (1, 0, 0)),
    3: ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    4: ((0, 0, -1), (0, 1, 0), (1, 0, 0)),
    5: ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
    6: ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
}

_STEPS = 56  # sphere-tracing steps
_EPS = 1e-3  # hit tolerance, in half-sides


@dataclass(frozen=True)
class D6Look:
    """How one die looks and how the camera and light see it.

    ``size``: the die's side in output pixels (a tilted die covers more). ``tilt_deg``: the
    camera's angle from straight down; ``azimuth_deg`` where around the die it stands;
    ``roll_deg`` turns the picture; ``yaw_deg`` turns the die about the vertical. ``corner``:
    edge rounding as a fraction of the half-side; ``pip_radius`` and ``pip_spacing`` (centre to
    corner pip, per axis) as fractions of the side; ``big_one`` scales the lone pip of the 1.
    ``marble`` 0..1 mixes ``vein`` into the body in a noise pattern; ``translucent`` 0..1
    lightens the rim. ``glare`` is the specular strength, ``shininess`` its exponent. The light
    comes from a lamp ``light_dist`` half-sides away towards ``light_az_deg``, ``light_elev_deg``
    above the table; ``ambient`` is the unlit share and ``shadow`` how dark the cast shadow is.
    """

    value: int
    size: float
    tilt_deg: float = 0.0
    azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    yaw_deg: float = 0.0
    body: BGR = (235, 235, 232)
    pip: BGR = (30, 30, 30)
    corner: float = 0.15
    pip_radius: float = 0.12
    pip_spacing: float = 0.29
    big_one: float = 1.0
    marble: float = 0.0
    vein: BGR = (255, 255, 255)
    translucent: float = 0.0
    glare: float = 0.3
    shininess: float = 40.0
    light_az_deg: float = 135.0
    light_elev_deg: float = 60.0
    light_dist: float = 8.0
    ambient: float = 0.35
    shadow: float = 0.45


# ----------------------------------------------------------------------------- geometry


def _rot_z(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def die_rotation(value: int, yaw_deg: float) -> np.ndarray:
    """Die-to-world rotation that puts face ``value`` up (+z), then turns it by ``yaw_deg``."""
    n, u, v = (np.array(a, np.float64) for a in FACE_TABLE[value])
    r0 = np.stack([u, v, n])  # u -> x, v -> y, n -> z
    return _rot_z(yaw_deg) @ r0


def camera_axes(look: D6Look) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """World vectors of the image's right and down axes and of the direction to the camera."""
    t, az = math.radians(look.tilt_deg), math.radians(look.azimuth_deg)
    to_cam = np.array([math.sin(t) * math.cos(az), math.sin(t) * math.sin(az), math.cos(t)])
    right0 = np.array([-math.sin(az), math.cos(az), 0.0])
    down0 = np.cross(-to_cam, right0)  # x right, y down, z into the scene
    ro = math.radians(look.roll_deg)
    right = math.cos(ro) * right0 + math.sin(ro) * down0
    down = -math.sin(ro) * right0 + math.cos(ro) * down0
    return right, down, to_cam


def light_dir(look: D6Look) -> np.ndarray:
    """Unit world vector towards the light."""
    a, e = math.radians(look.light_az_deg), math.radians(look.light_elev_deg)
    return np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])


_CORNERS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], np.float64)


def _half_extent(look: D6Look) -> float:
    """Largest image offset (in half-sides) of any point of the die from its centre."""
    right, down, _ = camera_axes(look)
    pts = _CORNERS @ die_rotation(look.value, look.yaw_deg).T
    return float(max(np.abs(pts @ right).max(), np.abs(pts @ down).max()))


def _rounded_box(p: np.ndarray, b: float, r: float) -> np.ndarray:
    """Signed distance from points ``p`` (n, 3) to a box of half-side ``b + r`` rounded by r."""
    q = np.abs(p) - b
    qp = np.maximum(q, 0.0)
    outside = np.sqrt(np.einsum("ij,ij->i", qp, qp))
    inside = np.minimum(q.max(axis=1), 0.0)
    result: np.ndarray = outside + inside - r
    return result


def _trace(xs: np.ndarray, ys: np.ndarray, right: np.ndarray, down: np.ndarray, start: np.ndarray,
           direction: np.ndarray, corner: float) -> tuple[np.ndarray, np.ndarray]:
    """Sphere-trace a grid of parallel rays against the rounded cube, all in the die's frame:
    ray (i, j) starts at ``start + xs[j] * right + ys[i] * down`` and runs along ``direction``.
    Returns the flat indices of the rays that hit and their hit points."""
    d = np.where(np.abs(direction) < 1e-9, 1e-9, direction)
    # enter the bounding box [-1, 1]^3 analytically (axis by axis on the grid), then march
    t_near = np.full((len(ys), len(xs)), -np.inf, np.float32)
    t_far = np.full((len(ys), len(xs)), np.inf, np.float32)
    for k in range(3):
        o = (ys[:, None] * np.float32(down[k]) + (xs[None, :] * np.float32(right[k])
                                                 + np.float32(start[k])))
        t1 = (-1.0 - o) / np.float32(d[k])
        t2 = (1.0 - o) / np.float32(d[k])
        np.maximum(t_near, np.minimum(t1, t2), out=t_near)
        np.minimum(t_far, np.maximum(t1, t2), out=t_far)
    np.maximum(t_near, 0.0, out=t_near)
    iy, ix = np.nonzero(t_far > t_near)
    idx = iy * len(xs) + ix
    o3 = (ys[iy, None] * down.astype(np.float32) + xs[ix, None] * right.astype(np.float32)
          + start.astype(np.float32))
    dirf = direction.astype(np.float32)
    t = t_near[iy, ix]
    t_end = t_far[iy, ix]
    hit_idx: list[np.ndarray] = []
    hit_pts: list[np.ndarray] = []
    for _ in range(_STEPS):
        if len(idx) == 0:
            break
        p = o3 + t[:, None] * dirf
        dist = _rounded_box(p, 1.0 - corner, corner)
        done = dist < _EPS
        hit_idx.append(idx[done])
        hit_pts.append(p[done])
        keep = ~done & (t + dist < t_end)
        idx, t, t_end, o3 = idx[keep], t[keep] + dist[keep], t_end[keep], o3[keep]
    if not hit_idx:
        return np.zeros(0, np.int64), np.zeros((0, 3), np.float32)
    return np.concatenate(hit_idx), np.concatenate(hit_pts)


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise dot products of two (n, 3) arrays."""
    result: np.ndarray = np.einsum("ij,ij->i", a, b)
    return result


def _normals(p: np.ndarray, corner: float) -> np.ndarray:
    """Outward unit normals of the rounded cube at surface points ``p``."""
    q = np.maximum(np.abs(p) - (1.0 - corner), 0.0)
    n = np.sign(p) * q
    length = np.linalg.norm(n, axis=1, keepdims=True)
    # a point inside the inner box would give a zero vector: fall back to its dominant axis
    fallback = np.zeros_like(p)
    k = np.argmax(np.abs(p), axis=1)
    fallback[np.arange(len(p)), k] = np.sign(p[np.arange(len(p)), k])
    result: np.ndarray = np.where(length > 1e-9, n / np.maximum(length, 1e-9), fallback)
    return result


# ----------------------------------------------------------------------------- material


def _value_noise(p: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Smooth value noise in [0, 1] at points ``p`` (n, 3) from a periodic random lattice."""
    g = grid.shape[0]
    f = np.floor(p)
    w = p - f
    w = w * w * (3.0 - 2.0 * w)
    i = f.astype(np.int64) % g
    j = (i + 1) % g
    out = np.zeros(len(p))
    for dx in (0, 1):
        ix = j[:, 0] if dx else i[:, 0]
        wx = w[:, 0] if dx else 1.0 - w[:, 0]
        for dy in (0, 1):
            iy = j[:, 1] if dy else i[:, 1]
            wy = w[:, 1] if dy else 1.0 - w[:, 1]
            for dz in (0, 1):
                iz = j[:, 2] if dz else i[:, 2]
                wz = w[:, 2] if dz else 1.0 - w[:, 2]
                out += grid[ix, iy, iz] * wx * wy * wz
    return out


def _marble_mix(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """How much vein colour (0..1) each die-frame point ``p`` takes: wavy, turbulent bands."""
    grid = rng.random((16, 16, 16))
    shift = rng.uniform(0, 16, 3)
    freq = float(rng.uniform(1.2, 2.5))
    turb = 0.65 * _value_noise(p * freq + shift, grid) + 0.35 * _value_noise(p * freq * 2.3 + shift, grid)
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    bands = float(rng.uniform(1.5, 4.0))
    s = np.sin(math.pi * (bands * (p @ axis) + float(rng.uniform(2.0, 5.0)) * turb))
    sharp = float(rng.uniform(0.3, 1.0))
    result: np.ndarray = np.power(1.0 - np.abs(s), 1.0 / sharp) * 0.5 + 0.5 * turb
    return np.clip(result * 1.3 - 0.3, 0.0, 1.0)


def _face_arrays(look: D6Look) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """Per face slot (axis * 2 + 1 if the normal points down the axis): u, v, pip centres
    (k, 2) in face coordinates and pip radius, all in half-sides."""
    faces: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]] = [
        (np.zeros(3, np.float32), np.zeros(3, np.float32), np.zeros((0, 2), np.float32), 0.0)
    ] * 6
    step = look.pip_spacing * 2.0
    for value, (n, u, v) in FACE_TABLE.items():
        axis = int(np.argmax(np.abs(n)))
        slot = axis * 2 + (1 if n[axis] < 0 else 0)
        pips = np.array(PIP_LAYOUT[value], np.float32) * np.float32(step)
        radius = look.pip_radius * 2.0 * (look.big_one if value == 1 else 1.0)
        faces[slot] = (np.array(u, np.float32), np.array(v, np.float32), pips, radius)
    return faces


def _shade(look: D6Look, points: np.ndarray, rot: np.ndarray, to_cam: np.ndarray,
           px_size: float, rng: np.random.Generator) -> np.ndarray:
    """BGR (0..255, may exceed) of die-frame surface points seen along ``-to_cam``."""
    f32 = np.float32
    n = _normals(points, look.corner)
    m = len(points)
    axis = np.argmax(np.abs(n), axis=1)
    slot = axis * 2 + (n[np.arange(m), axis] < 0)
    # distance to, and offset from, the nearest pip of the face each point lies on
    dist = np.full(m, 1e3, f32)
    off = np.zeros((m, 3), f32)
    rp = np.ones(m, f32)
    for k, (fu, fv, pips, radius) in enumerate(_face_arrays(look)):
        sel = np.nonzero(slot == k)[0]
        if len(sel) == 0:
            continue
        p = points[sel]
        a, b = p @ fu, p @ fv
        da = a[:, None] - pips[:, 0]
        db = b[:, None] - pips[:, 1]
        d2 = da * da + db * db
        near = np.argmin(d2, axis=1)
        rows = np.arange(len(sel))
        da, db = da[rows, near], db[rows, near]
        dist[sel] = np.sqrt(d2[rows, near])
        off[sel] = da[:, None] * fu + db[:, None] * fv
        rp[sel] = radius
    cover = np.clip((rp - dist) / f32(px_size) + 0.5, 0.0, 1.0)  # 1 in a pip, ramps at its edge
    # a pip is a shallow spherical dimple: its normal leans towards the pip's axis
    n_sh = n.copy()
    inside = np.nonzero(cover > 0)[0]
    if len(inside):
        r_in, d_in = rp[inside], np.minimum(dist[inside], rp[inside])
        depth = np.sqrt(np.maximum(np.square(r_in * 3.0) - np.square(d_in), 1e-9))
        dimple = n[inside] * depth[:, None] - off[inside] * (dist[inside] <= r_in)[:, None]
        n_sh[inside] = dimple / np.linalg.norm(dimple, axis=1, keepdims=True)

    colour = np.broadcast_to(np.array(look.body, f32), (m, 3)).copy()
    if look.marble > 0:
        mix = (look.marble * _marble_mix(points, rng)).astype(f32)
        colour += (np.array(look.vein, f32) - colour) * mix[:, None]
    # a thin darker rim just outside each pip (the moulded edge of the recess)
    rim = np.exp(-np.square((dist - rp) / np.maximum(f32(px_size * 1.2), rp * 0.12))) * (dist > rp)
    colour *= (1.0 - 0.25 * rim)[:, None]
    colour += (np.array(look.pip, f32) - colour) * cover[:, None]

    # a lamp and a camera at finite distances, so highlights on flat faces are spots
    lamp = (rot.T @ (light_dir(look) * look.light_dist)).astype(f32)
    L = lamp - points
    L /= np.sqrt(_dot(L, L))[:, None]
    V = (rot.T @ (to_cam * 14.0)).astype(f32) - points
    V /= np.sqrt(_dot(V, V))[:, None]
    ndl = _dot(n_sh, L)
    # the light-side wall of a recess shades the pip: a point is lit if its way out towards
    # the lamp leaves through the pip's opening
    lit = np.ones(m, f32)
    if len(inside):
        li, ni = L[inside], n[inside]
        cos_i = _dot(li, ni)
        lt = li - cos_i[:, None] * ni
        reach = 0.35 * rp[inside] / np.maximum(cos_i, 0.05)
        exit_ = np.linalg.norm(off[inside] * (dist[inside] <= rp[inside])[:, None] + lt * reach[:, None],
                               axis=1)
        lit[inside] = 1.0 - cover[inside] * (1.0 - np.clip((rp[inside] - exit_) / px_size + 0.5, 0, 1))
    wrap = 0.25 * look.translucent  # translucent bodies let light around the edges
    diffuse = np.maximum((ndl + wrap) / (1 + wrap), 0.0) * lit
    kd = (1.02 - look.ambient) / max(math.sin(math.radians(look.light_elev_deg)), 0.35)
    shading = (look.ambient + kd * diffuse) * (1.0 - 0.1 * cover)  # a recess catches less light
    out = colour * np.minimum(shading, 1.35)[:, None]
    if look.translucent > 0:
        edge = np.square(1.0 - np.clip(_dot(n, V), 0.0, 1.0))
        glow = np.clip(np.array(look.body, f32) * 1.25 + 30, 0, 255)
        t = (look.translucent * edge * (1 - cover))[:, None]
        out += (glow - out) * t
    if look.glare > 0:
        H = L + V
        H /= np.sqrt(_dot(H, H))[:, None]
        spec = np.power(np.clip(_dot(n_sh, H), 0.0, 1.0), f32(look.shininess))
        out += (255.0 * look.glare) * (spec * (ndl > 0) * lit * (1 - 0.5 * cover))[:, None]
    result: np.ndarray = out.astype(f32)
    return result


# ----------------------------------------------------------------------------- rendering


def _render(look: D6Look, rng: np.random.Generator, shift: tuple[float, float] = (0.0, 0.0),
            ss: int | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """Patch (straight BGR float32), alpha and its half side ``half``: the die centre sits at
    (half + shift[0], half + shift[1]) in output pixels."""
    if look.value not in FACE_TABLE:
        raise ValueError(f"a d6 shows 1..6, not {look.value}")
    scale = look.size / 2.0  # output pixels per half-side
    half = int(math.ceil(_half_extent(look) * scale + max(abs(shift[0]), abs(shift[1])))) + 2
    if ss is None:
        ss = 3 if look.size < 48 else 2
    n = 2 * half * ss
    right, down, to_cam = camera_axes(look)
    rot = die_rotation(look.value, look.yaw_deg)
    coords = (((np.arange(n) + 0.5) / ss - half) / scale).astype(np.float32)
    xs = coords - np.float32(shift[0] / scale)
    ys = coords - np.float32(shift[1] / scale)
    # world -> die frame is rot.T (rot is orthonormal)
    idx, points = _trace(xs, ys, rot.T @ right, rot.T @ down, rot.T @ (3.0 * to_cam),
                         rot.T @ -to_cam, look.corner)
    px_size = 1.0 / (scale * ss)
    shaded = np.clip(_shade(look, points, rot, to_cam, px_size, rng), 0, 255)
    premult: np.ndarray = np.zeros((n * n, 3), np.float32)
    premult[idx] = shaded
    alpha_ss: np.ndarray = np.zeros(n * n, np.float32)
    alpha_ss[idx] = 1.0
    alpha_ss = alpha_ss.reshape(n, n)
    premult = premult.reshape(n, n, 3)
    size = 2 * half
    alpha = cv2.resize(alpha_ss, (size, size), interpolation=cv2.INTER_AREA)
    pm = cv2.resize(premult, (size, size), interpolation=cv2.INTER_AREA)
    patch = np.where(alpha[..., None] > 1e-6, pm / np.maximum(alpha, 1e-6)[..., None], 0.0)
    return patch.astype(np.float32), alpha.astype(np.float32), half


def render_d6(look: D6Look, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The die alone: a square BGR float32 patch (colour not premultiplied) and its alpha
    (0..1), the die's centre at the patch centre."""
    patch, alpha, _ = _render(look, rng)
    return patch, alpha


def _colour_name(body: BGR) -> str:
    for name, bgr in PALETTE.items():
        if tuple(bgr) == tuple(body):
            return name
    return "custom"


def _shadow_shapes(look: D6Look, centre: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Image polygons (pixels) of the die's cast shadow (the cube swept along the light onto the
    table z = -1) and of its footprint, for a die centred at ``centre``."""
    right, down, _ = camera_axes(look)
    L = light_dir(look)
    pts = _CORNERS @ die_rotation(look.value, look.yaw_deg).T
    on_table = pts - L[None, :] * ((pts[:, 2] + 1.0) / max(L[2], 0.15))[:, None]
    base = pts[pts[:, 2] < 0] * np.array([1.06, 1.06, 1.0])
    scale = look.size / 2.0

    def to_px(p: np.ndarray) -> np.ndarray:
        return np.stack([centre[0] + (p @ right) * scale, centre[1] + (p @ down) * scale], 1)

    return to_px(on_table), to_px(base)


def _shadow_mask(look: D6Look, cast_poly: np.ndarray, foot_poly: np.ndarray,
                 shape: tuple[int, int], sigma: float) -> np.ndarray:
    """Soft shadow (0..1) in an image of ``shape`` from the polygons of :func:`_shadow_shapes`
    (in that image's pixels): the cast shadow blurred by ``sigma`` plus a darker contact band
    around the footprint."""
    ss = 2
    h, w = shape
    cast: np.ndarray = np.zeros((h * ss, w * ss), np.float32)
    foot: np.ndarray = np.zeros_like(cast)
    for img, poly in ((cast, cast_poly), (foot, foot_poly)):
        hull = cv2.convexHull(np.round((poly + 0.5) * ss - 0.5).astype(np.int32))
        cv2.fillConvexPoly(img, hull, 1.0, cv2.LINE_AA)
    cast = cv2.resize(cast, (w, h), interpolation=cv2.INTER_AREA)
    foot = cv2.resize(foot, (w, h), interpolation=cv2.INTER_AREA)
    cast = cv2.GaussianBlur(cast, (0, 0), sigma)
    foot = cv2.GaussianBlur(foot, (0, 0), max(0.6, look.size * 0.03))
    result: np.ndarray = np.clip(0.7 * cast + 0.5 * foot, 0.0, 1.0)
    return result


def draw_d6_3d(canvas: np.ndarray, centre: tuple[float, float], look: D6Look,
               rng: np.random.Generator) -> DieTruth:
    """Draw the die with its centre at ``centre`` onto ``canvas`` (BGR uint8, changed in place),
    shadow first, and return its truth: the box of its whole silhouette (alpha > 0.35)."""
    cx, cy = centre
    fx, fy = cx - math.floor(cx), cy - math.floor(cy)
    patch, alpha, half = _render(look, rng, (fx, fy))
    x0, y0 = int(math.floor(cx)) - half, int(math.floor(cy)) - half
    name = _colour_name(look.body)
    H, W = canvas.shape[:2]
    # the region the die and its shadow cover
    cast_poly, foot_poly = _shadow_shapes(look, centre)
    sigma = max(0.7, look.size * (0.06 + 0.12 * (1.0 - math.sin(math.radians(look.light_elev_deg)))))
    reach = 3.0 * sigma + 2.0
    sx0 = max(0, min(x0, int(math.floor(cast_poly[:, 0].min() - reach))))
    sy0 = max(0, min(y0, int(math.floor(cast_poly[:, 1].min() - reach))))
    sx1 = min(W, max(x0 + 2 * half, int(math.ceil(cast_poly[:, 0].max() + reach))))
    sy1 = min(H, max(y0 + 2 * half, int(math.ceil(cast_poly[:, 1].max() + reach))))
    if sx1 <= sx0 or sy1 <= sy0:
        return DieTruth((0, 0, 0, 0), "d6", look.value, name, False)
    region = canvas[sy0:sy1, sx0:sx1].astype(np.float32)
    offset = np.array([sx0, sy0], np.float64)
    shadow = _shadow_mask(look, cast_poly - offset, foot_poly - offset, (sy1 - sy0, sx1 - sx0), sigma)
    region *= (1.0 - look.shadow * shadow)[..., None]
    # the die's patch inside the region
    px0, py0 = max(x0, sx0), max(y0, sy0)
    px1, py1 = min(x0 + 2 * half, sx1), min(y0 + 2 * half, sy1)
    if px1 > px0 and py1 > py0:
        a = alpha[py0 - y0 : py1 - y0, px0 - x0 : px1 - x0, None]
        p = patch[py0 - y0 : py1 - y0, px0 - x0 : px1 - x0]
        sub = region[py0 - sy0 : py1 - sy0, px0 - sx0 : px1 - sx0]
        region[py0 - sy0 : py1 - sy0, px0 - sx0 : px1 - sx0] = sub * (1 - a) + p * a
    canvas[sy0:sy1, sx0:sx1] = np.clip(region, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(alpha > 0.35)
    if len(xs) == 0:
        return DieTruth((0, 0, 0, 0), "d6", look.value, name, False)
    bx0, by0 = max(0, x0 + int(xs.min())), max(0, y0 + int(ys.min()))
    bx1, by1 = min(W, x0 + int(xs.max()) + 1), min(H, y0 + int(ys.max()) + 1)
    if bx1 <= bx0 or by1 <= by0:
        return DieTruth((0, 0, 0, 0), "d6", look.value, name, False)
    return DieTruth((bx0, by0, bx1 - bx0, by1 - by0), "d6", look.value, name, False)


# ----------------------------------------------------------------------------- random looks


def _random_colour(rng: np.random.Generator) -> BGR:
    if rng.random() < 0.6:
        return PALETTE[str(rng.choice(list(PALETTE)))]
    hsv = np.array([[[rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(25, 250)]]], np.uint8)
    b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return (int(b), int(g), int(r))


def _random_pip(rng: np.random.Generator, body: BGR) -> BGR:
    if luma(body) > 140:
        roll = rng.random()
        if roll < 0.75:
            v = int(rng.integers(10, 45))
            return (v, v, v)
        if roll < 0.9:
            return (30, 30, 170)  # red
        return (120, 40, 20)  # dark blue
    roll = rng.random()
    if roll < 0.7:
        v = int(rng.integers(215, 250))
        return (v, v, v)
    if roll < 0.9:
        return (60, 200, 230)  # gold
    return (10, 10, 10) if luma(body) > 90 else (235, 235, 235)


def random_look(rng: np.random.Generator, value: int, size: float, max_tilt: float = 40.0) -> D6Look:
    """A random die, pose, camera and light as in real photos: tilt spread over 0..max_tilt
    (more often slanted than not), any yaw and roll, mostly solid bodies, sometimes marbled
    or translucent, glare from none to strong."""
    body = _random_colour(rng)
    corner = float(rng.uniform(0.05, 0.25))
    pip_radius = float(rng.uniform(0.09, 0.15))
    spacing = float(rng.uniform(0.27, 0.32))
    # keep corner pips on the flat of the face (or just onto the rounding)
    spacing = min(spacing, 0.46 - 0.15 * corner - pip_radius)
    marble = float(rng.uniform(0.4, 1.0)) if rng.random() < 0.2 else 0.0
    roll_glare = rng.random()
    glare = 0.0 if roll_glare < 0.2 else float(rng.uniform(0.05, 0.4)) if roll_glare < 0.85 \
        else float(rng.uniform(0.5, 1.0))
    # broad sheen stays faint; strong glare is a tight spot
    shininess = float(math.exp(rng.uniform(math.log(12), math.log(300))))
    if glare > 0.5:
        shininess = max(shininess, 60.0)
    elif shininess < 30:
        glare = min(glare, 0.2)
    return D6Look(
        value=value,
        size=size,
        tilt_deg=float(max_tilt * math.sqrt(rng.random())),
        azimuth_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(0, 360)),
        yaw_deg=float(rng.uniform(0, 360)),
        body=body,
        pip=_random_pip(rng, body),
        corner=corner,
        pip_radius=pip_radius,
        pip_spacing=spacing,
        big_one=min(float(rng.uniform(1.15, 1.6)), 0.17 / pip_radius) if rng.random() < 0.35 else 1.0,
        marble=marble,
        vein=_random_colour(rng),
        translucent=float(rng.uniform(0.2, 0.7)) if rng.random() < 0.15 else 0.0,
        glare=glare,
        shininess=shininess,
        light_az_deg=float(rng.uniform(0, 360)),
        light_elev_deg=float(rng.uniform(30, 85)),
        light_dist=float(math.exp(rng.uniform(math.log(4), math.log(25)))),
        ambient=float(rng.uniform(0.25, 0.6)),
        shadow=float(rng.uniform(0.25, 0.6)),
    )


TRAY_LOOKS = ("opaque", "colour", "marbled", "translucent", "grey-matched")
"""The kinds of die :func:`tray_look` draws: plain white/ivory/black dice with the usual pips,
solid colour bodies, marbled and translucent bodies, and colour dice whose pips have the body's
brightness (another hue), which turned grey show almost nothing."""


def _same_luma(rng: np.random.Generator, body: BGR, spread: float = 12.0) -> BGR:
    """A colour of another hue than ``body`` whose brightness (``luma``) is within ``spread``."""
    hue = cv2.cvtColor(np.array([[body]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0]
    target = luma(body) + float(rng.uniform(-spread, spread))
    for _ in range(20):
        h = (int(hue) + int(rng.integers(30, 150))) % 180
        hsv = np.array([[[h, int(rng.integers(120, 256)), 255]]], np.uint8)
        c = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
        c *= target / max(luma((int(c[0]), int(c[1]), int(c[2]))), 1.0)
        if c.max() <= 255:
            break
    out = np.clip(c, 0, 255).astype(int)
    return (int(out[0]), int(out[1]), int(out[2]))


def tray_look(rng: np.random.Generator, value: int, size: float, max_tilt: float = 4.0,
              kind: str | None = None) -> D6Look:
    """A die for a tray seen from above (:func:`random_look`'s light and shape) of one of
    :data:`TRAY_LOOKS` (``kind``; default: each equally often): the colour dice a table
    throws, with the marbled, translucent and grey-matched bodies the grey networks find hard."""
    base = random_look(rng, value, size, max_tilt)
    kind = kind or str(rng.choice(TRAY_LOOKS))
    if kind == "opaque":
        body = PALETTE[str(rng.choice(["white", "ivory", "black"]))]
        return replace(base, body=body, pip=_random_pip(rng, body), marble=0.0, translucent=0.0)
    colours = [c for c in PALETTE if c not in ("white", "ivory", "black", "grey")]
    body = PALETTE[str(rng.choice(colours))] if rng.random() < 0.7 else _random_colour(rng)
    if kind == "colour":
        return replace(base, body=body, pip=_random_pip(rng, body), marble=0.0, translucent=0.0)
    if kind == "marbled":
        vein = _random_colour(rng)
        return replace(base, body=body, vein=vein, pip=_random_pip(rng, body),
                       marble=float(rng.uniform(0.5, 1.0)), translucent=0.0)
    if kind == "translucent":
        return replace(base, body=body, pip=_random_pip(rng, body), marble=0.0,
                       translucent=float(rng.uniform(0.4, 0.8)))
    # grey-matched: pips of the body's brightness; some marbled or translucent too
    return replace(base, body=body, pip=_same_luma(rng, body), vein=_random_colour(rng),
                   marble=float(rng.uniform(0.4, 0.9)) if rng.random() < 0.3 else 0.0,
                   translucent=float(rng.uniform(0.3, 0.7)) if rng.random() < 0.3 else 0.0)


def render_scene(
    rng: np.random.Generator,
    size: tuple[int, int] = (384, 384),
    n_dice: int | None = None,
    die_px: tuple[float, float] = (40.0, 100.0),
    max_tilt: float = 40.0,
    background: np.ndarray | None = None,
    effects: bool = True,
    look: Callable[[np.random.Generator, int, float, float], D6Look] | None = None,
) -> tuple[np.ndarray, list[DieTruth]]:
    """A BGR frame of ``size`` (width, height) with d6 on a table under one camera and one light,
    and their truths. Dice never overlap; about a third are pushed against another one. ``look``
    (rng, value, size, max_tilt) draws each die's own look (default :func:`random_look`); the
    camera and the light are the scene's whatever it returns."""
    width, height = size
    img = table_background(rng, width, height) if background is None else background.copy()
    n = int(rng.integers(1, 5)) if n_dice is None else n_dice
    scene = random_look(rng, 1, 1.0, max_tilt)
    taken = np.zeros((height, width), bool)
    truths: list[DieTruth] = []
    centres: list[tuple[float, float]] = []
    for _ in range(n):
        own = (look or random_look)(rng, int(rng.integers(1, 7)), float(rng.uniform(*die_px)), max_tilt)
        this = replace(own, tilt_deg=scene.tilt_deg, azimuth_deg=scene.azimuth_deg,
                       roll_deg=scene.roll_deg, light_az_deg=scene.light_az_deg,
                       light_elev_deg=scene.light_elev_deg, light_dist=scene.light_dist,
                       ambient=scene.ambient,
                       shadow=scene.shadow)
        # the silhouette at the die's own offset decides where it fits
        _, alpha, half = _render(replace(this, marble=0.0), rng, ss=1)
        shape = cv2.dilate((alpha > 0).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        spot = _place(rng, shape, half, taken, centres)
        if spot is None:
            continue
        cx, cy = spot
        truth = draw_d6_3d(img, (float(cx), float(cy)), this, rng)
        ys, xs = np.nonzero(shape)
        taken[ys + cy - half, xs + cx - half] = True
        truths.append(truth)
        centres.append((cx, cy))
    if effects:
        img = camera_effects(img, rng)
    return img, truths


def _place(rng: np.random.Generator, shape: np.ndarray, half: int, taken: np.ndarray,
           centres: list[tuple[float, float]]) -> tuple[int, int] | None:
    """An integer centre where silhouette ``shape`` (centred, half side ``half``) lies inside
    the frame and off ``taken``: against a placed die a third of the time, else anywhere."""
    height, width = taken.shape

    def free(cx: int, cy: int) -> bool:
        if cx - half < 0 or cy - half < 0 or cx + half > width or cy + half > height:
            return False
        return not bool((taken[cy - half : cy + half, cx - half : cx + half] & shape).any())

    for _ in range(40):
        if centres and rng.random() < 0.35:
            px, py = centres[int(rng.integers(len(centres)))]
            a = rng.uniform(0, 2 * math.pi)
            for r in range(0, width + height, 1):
                cx, cy = int(round(px + r * math.cos(a))), int(round(py + r * math.sin(a)))
                if not (0 <= cx < width and 0 <= cy < height):
                    break
                if free(cx, cy):
                    return cx, cy
                if r > 0 and (cx - half < 0 or cy - half < 0 or cx + half > width or cy + half > height):
                    break
        else:
            if width <= 2 * half or height <= 2 * half:
                return None
            cx, cy = int(rng.integers(half, width - half + 1)), int(rng.integers(half, height - half + 1))
            if free(cx, cy):
                return cx, cy
    return None
