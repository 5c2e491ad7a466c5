"""Table-wide effects a game has in force (e.g. a rule suspended until someone's next turn):
a strip of coloured tags along the top of the log panel, wrapping onto a second row; what does
not fit is counted on a last "+N more" tag (the game lists the most important first)."""

from __future__ import annotations

import pygame

from companion.kiosk import theme
from companion.kiosk.painter import Painter
from companion.kiosk.theme import Layout
from companion.kiosk.views import TableBanner

MAX_ROWS = 2


def height(lay: Layout) -> int:
    """The height of one row of tags."""
    return lay.font(20) + lay.pad + 2


def draw(p: Painter, rect: pygame.Rect, lay: Layout, banners: tuple[TableBanner, ...]) -> int:
    """Draw the tags at the top of ``rect``; returns the height used (0 for no banners)."""
    if not banners:
        return 0
    size = lay.font(20)
    pad = lay.pad
    row_h = height(lay)
    rows = _rows(p, banners, size, rect.w - 2 * pad, pad)
    used = len(rows) * (row_h + pad // 2) + pad
    strip = pygame.Rect(rect.x, rect.y, rect.w, used)
    p.enter("banners", strip)
    p.rect(strip, theme.PANEL, radius=8)
    y = rect.y + pad // 2 + 1
    for row in rows:
        x = rect.x + pad
        for text, colour in row:
            w = p.width(text, size) + 2 * pad
            box = pygame.Rect(x, y, w, row_h)
            p.rect(box, colour, radius=6)
            p.text(text, (box.x + pad, box.centery), size, theme.ink_on(colour),
                   anchor="midleft")
            x = box.right + pad
        y += row_h + pad // 2
    return used


def _rows(p: Painter, banners: tuple[TableBanner, ...], size: int, width: int,
          pad: int) -> list[list[tuple[str, tuple[int, int, int]]]]:
    """The tags placed in rows of ``width``; when they do not all fit, the last row ends with
    a tag saying how many more there are."""
    def w(text: str) -> int:
        return p.width(text, size) + 3 * pad

    rows: list[list[tuple[str, tuple[int, int, int]]]] = [[]]
    used = 0
    for k, b in enumerate(banners):
        if used + w(b.text) > width and rows[-1]:
            if len(rows) == MAX_ROWS:
                placed = k
                while rows[-1] and used + w(f"+{len(banners) - placed} more") > width:
                    used -= w(rows[-1].pop()[0])
                    placed -= 1
                rows[-1].append((f"+{len(banners) - placed} more", theme.MUTED))
                return rows
            rows.append([])
            used = 0
        rows[-1].append((b.text, b.colour))
        used += w(b.text)
    return rows
