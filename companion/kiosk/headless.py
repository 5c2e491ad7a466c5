"""Rendering without a display: the kiosk drawn off-screen and saved as PNG frames.

Used by tests, by the benchmark, and by ``companion play --demo`` on a machine with no display
(it falls back to this by itself and says where the frames went).
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

DEFAULT_OUT = Path("out") / "kiosk-frames"


def init_headless() -> None:
    """Fonts and surfaces only; no window is opened."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()


def render_one(screen: object, size: tuple[int, int], path: Path | None = None) -> object:
    """Update and draw one frame of ``screen`` off-screen; returns the Painter (with the list of
    drawn texts) and saves a PNG when ``path`` is given."""
    import pygame

    from companion.kiosk.painter import Painter

    init_headless()
    surface = pygame.Surface(size)
    painter = Painter()
    screen.update(0.0)  # type: ignore[attr-defined]
    screen.draw(surface, painter)  # type: ignore[attr-defined]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(path))
    return painter
