"""A working copy of one state while an action is applied.

The rule code reads and writes the copy imperatively, then ``freeze`` builds the new immutable
state. An action that turns out to be illegal raises before anything is frozen, so the caller's
state is never half-applied.
"""

from __future__ import annotations

from dataclasses import replace
from operator import is_
from typing import TYPE_CHECKING, Any, TypeVar

from companion.core.events import Event
from companion.games.monopoly.pending import Debt, Pending
from companion.games.monopoly.state import (
    BANK,
    POT,
    GameState,
    PlayerState,
    SquareState,
    VariantTable,
    evolve,
    variant_table,
)

_V = TypeVar("_V", bound=VariantTable)

if TYPE_CHECKING:
    from companion.games.monopoly.board import Board
    from companion.games.monopoly.engine import Rules


class Txn:
    __slots__ = (
        "rules", "board", "options", "origin", "players", "squares", "current", "bank_houses",
        "bank_hotels", "pot", "bank_net", "rolled", "doubles", "roll_again", "last_dice",
        "pending", "front", "chance", "community_chest", "turn_number", "claimable", "outcome",
        "table", "events", "sides",
    )

    def __init__(self, rules: Rules, state: GameState) -> None:
        self.rules = rules
        self.board: Board = rules.board
        self.options = state.options
        self.origin = state
        self.players: list[PlayerState] = list(state.players)
        self.squares: list[SquareState] = list(state.squares)
        self.current = state.current
        self.bank_houses = state.bank_houses
        self.bank_hotels = state.bank_hotels
        self.pot = state.pot
        self.bank_net = state.bank_net
        self.rolled = state.rolled
        self.doubles = state.doubles
        self.roll_again = state.roll_again
        self.last_dice = state.last_dice
        self.pending: list[Any] = list(state.pending)
        self.front: list[Any] = []  # pending items created by the step being resolved
        self.chance: tuple[str, ...] = state.chance
        self.community_chest: tuple[str, ...] = state.community_chest
        self.turn_number = state.turn_number
        self.claimable = list(state.claimable)
        self.outcome = state.outcome
        self.table: VariantTable | None = state.table
        self.events: list[Event] = []
        self.sides = state.sides  # fixed for a game: team play's side of each seat

    # --- reading -------------------------------------------------------------------------
    def freeze(self) -> GameState:
        squares = self.origin.squares  # kept when no square changed (most steps), so that
        if len(squares) != len(self.squares) or not all(map(is_, self.squares, squares)):
            squares = tuple(self.squares)  # per-board memos can test it with ``is``
        return replace(
            self.origin,
            players=tuple(self.players),
            squares=squares,
            current=self.current,
            bank_houses=self.bank_houses,
            bank_hotels=self.bank_hotels,
            pot=self.pot,
            bank_net=self.bank_net,
            rolled=self.rolled,
            doubles=self.doubles,
            roll_again=self.roll_again,
            last_dice=self.last_dice,
            pending=tuple(self.pending),
            chance=self.chance,
            community_chest=self.community_chest,
            turn_number=self.turn_number,
            claimable=tuple(self.claimable),
            outcome=self.outcome,
            table=self.table,
        )

    def emit(self, kind: str, player: int | None = None, **fields: Any) -> None:
        self.events.append(Event(kind, player, **fields))

    def name(self, who: int) -> str:
        if who == BANK:
            return "the bank"
        if who == POT:
            return "the pot"
        return self.players[who].name

    def active(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if not p.bankrupt]

    def side(self, player: int) -> int:
        """See GameState.side: the seat holding this player's cash and lots."""
        return self.sides[player] if self.sides and player >= 0 else player

    def allied(self, a: int, b: int) -> bool:
        return a >= 0 and b >= 0 and self.side(a) == self.side(b)

    def members(self, player: int) -> tuple[int, ...]:
        if not self.sides:
            return (player,)
        side = self.sides[player]
        return tuple(i for i, s in enumerate(self.sides) if s == side)

    def table_of(self, kind: type[_V]) -> _V:
        """See GameState.table_of: the variant's table-wide state as a ``kind``."""
        return variant_table(self.table, kind)

    def owned_by(self, player: int) -> list[int]:
        side = self.side(player)
        return [i for i, s in enumerate(self.squares) if s.owner == side]

    # --- writing -------------------------------------------------------------------------
    def set_player(self, index: int, **changes: Any) -> PlayerState:
        player = evolve(self.players[index], changes)
        self.players[index] = player
        return player

    def set_square(self, index: int, **changes: Any) -> SquareState:
        if self.sides and changes.get("owner") is not None:
            changes["owner"] = self.side(changes["owner"])  # a team's lots are its side's
        square = replace(self.squares[index], **changes)
        self.squares[index] = square
        return square

    def push(self, item: Pending) -> None:
        """Queue a pending item to resolve before anything that was already waiting."""
        self.front.append(item)

    def flush(self) -> None:
        if self.front:
            self.pending[:0] = self.front
            self.front = []

    # --- money ---------------------------------------------------------------------------
    def receive(self, player: int, amount: int, source: int = BANK, reason: str = "") -> None:
        """Money to a player from the bank, the pot or another player (who must have it)."""
        if amount <= 0:
            return
        player = self.rules.redirect_income(self, player, amount, reason)
        if source == BANK:
            self.bank_net += amount
        elif source == POT:
            self.pot -= amount
        else:
            self.rules.debit(self, source, amount, reason)
        if player == POT:
            self.pot += amount
        elif player == BANK:
            self.bank_net -= amount
        else:
            self.rules.credit(self, player, amount, reason)
        self.emit("paid", source if source >= 0 or source == POT else None, amount=amount,
                  other=player, detail=reason)

    def pay(self, payer: int, payee: int, amount: int, reason: str = "") -> None:
        """Money the payer has on hand goes to a player, the bank or the pot, now."""
        if amount <= 0:
            return
        cash = self.players[payer].cash
        if cash < amount:
            raise AssertionError(f"{self.name(payer)} cannot pay ${amount} from ${cash}")
        if payee >= 0:
            payee = self.rules.redirect_income(self, payee, amount, reason)
        self.rules.debit(self, payer, amount, reason)
        if payee == BANK:
            self.bank_net -= amount
        elif payee == POT:
            self.pot += amount
        else:
            self.rules.credit(self, payee, amount, reason)
        self.emit("paid", payer, amount=amount, other=payee, detail=reason)

    def has_debt(self, player: int) -> bool:
        return any(isinstance(p, Debt) and p.player == player for p in self.pending + self.front)

    def charge(self, debtor: int, creditor: int, amount: int, reason: str,
               then: Pending | None = None) -> None:
        """A sum the debtor must pay: paid at once from cash, or queued as a debt to raise."""
        amount = self.rules.adjust_charge(self, debtor, creditor, amount, reason)
        if amount <= 0:
            if then is not None:
                self.push(then)
            return
        if self.rules.can_pay(self, debtor, amount, reason) and not self.has_debt(debtor):
            self.pay(debtor, creditor, amount, reason)
            if then is not None:
                self.push(then)
            return
        self.emit("owes", debtor, amount=amount, other=creditor, detail=reason)
        self.push(Debt(debtor, creditor, amount, reason, then))
