"""A short log of what just happened, newest at the bottom."""

from __future__ import annotations

import pygame

from companion.kiosk import theme
from companion.kiosk.painter import Painter
from companion.kiosk.theme import Layout


def draw(p: Painter, rect: pygame.Rect, lay: Layout, lines: tuple[str, ...]) -> None:
    p.enter("log", rect)
    p.rect(rect, theme.PANEL, radius=8)
    size = lay.font(21)
    pad = lay.pad
    row = size + 2
    n = max(1, (rect.h - 2 * pad) // row)
    shown = lines[-n:]
    y = rect.bottom - pad - row * len(shown)
    for i, line in enumerate(shown):
        colour = theme.TEXT if i == len(shown) - 1 else theme.MUTED
        p.text(line, (rect.x + 2 * pad, y), size, colour, max_width=rect.w - 4 * pad)
        y += row
