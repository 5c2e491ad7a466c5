"""A simple policy for class abilities, offered to the heuristic bot as ``rules.bot_hint``.

It never invents actions: it only picks one of the legal actions it is given (or None to let
the bot's Monopoly logic decide)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.monopoly.actions import Action, Bid, CallHouseAuction, PassBid, Roll
from companion.games.monopoly.cards import card_by_id
from companion.games.monopoly.dungeonopoly import effects
from companion.games.monopoly.dungeonopoly.abilities import Accept, Pass, TrainSkill, UseAbility
from companion.games.monopoly.dungeonopoly.steps import CardChoice, Check, RentChoice, RobBankChoice
from companion.games.monopoly.dungeonopoly.terms import character
from companion.games.monopoly.pending import Auction
from companion.games.monopoly.reactions import Window
from companion.games.monopoly.state import GameState

BAD_CARDS = frozenset({"pay", "go_to_jail", "repairs", "pay_each_player", "move_back"})
SKILL_ORDER = ("rob_bank", "pick_pockets", "open_locks", "sneak", "steal")
# abilities worth using whenever they are legal, best first
EAGER = ("run", "attack", "combat_reflexes", "backstab", "holy_smite", "magic_missile",
         "far_shot", "fortify", "conquer", "expeditious_retreat", "mage_armor",
         "shield_of_faith", "wrath_of_god", "pick_pockets")
EAGER_RANK = {name: rank for rank, name in enumerate(EAGER)}


def bot_hint(state: GameState, actions: Sequence[Action]) -> Action | None:
    head = state.pending[0] if state.pending else None
    if isinstance(head, Auction) and head.square < 0:
        return _house_bid(state, head, actions)
    if isinstance(head, Window):
        return next((a for a in actions if isinstance(a, Pass)), None)
    if isinstance(head, Check):
        return next((a for a in actions if isinstance(a, Roll)), None)
    if isinstance(head, RentChoice):
        return next((a for a in actions if isinstance(a, UseAbility)), None) or \
            next((a for a in actions if isinstance(a, Pass)), None)
    if isinstance(head, CardChoice):
        bad = card_by_id(head.deck, head.card).effect in BAD_CARDS
        want = Pass if bad else Accept
        return next((a for a in actions if isinstance(a, want)), None)
    if isinstance(head, RobBankChoice):
        good = character(state, head.player).ranks("rob_bank") >= 12
        kind: type[Action] = UseAbility if good else Pass
        return next((a for a in actions if isinstance(a, kind)), None)
    if head is not None:
        return effects.bot_hint(state, actions)
    extra = effects.bot_hint(state, actions)  # the additional classes' policies
    if extra is not None:
        return extra
    train = [a for a in actions if isinstance(a, TrainSkill)]
    if train:
        return min(train, key=lambda a: SKILL_ORDER.index(a.skill))
    uses = [a for a in actions if isinstance(a, UseAbility) and a.player == state.current]
    eager = [a for a in uses
             if a.ability in EAGER_RANK and not (a.ability == "run" and state.rolled)]
    if eager:  # the best-ranked ability, its first listed use
        return min(eager, key=lambda a: EAGER_RANK[a.ability])
    call = _house_auction(state, actions)
    if call is not None:
        return call
    for a in uses:
        if a.ability == "bless" and \
                state.squares[state.players[a.player].position].owner == state.side(a.player):
            return a
        if a.ability == "curse":
            owner = state.squares[state.players[a.player].position].owner
            if owner is not None and not state.allied(owner, a.player):
                return a
    return None


HOUSE_AUCTION_CASH = 250  # the Monopoly bot's $150 reserve plus the $100 it bids for a house


def _house_auction(state: GameState, actions: Sequence[Action]) -> Action | None:
    """In a house shortage houses are sold only by auction (ruling M-6): before rolling, call
    one when she can afford to bid for it (the Monopoly bot bids up to $100 for a house above
    its $150 reserve). Without this, tables where everyone owns colour groups stall with no
    houses at all until the turn cap."""
    if state.rolled and not state.roll_again:
        return None
    cur = state.current
    if state.players[cur].cash < HOUSE_AUCTION_CASH:
        return None
    return next((a for a in actions if isinstance(a, CallHouseAuction) and a.player == cur), None)


HOUSE_VALUE = 100  # what the Monopoly bot will pay for a house at auction
RESERVE = 150  # the Monopoly bot's cash reserve


def _house_bid(state: GameState, head: Auction, actions: Sequence[Action]) -> Action | None:
    """House auctions (called above): the Monopoly bot's valuation ($100 a house, keeping
    $150), but bidding it at once (the highest legal bid within it) rather than $1 at a
    time, so an auction takes one bid and the passes instead of about forty steps."""
    for bidder in head.bidders:
        if bidder == head.high_bidder:
            continue
        limit = min(HOUSE_VALUE, state.players[bidder].cash - RESERVE)
        bids = [a for a in actions if isinstance(a, Bid) and a.player == bidder and
                a.amount <= limit]
        if bids:
            return max(bids, key=lambda a: a.amount)
        return next((a for a in actions if isinstance(a, PassBid) and a.player == bidder), None)
    return None
