"""Colours, type sizes and the screen layout, computed from the screen size.

Sizes scale with the screen (designed at 1280x720; the 800x480 touch display uses the same
layout with smaller type, never below a readable minimum: ``MIN_FONT``, type whose drawn line
is 14 px tall, read from an arm's length or more across a table).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.kiosk.painter import Colour

BG: Colour = (18, 20, 28)
PANEL: Colour = (34, 38, 52)
PANEL_HI: Colour = (52, 58, 80)
BORDER: Colour = (70, 78, 104)
TEXT: Colour = (236, 238, 244)
MUTED: Colour = (160, 166, 184)
ACCENT: Colour = (255, 204, 64)
GOOD: Colour = (96, 208, 120)
BAD: Colour = (240, 92, 84)
WARN: Colour = (250, 160, 60)
SELECT: Colour = (64, 120, 220)
EP_BAR: Colour = (150, 110, 240)
CASH: Colour = (130, 230, 140)

# pawn sticker colours, seat order (same order as vision.synthetic DEFAULT_PLAYERS)
SEAT_COLOURS: tuple[tuple[str, Colour], ...] = (
    ("red", (215, 40, 45)), ("blue", (25, 95, 205)), ("green", (45, 175, 60)),
    ("yellow", (240, 215, 35)), ("purple", (140, 45, 165)), ("orange", (250, 135, 25)),
    ("white", (240, 240, 240)), ("black", (35, 35, 35)),
)


def seat_colour(seat: int) -> Colour:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)][1]


NAMED: dict[str, Colour] = {
    "bg": BG, "panel": PANEL, "panel_hi": PANEL_HI, "border": BORDER, "text": TEXT,
    "muted": MUTED, "accent": ACCENT, "good": GOOD, "bad": BAD, "warn": WARN, "select": SELECT,
    **dict(SEAT_COLOURS), "grey": (128, 128, 128), "gray": (128, 128, 128),
}


def colour_of(name: str) -> Colour:
    """A colour from a game's word for it: ``#rrggbb``, a theme name (``accent``) or a sticker
    colour (``red``); anything else is drawn grey (never an error on screen)."""
    text = name.strip().lower()
    if text.startswith("#") and len(text) == 7:
        try:
            return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
        except ValueError:
            return NAMED["grey"]
    return NAMED.get(text, NAMED["grey"])


def ink_on(colour: Colour) -> Colour:
    """Dark or light text, whichever reads on ``colour``."""
    r, g, b = colour
    return BG if 0.299 * r + 0.587 * g + 0.114 * b > 150 else TEXT


def icon_colour(name: str) -> Colour:
    """A stable colour for an enchantment icon, from its name."""
    h = 0
    for ch in name:
        h = (h * 31 + ord(ch)) & 0xFFFFFF
    return (90 + h % 140, 90 + (h >> 8) % 140, 90 + (h >> 16) % 140)


# the smallest type size on the game screen: pygame's font at 18 draws a 14 px tall line
MIN_FONT = 18
MIN_LINE_PX = 14


@dataclass(frozen=True)
class Layout:
    """Panel rectangles and type sizes for one screen size."""

    size: tuple[int, int]
    header: pygame.Rect
    players: pygame.Rect
    log: pygame.Rect
    camera: pygame.Rect
    decision: pygame.Rect
    scale: float
    pad: int
    min_font: int = MIN_FONT
    map: pygame.Rect | None = None  # a grid game's map (None: the game has none)
    map_font: int = 0  # the smallest type on a map's squares (0: ``min_font``)

    @property
    def square_font(self) -> int:
        """The smallest type on a map's squares (their marks, walls and pawns' labels), which
        may be below ``min_font``: a square has no room for more; everything else keeps it."""
        return self.map_font or self.min_font

    def font(self, base: float) -> int:
        """A type size designed at 1280x720, scaled (never below ``min_font``, ``MIN_FONT``)."""
        return max(self.min_font, round(base * self.scale))

    def panels(self) -> dict[str, pygame.Rect]:
        rects = {"header": self.header, "players": self.players, "log": self.log,
                 "camera": self.camera, "decision": self.decision}
        if self.map is not None:
            rects["map"] = self.map
        return rects


def layout_for(size: tuple[int, int], grid: bool = False, seats: int = 4) -> Layout:
    """The panels for a screen of ``size``; ``grid``: a game with a map, which takes the big
    left area (the log and a smaller camera under it; the cards above the decision, lower
    with two ``seats`` or fewer, whose cards sit side by side in one row, so the decision
    gets the room)."""
    w, h = size
    base = min(w / 1280, h / 720)
    # small screens keep type much larger than pure scaling: the 7" 800x480 display is read
    # from across a table, so its type is ~86 % of the 1280x720 sizes, not 62 %
    small = base < 0.9
    scale = base if not small else min(0.9, max(0.5, base * 1.38))
    pad = max(4, round(8 * base))
    header_h = max(30, round(h * 0.075))
    header = pygame.Rect(pad, pad, w - 2 * pad, header_h)
    body_top = header.bottom + pad
    body_h = h - body_top - pad
    right_w = round(w * (0.38 if small else 0.36))
    left_w = w - right_w - 3 * pad
    log_h = round(body_h * 0.25)
    players = pygame.Rect(pad, body_top, left_w, body_h - log_h - pad)
    log = pygame.Rect(pad, players.bottom + pad, left_w, log_h)
    if grid:
        map_rect = pygame.Rect(pad, body_top, left_w, body_h - log_h - pad)
        cam_w = min(round(log_h * 16 / 9), left_w // 2)
        log = pygame.Rect(pad, map_rect.bottom + pad, left_w - cam_w - pad, log_h)
        camera = pygame.Rect(log.right + pad, log.y, cam_w, log_h)
        share = 0.46 if seats > 4 else 0.42 if seats > 2 else 0.32
        cards = pygame.Rect(map_rect.right + pad, body_top, right_w, round(body_h * share))
        decision = pygame.Rect(cards.x, cards.bottom + pad, right_w, h - pad - cards.bottom - pad)
        return Layout((w, h), header, cards, log, camera, decision, scale, pad, MIN_FONT,
                      map_rect, 15 if small else 13)
    cam_h = min(round(right_w * 9 / 16), round(body_h * 0.42))
    camera = pygame.Rect(players.right + pad, body_top, right_w, cam_h)
    decision = pygame.Rect(camera.x, camera.bottom + pad, right_w, h - pad - camera.bottom - pad)
    return Layout((w, h), header, players, log, camera, decision, scale, pad, MIN_FONT)
