"""A panel per character: name, class, level, EP bar, cash, enchantments (icons with names),
properties grouped by colour with houses, hotels and mortgages.

In team play a member's card has a stripe and a line in its team's colour ("Team A: Ann+Cai",
"shared pool" under the cash): the cash is the team's one pool and the lots shown are the
team's, on every member's card."""

from __future__ import annotations

import math

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


def draw_card(p: Painter, r: pygame.Rect, lay: Layout, c: PlayerCard, n: int,
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
    bits = card_bits(c)
    bx = draw_badge(p, c, x0, y, text_size, small, pad) if c.badge else x0
    if c.status:
        bx = p.text(c.status, (bx, y), text_size, theme.BAD).right + pad
    if c.team and not line:
        chip = pygame.Rect(x0, y + 1, text_size, text_size)
        p.rect(chip, c.team_colour, radius=3)
        p.text(c.team, chip.center, small, theme.BG, anchor="center")
        bx = chip.right + pad
    if bits or c.status or (c.team and not line):  # no line when there is nothing to say
        p.text("  ".join(bits) or " ", (bx, y), text_size, theme.MUTED,
               max_width=r.right - pad * 2 - bx)
        y += int(text_size * 1.05)
    if c.meter is not None:  # e.g. damage out of 10: a bar filling towards the end
        y = draw_meter(p, pygame.Rect(x0, y + 1, r.w - pad * 4, max(small + 2, text_size - 2)),
                       lay, c.meter, small)
    if c.ep is not None:  # EP bar
        y = draw_ep(p, pygame.Rect(x0, y + 1, r.w - pad * 4, max(8, text_size - 4)), c, pad, small)
    # enchantments: icon + name
    if c.enchantments:
        x = x0
        icon = max(5, small // 2 - 1)
        for ench in c.enchantments:
            label = ench
            w = p.width(label, small) + icon * 2 + pad * 2
            if x + w > r.right - pad * 2:
                break
            col = theme.icon_colour(ench.split(" ")[0])
            p.circle((x + icon, y + small // 2), icon, col)
            p.text(ench[:1].upper(), (x + icon, y + small // 2), max(13, small - 4), theme.BG,
                   anchor="center")
            p.text(label, (x + icon * 2 + 3, y), small, theme.TEXT)
            x += w
        y += small + 2
    # the skills line gives way to the lots when a short card has no room for both
    lots_row = small + 4
    if c.extras and not c.groups and not c.no_groups:  # a line each while there is room
        y = draw_extras(p, pygame.Rect(x0, y, r.w - pad * 4, r.bottom - pad - y), c.extras, small)
    elif c.extras and not (c.groups and r.bottom - pad - (y + small + 2) < lots_row
                           + (small + 2) * bool(c.check)):
        p.text("  ".join(c.extras), (x0, y), small, theme.MUTED, max_width=r.w - pad * 4)
        y += small + 2
    if c.check:
        p.text(c.check, (x0, y), small, theme.BAD, max_width=r.w - pad * 4)
        y += small + 2
    area = pygame.Rect(x0, y, r.w - pad * 4, r.bottom - pad - y)
    draw_properties(p, area, lay, c, text_size if area.h > 3 * text_size else small)


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
def card_bits(c: PlayerCard) -> list[str]:
    """The card's line of facts under the name: class, level, jail, where the pawn is."""
    bits: list[str] = []
    if c.role:
        bits.append(c.role.replace("_", " ").title())
    if c.level is not None:
        bits.append(f"level {c.level}")
    if c.bankrupt:
        bits.append("BANKRUPT")
    elif c.in_jail:
        bits.append("IN JAIL")
    if c.jail_cards:
        bits.append(f"{c.jail_cards} jail card" + ("s" if c.jail_cards > 1 else ""))
    if c.square and not c.bankrupt and not c.in_jail:
        bits.append(f"on {c.square}")
    return bits


def draw_ep(p: Painter, bar: pygame.Rect, c: PlayerCard, pad: int, small: int) -> int:
    """The EP bar towards the next level; returns the y below it."""
    assert c.ep is not None
    p.rect(bar, theme.BG, radius=4)
    frac = 1.0 if c.max_level else min(1.0, c.ep_into / max(1, c.ep_need))
    if frac > 0:
        p.rect(pygame.Rect(bar.x, bar.y, max(4, int(bar.w * frac)), bar.h), theme.EP_BAR,
               radius=4)
    label = (f"EP {c.ep} (top level)" if c.max_level else
             f"EP {c.ep}: {c.ep_need - c.ep_into} to level {(c.level or 1) + 1}")
    p.text(label, (bar.x + pad, bar.centery), small, theme.TEXT, anchor="midleft",
           max_width=bar.w - 2 * pad)
    return bar.bottom + pad // 2 + 1


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


def draw_extras(p: Painter, area: pygame.Rect, extras: tuple[str, ...], small: int) -> int:
    """The card's facts a line each (two a line when short of room); returns the y below."""
    lines = list(extras)
    room = max(0, (area.h + 2) // (small + 2))
    if len(lines) > room:
        lines = ["  ".join(lines[i:i + 2]) for i in range(0, len(lines), 2)]
    y = area.y
    for text in lines[:room]:
        p.text(text, (area.x, y), small, theme.TEXT, max_width=area.w)
        y += small + 2
    return y


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
    if c.ep is not None:
        used += max(8, text_size - 4) + pad // 2 + 2
    used += (small + 2) * (bool(c.enchantments) + bool(c.extras) + bool(c.check))
    return r.h - used - (small + 2) >= small + 4


def draw_properties(p: Painter, area: pygame.Rect, lay: Layout, c: PlayerCard, size: int) -> None:
    """Colour groups as rows of chips: the lot's short name, houses as dots, H for a hotel,
    a mortgaged lot dimmed with an M."""
    if area.h < size:
        return
    if not c.groups:
        if c.no_groups:
            p.text(c.no_groups, (area.x, area.y), size, theme.MUTED)
        return
    chip_h = size + 4
    x, y = area.x, area.y
    for g in c.groups:
        for lot in g.lots:
            pip = max(5, size // 3)
            w = p.width(lot.short, size) + 10 + (lot.houses * (pip + 2) if not lot.hotel
                                                 else pip * 2)
            if lot.mortgaged:
                w += p.width(" M", size)
            if x + w > area.right:
                x = area.x
                y += chip_h + 3
            if y + chip_h > area.bottom:
                p.text("...", (area.right - 20, area.bottom - size), size, theme.MUTED)
                return
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
            x += w + 4
        x += 6
