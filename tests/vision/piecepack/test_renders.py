"""The piecepack renders: the same seed gives the same frame, and the truth fits the picture."""

from __future__ import annotations

import numpy as np

from vision.piecepack.placement import DungeonGrid
from vision.synthetic.piecepack import render_dice_area, render_table


def test_a_seed_gives_the_same_dice_area_frame_and_another_seed_another() -> None:
    a, b, c = render_dice_area(7), render_dice_area(7), render_dice_area(8)
    assert np.array_equal(a.image, b.image) and a.pieces == b.pieces
    assert not np.array_equal(a.image, c.image)


def test_every_rendered_piece_lies_in_the_frame_with_its_face() -> None:
    f = render_dice_area(3, n_dice=3, n_coins=3)
    assert [p.kind for p in f.pieces].count("die") == 3
    for p in f.pieces:
        x, y, w, h = p.box
        assert 0 <= x + w / 2 < 1280 and 0 <= y + h / 2 < 720 and 20 < w < 200
        if p.kind == "die":
            assert p.suit is not None and p.value in range(6)
        else:
            assert (p.value is None) == (p.side == "suit") and (p.suit is None) == (p.side == "value")


def test_a_table_frame_is_the_same_from_its_seed_and_its_tiles_are_connected() -> None:
    a, b = render_table(11, n_tiles=6, n_pawns=2), render_table(11, n_tiles=6, n_pawns=2)
    assert np.array_equal(a.image, b.image)
    assert len(a.tiles) == 6 and len(a.pawns) == 2
    tiles = set(a.tiles)
    assert all(t == (0, 0) or any((t[0] + dx, t[1] + dy) in tiles for dx, dy in
                                  ((1, 0), (-1, 0), (0, 1), (0, -1))) for t in tiles)


def test_the_dungeon_grid_puts_north_towards_the_sheets_top_edge() -> None:
    g = DungeonGrid()
    assert g.space_centre_mm((0, 1))[1] < g.space_centre_mm((0, 0))[1]
    assert g.space_centre_mm((1, 0))[0] > g.space_centre_mm((0, 0))[0]
    assert np.allclose(g.tile_corners_mm((0, 0))[3], g.origin_mm)
