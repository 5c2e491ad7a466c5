"""A short log of what just happened, newest at the bottom: each entry wrapped onto as many
lines as it needs; the oldest entries give way when the panel is full."""

from __future__ import annotations

import pygame

from companion.kiosk import theme
from companion.kiosk.painter import Painter
from companion.kiosk.theme import Layout


def draw(p: Painter, rect: pygame.Rect, lay: Layout, lines: tuple[str, ...],
         footer: str = "") -> None:
    """``footer``: a line kept under the log (the key help in keyboard mode)."""
    p.enter("log", rect)
    p.rect(rect, theme.PANEL, radius=8)
    size = lay.font(21)
    pad = lay.pad
    row = size + 2
    width = rect.w - 4 * pad
    if footer:
        small = lay.min_font
        foot = p.lines(footer, small, width)
        fy = rect.bottom - pad - small * len(foot)
        for k, line in enumerate(foot):
            p.text(line, (rect.x + 2 * pad, fy + k * small), small, theme.ACCENT)
        rect = pygame.Rect(rect.x, rect.y, rect.w, fy - pad // 2 - rect.y + pad)
    n = max(1, (rect.h - 2 * pad) // row)
    shown: list[tuple[str, bool]] = []  # (line, newest entry)
    for i in range(len(lines) - 1, -1, -1):
        wrapped = p.lines(lines[i], size, width)
        if len(shown) + len(wrapped) > n:
            if not shown:  # a single entry longer than the panel: its first lines
                shown = [(w, True) for w in wrapped[:n]]
            break
        shown[:0] = [(w, i == len(lines) - 1) for w in wrapped]
    y = rect.bottom - pad - row * len(shown)
    for line, newest in shown:
        p.text(line, (rect.x + 2 * pad, y), size, theme.TEXT if newest else theme.MUTED)
        y += row
