"""After a move, compare where the camera sees each piece with where the rules put it.

The game is the truth: a mismatch is shown ("the camera sees Ann on Oriental Avenue,
the game has her on Vermont Avenue: move the piece") and never applied to the game. The check
only speaks about pieces whose square changed in the last action and only once the board
reading is stable (the scene still, no hand over the board).

While a player chooses where their piece goes (the presenter's ``piece_choices``: a move picked
after the roll), the piece may stand on any of the places offered or where it was: the check
accepts it there, notes the place it is seen on (``seen_choice``, for the screen to pre-select
that choice) and names the places when it is seen anywhere else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.events import Event
from companion.kiosk.presenter import Presenter


@dataclass(frozen=True)
class BoardSeen:
    """The part of a board observation the check needs (see ``table_feed``)."""

    status: str  # ok | moving | hands | board_not_found | bad_frame | ...
    message: str
    occupants: Mapping[int, tuple[str | None, ...]]  # cell -> owner names read there
    stable: bool = False
    detail: Any = None  # the board reader's own observation, for the game's presenter only
    covers: frozenset[int] | None = None  # the places the camera can see; None: all of them

    def cells_of(self, name: str) -> list[int]:
        return sorted(c for c, owners in self.occupants.items() if name in owners)


@dataclass(frozen=True)
class PieceCheck:
    seat: int
    name: str
    expected: int  # cell
    seen: tuple[int, ...]  # cells where the camera sees this player's piece
    status: str  # ok | mismatch | unseen | off_choice
    allowed: tuple[int, ...] = ()  # a choice in progress: the places the piece may go

    def sentence(self, board: Presenter) -> str:
        """The check in words, the places named by the game's ``board`` (its presenter)."""
        want = board.place_name(self.expected)
        if self.status == "ok":
            return f"{self.name}'s piece is on {want}"
        if self.status == "unseen":
            return f"the camera cannot find {self.name}'s piece: it belongs on {want}"
        if self.status == "off_choice":
            where = ", ".join(board.place_name(c) for c in self.seen)
            names = [board.place_name(c) for c in self.allowed[:6]]
            more = " ..." if len(self.allowed) > 6 else ""
            return (f"the camera sees {self.name} on {where}; this move can take "
                    f"{self.name} to {', '.join(names)}{more}")
        where = ", ".join(board.place_name(c) for c in self.seen)
        return (f"the camera sees {self.name} on {where}, the game has {self.name} on {want}: "
                f"move the piece to {want}")


class PawnCheck:
    """Holds the pieces to check (those moved by the last action) and their last result.
    ``board`` is the game's presenter: it says where each piece belongs (``place_of``)."""

    def __init__(self, board: Presenter, unseen_after: int = 3) -> None:
        self.board = board
        self.expect: dict[int, int] = {}  # seat -> cell
        self.results: dict[int, PieceCheck] = {}
        self.unseen_after = unseen_after  # stable readings without the piece before "unseen"
        self._misses: dict[int, int] = {}
        self.choices: dict[int, tuple[int, ...]] = {}  # seat -> places offered by a choice
        self.seen_choice: dict[int, int] = {}  # seat -> the offered place its piece is seen on

    def choose(self, state: Any, choices: Mapping[int, Sequence[int]]) -> None:
        """A choice of place is in progress for these seats (or none: ``{}``)."""
        new = {seat: tuple(places) for seat, places in choices.items()}
        if new == self.choices:
            return
        for seat in set(self.choices) | set(new):
            self.results.pop(seat, None)
        self.choices = new
        self.seen_choice = {s: c for s, c in self.seen_choice.items() if c in new.get(s, ())}

    def moved(self, before: Any, after: Any, events: Sequence[Event]) -> list[int]:
        """Note the pieces the last action moved; returns their seats."""
        place = self.board.place_of
        seats = sorted({i for i in range(len(after.players))
                        if place(before, i) != place(after, i)
                        and place(after, i) is not None}
                       | {e.player for e in events if e.kind in ("moved", "jailed")
                          and e.player is not None and e.player >= 0
                          and place(after, e.player) is not None})
        for seat in seats:
            cell = place(after, seat)
            assert cell is not None
            self.expect[seat] = cell
            self.results.pop(seat, None)
            self._misses[seat] = 0
        return seats

    def resync(self, state: Any) -> None:
        """After an undo: expectations follow the state."""
        for seat in list(self.expect):
            cell = self.board.place_of(state, seat)
            if cell is None:
                del self.expect[seat]
            else:
                self.expect[seat] = cell
            self.results.pop(seat, None)

    def observe(self, state: Any, seen: BoardSeen) -> list[PieceCheck]:
        """Compare a board reading with the expectations; returns the results that changed."""
        if seen.status != "ok" or not seen.stable:
            return []
        changed = self._observe_choices(state, seen)
        for seat, cell in self.expect.items():
            if seat in self.choices:
                continue
            if seen.covers is not None and cell not in seen.covers:
                # out of the camera's view: nothing can be said about this piece
                if self.results.pop(seat, None) is not None:
                    self._misses[seat] = 0
                continue
            name = state.players[seat].name
            cells = seen.cells_of(name)
            if cell in cells:
                status = "ok"
            elif cells:
                status = "mismatch"
            else:
                self._misses[seat] = self._misses.get(seat, 0) + 1
                if self._misses[seat] < self.unseen_after:
                    continue
                status = "unseen"
            result = PieceCheck(seat, name, cell, tuple(cells), status)
            if self.results.get(seat) != result:
                self.results[seat] = result
                changed.append(result)
        return changed

    def _observe_choices(self, state: Any, seen: BoardSeen) -> list[PieceCheck]:
        changed = []
        for seat, allowed in self.choices.items():
            name = state.players[seat].name
            here = self.board.place_of(state, seat)
            cells = seen.cells_of(name)
            offered = [c for c in cells if c in allowed]
            if offered:
                self.seen_choice[seat] = offered[0]
            else:
                self.seen_choice.pop(seat, None)
            if offered or here in cells:
                status, cell = "ok", offered[0] if offered else here
            elif cells:
                status, cell = "off_choice", here
            else:
                continue  # the piece may be in a hand: nothing to say yet
            result = PieceCheck(seat, name, -1 if cell is None else cell, tuple(cells), status,
                                tuple(allowed))
            if self.results.get(seat) != result:
                self.results[seat] = result
                changed.append(result)
        return changed

    def problems(self) -> list[PieceCheck]:
        return [r for r in self.results.values() if r.status != "ok"]

    def expected_positions(self, state: Any) -> dict[str, int]:
        """Where every piece still in the game belongs, by its player's name."""
        out = {}
        for i, p in enumerate(state.players):
            cell = self.board.place_of(state, i)
            if cell is not None:
                out[p.name] = cell
        return out
