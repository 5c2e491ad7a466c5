"""Drawing helpers shared by the views: cached text, and a record of what was drawn.

Text is rendered once per (text, size, colour) and kept in a small cache, so a full redraw
costs only blits. Every text drawn in a frame is recorded (``Painter.drawn``) with its panel,
its rectangle and whether it had to be cut to fit its box (``DrawnText.cut``), so tests can
assert on what is on screen without reading pixels. Views are expected never to cut: they wrap
(``lines``), shorten or page instead; ``fit`` stays as the last guard.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

Colour = tuple[int, int, int]
FONT_SIZES_MIN = 12


@dataclass(frozen=True)
class DrawnText:
    text: str
    rect: tuple[int, int, int, int]  # x, y, w, h in screen pixels
    panel: str
    size: int
    cut: bool = False  # the text did not fit its box and was shortened with "..."


@dataclass(frozen=True)
class DrawnPanel:
    name: str
    rect: tuple[int, int, int, int]


class Painter:
    """Wraps the target surface for one frame; views draw only through it."""

    def __init__(self, cache_size: int = 1500) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._cache: OrderedDict[tuple[str, int, Colour], pygame.Surface] = OrderedDict()
        self._cache_size = cache_size
        self._widths: dict[tuple[str, int], int] = {}
        self.surface: pygame.Surface | None = None
        self.drawn: list[DrawnText] = []
        self.panels: list[DrawnPanel] = []
        self.panel = ""

    # -- frame -------------------------------------------------------------------------------
    def begin(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.drawn = []
        self.panels = []
        self.panel = ""

    def enter(self, name: str, rect: pygame.Rect) -> None:
        self.panel = name
        self.panels.append(DrawnPanel(name, (rect.x, rect.y, rect.w, rect.h)))

    @property
    def target(self) -> pygame.Surface:
        assert self.surface is not None, "call begin(surface) first"
        return self.surface

    # -- text --------------------------------------------------------------------------------
    def font(self, size: int) -> pygame.font.Font:
        size = max(FONT_SIZES_MIN, int(size))
        font = self._fonts.get(size)
        if font is None:
            font = pygame.font.Font(None, size)
            self._fonts[size] = font
        return font

    def render(self, text: str, size: int, colour: Colour) -> pygame.Surface:
        key = (text, max(FONT_SIZES_MIN, int(size)), colour)
        surf = self._cache.get(key)
        if surf is None:
            surf = self.font(size).render(text, True, colour)
            self._cache[key] = surf
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return surf

    def width(self, text: str, size: int) -> int:
        """The drawn width of ``text`` (kept: the views wrap and measure the same words every
        frame)."""
        key = (text, int(size))
        w = self._widths.get(key)
        if w is None:
            if len(self._widths) > 20 * self._cache_size:
                self._widths.clear()
            w = self._widths[key] = int(self.font(size).size(text)[0])
        return w

    def fit(self, text: str, size: int, max_width: int) -> str:
        """``text`` cut with '...' so it fits in ``max_width`` pixels."""
        if max_width <= 0:
            return ""
        if self.width(text, size) <= max_width:
            return text
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.width(text[:mid].rstrip() + "...", size) <= max_width:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo].rstrip() + "..." if lo else ""

    def lines(self, text: str, size: int, max_width: int) -> list[str]:
        """``text`` wrapped at spaces into as many lines as it needs (a word wider than the
        box, which no view should have, is still cut)."""
        return self.wrap(text, size, max_width, max_lines=10_000)

    def first_fitting(self, texts: list[str], size: int, max_width: int) -> str:
        """The first of ``texts`` (longest first) that fits ``max_width``; else the last."""
        for t in texts:
            if self.width(t, size) <= max_width:
                return t
        return texts[-1]

    def wrap(self, text: str, size: int, max_width: int, max_lines: int = 3) -> list[str]:
        words = text.split()
        lines: list[str] = []
        line = ""
        for word in words:
            trial = f"{line} {word}".strip()
            if self.width(trial, size) <= max_width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        if line:
            lines.append(line)
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = self.fit(lines[-1] + " ...", size, max_width)
        return [self.fit(x, size, max_width) for x in lines]

    def text(self, text: str, pos: tuple[int, int], size: int, colour: Colour,
             anchor: str = "topleft", max_width: int | None = None) -> pygame.Rect:
        """Draw one line; ``anchor`` is a pygame.Rect attribute (topleft, midright, center...)."""
        cut = False
        if max_width is not None:
            fitted = self.fit(text, size, max_width)
            cut, text = fitted != text, fitted
        if not text:
            return pygame.Rect(pos, (0, 0))
        surf = self.render(text, size, colour)
        rect = surf.get_rect(**{anchor: pos})
        self.target.blit(surf, rect)
        self.drawn.append(DrawnText(text, (rect.x, rect.y, rect.w, rect.h), self.panel,
                                    int(size), cut))
        return rect

    # -- shapes ------------------------------------------------------------------------------
    def rect(self, rect: pygame.Rect | tuple[int, int, int, int], colour: Colour,
             width: int = 0, radius: int = 0) -> None:
        pygame.draw.rect(self.target, colour, rect, width, border_radius=radius)

    def circle(self, centre: tuple[int, int], radius: int, colour: Colour, width: int = 0) -> None:
        pygame.draw.circle(self.target, colour, centre, radius, width)

    def line(self, a: tuple[int, int], b: tuple[int, int], colour: Colour, width: int = 1) -> None:
        pygame.draw.line(self.target, colour, a, b, width)

    def polygon(self, points: list[tuple[int, int]], colour: Colour, width: int = 0) -> None:
        pygame.draw.polygon(self.target, colour, points, width)

    def blit(self, surf: pygame.Surface, pos: tuple[int, int]) -> None:
        self.target.blit(surf, pos)

    def texts(self, panel: str | None = None) -> list[str]:
        return [d.text for d in self.drawn if panel is None or d.panel == panel]
