"""The demo's camera for Dungeon Crawl: the game's table drawn with piecepack pieces.

:class:`CrawlDemoTable` is the frame source ``companion play --demo --variant dungeon_crawl``
films (``CrawlPresenter.demo_table``): the dungeon laid on the printed marker sheet, coins and
pawns where the game has them, and a dice tray beside the sheet
(``vision.synthetic.piecepack_scene``). The demo's players script it as the kiosk's demo does
for every game:

- ``roll(values)``: the roller throws their own die (its suit's colour) into the tray; once per
  demo they first throw another player's die, so the refusal (ruling C-25) shows, and then
  their own;
- ``present(state, action)``: before pressing, a player does on the table what they chose: the
  coin turned over is shown suit side up in the tray, a pawn is stood on its new square, so the
  camera reads the answer and the kiosk pre-selects it;
- ``show(state)``: after each action, the table as the game has it (dice and shown coins taken
  away).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.games.dungeon_crawl.actions import Move, PlacePawn, Reenter, Reveal
from companion.games.dungeon_crawl.state import CrawlState

WRONG_DIE_FRAMES = 36
"""Frames the wrong die lies in the tray before the roller throws their own (long enough for
the camera to read it still: the refusal shows)."""


def scene_of(state: CrawlState) -> Any:
    """The table as the game has it: tiles, coins, pawns, the stacks of the dead."""
    from vision.synthetic.piecepack_scene import Scene

    return Scene(tiles=tuple(t.at for t in state.tiles),
                 coins=tuple((c.at, c.value) for c in state.coins),
                 pawns=tuple((p.at, p.suit) for p in state.players if p.at is not None),
                 stacks=tuple(s.at for s in state.stacks))


class CrawlDemoTable:
    """A scripted piecepack table (thread-safe: the kiosk scripts it, the camera reads it)."""

    def __init__(self, game: Any, state: CrawlState, size: tuple[int, int], seed: int) -> None:
        from vision.synthetic.piecepack_scene import PiecepackTable

        self.game = game
        self.table = PiecepackTable(size[0], size[1], seed)
        self.rng = random.Random(seed)
        self._lock = threading.Lock()
        self.state = state
        self.scene = scene_of(state)
        self.seed = seed
        self.moving = 0  # frames left with the tray in motion (dice tumbling, a hand)
        self.frames = 0
        self.closed = False
        self.wrong_thrown = False  # the once-per-demo throw of another player's die
        self._then: tuple[tuple[str, int], ...] | None = None  # the right die after the wrong
        self._then_at = 0
        self._cache: tuple[Any, np.ndarray] | None = None

    @property
    def dice_region(self) -> tuple[int, int, int, int]:
        """Where the dice and shown coins lie in the frame (the tray): the dice area."""
        return self.table.tray_region()

    @property
    def board_to_frame(self) -> np.ndarray:
        return np.asarray(self.table.board_to_frame)

    def can_throw(self, prompt: DicePrompt) -> bool:
        """Piecepack dice are drawn (a d6, option die=d6, is not)."""
        return all(kind.name == "piecepack" for kind in prompt.dice)

    def roll(self, values: tuple[int, ...], frames: int = 4, kinds: Sequence[str] = ()) -> None:
        prompt = self.game.dice_prompt(self.state)
        if prompt is None:
            return
        suit = self.state.players[prompt.player].suit
        dice = tuple((suit, int(v)) for v in values)
        with self._lock:
            others = [p.suit for p in self.state.players if p.suit != suit]
            if not self.wrong_thrown and others:
                self.wrong_thrown = True
                wrong = ((self.rng.choice(others), self.rng.randrange(6)),)
                self._then, self._then_at = dice, self.frames + WRONG_DIE_FRAMES
                dice = wrong
            self.scene = _with(self.scene, dice=dice, shown=())
            self.moving = frames
            self.seed = self.rng.randrange(1 << 30)

    def present(self, state: CrawlState, action: Action) -> bool:
        """Do on the table what ``action`` says before it is pressed; False when it shows
        nothing the camera reads."""
        scene = self.scene
        if isinstance(action, Reveal):
            pending = state.pending
            value = pending.value if pending is not None else 0
            scene = _with(scene, shown=((action.suit, value),), dice=())
        elif isinstance(action, (Move, Reenter, PlacePawn)):
            owner = state.next_seat(action.player) if isinstance(action, PlacePawn) \
                else action.player
            suit = state.players[owner].suit
            to = action.to if isinstance(action, Move) else action.space
            pawns = tuple(p for p in scene.pawns if p[1] != suit) + ((to, suit),)
            scene = _with(scene, pawns=pawns)
        else:
            return False
        with self._lock:
            self.state = state
            self.scene = scene
            if isinstance(action, Reveal):
                self.moving = max(self.moving, 3)  # a hand puts the coin in the tray
        return True

    def show(self, state: CrawlState) -> None:
        """The table as the game has it after an action."""
        with self._lock:
            self.state = state
            self.scene = scene_of(state)
            self._then = None

    def read(self) -> np.ndarray | None:
        if self.closed:
            return None
        with self._lock:
            if self._then is not None and self.frames >= self._then_at:
                self.scene = _with(self.scene, dice=self._then)
                self._then = None
                self.moving = 4
                self.seed = self.rng.randrange(1 << 30)
            scene, moving, seed = self.scene, self.moving > 0, self.seed
            if moving:
                self.moving -= 1
            self.frames += 1
        if moving:
            return self.table.render(scene, self.rng.randrange(1 << 30), moving=True)
        if self._cache is not None and self._cache[0] == (scene, seed):
            return self._cache[1]  # the same still table: the same picture
        frame = self.table.render(scene, seed)
        self._cache = ((scene, seed), frame)
        return frame

    def close(self) -> None:
        self.closed = True


def _with(scene: Any, **changes: Any) -> Any:
    from dataclasses import replace

    return replace(scene, **changes)
