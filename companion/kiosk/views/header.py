"""The top bar: the game, the turn, whose turn it is, the central pot, the camera state."""

from __future__ import annotations

import pygame

from companion.kiosk import theme
from companion.kiosk.painter import Painter
from companion.kiosk.theme import Layout
from companion.kiosk.views import HeaderModel
from companion.words import possessive


def draw(p: Painter, rect: pygame.Rect, lay: Layout, m: HeaderModel) -> None:
    p.enter("header", rect)
    p.rect(rect, theme.PANEL, radius=6)
    big = lay.font(34)
    small = lay.font(22)
    x = rect.x + lay.pad * 2
    cy = rect.centery
    p.circle((x + big // 3, cy), big // 3, m.current_colour)
    x += big // 3 * 2 + lay.pad
    who = m.outcome or f"{possessive(m.current)} turn"
    r = p.text(who, (x, cy), big, theme.ACCENT, anchor="midleft",
               max_width=rect.w // 3)
    x = r.right + lay.pad * 3
    r = p.text(f"Turn {m.turn}", (x, cy), small, theme.MUTED, anchor="midleft")
    x = r.right + lay.pad * 2
    p.text(m.variant.title(), (x, cy), small, theme.MUTED, anchor="midleft")
    right = rect.right - lay.pad * 2
    cam_colour = theme.GOOD if m.camera_ok else theme.WARN
    r = p.text(m.camera, (right, cy), small, cam_colour, anchor="midright",
               max_width=rect.w // 5)
    right = r.left - lay.pad * 3
    if m.bank:
        r = p.text(m.bank, (right, cy), small, theme.MUTED, anchor="midright")
        right = r.left - lay.pad * 3
    if m.pot is not None:
        p.text(f"Pot ${m.pot:,}", (right, cy), big, theme.CASH, anchor="midright")
