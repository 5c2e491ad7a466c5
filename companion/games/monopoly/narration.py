"""Monopoly's events in plain words, for the turn-by-turn account, the kiosk log and JSON output
(a variant tells its own kinds first: ``Rules.describe_event``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.events import Event
from companion.games.monopoly.cards import card_by_id, load_deck
from companion.games.monopoly.state import BANK, POT, GameState

if TYPE_CHECKING:
    from companion.games.monopoly.engine import Rules


def _who(state: GameState, who: int | None) -> str:
    if who is None or who == BANK:
        return "the bank"
    if who == POT:
        return "the pot"
    return state.players[who].name


# money movements already told by the event just before or after them
_TOLD = ("GO", "bought ", "mortgaged ", "unmortgaged ", "sold a building", "building on ",
         "the pot", "auction for ", "broke down ", "damage (")


def tells(e: Event) -> bool:
    """Whether the turn-by-turn account tells ``e``: not a turn marker, nor a payment the event
    just before or after it already tells."""
    if e.kind == "paid" and e.detail.startswith(_TOLD):
        return False
    return e.kind not in ("turn", "turn_ended")


def place(rules: Rules, square: int | None) -> str:
    """Where a move ends, in words: the Jail square reached by moving is Just Visiting."""
    if square is None or square < 0:
        return ""
    if square == rules.board.jail:
        return "Just Visiting"
    return rules.board.squares[square].name


def _reason(detail: str) -> str:
    """A payment's reason in words: a card id becomes the card's deck ("Chance card")."""
    for deck in ("chance", "community_chest"):
        if any(card.id == detail for card in load_deck(deck)):
            return f"{deck.replace('_', ' ').title()} card"
    return detail.replace("_", " ")


def describe(rules: Rules, state: GameState, e: Event) -> str:  # noqa: C901
    """One sentence for an event (``state`` gives the names; any state of the game will do)."""
    custom = rules.describe_event(state, e)
    if custom is not None:
        return custom
    who = _who(state, e.player)
    sq = rules.board.squares[e.square].name if e.square is not None and e.square >= 0 else ""
    k = e.kind
    if k == "rolled":
        return f"{who} rolled {e.detail} ({e.amount})"
    if k == "doubles":
        return f"{who} rolled doubles ({e.amount} in a row)"
    if k == "moved":  # a move that ends on the Jail square is a visit (going to jail is "jailed")
        return f"{who} moved to {place(rules, e.square)}"
    if k == "go":
        return f"{who} {e.detail} GO and collected ${e.amount}"
    if k == "paid":
        payer = _who(state, e.player)
        return f"{payer} paid {_who(state, e.other)} ${e.amount}" + (
            f" ({_reason(e.detail)})" if e.detail and e.detail != "the pot" else "")
    if k == "owes":
        return (f"{who} owes {_who(state, e.other)} ${e.amount} ({_reason(e.detail)}) and must "
                "raise the cash")
    if k == "rent":
        return f"{sq} belongs to {_who(state, e.other)}: rent ${e.amount}"
    if k == "rent_claimable":
        return f"{who} may claim ${e.amount} rent for {sq} from {_who(state, e.other)}"
    if k == "bought":
        return f"{who} bought {sq} for ${e.amount}"
    if k == "declined":
        return f"{who} declined to buy {sq}"
    if k == "auction":
        return f"{sq} goes to auction"
    if k == "no_auction":
        return f"{sq} stays with the bank (auctions are off)"
    if k == "bid":
        return f"{who} bid ${e.amount}"
    if k == "auction_pass":
        return f"{who} left the auction"
    if k == "auction_won":
        return f"{who} won {sq} at auction for ${e.amount}"
    if k == "auction_unsold":
        return f"nobody bid; {sq or 'the house'} stays with the bank"
    if k == "house_auction":
        return f"{who} called an auction for a house (the bank is short)"
    if k == "house_auction_won":
        return f"{who} won a house at auction for ${e.amount}"
    if k == "house_forfeited":
        return f"{who} could not place the house and gave it back"
    if k == "card":
        deck, _, card_id = e.detail.partition(":")
        text = card_by_id(deck, card_id).text
        return f"{who} drew {deck.replace('_', ' ').title()}: {text}"
    if k == "jailed":
        return f"{who} went to jail"
    if k == "speeding":
        return f"{who} rolled three doubles in a row"
    if k == "left_jail":
        return f"{who} left jail ({e.detail})" + (
            f" with {_who(state, e.other)}'s help" if e.other is not None and e.other >= 0 else "")
    if k == "jail_try_failed":
        return f"{who} failed to roll doubles in jail (try {e.amount})"
    if k == "built":
        return f"{who} built on {sq}"
    if k == "sold":
        return f"{who} sold buildings for ${e.amount}"
    if k == "mortgaged":
        return f"{who} mortgaged {sq} for ${e.amount}"
    if k == "unmortgaged":
        return f"{who} lifted the mortgage on {sq} for ${e.amount}"
    if k == "kept_mortgaged":
        return f"{who} kept {sq} mortgaged and pays the ${e.amount} fee"
    if k == "traded":
        return f"{who} traded with {_who(state, e.other)}"
    if k == "bankrupt":
        return f"{who} is bankrupt (to {_who(state, e.other)})"
    if k == "pot":
        return f"{who} collected the pot: ${e.amount}"
    if k == "turn_ended":
        return f"{who} ended the turn"
    if k == "turn":
        return f"{who}'s turn"
    if k == "game_over":
        return f"game over: {e.detail} wins" if e.detail not in ("no one", "tie") else "game over"
    return f"{who}: {k.replace('_', ' ')}" + (f" {e.detail}" if e.detail else "")
