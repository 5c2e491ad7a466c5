"""The piecepack camera (Dungeon Crawl's pieces): dice, coins, tiles and pawns.

Arrays in, plain observations out (see ``docs/dungeon-crawl.md``, "Camera")::

    from vision.piecepack import read_pieces, PiecepackDiceSettler, TableReader
    obs = read_pieces(frame_bgr)        # dice (value + suit) and coins (value or suit side)
    settler = PiecepackDiceSettler()    # the kiosk's dice prompt: one roll once the dice settle
    table = TableReader().read(frame)   # tiles and pawns on the dungeon grid (printed markers)
"""

from vision.piecepack.placement import DungeonGrid, TableObservation, TableReader
from vision.piecepack.reader import (
    STATUS_READ,
    STATUS_UNSURE,
    PieceObservation,
    PiecepackConfig,
    PiecepackError,
    PieceReading,
    read_pieces,
)
from vision.piecepack.settle import PiecepackDiceSettler

__all__ = [
    "STATUS_READ",
    "STATUS_UNSURE",
    "DungeonGrid",
    "PieceObservation",
    "PieceReading",
    "PiecepackConfig",
    "PiecepackDiceSettler",
    "PiecepackError",
    "TableObservation",
    "TableReader",
    "read_pieces",
]
