"""The live camera thumbnail with what vision read drawn over it: the board outline, each
piece with its owner (red when it is not where the game has it), each die with its value."""

from __future__ import annotations

import pygame

from companion.kiosk import theme
from companion.kiosk.painter import Painter
from companion.kiosk.theme import Layout
from companion.kiosk.views import CameraModel


def draw(p: Painter, rect: pygame.Rect, lay: Layout, m: CameraModel) -> None:
    p.enter("camera", rect)
    p.rect(rect, (10, 10, 14), radius=6)
    small = lay.font(18)
    if m.surface is None:
        p.text("Camera", (rect.centerx, rect.centery - small), lay.font(26), theme.MUTED,
               anchor="center")
        for i, line in enumerate(p.wrap(m.status, small, rect.w - 4 * lay.pad, 2)):
            p.text(line, (rect.centerx, rect.centery + 4 + i * small), small, theme.WARN,
                   anchor="midtop")
        return
    sw, sh = m.surface.get_size()
    scale = sw / max(1, m.source_width)  # overlay points are in thumbnail pixels
    ox = rect.x + (rect.w - sw) // 2
    oy = rect.y + (rect.h - sh) // 2
    p.blit(m.surface, (ox, oy))

    def at(pt: tuple[int, int]) -> tuple[int, int]:
        return (ox + round(pt[0] * scale), oy + round(pt[1] * scale))

    if len(m.corners) == 4:
        p.polygon([at(c) for c in m.corners], theme.GOOD, width=2)
    placed: list[pygame.Rect] = []
    room = pygame.Rect(rect.x, rect.y, rect.w, rect.h - small - 6)  # above the status bar
    for text, xy in m.marks:  # enchantments (or other marks) on the squares: a tag on each
        tag_size = lay.min_font
        c = at(xy)
        w = p.width(text, tag_size) + 6
        tag = pygame.Rect(0, 0, w, tag_size)
        tag.center = c
        tag.clamp_ip(room)
        for _ in range(6):  # two marks close together: the later one steps up out of the way
            if tag.collidelist(placed) < 0:
                break
            tag.y -= tag_size + 1
            tag.clamp_ip(room)
        placed.append(tag)
        p.rect(tag, theme.icon_colour(text.split(" ")[0]), radius=3)
        p.rect(tag, theme.BG, width=1, radius=3)
        p.text(text, tag.center, tag_size, theme.BG, anchor="center")
    for box, value, status in m.dice:
        x, y = at((box[0], box[1]))
        r = pygame.Rect(x, y, max(6, round(box[2] * scale)), max(6, round(box[3] * scale)))
        ok = status == "read"
        p.rect(r, theme.ACCENT if ok else theme.WARN, width=2)
        p.text(str(value) if value is not None else "?", (r.centerx, r.y - 2), small,
               theme.ACCENT if ok else theme.WARN, anchor="midbottom")
    for name, xy, colour, bad in m.pieces:
        c = at(xy)
        p.circle(c, 7, colour)
        p.circle(c, 8, theme.BAD if bad else theme.TEXT, width=2)
        if name:
            p.text(name, (c[0] + 9, c[1]), max(13, small - 2), theme.BAD if bad else theme.TEXT,
                   anchor="midleft")
    bar = pygame.Rect(rect.x, rect.bottom - small - 6, rect.w, small + 6)
    p.rect(bar, (0, 0, 0))
    p.text(m.status, (bar.x + lay.pad, bar.centery), small,
           theme.GOOD if m.live and not m.warning else theme.WARN, anchor="midleft",
           max_width=bar.w - 2 * lay.pad)
