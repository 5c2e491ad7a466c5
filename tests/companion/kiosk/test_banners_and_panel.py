"""The generic table banners and info panel: drawn only when a game gives them, inside
their panels, never cut; banners that do not fit end with a "+N more" tag counting the rest."""

from __future__ import annotations

import pygame

from companion.kiosk import theme
from companion.kiosk.headless import init_headless
from companion.kiosk.painter import Painter
from companion.kiosk.theme import layout_for
from companion.kiosk.views import DecisionModel, InfoPanel, TableBanner
from companion.kiosk.views import banners as banners_view
from companion.kiosk.views import decision as decision_view


def _painter(size: tuple[int, int]) -> Painter:
    init_headless()
    painter = Painter()
    painter.begin(pygame.Surface(size))
    return painter


def test_no_banners_take_no_room() -> None:
    lay = layout_for((800, 480))
    painter = _painter((800, 480))
    assert banners_view.draw(painter, lay.log, lay, ()) == 0
    assert painter.drawn == []


def test_banners_that_do_not_fit_are_counted_on_a_last_tag() -> None:
    lay = layout_for((800, 480))
    painter = _painter((800, 480))
    many = tuple(TableBanner(f"Landmark: Lot number {k}", theme.MUTED) for k in range(12))
    used = banners_view.draw(painter, lay.log, lay, many)
    assert 0 < used < lay.log.h
    texts = [d.text for d in painter.drawn]
    more = [t for t in texts if t.endswith(" more")]
    assert len(more) == 1 and texts[-1] == more[0]
    shown = len(texts) - 1
    assert more[0] == f"+{12 - shown} more" and shown >= 2
    strip = pygame.Rect(painter.panels[-1].rect)
    assert all(strip.contains(pygame.Rect(d.rect)) and not d.cut for d in painter.drawn)


def test_the_info_panel_sits_between_the_title_and_the_options() -> None:
    lay = layout_for((800, 480))
    painter = _painter((800, 480))
    panel = InfoPanel("Ann needs 9 or less on 2d6", ("Spent: Ann $30, Ben $10 (+1)",
                                                   "Passed: nobody yet"))
    model = DecisionModel("Spend $10 units, or pass", "", (("Ben: pass", True, True),),
                          "PREV/NEXT", panel=panel)
    decision_view.draw(painter, lay.decision, lay, model)
    drawn = {d.text: d.rect for d in painter.drawn}
    assert drawn["Ann needs 9 or less on 2d6"][1] > drawn["Spend $10 units, or pass"][1]
    assert drawn["Ben: pass"][1] > drawn["Passed: nobody yet"][1]
    assert all(d.rect[3] >= theme.MIN_LINE_PX and not d.cut for d in painter.drawn)
