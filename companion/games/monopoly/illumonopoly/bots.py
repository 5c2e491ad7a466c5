"""The heuristic bot's Illumonopoly policy (``HeuristicBot`` asks ``bot_hint``; it only picks
among the legal actions it is given).

- Money: group money goes home to central with the free transfers (and, paying the fee,
  when a lot it lands on costs more than central holds); a debt is raised by transfers first; a debt it cannot raise at all is offered in kind (its best lot, once).
- Contests: it interferes with a purchase that would complete a rival's group; in a contest
  each party spends toward a number that favours it (the purchaser or plaintiff wants 9 or
  more, the complainant or defendant 5 or less) within a budget set by what the lot is worth
  and what it holds; onlookers pass.
- Trades and suits, as the first move of its turn: cash for the one lot that keeps a bare
  colour group from being wholly its own (when rich, for any lone rival lot of a group it
  has a foot in); failing that, when it can outspend the defendant,
  a Title Defect for such a lot, or an antitrust suit against a runaway leader's built
  monopoly (never a landmark: lots out of play end no game).
- Building: a whole colour group first; then, keeping more money back, a group it shares
  only with unowned lots (unowned lots built up to let its own rise) and a first house
  where a rival holds a lot; otherwise the plain bot's building (anywhere it may, which is
  what makes rents high enough to end games). When the bank is out of houses, a house sold
  off a cheaper group so that a group at three or four houses can reach hotels (and give
  the bank its houses back).
- Creditors take a lot instead of rent when it is worth at least half the rent; the owner of
  a group left uneven builds the bare lot up when it can spare the money.
- Auctions: up to the printed price, in the largest steps offered.
- A Court Date card now and then at the end of its turn; Bermuda hides the richest rival lot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.games.monopoly.actions import (
    Action,
    Bid,
    Build,
    Choose,
    Pass,
    PassBid,
    Roll,
    Sell,
)
from companion.games.monopoly.illumonopoly.actions import (
    BavarianDeal,
    DeclareMissing,
    Interfere,
    PayInKind,
    PlayCard,
    Sue,
    Support,
    Transfer,
)
from companion.games.monopoly.illumonopoly.contests import (
    CardWindow,
    EveningChoice,
    InKindOffer,
    InterferenceWindow,
    SupportRound,
)
from companion.games.monopoly.illumonopoly.state import CENTRAL, IllumPlayer
from companion.games.monopoly.pending import Auction, BuyDecision, Debt
from companion.games.monopoly.state import GameState

if TYPE_CHECKING:
    from companion.games.monopoly.illumonopoly.layer import Illumonopoly

RESERVE = 200  # central money a bot keeps out of contests and suits


def _central(state: GameState, seat: int) -> int:
    p = state.players[seat]
    return p.central if isinstance(p, IllumPlayer) else p.cash


def _pass(actions: Sequence[Action], seat: int | None = None) -> Action | None:
    return next((a for a in actions if isinstance(a, Pass)
                 and (seat is None or a.player == seat)), None)


def bot_hint(rules: Illumonopoly, state: GameState,  # noqa: C901
             actions: Sequence[Action]) -> Action | None:
    head = state.pending[0] if state.pending else None
    if isinstance(head, InterferenceWindow):
        return _interfere(rules, state, head, actions)
    if isinstance(head, SupportRound):
        return _support(rules, state, head, actions)
    if isinstance(head, CardWindow):
        return _pass(actions)
    if isinstance(head, Auction) and head.square >= 0:
        return _bid(rules, state, head, actions)
    if isinstance(head, InKindOffer):
        price = rules.board.squares[head.square].price
        owed = next((d.amount for d in state.pending if isinstance(d, Debt)
                     and d.player == head.debtor), 0)
        want = price * 2 >= owed or price >= 200
        return Choose(head.player, "offer", "accept") if want else _pass(actions, head.player)
    if isinstance(head, EveningChoice):
        build = Choose(head.player, "even", "build")
        if build in actions and _central(state, head.player) >= head.cost + RESERVE:
            return build
        return Choose(head.player, "even", "sell")
    if isinstance(head, Debt):
        moves = [a for a in actions if isinstance(a, Transfer) and a.player == head.player]
        if moves:
            return max(moves, key=lambda a: a.amount)
        offers = [a for a in actions if isinstance(a, PayInKind)]
        if offers and rules.insolvent(state, head.player, head.amount):
            return max(offers, key=lambda a: rules.board.squares[a.square].price)
        return None
    if isinstance(head, BuyDecision):
        for a in actions:
            if isinstance(a, BavarianDeal) and _central(state, a.player) > 900:
                return a
        price = rules.price(state, head.player, head.square)
        if not any(type(a).__name__ == "Buy" for a in actions) and \
                state.players[head.player].cash - price * 11 // 10 >= RESERVE:
            # the money is in other treasuries: bring it home (10% fee) to buy
            moves = [a for a in actions if isinstance(a, Transfer) and a.player == head.player
                     and a.dest == CENTRAL]
            if moves:
                return max(moves, key=lambda a: a.amount)
        return None
    if head is not None:
        roll = next((a for a in actions if isinstance(a, Roll)), None)
        if roll is not None:
            return roll
        return next((a for a in actions if isinstance(a, Choose)), None)
    cur = state.current
    if state.rolled and not state.roll_again:
        free = [a for a in actions if isinstance(a, Transfer) and a.player == cur
                and a.dest == CENTRAL and rules.free_transfer_now(state, cur)]
        if free:
            return max(free, key=lambda a: a.amount)
        if state.turn_number % 3 == 0:
            card = next((a for a in actions if isinstance(a, PlayCard) and a.player == cur
                         and a.kind != "secret_deal"), None)
            if card is not None:
                return card
        gone = next((a for a in actions if isinstance(a, DeclareMissing)), None)
        if gone is not None:
            return gone
    if not state.rolled and not rules.table(state).acted:  # its first move of the turn
        deal = _trade(rules, state, cur)
        if deal is not None:
            return deal
        suit = _sue(rules, state, cur, actions)
        if suit is not None:
            return suit
    return _build(rules, state, cur, actions)


def _trade(rules: Illumonopoly, state: GameState, cur: int) -> Action | None:
    """Offer cash for the one lot that keeps a bare colour group from being wholly its own:
    twice the printed price, more when it is rich (the owner takes it, as the plain bot's
    partners do). Only as the turn's first move, so a blocked trade is not offered again."""
    from companion.games.monopoly.actions import Trade, TradeSide

    central = _central(state, cur)
    wanted: list[tuple[int, int]] = []  # (lots still missing from the group, lot)
    for group, lots in rules.board.groups.items():
        if rules.board.squares[lots[0]].kind != "street":
            continue
        live = rules.group_lots(state, group)
        others = [i for i in live if state.squares[i].owner != cur]
        if not others or len(others) == len(live) or any(state.squares[i].level for i in live):
            continue
        if len(others) > 1 and central < 3000:  # a first step toward a group: only when rich
            continue
        for lot in others:
            owner = state.squares[lot].owner
            # the owner sells a lone lot of the group, never one of a pair it is building
            if owner is not None and sum(1 for i in live if state.squares[i].owner == owner) == 1:
                wanted.append((len(others), lot))
    for _missing, lot in sorted(wanted):
        owner = state.squares[lot].owner
        assert owner is not None
        offer = max(rules.board.squares[lot].price * 2, (central - RESERVE) // 4)
        if central - offer < RESERVE:
            continue
        action = Trade(cur, owner, TradeSide(cash=offer), TradeSide(squares=(lot,)))
        if rules.trade_problem(state, action) is None and rules.may_manage(state, cur, "trade"):
            return action
    return None


def _build(rules: Illumonopoly, state: GameState, cur: int,
           actions: Sequence[Action]) -> Action | None:
    """Build where it pays first, keeping more money back the less the group is its own: a
    whole colour group, then a group shared only with unowned lots (its own lots, then the
    unowned ones that hold them back), then a first house where a rival holds a lot; None
    leaves the rest to the plain bot."""
    builds = [a for a in actions if isinstance(a, Build) and a.player == cur]
    if not state.bank_houses:
        freed = _free_houses(rules, state, cur, actions)
        if freed is not None:
            return freed
    if not builds:
        return None
    cash = state.players[cur].cash
    good: list[tuple[int, int, Build]] = []
    for a in builds:
        sq = rules.board.squares[a.square]
        lots = rules.group_lots(state, sq.group)
        owners = {state.squares[i].owner for i in lots}
        own = state.squares[a.square].owner == cur
        if owners == {cur}:
            margin = 150  # a whole group of its own
        elif cur in owners and owners <= {cur, None}:
            margin = 300 if own else 500  # its lots and unowned ones: raise them together
        elif own and state.squares[a.square].level == 0:
            margin = 450  # one house where a rival holds a lot of the group
        else:
            continue
        if cash - sq.house_cost >= RESERVE + margin:
            good.append((margin, -sq.house_cost, a))
    if good:
        return min(good, key=lambda e: (e[0], e[1]))[2]
    return None  # the plain bot's building: anywhere it may, down to its last $150


def _free_houses(rules: Illumonopoly, state: GameState, cur: int,
                 actions: Sequence[Action]) -> Action | None:
    """The bank is out of houses while one of its whole groups stands at three or four
    houses: a house sold off a cheaper group lets that group reach four and go to hotels,
    which gives the bank its houses back (otherwise every table stalls)."""
    near: list[int] = []  # house cost of its groups close to hotels
    for group, lots in rules.board.groups.items():
        live = rules.group_lots(state, group)
        if rules.board.squares[lots[0]].kind != "street" or not live or \
                any(state.squares[i].owner != cur for i in live):
            continue
        levels = [state.squares[i].level for i in live]
        cost = rules.board.squares[lots[0]].house_cost
        # (only when it can pay for the house it frees: else it would build it back)
        if 3 <= min(levels) < 5 and state.players[cur].cash - cost >= RESERVE + 150:
            near.append(cost)
    if not near:
        return None
    sells = [a for a in actions if isinstance(a, Sell) and a.player == cur
             and not state.squares[a.square].hotel
             and rules.board.squares[a.square].house_cost < max(near)]
    return min(sells, key=lambda a: rules.board.squares[a.square].house_cost, default=None)


def _bid(rules: Illumonopoly, state: GameState, head: Auction,
         actions: Sequence[Action]) -> Action | None:
    """Bid up to the printed price (keeping the reserve) in the largest steps offered, so an
    auction takes a few bids rather than a dollar at a time."""
    for bidder in head.bidders:
        if bidder == head.high_bidder:
            continue
        limit = min(rules.board.squares[head.square].price,
                    state.players[bidder].cash - RESERVE)
        bids = [a for a in actions if isinstance(a, Bid) and a.player == bidder
                and a.amount <= limit]
        if bids:
            return max(bids, key=lambda a: a.amount)
        return next((a for a in actions if isinstance(a, PassBid) and a.player == bidder), None)
    return None


def _interfere(rules: Illumonopoly, state: GameState, head: InterferenceWindow,
               actions: Sequence[Action]) -> Action | None:
    """File against an acquisition that would complete a rival's group."""
    group = rules.board.squares[head.square].group
    lots = rules.group_lots(state, group)
    held = sum(1 for i in lots if state.squares[i].owner == head.purchaser)
    completes = held + 1 == len(lots) and group not in ("railroad", "utility")
    for a in actions:
        if isinstance(a, (Interfere, PlayCard)) and completes and \
                _central(state, a.player) > 500 + RESERVE:
            return a
    return _pass(actions)


def _budget(rules: Illumonopoly, state: GameState, head: SupportRound, seat: int) -> int:
    """What a party will spend on its side in all: a share of the lot's worth, never below
    the reserve."""
    sq = rules.board.squares[head.square]
    worth = sq.price + state.squares[head.square].level * sq.house_cost
    share = worth if head.case and seat == head.a else worth // 2 if head.case else worth // 3
    return max(0, min(share, _central(state, seat) - RESERVE))


def _support(rules: Illumonopoly, state: GameState, head: SupportRound,
             actions: Sequence[Action]) -> Action | None:
    """Each party pushes the number its way within its budget; onlookers pass."""
    for seat in head.waiting:
        if seat not in (head.a, head.b):
            continue
        side_a = seat == head.a
        spent = head.spent_a if side_a else head.spent_b
        room = _budget(rules, state, head, seat) - spent
        want = 9 - head.number if side_a else head.number - 5
        mine = head.sides()[0] if side_a else head.sides()[1]
        if want <= 0 or room < head.unit:
            continue
        units = min(want, room // head.unit)
        offered = [a for a in actions if isinstance(a, Support) and a.player == seat
                   and a.side == mine and a.amount <= units * head.unit]
        if offered:
            return max(offered, key=lambda a: a.amount)
    return _pass(actions)


def _sue(rules: Illumonopoly, state: GameState, cur: int,
         actions: Sequence[Action]) -> Action | None:
    """A suit that changes the board for it, which it can outspend the defendant on: a Title
    Defect for the one lot that stands between it and a whole colour group, an antitrust suit
    against a runaway leader's built monopoly. Suits that only pass lots around, or take them
    out of play (landmarks), cost money and end no game."""
    central = _central(state, cur)
    if central < 500:
        return None
    best: tuple[int, Action] | None = None
    for a in actions:
        if not isinstance(a, Sue) or a.player != cur:
            continue
        sq = rules.board.squares[a.target]
        lots = rules.group_lots(state, sq.group)
        built = any(state.squares[i].level for i in lots)
        if a.kind == "title":
            others = [i for i in lots if i != a.target]
            if sq.kind != "street" or not others or \
                    any(state.squares[i].owner != cur for i in others):
                continue
        elif a.kind == "antitrust":  # against a runaway leader only: it breaks a group up
            if not built or state.players[a.defendant].cash < 2 * state.players[cur].cash:
                continue
        else:
            continue
        worth = sq.price + state.squares[a.target].level * sq.house_cost
        mine = min(worth, central - RESERVE)
        theirs = max(0, min(worth // 2, _central(state, a.defendant) - RESERVE))
        reach = rules.base_elp(state, cur, a.defendant, a.kind) + (mine - theirs) // 10
        if reach < 11:
            continue
        score = worth + (500 if a.kind == "title" else 0)
        if best is None or score > best[0]:
            best = (score, a)
    return best[1] if best is not None else None
