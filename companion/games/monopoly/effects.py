"""Table effects: lasting rules that act on the whole table, beyond one player's own turn.

Most of a variant's rules act when a player does something. Some change everyone's money,
rent, dice or movement for as long as they last: a square that slows every mover, a stance
that taxes opponents' steps, a curse that sends someone's income to the pot. Each such rule is
a ``TableEffect``, registered with its variant's ``EffectRegistry``; the variant's hook methods
(``Rules.redirect_income``, ``adjust_charge``, ``pinned``, ``step_watchers``, ``after_move``
...) ask the effects in play at fixed points. An effect names the roles (character classes,
factions ...) whose presence switches it on, so a table without them pays almost nothing for
it; an effect with no roles is always on.

Every method has a neutral default; an effect overrides only what it needs.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from operator import is_
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from companion.games.monopoly.actions import Action
    from companion.games.monopoly.engine import RollSpec, Rules
    from companion.games.monopoly.state import GameState, PlayerState
    from companion.games.monopoly.txn import Txn

R = TypeVar("R", bound="Rules")


class Seated(Protocol):
    """What deciding the effects in play reads: a ``GameState`` or a ``Txn`` both fit."""

    @property
    def players(self) -> Sequence[PlayerState]: ...


class TableEffect(Generic[R]):
    """One rule that acts on the table. ``roles``: the roles whose presence at the table
    switches it on (see ``EffectRegistry.roles_in_play``); none: always on."""

    roles: frozenset[str] = frozenset()

    # --- money and rent ----------------------------------------------------------------------
    def redirect_income(self, rules: R, t: Txn, recipient: int, amount: int,
                        reason: str) -> int:
        """Where money due to ``recipient`` really goes (a seat, or POT/BANK)."""
        return recipient

    def adjust_charge(self, rules: R, t: Txn, debtor: int, creditor: int, amount: int,
                      reason: str) -> int:
        return amount

    def adjust_rent(self, rules: R, t: Txn, payer: int, index: int, amount: int) -> int:
        return amount

    def intercept_rent(self, rules: R, t: Txn, payer: int, owner: int, index: int,
                       amount: int) -> bool:
        """True when the effect takes the rent over (it will settle it later itself)."""
        return False

    # --- dice and movement ---------------------------------------------------------------------
    def movement_sides(self, rules: R, state: GameState | Txn, player: int,
                       sides: tuple[int, ...]) -> tuple[int, ...]:
        return sides

    def movement_dice(self, rules: R, t: Txn, player: int,
                      dice: tuple[int, ...]) -> tuple[int, ...]:
        """The dice of a movement roll that count (e.g. the two kept of three)."""
        return dice

    def intercept_movement_roll(self, rules: R, t: Txn, spec: RollSpec,
                                dice: tuple[int, ...]) -> bool:
        """True when the effect holds the roll back (a decision comes first)."""
        return False

    def movement_steps(self, rules: R, t: Txn, player: int, steps: int) -> int:
        """The signed squares a movement roll moves."""
        return steps

    def rolled_doubles(self, rules: R, t: Txn, player: int) -> None:
        """A movement roll came up doubles (before the move)."""

    def pinned(self, rules: R, t: GameState | Txn, player: int) -> bool:
        """True when the player cannot be moved now."""
        return False

    def moves_here(self, rules: R, t: Txn, mover: int) -> bool:
        """Does this effect watch ``mover``'s steps right now (cheap gate per move)?"""
        return False

    def enter_square(self, rules: R, t: Txn, mover: int, index: int, came_from: int,
                     remaining: int, land: bool) -> int:
        """A watched mover steps onto ``index`` with ``remaining`` squares still to go (the
        move counts as passing). Return the new remaining count (0 stops her here)."""
        return remaining

    def after_move(self, rules: R, t: Txn, mover: int, steps: int, land: bool,
                   count_passing: bool) -> None:
        """A move (or a resumed part of one) finished."""

    # --- turns and bookkeeping -------------------------------------------------------------------
    def turn_started(self, rules: R, t: Txn, player: int) -> None:
        """``player``'s turn begins."""

    def go_collected(self, rules: R, t: Txn, player: int, landed: bool) -> None:
        """``player`` passes or lands on GO."""

    def sync(self, rules: R, t: Txn) -> None:
        """After every action: bring position-bound states up to date."""

    # --- JSON and bots -------------------------------------------------------------------------
    def player_json(self, rules: R, state: GameState, seat: int) -> dict[str, Any]:
        return {}

    def bot_hint(self, state: GameState, actions: Sequence[Action]) -> Action | None:
        return None


E = TypeVar("E", bound=TableEffect[Any])


class EffectRegistry(Generic[E]):
    """A variant's table effects, and those in play at a table.

    ``active`` runs at every hook point, so it remembers its last answer and the players it
    was for (kept alive here, so ``is`` is a safe test) and the ``key`` of those players that
    decides it. A variant whose effects depend on who is seated overrides ``roles_in_play``
    and ``key`` together."""

    def __init__(self) -> None:
        self._effects: list[E] = []
        # (number of effects registered, players, key, effects in play)
        self._memo: tuple[int, Sequence[Any], Hashable, list[E]] = (-1, (), (), [])

    def register(self, effect: E) -> E:
        self._effects.append(effect)
        return effect

    def roles_in_play(self, table: Seated) -> set[str]:
        """The roles at the table (none by default: only effects without roles are on)."""
        return set()

    def key(self, players: Sequence[PlayerState]) -> Hashable:
        """What of the players decides ``roles_in_play`` (nothing by default)."""
        return ()

    def active(self, table: Seated) -> list[E]:
        """The registered effects in play at this table, in registration order."""
        effects = self._effects
        if not effects:
            return []
        players = table.players
        n, last, last_key, found = self._memo
        if n == len(effects):
            # the same tuple (one GameState asked again), or the same player objects (a Txn)
            if last is players or (len(last) == len(players) and all(map(is_, last, players))):
                return found
            key = self.key(players)
            if key == last_key:
                self._memo = (n, tuple(players), key, found)
                return found
        else:
            key = self.key(players)
        roles = self.roles_in_play(table)
        found = [e for e in effects if not e.roles or e.roles & roles]
        self._memo = (len(effects), tuple(players), key, found)
        return found
