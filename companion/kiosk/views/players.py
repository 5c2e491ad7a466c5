"""A panel per character: name, class, level, EP bar, cash, enchantments (icons with names),
properties grouped by colour with houses, hotels and mortgages.

In team play a member's card has a stripe and a line in its team's colour ("Team A: Ann+Cai",
"shared pool" under the cash): the cash is the team's one pool and the lots shown are the
team's, on every member's card."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from companion.kiosk import theme
from companion.kiosk.painter import Painter
from companion.kiosk.theme import Layout
from companion.kiosk.views import PeekModel, PlayerCard


def grid(n: int, rect: pygame.Rect, pad: int) -> list[pygame.Rect]:
    """Cells for ``n`` panels: 2 columns (3 for 7-8 players)."""
    if n <= 0:
        return []
    cols = 1 if n == 1 else (2 if n <= 6 else 3)
    rows = math.ceil(n / cols)
    w = (rect.w - pad * (cols - 1)) // cols
    h = (rect.h - pad * (rows - 1)) // rows
    return [pygame.Rect(rect.x + (i % cols) * (w + pad), rect.y + (i // cols) * (h + pad), w, h)
            for i in range(n)]


def draw(p: Painter, rect: pygame.Rect, lay: Layout, cards: tuple[PlayerCard, ...]) -> None:
    p.enter("players", rect)
    cells = grid(len(cards), rect, lay.pad)
    # team play: every member's card gets the team's line, or (no room on one) none does
    lines = all(team_line(c, r, lay, *sizes(lay, len(cards)))
                for c, r in zip(cards, cells, strict=True) if c.team)
    for card, cell in zip(cards, cells, strict=True):
        draw_card(p, cell, lay, card, len(cards), lines)


def sizes(lay: Layout, n: int) -> tuple[int, int, int]:
    """Type sizes on the cards: name, text, small (7-8 players: three columns, 90 %)."""
    crowd = 1.0 if n <= 6 else 0.9
    return lay.font(34 * crowd), lay.font(21 * crowd), lay.font(18 * crowd)


def draw_card(p: Painter, r: pygame.Rect, lay: Layout, c: PlayerCard, n: int,  # noqa: C901
              team_lines: bool = True) -> None:
    name_size, text_size, small = sizes(lay, n)
    bg = theme.PANEL_HI if c.current else theme.PANEL
    p.rect(r, bg, radius=8)
    border = theme.ACCENT if c.deciding else (theme.SELECT if c.current else theme.BORDER)
    p.rect(r, border, width=3 if (c.deciding or c.current) else 1, radius=8)
    pad = lay.pad
    if c.team or c.badge:  # team play, or a status badge: a stripe in its colour
        p.rect(pygame.Rect(r.x + 3, r.y + 6, max(4, pad), r.h - 12),
               c.team_colour if c.team else c.badge_colour, radius=2)
    x0 = r.x + pad * 2
    y = r.y + pad
    # name line: colour token, name, cash (right)
    tok = max(6, name_size // 3)
    p.circle((x0 + tok, y + name_size // 2), tok, c.colour)
    p.circle((x0 + tok, y + name_size // 2), tok, theme.TEXT, width=1)
    cash_rect = pygame.Rect(r.right - pad * 2, y, 0, name_size)  # a game without money
    if c.cash is not None:
        cash_rect = p.text(f"${c.cash:,}", (r.right - pad * 2, y), name_size,
                           theme.BAD if c.bankrupt else theme.CASH, anchor="topright")
    # team play on a short card (6+ players on a small screen): no line of its own for the
    # team, a letter chip on the class line and "shared" before the pool
    line = bool(c.team) and team_lines
    if c.team and not line:
        shared = p.text("shared", (cash_rect.left - pad, cash_rect.bottom - 3), small,
                        theme.MUTED, anchor="bottomright")
        cash_rect = cash_rect.union(shared)
    name_x = x0 + tok * 2 + pad
    p.text(c.name, (name_x, y), name_size, theme.TEXT,
           max_width=cash_rect.left - name_x - pad)
    y += int(name_size * 0.9) + 2
    if line:  # the team, and that the cash above is its shared pool
        shared = p.text("shared pool", (r.right - pad * 2, y), small, theme.MUTED,
                        anchor="topright")
        p.text(c.team_label, (x0, y), small, c.team_colour,
               max_width=shared.left - x0 - pad)
        y += small + 2
    # class, level, status
    # a short card (six players on the small screen) folds the EP into this line, no bar, so
    # its lots keep two rows
    compact = c.ep is not None and r.h < 6 * text_size
    bits = []
    if c.role:
        bits.append(c.role.replace("_", " ").title())
    if c.level is not None:
        bits.append(f"level {c.level}" if not compact else str(c.level))
    if compact:
        bits.append(f"EP {c.ep}" if c.max_level else f"EP {c.ep} (+{c.ep_need - c.ep_into})")
    if c.bankrupt:
        bits.append("BANKRUPT")
    elif c.in_jail:
        bits.append("IN JAIL")
    if c.jail_cards:
        bits.append(f"{c.jail_cards} jail card" + ("s" if c.jail_cards > 1 else ""))
    if c.square and not c.bankrupt and not c.in_jail:
        bits.append(f"on {c.square}")
    bx = draw_badge(p, c, x0, y, text_size, small, pad) if c.badge else x0
    if c.status:
        bx = p.text(c.status, (bx, y), text_size, theme.BAD).right + pad
    if c.team and not line:
        chip = pygame.Rect(x0, y + 1, text_size, text_size)
        p.rect(chip, c.team_colour, radius=3)
        p.text(c.team, chip.center, small, theme.BG, anchor="center")
        bx = chip.right + pad
    for k, txt in enumerate(p.lines("  ".join(bits) or " ", text_size,
                                    r.right - pad * 2 - bx)):
        p.text(txt, (bx if k == 0 else x0, y), text_size, theme.MUTED)
        y += int(text_size * 1.05) if k == 0 else text_size - 2
    if c.meter is not None:  # e.g. damage out of 10: a bar filling towards the end
        y = draw_meter(p, pygame.Rect(x0, y + 1, r.w - pad * 4, max(small + 2, text_size - 2)),
                       lay, c.meter, small)
    # EP: the label left of the bar, never over its fill
    if c.ep is not None and not compact:
        y = draw_ep(p, pygame.Rect(x0, y + 1, r.w - pad * 4, small), lay, c) + pad // 2 + 1
    if c.enchantments:
        y = draw_enchantments(p, x0, y, r.right - pad * 2, lay, c.enchantments, small)
    # the skills lines (wrapped) give way to the lots when a short card has no room for both
    lots_row = small + 4
    width = r.w - pad * 4
    def room_for(lines: list[str], lot_rows: int = 1) -> bool:
        below = (lots_row * lot_rows if c.groups else 0) + (small + 2) * bool(c.check)
        return r.bottom - pad - (y + (small + 2) * len(lines)) >= below

    extra_lines = [ln for e in c.extras for ln in p.lines(e, small, width)]
    if extra_lines and not room_for(extra_lines):  # short of room: the facts run on, when
        joined = fact_lines(p, c.extras, small, width)  # the lots keep two rows
        extra_lines = joined if room_for(joined, 2) or not c.groups else []
        while not c.groups and extra_lines and not room_for(extra_lines):
            extra_lines.pop()  # a card without lots: as many lines of facts as it holds
    if extra_lines and room_for(extra_lines):
        for txt in extra_lines:
            p.text(txt, (x0, y), small, theme.MUTED)
            y += small + 2
    if c.check:
        for txt in p.lines(c.check, small, width):
            if y + small > r.bottom - pad // 2:
                break  # never past the card (the decision panel says it in full)
            p.text(txt, (x0, y), small, theme.BAD)
            y += small + 2
    area = pygame.Rect(x0, y, r.w - pad * 4, r.bottom - pad - y)
    draw_properties(p, area, lay, c, text_size if area.h > 3 * text_size else small)


def fact_lines(p: Painter, facts: Sequence[str], size: int, width: int) -> list[str]:
    """``facts`` run on in lines of ``width``, a comma between two: a fact is broken over two
    lines only when it is wider than one ("off: none", not "off:" and "none" a line apart)."""
    lines: list[str] = []
    line = ""
    for fact in facts:
        trial = f"{line}, {fact}" if line else fact
        if line and p.width(trial, size) > width:
            lines.append(line + ",")
            line = fact
        else:
            line = trial
    if line:
        lines.append(line)
    return [part for ln in lines for part in p.lines(ln, size, width)]


def draw_enchantments(p: Painter, x0: int, y: int, right: int, lay: Layout,
                      enchantments: tuple[str, ...], small: int) -> int:
    """A dot in each enchantment's colour and its name, wrapping to new rows; returns the y
    below them."""
    x = x0
    icon = max(5, small // 3)
    for ench in enchantments:
        w = p.width(ench, small) + icon * 2 + lay.pad * 2
        if x > x0 and x + w > right:
            x, y = x0, y + small + 2
        p.circle((x + icon, y + small // 2), icon, theme.icon_colour(ench.split(" ")[0]))
        p.text(ench, (x + icon * 2 + 3, y), small, theme.TEXT)
        x += w
    return y + small + 2


def draw_ep(p: Painter, row: pygame.Rect, lay: Layout, c: PlayerCard) -> int:
    """The EP row: "EP 17: 3 to level 3" (shorter forms on a narrow card) and, right of it, the
    bar of EP gained towards the next level. Returns the row's bottom."""
    size = row.h
    need = c.ep_need - c.ep_into
    nxt = (c.level or 1) + 1
    texts = ([f"EP {c.ep} (top level)", f"EP {c.ep}, top"] if c.max_level else
             [f"EP {c.ep}: {need} to level {nxt}", f"EP {c.ep}: {need} to lv {nxt}",
              f"EP {c.ep} (+{need})"])
    min_bar = max(30, row.w // 5)
    label = p.first_fitting(texts, size, row.w - min_bar - lay.pad)
    t = p.text(label, (row.x, row.y), size, theme.TEXT)
    bar = pygame.Rect(t.right + lay.pad, row.y + size // 5, row.right - t.right - lay.pad,
                      max(6, size * 3 // 5))
    if bar.w > 4:
        p.rect(bar, theme.BG, radius=3)
        frac = 1.0 if c.max_level else min(1.0, c.ep_into / max(1, c.ep_need))
        if frac > 0:
            p.rect(pygame.Rect(bar.x, bar.y, max(4, int(bar.w * frac)), bar.h), theme.EP_BAR,
                   radius=3)
        p.rect(bar, theme.BORDER, width=1, radius=3)
    return max(t.bottom, bar.bottom)


def draw_badge(p: Painter, c: PlayerCard, x: int, y: int, text_size: int, small: int,
               pad: int) -> int:
    """A status badge: an icon chip in the badge's colour, then its word in that colour;
    returns where the line goes on."""
    icon = max(6, text_size // 2)
    p.circle((x + icon, y + text_size // 2), icon, c.badge_colour)
    p.text(c.badge_icon or c.badge[:1], (x + icon, y + text_size // 2), max(13, small - 2),
           theme.BG, anchor="center")
    word = p.text(c.badge, (x + icon * 2 + 4, y), text_size, c.badge_colour)
    return int(word.right) + pad
def draw_meter(p: Painter, bar: pygame.Rect, lay: Layout, meter: tuple[str, int, int],
               small: int) -> int:
    """A bar with words and a scale ("damage 4/10"); returns the y below it."""
    words, value, full = meter
    p.rect(bar, theme.BG, radius=4)
    frac = min(1.0, max(0.0, value / max(1, full)))
    if frac > 0:
        p.rect(pygame.Rect(bar.x, bar.y, max(4, int(bar.w * frac)), bar.h),
               theme.BAD if frac >= 0.7 else theme.WARN, radius=4)
    p.text(f"{words} {value}/{full}", (bar.x + lay.pad, bar.centery), small, theme.TEXT,
           anchor="midleft", max_width=bar.w - 2 * lay.pad)
    return bar.bottom + lay.pad // 2 + 1


def draw_peek(p: Painter, rect: pygame.Rect, lay: Layout, m: PeekModel) -> None:
    """A player's private holdings over ``rect`` while their button is held."""
    size = lay.font(26)
    title = lay.font(30)
    pad = lay.pad * 2
    lines = list(m.lines) or ["nothing private to show"]
    h = min(rect.h, title + 2 * pad + len(lines) * (size + 4) + pad)
    w = min(rect.w, max(rect.w * 2 // 3, 10))
    box = pygame.Rect(rect.centerx - w // 2, rect.centery - h // 2, w, h)
    p.enter("peek", box)
    p.rect(box, theme.BG, radius=10)
    p.rect(box, m.colour, width=4, radius=10)
    y = box.y + pad
    p.text(f"{m.name} only (let go to hide)", (box.x + pad, y), title, theme.ACCENT,
           max_width=box.w - 2 * pad)
    y += title + pad // 2
    for line in lines:
        if y + size > box.bottom - pad // 2:
            break
        p.text(line, (box.x + pad, y), size, theme.TEXT, max_width=box.w - 2 * pad)
        y += size + 4


def team_line(c: PlayerCard, r: pygame.Rect, lay: Layout, name_size: int, text_size: int,
              small: int) -> bool:
    """Whether a team member's card has room for the line "Team A: Ann+Cai ... shared pool" and
    still a row of lots below it."""
    if not c.team:
        return False
    pad = lay.pad
    used = pad + int(name_size * 0.9) + 2 + int(text_size * 1.05)
    if c.ep is not None and not r.h < 6 * text_size:  # (draw_card: compact)
        used += small + pad // 2 + 2
    used += (small + 2) * (bool(c.enchantments) + bool(c.extras) + bool(c.check))
    return r.h - used - (small + 2) >= small + 4


def draw_properties(p: Painter, area: pygame.Rect, lay: Layout, c: PlayerCard, size: int) -> None:
    """Colour groups as rows of chips: the lot's short name, houses as dots, H for a hotel,
    a mortgaged lot dimmed with an M, and a tag for each of the lot's marks (enchantments:
    "Bless 3" on a tag in the enchantment's colour, the same as on the camera view). Lots that
    find no room are counted ("+2 more"), never cut."""
    if area.h < size:
        return
    if not c.groups:
        if c.no_groups:
            p.text(c.no_groups, (area.x, area.y), size, theme.MUTED)
        return
    chip_h = size + 2  # the text's line (14 px at the smallest size) and a pixel each side
    gap = 2
    x, y = area.x, area.y
    total = sum(len(g.lots) for g in c.groups)
    done = 0
    for g in c.groups:
        for lot in g.lots:
            pip = max(5, size // 3)
            tags = [p.width(m, size) + 8 for m in lot.enchantments]
            w = p.width(lot.short, size) + 10 + (lot.houses * (pip + 2) if not lot.hotel
                                                 else pip * 2) + sum(t + 3 for t in tags)
            if lot.mortgaged:
                w += p.width(" M", size)
            if x + w > area.right:
                if y + 2 * chip_h + gap > area.bottom:  # no next row: the count in its place
                    p.text(f"+{total - done} more", (x, y + 1), size, theme.MUTED)
                    return
                x = area.x
                y += chip_h + gap
            last_row = y + 2 * chip_h + gap > area.bottom
            after = total - done - 1  # lots still to come after this one
            room = area.right if not (last_row and after) else \
                area.right - p.width(f"+{after} more", size) - 12
            if y + chip_h > area.bottom:  # (only when the area holds no row at all)
                return
            if last_row and x + w > room:
                p.text(f"+{total - done} more", (x, y + 1), size, theme.MUTED)
                return
            done += 1
            chip = pygame.Rect(x, y, w, chip_h)
            colour = g.colour if not lot.mortgaged else tuple(v // 3 for v in g.colour)
            p.rect(chip, colour, radius=4)  # type: ignore[arg-type]
            if g.owns_all:
                p.rect(chip, theme.ACCENT, width=2, radius=4)
            ink = theme.BG if sum(g.colour) > 420 and not lot.mortgaged else theme.TEXT
            t = p.text(lot.short + (" M" if lot.mortgaged else ""), (x + 4, chip.centery), size,
                       ink, anchor="midleft")
            hx = t.right + 4
            if lot.hotel:
                p.rect(pygame.Rect(hx, chip.y + 3, pip + 3, chip_h - 6), theme.BAD, radius=2)
            else:
                for k in range(lot.houses):
                    p.rect(pygame.Rect(hx + k * (pip + 2), chip.centery - pip // 2, pip, pip),
                           theme.GOOD)
            tx = chip.right - sum(t + 3 for t in tags)
            for mark, tw in zip(lot.enchantments, tags, strict=True):
                tag = pygame.Rect(tx, chip.y + 1, tw, chip_h - 2)
                p.rect(tag, theme.icon_colour(mark.split(" ")[0]), radius=3)
                p.rect(tag, theme.BG, width=1, radius=3)
                p.text(mark, tag.center, size, theme.BG, anchor="center")
                tx += tw + 3
            x += w + 4
        x += 6
