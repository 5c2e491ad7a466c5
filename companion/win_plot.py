"""The win-rate table of ``companion simulate`` as a picture: one bar per class (or seat) with
its 95 % confidence interval (Wilson score), and the even share marked, so a designer balancing
classes can look rather than read. Drawn with pygame (already the kiosk's dependency) on an
off-screen surface and saved as PNG."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval

BG = (255, 255, 255)
INK = (30, 32, 40)
GRID = (215, 218, 226)
BAR = (86, 120, 220)
WHISKER = (20, 24, 36)
EVEN = (220, 90, 60)


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate of ``wins`` out of ``games`` (both ends 0..1)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def plot_win_rates(path: Path, wins: Mapping[str, int], games: int, title: str,
                   even: float | None = None, label: str = "class") -> Path:
    """Save the plot of ``wins`` (name -> games won, of ``games``) to ``path`` (PNG); ``even``:
    the share each would win if all were equal, drawn as a line. Returns ``path``."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    rows = sorted(wins.items(), key=lambda kv: (-kv[1], kv[0])) or [("(no winner)", 0)]
    row_h, top, left, right, bottom = 44, 86, 190, 170, 70
    w = 960
    h = top + row_h * len(rows) + bottom
    surf = pygame.Surface((w, h))
    surf.fill(BG)
    big, font, small = (pygame.font.Font(None, s) for s in (34, 26, 22))

    def text(s: str, pos: tuple[int, int], f: pygame.font.Font, anchor: str = "topleft",
             colour: tuple[int, int, int] = INK) -> None:
        img = f.render(s, True, colour)
        surf.blit(img, img.get_rect(**{anchor: pos}))

    text(title, (left // 4, 18), big)
    text(f"win rate per {label}, {games} games; bars: 95 % confidence interval (Wilson)",
         (left // 4, 52), small, colour=(90, 94, 110))
    plot_w = w - left - right
    top_val = max([wilson(n, games)[1] for _, n in rows] + [even or 0.0, 0.05])
    step = 0.1 if top_val > 0.5 else 0.05
    top_val = min(1.0, math.ceil(top_val / step - 1e-9) * step)

    def x_of(v: float) -> int:
        return left + round(plot_w * v / top_val)

    y_axis = top + row_h * len(rows)
    steps = round(top_val / step)
    for k in range(steps + 1):
        v = top_val * k / steps
        pygame.draw.line(surf, GRID, (x_of(v), top - 6), (x_of(v), y_axis), 1)
        text(f"{100 * v:.0f}%", (x_of(v), y_axis + 8), small, "midtop")
    for i, (name, n) in enumerate(rows):
        y = top + i * row_h
        rate = n / games if games else 0.0
        low, high = wilson(n, games)
        pygame.draw.rect(surf, BAR, pygame.Rect(left, y + 10, max(1, x_of(rate) - left),
                                                 row_h - 20))
        cy = y + row_h // 2
        pygame.draw.line(surf, WHISKER, (x_of(low), cy), (x_of(high), cy), 2)
        for v in (low, high):
            pygame.draw.line(surf, WHISKER, (x_of(v), cy - 8), (x_of(v), cy + 8), 2)
        text(name, (left - 12, cy), font, "midright")
        text(f"{100 * rate:.1f}% ({100 * low:.0f}-{100 * high:.0f}%)", (x_of(high) + 10, cy),
             small, "midleft")
    pygame.draw.line(surf, INK, (left, top - 6), (left, y_axis), 2)
    if even is not None and 0 < even <= top_val:
        for yy in range(top - 6, y_axis, 12):  # dashed
            pygame.draw.line(surf, EVEN, (x_of(even), yy), (x_of(even), min(yy + 6, y_axis)), 2)
        text(f"even share {100 * even:.0f}%", (x_of(even) + 6, y_axis + 30), small,
             colour=EVEN)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))
    return path
