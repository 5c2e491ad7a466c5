"""The grid map view, the square picker and the hold-to-peek, on a game-blind map (the kiosk
knows no game: these tests build a MapView by hand) and on a whole game with a map."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest

from companion.core.actions import Action
from companion.kiosk import theme
from companion.kiosk.app import KioskApp
from companion.kiosk.inputs import MapPicker, Pop, Submit
from companion.kiosk.map_view import MapCell, MapPiece, MapTarget, MapView, MapWall
from companion.kiosk.painter import Painter
from companion.kiosk.theme import layout_for
from companion.kiosk.views import MapModel, grid_map
from hardware.buttons import BACK, CONFIRM, NEXT, PREV, Input, InputQueue

SIZES = [(1280, 720), (800, 480)]


@dataclass(frozen=True, slots=True)
class Go(Action):
    to: tuple[int, int]


def sample_view(targets: bool = True) -> MapView:
    cells = tuple(MapCell((x, y), "#6e5d45", text=str(x) if y == 0 else "",
                          marks=("S",) if (x, y) == (2, 2) else ())
                  for x in range(8) for y in range(5) if (x, y) != (7, 4))
    pieces = (MapPiece((1, 1), "red", "A"), MapPiece((5, 3), "blue", "B"),
              MapPiece((3, 2), "#e6dcb8", "4", "token"), MapPiece((6, 1), "green"))
    walls = (MapWall((0, 0), "n", "#241e16"), MapWall((4, 4), "e", "warn", "door"))
    picks = tuple(MapTarget(sq, f"go {sq}", Go(0, sq))
                  for sq in ((6, 0), (2, 1), (4, 1), (1, 3), (6, 3))) if targets else ()
    return MapView(8, 5, cells, walls, pieces, picks, "A map", (("red", "Ann"),
                                                                   ("blue", "Ben")),
                   ("Ann waits outside",))


def draw_map(size: tuple[int, int], model: MapModel
             ) -> tuple[pygame.Surface, Painter, pygame.Rect, tuple[pygame.Rect, int]]:
    lay = layout_for(size, grid=True)
    assert lay.map is not None
    surface = pygame.Surface(size)
    painter = Painter()
    painter.begin(surface)
    placed = grid_map.draw(painter, lay.map, lay, model)
    assert placed is not None
    return surface, painter, lay.map, placed


@pytest.mark.parametrize("size", SIZES)
def test_grid_map_draws_every_cell_and_piece_inside_its_rect(size: tuple[int, int]) -> None:
    view = sample_view()
    assert view.problems() == []
    surface, painter, rect, (grid, cell) = draw_map(size, MapModel(view))
    lay = layout_for(size, grid=True)
    texts = painter.texts("map")
    for word in ("A map", "Ann waits outside", "Ann", "Ben", "0", "6", "A", "B", "4"):
        assert word in texts, (word, texts)
    for d in painter.drawn:
        x, y, w, h = d.rect
        assert rect.collidepoint(x, y) and rect.collidepoint(x + w - 1, y + h - 1), d
        assert d.size >= lay.square_font, d  # the squares may use smaller type than the rest
    # each cell's floor colour is where the cell is; the unlabelled green pawn is at its square
    assert cell >= 20
    for c in view.cells:
        box = grid_map.square_rect(grid, cell, c.square)
        assert rect.contains(box)
    green = grid_map.square_rect(grid, cell, (6, 1)).center
    assert surface.get_at(green)[:3] == theme.colour_of("green")
    missing = grid_map.square_rect(grid, cell, (7, 4)).center  # no cell there: panel colour
    assert surface.get_at(missing)[:3] == theme.PANEL


def test_picker_moves_in_reading_order_and_sends_the_target_action() -> None:
    view = sample_view()
    picker = MapPicker("Where?", list(view.targets))
    assert [t.square for t in picker.targets] == [(6, 0), (2, 1), (4, 1), (1, 3), (6, 3)]
    assert picker.handle(NEXT) is None and picker.cursor is not None
    assert picker.cursor.square == (2, 1)
    picker.handle(PREV)
    picker.handle(PREV)  # wraps to the last
    assert picker.cursor.square == (6, 3)
    assert picker.handle(CONFIRM) == Submit(Go(0, (6, 3)))
    assert picker.handle(BACK) == Pop()
    assert picker.plan(Go(0, (4, 1))) == [PREV, PREV, CONFIRM]  # from (6,3), the short way
    assert picker.plan(Go(0, (0, 0))) is None


def test_picker_jumps_to_the_nearest_target_in_a_direction() -> None:
    picker = MapPicker("Where?", list(sample_view().targets))
    picker.index = 1  # (2, 1)
    picker.jump("down")
    assert picker.cursor is not None and picker.cursor.square == (1, 3)
    picker.jump("right")
    assert picker.cursor.square == (6, 3)
    picker.jump("up")
    assert picker.cursor.square == (6, 0)
    picker.jump("up")  # nothing above: stays
    assert picker.cursor.square == (6, 0)
    picker.handle(NEXT.as_held())  # NEXT held: down (hold_actions with "next"), straight below
    assert picker.cursor.square == (6, 3)
    picker.handle(PREV.as_held())
    assert picker.cursor.square == (6, 0)


@pytest.mark.parametrize("size", SIZES)
def test_cursor_target_is_outlined_and_its_words_shown(size: tuple[int, int]) -> None:
    view = sample_view()
    picker = MapPicker("Where?", list(view.targets))
    picker.handle(NEXT)
    surface, painter, _, (grid, cell) = draw_map(size, MapModel(view, tuple(picker.targets),
                                                                 (2, 1)))
    assert "> go (2, 1)" in painter.texts("map")
    box = grid_map.square_rect(grid, cell, (2, 1))
    assert surface.get_at((box.x, box.centery))[:3] == theme.SELECT  # the cursor's frame
    other = grid_map.square_rect(grid, cell, (4, 1)).inflate(-2, -2)
    assert surface.get_at((other.x, other.centery))[:3] == theme.ACCENT  # another target


def test_released_inputs_reach_only_a_screen_release() -> None:
    class Screen:
        def __init__(self) -> None:
            self.handled: list[Input] = []
            self.released: list[Input] = []

        def handle(self, inp: Input) -> None:
            self.handled.append(inp)

        def release(self, inp: Input) -> None:
            self.released.append(inp)

        def update(self, dt: float) -> None:
            pass

        def draw(self, surface: pygame.Surface, painter: Painter) -> None:
            pass

    screen = Screen()
    queue = InputQueue()
    app = KioskApp(screen, (320, 200), queue=queue)
    queue.put(Input.react(1, held=True))
    queue.put(Input.react(1).as_released())
    queue.put(BACK.as_released())
    app.step(1 / 30)
    assert screen.handled == [Input.react(1, held=True)]
    assert screen.released == [Input.react(1).as_released(), BACK.as_released()]


def test_png_of_the_sample_map(png_dir: Path) -> None:
    for size in SIZES:
        surface, _, _, _ = draw_map(size, MapModel(sample_view()))
        pygame.image.save(surface, str(png_dir / f"grid-map-sample-{size[0]}x{size[1]}.png"))


def test_a_kept_drawing_is_the_same_as_a_fresh_one_and_a_new_view_is_redrawn() -> None:
    view = sample_view()
    first, p1, _, _ = draw_map((800, 480), MapModel(view))
    again, p2, _, _ = draw_map((800, 480), MapModel(view))  # the kept drawing, blitted
    assert pygame.image.tobytes(first, "RGB") == pygame.image.tobytes(again, "RGB")
    assert p1.texts() == p2.texts()
    moved = MapView(view.width, view.height, view.cells, view.walls,
                    (MapPiece((6, 2), "green"),), view.targets, view.title)
    surface, _, _, (grid, cell) = draw_map((800, 480), MapModel(moved))
    centre = grid_map.square_rect(grid, cell, (6, 2)).center
    assert surface.get_at(centre)[:3] == theme.colour_of("green")
    old = grid_map.square_rect(grid, cell, (1, 1)).center  # the red pawn is gone
    assert surface.get_at(old)[:3] != theme.colour_of("red")


def test_a_pawn_on_a_small_square_shows_its_short_label_when_the_long_one_does_not_fit() -> None:
    """24 columns at 800x480: squares of about 16 px take "b1", not "blt1"; a pawn with no
    short label that fits stays a plain pawn."""
    cells = tuple(MapCell((x, y), "#6e5d45") for x in range(24) for y in range(10))
    pieces = (MapPiece((3, 3), "red", "blt1", short="b1"), MapPiece((5, 5), "blue", "wide"),
              MapPiece((7, 7), "red", "s"))
    view = MapView(24, 10, cells, (), pieces)
    _, painter, _, (_, cell) = draw_map((800, 480), MapModel(view))
    texts = painter.texts("map")
    assert cell < 20
    assert "b1" in texts and "blt1" not in texts and "wide" not in texts and "s" in texts
    _, painter, _, (_, cell) = draw_map((1280, 720), MapModel(view))
    assert cell >= 30 and "blt1" in painter.texts("map")  # the long label where there is room
