"""Dungeon Crawl at the camera: whose die a roll is, the coin turned over, pawns on the table.

The kiosk hands the game's presenter what the camera read, game-blind; this module says what it
means here (ruling C-25):

- a roll is read from the roller's own die, told by its colour (the reader's tag is the die's
  suit): another player's die is refused with words naming whose it is and which die to roll;
  in a fight both players throw at once, so the defender's die in the attacker's throw is kept
  for the defender's roll;
- a coin turned over and shown to the camera suit side up gives the ``reveal`` answer, which a
  player confirms; a coin the companion does not expect (another value, a suit already turned
  over, a suit known otherwise) is named as such;
- the tiles and pawns on the marker sheet (:class:`CrawlTableReader`): each pawn is its suit's
  player's, on a place numbered for the kiosk's pawn check (:func:`place_number`); a pawn
  standing on a square its player may move to (or enter at) pre-selects that choice
  (:func:`seen_choice`); tiles the camera sees where the game has none, or misses, are named
  (:func:`table_notes`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.games.dungeon_crawl.actions import Move, PlacePawn, Reenter, Reveal
from companion.games.dungeon_crawl.encounters import reveal_options
from companion.games.dungeon_crawl.geometry import spaces_of
from companion.games.dungeon_crawl.pieces import COLOURS, KIND_OF_SUIT, value_label
from companion.games.dungeon_crawl.state import CrawlState, Space, TileAt
from companion.games.dungeon_crawl.words import xy
from companion.kiosk.dice_flow import DiceSeen, RollRead
from companion.kiosk.presenter import CameraAnswer

FIGHT_ROLLS = ("attack_roll", "defend_roll")


def die_words(suit: str) -> str:
    return f"the {suit} die ({COLOURS[suit]})"


def roll_read(state: CrawlState, prompt: DicePrompt, seen: DiceSeen) -> RollRead:
    """The roller's own die out of a camera reading (C-25), or a refusal saying whose die the
    camera sees and which one to roll."""
    tags = seen.colours  # the piecepack reader's colour tag: each die's suit
    if state.options.die != "piecepack" or not any(tags):
        return RollRead(seen)  # dice without colours (the d6 option), or colours not read
    roller = state.players[prompt.player]
    mine = [i for i, t in enumerate(tags) if t == roller.suit]
    pending = state.pending
    if len(mine) == 1:
        keep = (pending is not None and pending.step == "attack_roll"
                and pending.other is not None
                and state.players[pending.other].suit in tags)
        return RollRead(seen.only(mine), keep=keep)
    unread = [i for i, t in enumerate(tags) if not t]
    if len(unread) == 1 and not mine:
        # one die whose colour the camera could not tell: its value, for a person to confirm
        return RollRead(seen.only(unread))
    if mine:
        return RollRead(seen)  # more than one: the pad says how many it wants
    other = next(t for t in tags if t)
    owner = next((p.name for p in state.players if p.suit == other), None)
    whose = f"that is {owner}'s die" if owner is not None else "no player rolls it"
    return RollRead(None, f"The camera sees {die_words(other)}: {whose}. "
                          f"{roller.name} rolls {die_words(roller.suit)}")


def coin_answer(state: CrawlState, seen: DiceSeen) -> CameraAnswer | None:
    """The suit of the coin being turned over, as the camera reads it (for a player to
    confirm), or what does not fit."""
    pending = state.pending
    if state.outcome is not None or pending is None or pending.step != "reveal":
        return None
    seat = pending.player
    name = state.players[seat].name
    value = value_label(pending.value)
    if not seen.values:
        return None
    if len(seen.values) > 1:
        return CameraAnswer(None, f"The camera sees {len(seen.values)} coins: show only the "
                                  f"{value} coin {name} landed on, suit side up")
    read = seen.values[0]
    suit = (seen.colours[0] or None) if seen.colours else None
    if suit is not None:
        if pending.suit is not None and suit != pending.suit:
            return CameraAnswer(None, f"The camera reads {suit}, but this coin is known to be "
                                      f"{pending.suit}: check the coin")
        if suit not in reveal_options(state):
            return CameraAnswer(None, f"The camera reads {suit}, but the {suit} {value} was "
                                      f"turned over already: is this the coin {name} landed "
                                      "on? Check it, or choose its suit with the buttons")
        return CameraAnswer(Reveal(seat, suit), f"The camera reads the coin: {suit} "
                                                f"({KIND_OF_SUIT[suit]}): CONFIRM to accept")
    if read is not None:
        if read != pending.value:
            return CameraAnswer(None, f"The camera sees a {value_label(read)} coin, but {name} "
                                      f"landed on a {value}: show that coin, suit side up")
        return CameraAnswer(None, f"The camera sees the {value} coin value side up: turn it "
                                  "over to show its suit")
    return CameraAnswer(None, "The camera cannot read the coin: hold it still, suit side up, "
                              "or choose its suit with the buttons")


# -- the table: tiles and pawns on the marker sheet ------------------------------------------

PLACE_OFFSET = 128
"""Spaces are numbered for the kiosk's pawn check (places are ints): x and y within +-127."""


def place_number(space: Space) -> int:
    """A dungeon space as the kiosk's place number (``place_of``)."""
    return (space[0] + PLACE_OFFSET) * 2 * PLACE_OFFSET + space[1] + PLACE_OFFSET


def place_space(place: int) -> Space:
    return (place // (2 * PLACE_OFFSET) - PLACE_OFFSET, place % (2 * PLACE_OFFSET) - PLACE_OFFSET)


@dataclass(frozen=True)
class PawnSeen:
    """A pawn read on a space: its player's name (None: a suit no player has)."""

    owner: str | None


@dataclass(frozen=True)
class TableSeen:
    """What :class:`CrawlTableReader` read on a frame, in the table feed's board-reading shape
    (``status``, ``message``, ``occupants`` place -> pawns read there, ``corners``, ``stable``),
    with the tiles kept for the presenter (``detail``)."""

    status: str
    message: str
    occupants: dict[int, tuple[PawnSeen, ...]]
    corners: tuple[tuple[float, float], ...] | None
    stable: bool
    detail: Any = None  # the vision TableObservation
    covers: frozenset[int] | None = None  # the places inside the marked square


SHEET_CORNERS_MM = ((0.0, 0.0), (508.0, 0.0), (508.0, 508.0), (0.0, 508.0))
"""The marked square's corners (the sheet is laid as for a 508 mm board)."""
def in_view(space: Space) -> bool:
    """The space lies on a tile of the table reader's window (``vision.piecepack.placement.
    TILE_WINDOW``: the tiles inside the sheet's marked square, tile 0,0 in its middle), the
    part of the table it was trained and measured on; a dungeon grown beyond it is not read."""
    from vision.piecepack.placement import TILE_WINDOW

    x0, y0, x1, y1 = TILE_WINDOW
    return x0 <= space[0] // 2 <= x1 and y0 <= space[1] // 2 <= y1


STILL_SIZE = (320, 180)
STILL_PIXELS = 3
"""A frame whose 320x180 grey copy differs from the last read one in at most this many pixels
(by more than 14 levels) is not read again."""


class CrawlTableReader:
    """The table feed's board reader for this game: ``vision.piecepack.TableReader`` reads the
    tiles the game knows (and the places beside them) and the pawns on them, on the plane of
    the printed marker sheet; pawns are named by their suit's player. The kiosk tells it the
    game's state after every action (``follow``). A frame that has not changed since the last
    read is not read again."""

    def __init__(self, state: CrawlState, reader: Any = None) -> None:
        self.reader = reader
        self._last: TableSeen | None = None
        self._previous: Any = None
        self._grey: np.ndarray | None = None
        self.follow(state)

    def follow(self, state: CrawlState) -> None:
        """The game's tiles and players now (called by the kiosk after each action)."""
        self.tiles: tuple[TileAt, ...] = tuple(t.at for t in state.tiles)
        self.owners: dict[str, str] = {p.suit: p.name for p in state.players}
        self._grey = None  # read the next frame afresh

    def process(self, frame: Any, expected: Any = None) -> TableSeen:
        import cv2

        if self.reader is None:
            from vision.piecepack import TableReader

            self.reader = TableReader()
        grey = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), STILL_SIZE,
                          interpolation=cv2.INTER_AREA) if getattr(frame, "ndim", 0) == 3 \
            else None
        # a pawn moved one square changes a few dozen pixels of this copy: any change counts
        still = (grey is not None and self._grey is not None
                 and int(np.count_nonzero(cv2.absdiff(grey, self._grey) > 14)) <= STILL_PIXELS)
        self._grey = grey
        if still and self._last is not None and self._last.status == "ok":
            return replace(self._last, stable=True)
        try:
            to_frame = self.reader.homography(frame) if grey is not None else None
        except Exception as exc:  # the markers not found: say so, read nothing
            self._last = TableSeen("board_not_found", f"the marker sheet is not in view: {exc}",
                                   {}, None, False)
            return self._last
        obs = self.reader.read(frame, to_frame, near=list(self.tiles) or [(0, 0)])
        if obs.status == "error":
            self._last = TableSeen("bad_frame", obs.message, {}, None, False)
            return self._last
        occupants: dict[int, tuple[PawnSeen, ...]] = {}
        for space, suit in obs.pawns.items():
            occupants[place_number(space)] = (PawnSeen(self.owners.get(suit)),)
        corners = None
        if to_frame is not None:
            pts = np.asarray(SHEET_CORNERS_MM, np.float32).reshape(1, -1, 2)
            corners = tuple((float(x), float(y)) for x, y in
                            cv2.perspectiveTransform(pts, np.asarray(to_frame))[0])
        key = (tuple(sorted(obs.tiles)), tuple(sorted(obs.pawns.items())))
        stable = key == self._previous
        self._previous = key
        covers = frozenset(place_number(sp) for t in self.tiles for sp in spaces_of(t)
                           if in_view(sp))
        self._last = TableSeen("ok", obs.message, occupants, corners, stable, obs, covers)
        return self._last


def table_notes(state: CrawlState, seen: Any) -> tuple[str, ...]:
    """Where the tiles the camera sees differ from the game's dungeon (the game is the truth)."""
    obs = getattr(seen, "detail", None)
    if obs is None or not hasattr(obs, "tiles"):
        return ()
    def seeable(tile: TileAt) -> bool:
        return all(in_view(sp) for sp in spaces_of(tile))

    have = {t.at for t in state.tiles if seeable(t.at)}
    seen_tiles = {t for t in obs.tiles if seeable(t)}
    unsure = set(obs.unsure_tiles)
    notes = [f"The camera sees no tile at {xy(t)}, the game has one there: is it covered?"
             for t in sorted(have - seen_tiles - unsure)]
    laying = state.phase == "build" and state.pending is None
    for t in sorted(seen_tiles - have):
        if not laying:  # while a tile is laid, the new tile lies there before it is entered
            notes.append(f"The camera sees a tile at {xy(t)} where the game has none: "
                         "take it away or enter it")
    return tuple(notes)


def seen_choice(state: CrawlState, game: Any, seen: Any) -> Action | None:
    """A move, a re-entry or a pawn placement the camera already sees on the table: the
    player's pawn standing on one of the squares the rules allow."""
    occupants = getattr(seen, "occupants", {})
    where: dict[str, set[Space]] = {}
    for place, owners in occupants.items():
        for name in owners:
            if name is not None:
                where.setdefault(name, set()).add(place_space(int(place)))
    found: list[Action] = []
    for a in game.legal_actions(state):
        if isinstance(a, Move):
            owner, square = a.player, a.to
        elif isinstance(a, Reenter):
            owner, square = a.player, a.space
        elif isinstance(a, PlacePawn):
            owner, square = state.next_seat(a.player), a.space
        else:
            continue
        if square in where.get(state.players[owner].name, set()):
            found.append(a)
    return found[0] if len(found) == 1 else None
