"""Illumonopoly's state: treasuries on the player, lasting effects on the table (rule source:
Illumonopoly, "Money", "Court Date Cards", "Legal Action", "Advanced Rules").

A player's ``cash`` stays the total of all their treasuries (the engine's ledger and standings
read it); ``treasuries`` holds the money of each property-group treasury and the central
treasury is what is left (``central``). Rulings are cited as I-<n> (docs/illumonopoly/rulings.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.monopoly.state import GameState, Options, PlayerState, VariantTable

CENTRAL = "central"

# the 13 kinds of Court Date card, in rank order (Ace = 1 ... King = 13)
CARD_KINDS: tuple[str, ...] = (
    "secret_deal", "interference", "historic_blunder", "holding_action", "idle_hands",
    "irs_audit", "rent_control", "brain_drain", "condemned_property", "corporate_spy",
    "bribed_assessor", "legal_holiday", "cancellation",
)
COPIES = 4  # four of each kind: a standard 52-card deck
# when each kind may be played (I-22): start = own turn before rolling; end = own turn, step 4;
# acquire = own purchase being announced; case = during a court case; any = any time;
# reply_deal = after a Secret Deal; reply_card = after another Court Date card
CARD_TIMING: dict[str, str] = {
    "secret_deal": "acquire", "interference": "reply_deal", "historic_blunder": "end",
    "holding_action": "case", "idle_hands": "start", "irs_audit": "end",
    "rent_control": "start", "brain_drain": "end", "condemned_property": "end",
    "corporate_spy": "end", "bribed_assessor": "any", "legal_holiday": "end",
    "cancellation": "reply_card",
}

# the advanced game's Illuminati: Legal Power and special ability
ILLUMINATI: dict[str, tuple[int, str]] = {
    "bavarian": (10, "for $100 any purchase attempt becomes a Secret Deal"),
    "gnomes": (7, "moves money between its treasuries free at the end of its turn"),
    "cthulhu": (9, "+2 on Historic Landmark suits"),
    "bermuda": (8, "may declare one lot missing until the end of its next turn"),
    "discordian": (8, "may begin two legal actions per turn"),
}
ILLUMINATI_NAMES: dict[str, str] = {
    "bavarian": "Bavarian Illuminati", "gnomes": "Gnomes of Zurich",
    "cthulhu": "Servants of Cthulhu", "bermuda": "Bermuda Triangle",
    "discordian": "Discordian Society",
}
SUIT_KINDS = ("landmark", "title", "antitrust")


@dataclass(frozen=True, slots=True)
class IllumOptions(Options):
    """Illumonopoly table settings (docs/illumonopoly/rulings.md gives the reasons)."""

    court_deck: str = "physical"  # physical (real cards in hand) | virtual (I-7)
    transfer_fee_rounding: str = "up"  # rounding of the 10% transfer fee (I-1)
    payment_source: str = "group_first"  # group_first | central_first (I-3)
    court_card_on_passing_go: bool = False  # I-6
    interference_11_12_fail: bool = False  # I-11
    landmark_unowned: bool = False  # I-17
    antitrust_strip_group: bool = False  # I-20
    public_treasuries: bool = True  # I-8: false shows each total, the split to its owner


@dataclass(frozen=True, slots=True)
class IllumPlayer(PlayerState):
    """A player: ``cash`` is the total; ``treasuries`` the property-group treasuries
    (group, amount) with money or held; the rest of ``cash`` is the central treasury."""

    treasuries: tuple[tuple[str, int], ...] = ()
    illuminati: str = ""  # "" in the basic game
    court_hand: int = 0  # Court Date cards held (count)
    court_cards: tuple[str, ...] = ()  # their kinds, with a virtual deck only
    audited: bool = False  # under an IRS Audit until a doubles roll

    @property
    def central(self) -> int:
        return self.cash - sum(a for _g, a in self.treasuries)

    def treasury(self, group: str) -> int:
        if group == CENTRAL:
            return self.central
        for g, a in self.treasuries:
            if g == group:
                return a
        return 0


@dataclass(frozen=True, slots=True)
class HeldCase:
    """A court case stopped by a Holding Action until the plaintiff's next turn (I-27)."""

    plaintiff: int
    defendant: int
    kind: str
    target: int  # a lot, or for antitrust the first lot of the group
    support: int  # ELP change bought so far (plaintiff's side minus defendant's, doubled money)


@dataclass(frozen=True, slots=True)
class IllumTable(VariantTable):
    """What lies on Illumonopoly's table: landmarks, frozen and missing lots, lasting card
    effects, the turn's bookkeeping and the Court Date deck."""

    landmarks: tuple[int, ...] = ()
    blocked: tuple[tuple[int, int], ...] = ()  # (lot, purchaser): frozen until their next turn
    missing: tuple[int, int, int] = (-1, -1, 0)  # (lot, Bermuda seat, own turn-ends left)
    rent_control: tuple[tuple[int, int], ...] = ()  # (card player, own turn-ends left)
    legal_holiday: tuple[int, ...] = ()  # card players: no cases until their next turn
    bribed: tuple[tuple[int, int], ...] = ()  # (lot, card player): half value until their turn
    held_cases: tuple[HeldCase, ...] = ()
    # what Corporate Spies saw: (spy, target, "cards" or a treasury, what it showed), latest last
    spied: tuple[tuple[int, int, str, str], ...] = ()
    # the current turn's bookkeeping
    cases_used: int = 0
    extra_cases: int = 0  # Idle Hands played this turn
    free_transfers: int = 2
    acted: bool = False  # the current player did something besides moving (do-nothing, I-5)
    card_played: bool = False  # the one end-of-turn card (step 4)
    secret_deal: bool = False  # the purchase being announced is a Secret Deal
    ability_used: bool = False
    offered: tuple[int, ...] = ()  # lots offered instead of rent this turn (once each)
    # the Court Date deck
    deck: tuple[str, ...] = ()  # virtual: draw pile, top first
    played: tuple[str, ...] = ()  # kinds played since the last reshuffle (the discards)

    def __bool__(self) -> bool:
        return True


def illum_player(state: GameState, seat: int) -> IllumPlayer:
    p = state.players[seat]
    assert isinstance(p, IllumPlayer)
    return p
