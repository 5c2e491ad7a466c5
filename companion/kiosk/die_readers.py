"""Camera readers for die kinds the numbered dice reader does not read, by die-kind name.

A game's :class:`~companion.core.dice.DicePrompt` names its dice kinds (``DieKind.name``). When
every die of a roll is of a kind registered here (all to one reader), the table feed reads that
roll with the registered reader instead of the numbered dice reader, and goes back to the
numbered reader for the next roll that needs it. A factory gets the roll's kind names and
returns a reader of the table feed's ``DiceReader`` shape (``update(frame)``, ``reset()``;
optionally ``region`` and ``board_to_frame``, set from the board's registration). Factories
import their vision package only when called, so the kiosk starts without them. A roll mixing
numbered dice with one registered reader's kinds is read by both at once (``mixed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Factory = Callable[[tuple[str, ...]], Any]

_READERS: dict[str, Factory] = {}


_WITH_NUMBERED: set[str] = set()


def register(kind: str, factory: Factory, with_numbered: bool = False) -> None:
    """Read dice of kind ``kind`` with readers made by ``factory`` (replaces an earlier one);
    ``with_numbered``: a roll mixing these dice with numbered dice is read by both readers
    (the reader tells its dice from numbered dice lying beside them)."""
    if not kind or not isinstance(kind, str):
        raise ValueError(f"a die kind name must be a non-empty string, not {kind!r}")
    _READERS[kind] = factory
    if with_numbered:
        _WITH_NUMBERED.add(kind)
    else:
        _WITH_NUMBERED.discard(kind)


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


def told_from_numbered(kind: str) -> bool:
    """``kind``'s reader tells its dice from numbered dice lying beside them (registered
    ``with_numbered``): such dice left in the tray can be left out of a numbered roll."""
    return kind in _WITH_NUMBERED and kind in _READERS


def is_numbered(kind: str) -> bool:
    """``kind`` is a numbered die's (d4, d6 ... d20: the numbered dice reader's types)."""
    return len(kind) > 1 and kind[0] == "d" and kind[1:].isdigit() and kind not in _READERS


def mixed(kinds: Sequence[str] | None) -> tuple[Factory, tuple[str, ...]] | None:
    """For a roll mixing numbered dice with kinds registered here ``with_numbered`` (all to one
    reader): that reader's factory and the roll's kinds it reads (``vision.mixed_roll``
    puts the two readers together); None for any other roll."""
    if not kinds:
        return None
    special = tuple(k for k in dict.fromkeys(kinds) if k in _READERS)
    rest = [k for k in kinds if k not in _READERS]
    if not special or not rest or not all(is_numbered(k) for k in rest) or \
            not all(k in _WITH_NUMBERED for k in special):
        return None
    factory = factory_for(special)
    return (factory, special) if factory is not None else None


def _special_dice(kinds: tuple[str, ...]) -> Any:
    from vision.special_dice import SpecialDiceSettler

    return SpecialDiceSettler(tuple(dict.fromkeys(kinds)))


register("block", _special_dice, with_numbered=True)  # trained with pipped d6 beside them
register("scatter", _special_dice, with_numbered=True)


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
