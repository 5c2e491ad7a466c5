"""Camera readers for die kinds the numbered dice reader does not read, by die-kind name.

A game's :class:`~companion.core.dice.DicePrompt` names its dice kinds (``DieKind.name``). When
every die of a roll is of a kind registered here (all to one reader), the table feed reads that
roll with the registered reader instead of the numbered dice reader, and goes back to the
numbered reader for the next roll that needs it. A factory gets the roll's kind names and
returns a reader of the table feed's ``DiceReader`` shape (``update(frame)``, ``reset()``;
optionally ``region`` and ``board_to_frame``, set from the board's registration). Factories
import their vision package only when called, so the kiosk starts without them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Factory = Callable[[tuple[str, ...]], Any]

_READERS: dict[str, Factory] = {}


def register(kind: str, factory: Factory) -> None:
    """Read dice of kind ``kind`` with readers made by ``factory`` (replaces an earlier one)."""
    if not kind or not isinstance(kind, str):
        raise ValueError(f"a die kind name must be a non-empty string, not {kind!r}")
    _READERS[kind] = factory


def registered() -> tuple[str, ...]:
    return tuple(sorted(_READERS))


def factory_for(kinds: Sequence[str] | None) -> Factory | None:
    """The factory that reads every one of ``kinds``, or None (no kinds, a kind not registered,
    or kinds registered to different readers: the numbered reader and the buttons then)."""
    if not kinds:
        return None
    found = {id(_READERS[k]): _READERS[k] for k in kinds if k in _READERS}
    if len(found) != 1 or any(k not in _READERS for k in kinds):
        return None
    return next(iter(found.values()))


def _special_dice(kinds: tuple[str, ...]) -> Any:
    from vision.special_dice import SpecialDiceSettler

    return SpecialDiceSettler(tuple(dict.fromkeys(kinds)))


register("block", _special_dice)
register("scatter", _special_dice)


def _piecepack(kinds: tuple[str, ...]) -> Any:
    from vision.piecepack.settle import PiecepackDiceSettler

    return PiecepackDiceSettler()


register("piecepack", _piecepack)


def _piecepack_coins(kinds: tuple[str, ...]) -> Any:
    from vision.piecepack.settle import PiecepackCoinSettler

    return PiecepackCoinSettler()


PIECEPACK_COIN = "piecepack coin"
"""Not a die: coins shown to the camera in the dice area (a coin turned over), read like a roll
(``Presenter.camera_pieces``)."""
register(PIECEPACK_COIN, _piecepack_coins)
