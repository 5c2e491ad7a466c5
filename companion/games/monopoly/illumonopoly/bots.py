"""A simple Illumonopoly policy for the heuristic bot (``HeuristicBot`` asks ``bot_hint``):
move group money home with the free transfers, raise debts by transfers before selling,
interfere with a purchase that would complete a rival's group, spend once on its own side of
a contest, sue when the odds are good, and play a card now and then."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.games.monopoly.actions import Action, Choose, Pass, Roll
from companion.games.monopoly.illumonopoly.actions import (
    BavarianDeal,
    DeclareMissing,
    Interfere,
    PlayCard,
    Sue,
    Support,
    Transfer,
)
from companion.games.monopoly.illumonopoly.contests import (
    CardWindow,
    InterferenceWindow,
    SupportRound,
)
from companion.games.monopoly.illumonopoly.state import CENTRAL, IllumPlayer
from companion.games.monopoly.pending import BuyDecision, Debt
from companion.games.monopoly.state import GameState

if TYPE_CHECKING:
    from companion.games.monopoly.illumonopoly.layer import Illumonopoly


def _central(state: GameState, seat: int) -> int:
    p = state.players[seat]
    return p.central if isinstance(p, IllumPlayer) else p.cash


def bot_hint(rules: Illumonopoly, state: GameState,  # noqa: C901
             actions: Sequence[Action]) -> Action | None:
    head = state.pending[0] if state.pending else None
    if isinstance(head, InterferenceWindow):
        for a in actions:
            if isinstance(a, (Interfere, PlayCard)) and _central(state, a.player) > 700:
                group = rules.board.squares[head.square].group
                lots = rules.board.groups[group]
                held = sum(1 for i in lots if state.squares[i].owner == head.purchaser)
                if held + 1 == len(lots):
                    return a
        return next((a for a in actions if isinstance(a, Pass)), None)
    if isinstance(head, SupportRound):
        waiting = head.waiting
        for a in actions:
            if not isinstance(a, Support) or a.player not in (head.a, head.b):
                continue
            if a.player in head.supporters or a.player not in waiting:
                continue
            mine = head.sides()[0] if a.player == head.a else head.sides()[1]
            if a.side == mine and _central(state, a.player) > 400 + a.amount:
                return a
        return next((a for a in actions if isinstance(a, Pass)), None)
    if isinstance(head, CardWindow):
        return next((a for a in actions if isinstance(a, Pass)), None)
    if isinstance(head, Debt):
        moves = [a for a in actions if isinstance(a, Transfer) and a.player == head.player]
        if moves:
            return max(moves, key=lambda a: a.amount)
        return None
    if isinstance(head, BuyDecision):
        for a in actions:
            if isinstance(a, BavarianDeal) and _central(state, a.player) > 900:
                return a
        return None
    if head is not None:
        roll = next((a for a in actions if isinstance(a, Roll)), None)
        if roll is not None:
            return roll
        choose = next((a for a in actions if isinstance(a, Choose)), None)
        return choose
    cur = state.current
    if state.rolled and not state.roll_again:
        free = [a for a in actions if isinstance(a, Transfer) and a.player == cur
                and a.dest == CENTRAL and rules.free_transfer_now(state, cur)]
        if free:
            return max(free, key=lambda a: a.amount)
        if state.turn_number % 3 == 0:
            card = next((a for a in actions if isinstance(a, PlayCard) and a.player == cur), None)
            if card is not None:
                return card
        gone = next((a for a in actions if isinstance(a, DeclareMissing)), None)
        if gone is not None:
            return gone
    if not state.rolled:
        for a in actions:
            if isinstance(a, Sue) and _central(state, cur) > 500:
                elp = rules.base_elp(state, cur, a.defendant, a.kind)
                if elp >= 6 and a.kind != "landmark":
                    return a
    return None
