"""Tiles and pawns on the table plane the printed markers register."""

from __future__ import annotations

import numpy as np

from vision.piecepack.evaluate import HELD_OUT_SEED
from vision.piecepack.placement import TableReader
from vision.synthetic.piecepack import render_table


def test_the_tiles_and_pawns_of_a_held_out_table_are_found_on_their_squares() -> None:
    f = render_table(HELD_OUT_SEED + 900_000, n_tiles=10, n_pawns=3)
    obs = TableReader().read(f.image)
    assert obs.status in ("ok", "unsure"), obs.message
    assert not set(obs.tiles) - set(f.tiles), "a tile read where none lies"
    assert len(set(obs.tiles) & set(f.tiles)) >= 9
    for space, suit in obs.pawns.items():
        assert f.pawns.get(space) == suit


def test_a_table_without_markers_is_an_error_that_names_them() -> None:
    obs = TableReader().read(np.full((720, 1280, 3), 120, np.uint8))
    assert obs.status == "error" and "markers" in obs.message
    assert obs.tiles == () and obs.pawns == {}


def test_the_reader_reads_with_a_known_registration_too() -> None:
    f = render_table(HELD_OUT_SEED + 900_001, n_tiles=4, n_pawns=0)
    obs = TableReader().read(f.image, f.board_to_frame)
    assert set(obs.tiles) <= set(f.tiles) and len(obs.tiles) >= 3
