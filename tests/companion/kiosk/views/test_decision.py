"""The decision panel's dice pad (``companion/kiosk/views/decision.py``)."""

from __future__ import annotations

import pygame
import pytest

from companion.kiosk.headless import init_headless
from companion.kiosk.painter import Painter
from companion.kiosk.theme import layout_for
from companion.kiosk.views import DiceModel
from companion.kiosk.views.decision import draw_dice


def captions_drawn(kinds: tuple[str, ...], width: int) -> list[tuple[str, pygame.Rect, bool]]:
    init_headless()
    lay = layout_for((800, 480), grid=True)
    painter = Painter()
    painter.begin(pygame.Surface((800, 480)))
    painter.enter("decision", pygame.Rect(0, 0, 800, 480))
    n = len(kinds)
    draw_dice(painter, pygame.Rect(10, 10, width, 92), lay,
              DiceModel(kinds, (1,) * n, ("1",) * n, "camera", 0))
    return [(d.text, pygame.Rect(d.rect), d.cut) for d in painter.drawn
            if d.text not in ("?", "1") and not d.text.startswith("Waiting")]


@pytest.mark.parametrize("kinds", [("block die", "block die"), ("block die", "block die", "block die"),
                                   ("d6", "scatter die")])
def test_dice_names_stand_whole_side_by_side_on_a_small_screen(kinds: tuple[str, ...]) -> None:
    """Two or three dice at 800x480 stand close: "block die" becomes "block" rather than two
    names running into each other ("block dieblock die")."""
    drawn = captions_drawn(kinds, 280)
    assert len(drawn) == len(kinds)
    for k, (text, rect, cut) in enumerate(drawn):
        assert not cut and text in (kinds[k], kinds[k].removesuffix(" die"))
        for _, other, _ in drawn[k + 1:]:
            assert not rect.colliderect(other), drawn


def test_a_name_that_fits_is_kept_whole() -> None:
    assert [t for t, _, _ in captions_drawn(("block die",), 280)] == ["block die"]
