"""Monopoly's own bot: a sensible buyer and builder (``Rules.bots`` offers it as ``heuristic``).

It only chooses among the legal actions it is given; dice come from ``companion.bots.DiceRoller``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.games.monopoly.actions import (
    Action,
    Bid,
    BreakDown,
    Build,
    Buy,
    CallHouseAuction,
    DeclareBankruptcy,
    Decline,
    EndTurn,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PayJail,
    Roll,
    Sell,
    Trade,
    TradeSide,
    Unmortgage,
    UseJailCard,
)
from companion.games.monopoly.pending import Auction, BuyDecision, Debt, MortgagedTransfer
from companion.games.monopoly.rent import owns_whole_group
from companion.games.monopoly.state import GameState

if TYPE_CHECKING:
    from companion.games.monopoly.engine import Rules


HOUSE_VALUE = 100  # what the heuristic bot pays for a house at a shortage auction


class HeuristicBot:
    """Buys what it can afford above a cash reserve, bids up to the price, builds on full
    groups, raises money by selling then mortgaging, and uses class abilities when the variant
    offers a hint (``rules.bot_hint``)."""

    def __init__(self, seed: int, reserve: int = 150) -> None:
        self.rng = random.Random(seed)
        self.reserve = reserve
        self._offered: set[tuple[int, int]] = set()

    def choose(self, rules: Rules, state: GameState, actions: Sequence[Action]) -> Action:
        head = state.pending[0] if state.pending else None
        hint = getattr(rules, "bot_hint", None)
        if hint is not None:
            suggested = hint(state, actions)
            if suggested is not None:
                return suggested  # type: ignore[no-any-return]
        if isinstance(head, BuyDecision):
            return self._buy(rules, state, head, actions)
        if isinstance(head, Auction):
            return self._auction(rules, state, head, actions)
        if isinstance(head, Debt):
            return self._raise(rules, state, head.player, actions)
        if isinstance(head, MortgagedTransfer):
            cost = rules.unmortgage_cost(state, head.square)
            if state.players[head.player].cash > cost + 300:
                for a in actions:
                    if isinstance(a, Unmortgage):
                        return a
            return next(a for a in actions if isinstance(a, KeepMortgaged))
        if head is not None:
            mine = [a for a in actions if a.player == head.player] or list(actions)
            return mine[0]
        return self._turn(rules, state, actions)

    def _buy(self, rules: Rules, state: GameState, head: BuyDecision,
             actions: Sequence[Action]) -> Action:
        cash = state.players[head.player].cash
        if cash - rules.price(state, head.player, head.square) >= self.reserve:
            for a in actions:
                if isinstance(a, Buy):
                    return a
        return next(a for a in actions if isinstance(a, Decline))

    def _auction(self, rules: Rules, state: GameState, head: Auction,
                 actions: Sequence[Action]) -> Action:
        sq = rules.board.squares[head.square] if head.square >= 0 else None
        for bidder in head.bidders:
            if bidder == head.high_bidder:
                continue
            value = sq.price if sq else HOUSE_VALUE
            limit = min(value, state.players[bidder].cash - self.reserve)
            bids = [a for a in actions if isinstance(a, Bid) and a.player == bidder
                    and a.amount <= limit]
            if bids and sq is None:
                # a house auction (shortage): bid its value at once, not $1 at a time
                return max(bids, key=lambda a: a.amount)
            if bids:
                return min(bids, key=lambda a: a.amount) if head.high_bid else max(
                    (b for b in bids if b.amount <= value // 2), default=bids[0],
                    key=lambda a: a.amount)
            return next(a for a in actions if isinstance(a, PassBid) and a.player == bidder)
        return actions[0]

    def _raise(self, rules: Rules, state: GameState, player: int,
               actions: Sequence[Action]) -> Action:
        mine = [a for a in actions if a.player == player]
        sells = [a for a in mine if isinstance(a, (Sell, BreakDown))]
        if sells:
            return sells[0]
        mortgages = [a for a in mine if isinstance(a, Mortgage)]
        if mortgages:
            # keep full groups as long as possible: mortgage lone lots first
            def keeps_group(a: Mortgage) -> bool:
                sq = rules.board.squares[a.square]
                return owns_whole_group(rules.board, state.squares, player, sq.group)

            return sorted(mortgages, key=lambda a: (keeps_group(a), rules.board.squares[a.square].price))[0]
        for a in mine:
            if isinstance(a, DeclareBankruptcy):
                return a
        return mine[0] if mine else actions[0]

    def _trade(self, rules: Rules, state: GameState, cur: int) -> Action | None:
        """Offer cash for the one lot that completes a colour group, once per turn; the owner
        accepts when the offer is at least 1.5x the price and the trade does not hand over the
        owner's own last chance at that group."""
        if state.rolled or (state.turn_number, cur) in self._offered:
            return None
        self._offered.add((state.turn_number, cur))
        board = rules.board
        cash = state.players[cur].cash
        for _group, lots in board.groups.items():
            if board.squares[lots[0]].kind != "street":
                continue
            owners = [state.squares[i].owner for i in lots]
            missing = [i for i, o in zip(lots, owners, strict=True) if o != cur]
            if len(missing) != 1 or owners.count(cur) < 1:
                continue
            lot = missing[0]
            other = state.squares[lot].owner
            if other is None or any(state.squares[i].level for i in lots):
                continue
            offer = board.squares[lot].price * 3 // 2
            if cash - offer < self.reserve:
                continue
            action = Trade(cur, other, TradeSide(cash=offer), TradeSide(squares=(lot,)))
            if rules.trade_problem(state, action) is None and rules.may_manage(state, cur, "trade"):
                return action
        return None

    def _house_auction(self, state: GameState, cur: int,
                       mine: Sequence[Action]) -> Action | None:
        """In a house shortage houses are sold only by auction (ruling M-6): call one before
        rolling when she can pay her house value above the reserve. Without this, tables where
        everyone owns colour groups and the bank has no houses stall to the turn cap."""
        if state.players[cur].cash < self.reserve + HOUSE_VALUE:
            return None
        return next((a for a in mine if isinstance(a, CallHouseAuction)), None)

    def _turn(self, rules: Rules, state: GameState, actions: Sequence[Action]) -> Action:
        cur = state.current
        player = state.players[cur]
        mine = [a for a in actions if a.player == cur]
        if player.in_jail and not state.rolled:
            for a in mine:
                if isinstance(a, UseJailCard):
                    return a
            if player.cash > 400 and state.turn_number < 120:
                for a in mine:
                    if isinstance(a, PayJail):
                        return a
        trade = self._trade(rules, state, cur)
        if trade is not None:
            return trade
        if not state.rolled or state.roll_again:
            call = self._house_auction(state, cur, mine)
            if call is not None:
                return call
        builds = [a for a in mine if isinstance(a, Build)]
        if builds:
            best = max(builds, key=lambda a: rules.board.squares[a.square].house_cost)
            cost = rules.board.squares[best.square].house_cost
            if player.cash - cost >= self.reserve:
                return best
        for a in mine:
            if isinstance(a, Unmortgage) and player.cash - rules.unmortgage_cost(
                    state, a.square) > self.reserve + 300:
                return a
        for a in mine:
            if isinstance(a, Roll):
                return a
        for a in mine:
            if isinstance(a, EndTurn):
                return a
        return mine[0] if mine else actions[0]
