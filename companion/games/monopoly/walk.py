"""A move square by square, with the hooks variants need along the way.

``Rules.move`` walks here. At each square the mover steps onto, the move's watchers
(``Watcher``: rules that care about this mover's steps, e.g. an extra cost per square, a square
that stops her, someone towed along) may change how many squares are left; then passing the
square is resolved (``Rules.passing``: GO pay, or a variant's stop). A decision asked while
passing pauses the move: the rest waits in a ``ResumeMove`` step. A variant may also put squares
between the squares that exist for some movers only (``Between``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.games.monopoly.pending import Pending

if TYPE_CHECKING:
    from companion.games.monopoly.engine import LandContext, Rules
    from companion.games.monopoly.txn import Txn


class Watcher(Protocol):
    """A rule watching a mover's steps (a table effect, or one the move brings along)."""

    def enter_square(self, rules: Any, t: Txn, mover: int, index: int, came_from: int,
                     remaining: int, land: bool) -> int:
        """The mover steps onto ``index`` with ``remaining`` squares still to go; return the
        new remaining count (0 stops her here)."""
        ...


class Between(Protocol):
    """Squares between the squares, for one mover's walk: ``gaps`` (the square each follows)
    and the one she starts on (``start``), if any."""

    start: int | None
    gaps: frozenset[int]

    def enter(self, watchers: Sequence[Watcher], rules: Any, t: Txn, mover: int, gap: int,
              came_from: int, remaining: int, land: bool) -> int:
        """The mover (a move that counts as passing) steps onto the square in ``gap``; the
        watchers see it; returns the new remaining count."""
        ...

    def stop(self, rules: Any, t: Txn, mover: int, gap: int, land: bool,
             ctx: LandContext) -> None:
        """The move ends on the square in ``gap``."""
        ...

    def pass_over(self, rules: Any, t: Txn, mover: int, gap: int, forward: bool,
                  remaining: int, ctx: LandContext, land: bool) -> bool:
        """The mover passes the square in ``gap``; True stops the move here for now."""
        ...


@dataclass(frozen=True, slots=True)
class ResumeMove(Pending):
    """The rest of a move paused by a decision asked while passing a square."""

    steps: int  # signed: forward > 0
    ctx: LandContext
    land: bool = True
    count_passing: bool = True

    automatic = True


def walk(rules: Rules, t: Txn, player: int, steps: int, ctx: LandContext, land: bool,
         count_passing: bool, watchers: Sequence[Watcher]) -> None:
    """Move ``player`` ``steps`` squares (back when negative). A move that counts passing
    resolves each square passed (``Rules.passing``); one that does not land counts its last
    square as passed. Watchers brought along see every square; the table's (``step_watchers``)
    only when the move counts passing."""
    size = len(rules.board.squares)
    forward = steps >= 0
    pos = t.players[player].position
    remaining = abs(steps)
    start = pos
    if steps and rules.pinned(t, player):
        t.emit("unmoved", player, detail="pinned")
        return
    watch = list(watchers)
    if count_passing:
        watch += rules.step_watchers(t, player)
    between = rules.walk_between(t, player)
    gap, gaps = (None, frozenset[int]()) if between is None else (between.start, between.gaps)
    if gap is not None and not forward:
        pos = (gap + 1) % size  # stepping back off a square between reaches square ``gap``
    while remaining > 0:
        came_from = pos
        k = came_from if forward else (came_from - 1) % size
        if gaps and k in gaps and k != gap:
            assert between is not None
            remaining -= 1  # a square of its own
            if watch:
                remaining = between.enter(watch, rules, t, player, k, came_from, remaining, land)
            if remaining == 0:
                between.stop(rules, t, player, k, land, ctx)
                rules.after_move(t, player, steps, land, count_passing)
                return
            if count_passing and between.pass_over(rules, t, player, k, forward, remaining,
                                                   ctx, land):
                done = abs(steps) - remaining  # paused on it
                rules.after_move(t, player, done if forward else -done, land, True)
                return
        gap = None
        pos = (pos + (1 if forward else -1)) % size
        remaining -= 1
        before = len(t.front)
        for w in watch:
            remaining = w.enter_square(rules, t, player, pos, came_from, remaining, land)
        if remaining == 0 and (land or not count_passing):
            break
        if not count_passing:
            continue
        if rules.passing(t, player, pos, forward, land):
            remaining = 0
            break
        if remaining and len(t.front) > before and \
                any(not item.automatic for item in t.front[before:]):
            t.set_player(player, position=pos)
            t.emit("moved", player, square=pos, amount=pos - start, detail=f"from {start}")
            t.push(ResumeMove(player, remaining if forward else -remaining, ctx, land,
                              count_passing))
            done = abs(steps) - remaining
            rules.after_move(t, player, done if forward else -done, land, count_passing)
            return
    t.set_player(player, position=pos)
    t.emit("moved", player, square=pos, amount=steps, detail=f"from {start}")
    if land:
        rules.arrive(t, player, pos, ctx, forward=forward and steps != 0)
    rules.after_move(t, player, steps, land, count_passing)


@dataclass(frozen=True, slots=True)
class MovementRoll:
    """A movement roll as the rules read it: the dice that count (``dice``) and those that
    decide doubles (``pair``). Variants subclass it to carry what else they read."""

    dice: tuple[int, ...]
    pair: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MovePlan:
    """How a movement roll moves: the signed squares, whether the move lands and counts
    passing, and the watchers it brings along."""

    steps: int
    land: bool = True
    count_passing: bool = True
    watchers: tuple[Watcher, ...] = ()
