"""The decision at hand: what the game waits for, the options (or the dice), and how to press."""

from __future__ import annotations

import re

import pygame

from companion.kiosk import theme
from companion.kiosk.painter import Painter
from companion.kiosk.theme import Layout
from companion.kiosk.views import DecisionModel, DiceModel, InfoPanel


def draw(p: Painter, rect: pygame.Rect, lay: Layout, m: DecisionModel) -> None:
    p.enter("decision", rect)
    p.rect(rect, theme.PANEL, radius=8)
    p.rect(rect, theme.ACCENT, width=2, radius=8)
    pad = lay.pad
    inner_w = rect.w - 4 * pad
    x = rect.x + 2 * pad
    y = rect.y + pad
    title_size = lay.font(27)
    body = lay.font(24)
    small = lay.font(19)
    for line in p.wrap(m.title, title_size, inner_w, max_lines=2):
        p.text(line, (x, y), title_size, theme.ACCENT)
        y += title_size
    for text, colour in m.banners:
        lines = p.wrap(text, small, inner_w - 2 * pad, max_lines=3)
        box = pygame.Rect(x - pad // 2, y + 2, inner_w + pad, len(lines) * small + pad)
        p.rect(box, (60, 30, 34) if colour == theme.BAD else (60, 48, 28), radius=5)
        p.rect(box, colour, width=2, radius=5)
        yy = box.y + pad // 2
        for line in lines:
            p.text(line, (x + pad // 2, yy), small, colour)
            yy += small
        y = box.bottom + 2
    if m.panel is not None:
        y = draw_panel(p, pygame.Rect(x - pad // 2, y + 2, inner_w + pad, 0), lay, m.panel) + 2
    y += pad // 2
    # the hint (how to press) wraps onto as many lines as it needs at the bottom
    hint = p.lines(m.hint, small, inner_w) if m.hint else []
    hint_y = rect.bottom - pad - small * len(hint)
    if m.pad_title and m.pad_title != m.title:
        for line in p.lines(m.pad_title, body, inner_w):
            p.text(line, (x, y), body, theme.TEXT)
            y += body + 2
    # room kept below the notes: the dice (with their labels and note), or two option rows
    keep = (lay.font(18) + lay.font(20) + 6 + 34 if m.dice is not None
            else 2 * (lay.font(24) + max(6, lay.pad)))
    y = draw_notes(p, pygame.Rect(x, y, inner_w, max(0, hint_y - pad - keep - y)), lay, m)
    if m.dice is not None:
        draw_dice(p, pygame.Rect(x, y, inner_w, hint_y - y - pad), lay, m.dice)
    else:
        draw_rows(p, pygame.Rect(x, y, inner_w, hint_y - y - pad), lay, m)
    for k, line in enumerate(hint):
        p.text(line, (x, hint_y + k * small), small, theme.MUTED)


def note_pages(p: Painter, notes: tuple[str, ...], size: int, width: int,
               room: int) -> list[list[tuple[str, bool]]]:
    """``notes`` wrapped to ``width`` and cut into pages of at most ``room`` lines, a note kept
    on one page when it fits on one; each line with whether it starts a note."""
    indent = size // 2
    pages: list[list[tuple[str, bool]]] = [[]]
    for note in notes:
        lines = p.lines(note, size, width - indent)
        block = [(line, k == 0) for k, line in enumerate(lines)]
        if pages[-1] and len(pages[-1]) + len(block) > room:
            pages.append([])
        while len(block) > room:  # a note longer than a page: split it
            pages[-1].extend(block[:room])
            pages.append([])
            block = block[room:]
        pages[-1].extend(block)
    return [page for page in pages if page] or [[]]


def draw_notes(p: Painter, area: pygame.Rect, lay: Layout, m: DecisionModel) -> int:
    """The decision's notes (what each result does) in ``area``: every note whole, continued
    lines indented; when they need more lines than fit, pages that turn by themselves
    (``m.notes_page``) with "page K/N" under them. Returns the y below what was drawn."""
    if not m.notes:
        return area.y
    size = lay.font(20)
    step = size + 1
    room = max(1, area.h // step)
    pages = note_pages(p, m.notes, size, area.w, room)
    if len(pages) > 1:
        pages = note_pages(p, m.notes, size, area.w, max(1, room - 1))
    page = pages[m.notes_page % len(pages)]
    y = area.y
    for line, first in page:
        p.text(line, (area.x + (0 if first else size // 2), y), size, theme.TEXT)
        y += step
    if len(pages) > 1:
        p.text(f"page {m.notes_page % len(pages) + 1}/{len(pages)}: turns by itself",
               (area.right, y), lay.font(16), theme.MUTED, anchor="topright")
        y += step
    return y + 2


def draw_panel(p: Painter, top: pygame.Rect, lay: Layout, panel: InfoPanel) -> int:
    """The game's facts about the decision (a headline and short lines, each wrapped) in a
    framed box from ``top``'s top left; returns the box's bottom."""
    head, small, pad = lay.font(22), lay.font(19), lay.pad
    width = top.w - pad * 2
    heads = p.lines(panel.headline, head, width)
    body = [line for text in panel.lines for line in p.lines(text, small, width)]
    box = pygame.Rect(top.x, top.y, top.w, len(heads) * head + len(body) * small + pad)
    p.rect(box, theme.PANEL_HI, radius=6)
    p.rect(box, panel.colour, width=2, radius=6)
    y = box.y + pad // 2
    for line in heads:
        p.text(line, (box.x + pad, y), head, panel.colour)
        y += head
    for line in body:
        p.text(line, (box.x + pad, y), small, theme.TEXT)
        y += small
    return box.bottom


def draw_rows(p: Painter, area: pygame.Rect, lay: Layout, m: DecisionModel) -> None:
    """The options, a long one wrapped onto two or more lines; a page that scrolls with the
    selection ("more above" / "more below")."""
    size = lay.font(24)
    gap = max(6, lay.pad)
    wrapped = [p.lines(text, size, area.w - 8) for text, _, _ in m.rows]
    heights = [len(w) * size + gap for w in wrapped]
    sel = next((i for i, r in enumerate(m.rows) if r[1]), 0)
    # the page: from ``start`` as many rows as fit, ``start`` moved on until the selection fits
    start = 0
    while start < sel and sum(heights[start:sel + 1]) > area.h:
        start += 1
    end = start
    while end < len(m.rows) and sum(heights[start:end + 1]) <= area.h:
        end += 1
    end = max(end, start + 1)
    y = area.y
    for i in range(start, min(len(m.rows), end)):
        text, selected, enabled = m.rows[i]
        row = pygame.Rect(area.x - 4, y, area.w + 8, heights[i] - 2)
        if selected:
            p.rect(row, theme.SELECT, radius=5)
        colour = theme.TEXT if enabled else theme.MUTED
        ty = row.y + (gap - 2) // 2
        for line in wrapped[i]:
            p.text(line, (area.x + 4, ty), size, colour)
            ty += size
        y += heights[i]
    visible = end - start
    if start > 0:
        p.text("more above", (area.right, area.y - size // 2), lay.font(16), theme.MUTED,
               anchor="topright")
    if start + visible < len(m.rows):
        p.text("more below", (area.right, area.bottom), lay.font(16), theme.MUTED,
               anchor="bottomright")


def draw_dice(p: Painter, area: pygame.Rect, lay: Layout, d: DiceModel) -> None:
    n = max(1, len(d.values))
    note = {"camera": "Waiting for the camera: roll the dice",
            "confirm": "The camera read these values",
            "edit": "Enter the values with the buttons"}.get(d.mode, "")
    if any(d.guessed):
        note = "? marks the camera's guess: check it"
    warn = bool(d.problem) or any(d.guessed)
    if d.problem:
        note = d.problem
    note_size, dsize = lay.font(20), lay.font(18)
    notes = p.lines(note, note_size, area.w) if note else []
    # the dice, their kinds' names and the note, all inside the area
    size = min(area.h - dsize - 6 - len(notes) * note_size - 4,
               (area.w - (n - 1) * lay.pad * 2) // n, 150)
    size = max(28, size)
    total = n * size + (n - 1) * lay.pad * 2
    x = area.centerx - total // 2
    y = area.y + 4
    for i, (label, kind) in enumerate(zip(d.labels, d.kinds, strict=True)):
        box = pygame.Rect(x + i * (size + lay.pad * 2), y, size, size)
        editing = d.mode == "edit" and i == d.cursor
        guess = i < len(d.guessed) and d.guessed[i]  # only ever set while entering values
        face = (250, 250, 245) if d.mode != "camera" else (120, 124, 138)
        p.rect(box, face, radius=size // 6)
        p.rect(box, theme.ACCENT if editing else (theme.GOOD if d.mode == "confirm"
                                                   else theme.WARN if guess else theme.BORDER),
               width=4 if editing or guess else 2, radius=size // 6)
        label = "?" if d.mode == "camera" else label
        if len(label) <= 2:
            p.text(label, box.center, int(size * 0.7), theme.BG, anchor="center",
                   max_width=box.w - 6)
        else:  # a face name ("defender stumbles", "down-right"): whole words, on up to 3 lines
            font, lines = face_lines(p, label, box.w - 8, box.h - 8, int(size * 0.32),
                                     lay.min_font)
            ly = box.centery - len(lines) * font // 2
            for line in lines:
                p.text(line, (box.centerx, ly), font, theme.BG, anchor="midtop",
                       max_width=box.w - 6)
                ly += font
        if guess:  # the camera's guess, not yet checked: a "?" in the corner
            p.text("?", (box.right - size // 8, box.y + size // 10), max(14, size // 4), theme.WARN,
                   anchor="midtop")
        # the die's name in its slot (the die and the gaps beside it; a lone die: the area's
        # width), "block die" as "block" when dice stand close (a small screen): names never
        # run into each other
        slot = area.w if n == 1 else size + lay.pad * 2 - 4
        caption = kind if p.width(kind, dsize) <= slot else kind.removesuffix(" die")
        p.text(caption, (box.centerx, box.bottom + 2), dsize, theme.MUTED, anchor="midtop",
               max_width=slot)
    ny = y + size + dsize + 6
    for line in notes:
        p.text(line, (area.centerx, ny), note_size, theme.WARN if warn else theme.TEXT,
               anchor="midtop")
        ny += note_size


def face_lines(p: Painter, label: str, width: int, height: int, start: int, smallest: int
               ) -> tuple[int, list[str]]:
    """The type size and lines that show a face name inside a die ``width`` x ``height``: the
    largest size from ``start`` down to ``smallest`` at which every word fits whole (names
    break at spaces and after hyphens), on as many lines as the height holds (at most 3)."""
    words = [w for w in re.split(r"\s+|(?<=-)", label) if w]
    lines: list[str] = [label]
    for font in range(max(start, smallest), smallest - 1, -1):
        lines = []
        for word in words:
            joined = (lines[-1] + ("" if lines[-1].endswith("-") else " ") + word) if lines else word
            if lines and p.width(joined, font) <= width:
                lines[-1] = joined
            else:
                lines.append(word)
        if all(p.width(x, font) <= width for x in lines) and len(lines) * font <= height \
                and len(lines) <= 3:
            return font, lines
    return smallest, lines
