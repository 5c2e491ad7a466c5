"""A grid game's table as a map: cells, walls and doors, pieces in their colours, corner marks,
the squares a decision can pick (the picker's cursor on one of them), a title, a legend and a
line per banner; scaled to fit its rectangle, never drawn outside it.

The game describes the table with a :class:`~companion.kiosk.map_view.MapView` from its
presenter; this module knows no game. Type never goes below the layout's minimum (15 px on the
800x480 screen): words that do not fit a square (a mark on a small square) are left out, never
shrunk."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.kiosk import theme
from companion.kiosk.map_view import MapCell, MapPiece, MapView, MapWall, Square
from companion.kiosk.painter import Colour, DrawnText, Painter
from companion.kiosk.theme import Layout
from companion.kiosk.views import MapModel

SIDES = {"n": (0, 0, 1, 0), "s": (0, 1, 1, 1), "w": (0, 0, 0, 1), "e": (1, 0, 1, 1)}


def grid_rect(area: pygame.Rect, view: MapView) -> tuple[pygame.Rect, int]:
    """The rectangle the squares take inside ``area`` (centred) and a square's side in px."""
    cols, rows = max(1, view.width), max(1, view.height)
    cell = max(4, min(area.w // cols, area.h // rows))
    w, h = cell * cols, cell * rows
    return pygame.Rect(area.centerx - w // 2, area.centery - h // 2, w, h), cell


def square_rect(grid: pygame.Rect, cell: int, square: Square,
                span: tuple[int, int] = (1, 1)) -> pygame.Rect:
    return pygame.Rect(grid.x + square[0] * cell, grid.y + square[1] * cell,
                       cell * span[0], cell * span[1])


@dataclass
class _Drawn:
    """The map as last drawn without its cursor (the view, where, what it looked like)."""

    view: MapView
    key: tuple[int, ...]
    image: pygame.Surface
    texts: list[DrawnText]
    area: pygame.Rect
    placed: tuple[pygame.Rect, int] | None
    line_y: int


_last: list[_Drawn] = []  # one entry: the cells, walls and pieces change only with the view


def draw(p: Painter, rect: pygame.Rect, lay: Layout,
         m: MapModel) -> tuple[pygame.Rect, int] | None:
    """Draw the map in ``rect``; returns where the squares went and their side (None: no
    room for them). The view's drawing is kept and reused while the view is the same object
    (a game's view changes only with the state); the picker's outlines go on top."""
    p.enter("map", rect)
    v = m.view
    key = (rect.x, rect.y, rect.w, rect.h, lay.min_font, int(bool(m.picking)),
           p.target.get_width(), p.target.get_height())
    done = _last[0] if _last and _last[0].view is v and _last[0].key == key else None
    if done is None:
        start = len(p.drawn)
        area, placed, line_y = draw_view(p, rect, lay, v, bool(m.picking))
        done = _Drawn(v, key, p.target.subsurface(rect).copy(), p.drawn[start:], area, placed,
                      line_y)
        _last[:] = [done]
    else:
        p.blit(done.image, rect.topleft)
        p.drawn.extend(done.texts)
    if done.placed is None:
        return None
    grid, cell = done.placed
    cursor = next((t for t in m.picking if t.square == m.cursor), None)
    for target in m.picking:
        box = square_rect(grid, cell, target.square, target.span)
        p.rect(box.inflate(-2, -2), theme.ACCENT, width=max(2, cell // 12), radius=3)
    if cursor is not None:  # the cursor, and what CONFIRM would do under the map
        box = square_rect(grid, cell, cursor.square, cursor.span)
        p.rect(box.inflate(2, 2).clip(done.area), theme.SELECT, width=max(3, cell // 7),
               radius=4)
        inner = rect.inflate(-2 * lay.pad, -2 * lay.pad)
        p.text(f"> {cursor.label}", (inner.x, done.line_y), lay.font(18), theme.ACCENT,
               max_width=inner.w)
    return done.placed


def draw_view(p: Painter, rect: pygame.Rect, lay: Layout, v: MapView, picking: bool
              ) -> tuple[pygame.Rect, tuple[pygame.Rect, int] | None, int]:
    """The panel, title, banners, legend, cells, walls and pieces; returns the squares' area,
    (grid, side) or None, and the y of the cursor's line (kept free when ``picking``)."""
    p.rect(rect, theme.PANEL, radius=8)
    p.rect(rect, theme.BORDER, width=1, radius=8)
    pad = lay.pad
    inner = rect.inflate(-2 * pad, -2 * pad)
    title_size = lay.font(24)
    small = lay.font(18)
    y = inner.y
    if v.title:
        p.text(v.title, (inner.x, y), title_size, theme.ACCENT, max_width=inner.w)
        y += title_size + 2
    for banner in v.banners[:2]:
        p.text(banner, (inner.x, y), small, theme.WARN, max_width=inner.w)
        y += small + 2
    bottom = inner.bottom
    if picking:
        bottom -= small + 4
    line_y = bottom + 2
    if v.legend:
        bottom = legend(p, pygame.Rect(inner.x, y, inner.w, bottom - y), lay, v.legend)
    area = pygame.Rect(inner.x, y + 2, inner.w, bottom - y - 4)
    if area.h < 8 or area.w < 8:
        return area, None, line_y
    grid, cell = grid_rect(area, v)
    for c in v.cells:
        draw_cell(p, lay, square_rect(grid, cell, c.square), c)
    for wall in v.walls:
        draw_wall(p, lay, square_rect(grid, cell, wall.square), wall)
    by_square: dict[Square, list[MapPiece]] = {}
    for piece in v.pieces:
        by_square.setdefault(piece.square, []).append(piece)
    for square, pieces in by_square.items():
        draw_pieces(p, lay, square_rect(grid, cell, square), pieces)
    return area, (grid, cell), line_y


def legend(p: Painter, area: pygame.Rect, lay: Layout,
           items: tuple[tuple[str, str], ...]) -> int:
    """The key under the map, wrapped over up to two lines; returns the top it took."""
    size = lay.font(18)
    chip = size - 4
    rows: list[list[tuple[Colour, str, int]]] = [[]]
    x = 0
    for name, words in items:
        w = chip + 4 + p.width(words, size) + lay.pad * 2
        if x + w > area.w and rows[-1]:
            if len(rows) == 2:
                break
            rows.append([])
            x = 0
        rows[-1].append((theme.colour_of(name), words, w))
        x += w
    top = area.bottom - len(rows) * (size + 2)
    y = top
    for row in rows:
        x = area.x
        for colour, words, w in row:
            p.rect(pygame.Rect(x, y + 2, chip, chip), colour, radius=3)
            p.rect(pygame.Rect(x, y + 2, chip, chip), theme.BORDER, width=1, radius=3)
            p.text(words, (x + chip + 4, y), size, theme.MUTED,
                   max_width=area.right - x - chip - 4)
            x += w
        y += size + 2
    return top - 2


def draw_cell(p: Painter, lay: Layout, r: pygame.Rect, c: MapCell) -> None:
    fill = theme.colour_of(c.fill)
    inset = r.inflate(-max(1, r.w // 20), -max(1, r.h // 20))
    p.rect(inset, fill, radius=max(1, r.w // 10))
    if c.edge:
        p.rect(inset, theme.colour_of(c.edge), width=max(1, r.w // 16), radius=max(1, r.w // 10))
    ink = theme.ink_on(fill)
    text = c.text
    room_for_marks = r.w >= 3 * lay.square_font
    if c.marks and not room_for_marks:
        text = f"{text}{''.join(c.marks)}" if text else "".join(c.marks)
    if text:
        size = max(lay.square_font, min(lay.font(30), int(r.h * 0.55)))
        if p.width(text, size) <= r.w - 2:
            p.text(text, r.center, size, ink, anchor="center")
    if c.marks and room_for_marks:
        size = lay.square_font
        corners = ("topleft", "topright", "bottomleft", "bottomright")
        spots = {"topleft": (r.x + 3, r.y + 2), "topright": (r.right - 3, r.y + 2),
                 "bottomleft": (r.x + 3, r.bottom - 2), "bottomright": (r.right - 3, r.bottom - 2)}
        for mark, corner in zip(c.marks[:4], corners, strict=False):
            if p.width(mark, size) <= r.w // 2 - 3:
                p.text(mark, spots[corner], size, ink, anchor=corner)


def draw_wall(p: Painter, lay: Layout, r: pygame.Rect, wall: MapWall) -> None:
    x0, y0, x1, y1 = SIDES.get(wall.side, (0, 0, 0, 0))
    a = (r.x + x0 * (r.w - 1), r.y + y0 * (r.h - 1))
    b = (r.x + x1 * (r.w - 1), r.y + y1 * (r.h - 1))
    p.line(a, b, theme.colour_of(wall.colour), max(2, r.w // 8))
    if wall.label and r.w >= 4 * lay.square_font:
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        p.text(wall.label, mid, lay.square_font, theme.TEXT, anchor="center",
               max_width=r.w - 4)


def draw_pieces(p: Painter, lay: Layout, r: pygame.Rect, pieces: list[MapPiece]) -> None:
    """Pieces on one square: one in the middle, several side by side, smaller."""
    n = len(pieces)
    per_row = 1 if n == 1 else 2
    size = r.w // per_row
    for i, piece in enumerate(pieces[:4]):
        box = pygame.Rect(r.x + (i % per_row) * size, r.y + (i // per_row) * size, size, size)
        if n == 1:
            box = r
        colour = theme.colour_of(piece.colour)
        outline = theme.BG if sum(colour) > 200 else theme.TEXT
        centre = box.center
        # big enough for a label in the smallest type, never wider than the square
        radius = max(int(box.w * (0.38 if piece.shape == "pawn" else 0.34)),
                     (lay.square_font + 3) // 2)
        radius = max(3, min(radius, box.w // 2 - 1))
        if piece.shape == "token":
            square = pygame.Rect(0, 0, radius * 2, radius * 2)
            square.center = centre
            p.rect(square, colour, radius=2)
            p.rect(square, outline, width=2, radius=2)
        else:
            p.circle(centre, radius, colour)
            p.circle(centre, radius, outline, width=2)
        if box.w >= lay.square_font:  # a label in the smallest type fits the square
            size_t = max(lay.square_font, min(lay.font(26), int(radius * 1.3)))
            # the label inside the pawn; else the short one, which may reach the square's edge
            label = next((t for t, room in ((piece.label, radius * 2 + 2),
                                            (piece.short, max(radius * 2 + 2, box.w - 2)))
                          if t and p.width(t, size_t) <= room), "")
            if label:
                p.text(label, centre, size_t, theme.ink_on(colour), anchor="center")
