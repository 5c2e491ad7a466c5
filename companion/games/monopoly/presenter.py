"""What the kiosk shows of a Monopoly game: action labels, the decision menu (``menus``), the
player cards with cash and lots, the header's pot and bank, the setup screen's table options,
and the board's places for the pawn check. Variants extend :class:`MonopolyPresenter`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from companion.core.actions import Action
from companion.core.topology import load_ring
from companion.games.monopoly.actions import (
    Bid,
    BreakDown,
    Build,
    Buy,
    CallHouseAuction,
    ClaimRent,
    DeclareBankruptcy,
    Decline,
    DrawnCard,
    EndGame,
    EndTurn,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PayJail,
    Roll,
    Sell,
    Unmortgage,
    UseJailCard,
)
from companion.games.monopoly.cards import card_by_id
from companion.games.monopoly.engine import Rules
from companion.games.monopoly.state import GameState
from companion.kiosk import theme
from companion.kiosk.inputs import Menu, Option, words
from companion.kiosk.presenter import BasicPresenter, GameOver, HeaderFacts, TableOption
from companion.kiosk.teams import side_title, team_colour, team_of, title_of_name
from companion.kiosk.views import GroupRow, LotChip, PlayerCard

# the board's place off the ring for "In Jail", the board reader's too (10 is Just Visiting)
(JAIL_CELL,) = load_ring().off_ring
# the colour groups' colours on the player cards' lot chips
GROUP_COLOURS: dict[str, tuple[int, int, int]] = {
    "brown": (140, 82, 45),
    "light_blue": (170, 220, 250),
    "pink": (215, 60, 150),
    "orange": (245, 145, 30),
    "red": (220, 40, 45),
    "yellow": (250, 230, 50),
    "green": (40, 170, 80),
    "dark_blue": (40, 80, 200),
    "railroad": (200, 200, 200),
    "utility": (190, 230, 230),
}

DROP_WORDS = {"avenue", "place", "gardens", "railroad", "company", "short", "line"}

TABLE_OPTIONS: tuple[TableOption, ...] = (
    TableOption("strict_politics", "Strict politics",
                "Rent is always charged; trades only at listed value"),
    TableOption("quicker_game", "Quicker game",
                "3 lots dealt to each player, 1 turn in jail, 3 houses, a level every 5 EP"),
    TableOption("blitz", "Blitz", "Draft every lot before play; characters start at level 10"),
    TableOption("gestalt", "Gestalt classes", "Each character has two classes"),
    TableOption("free_parking_pot", "Central pot", "Fees go to a pot that Free Parking collects"),
    TableOption("auctions", "Auctions", "A lot nobody buys is auctioned"),
    TableOption("rent_must_be_claimed", "Rent must be claimed",
                "The owner asks for rent before the next roll, or it is lost"),
)


def short_name(name: str) -> str:
    """A lot's name cut to fit a chip: 'St. Charles Place' -> 'St. Charles'."""
    parts = [w for w in name.split() if w.lower() not in DROP_WORDS] or name.split()
    text = " ".join(parts).replace(". & ", "&").replace(" & ", "&")
    if text.startswith("B&O"):
        return "B&O"
    return text if len(text) <= 11 else text[:10].rstrip() + "."


def cell_of(state: GameState, seat: int) -> int:
    """The board reader's place of a seat's piece (In Jail is a place of its own)."""
    p = state.players[seat]
    return JAIL_CELL if p.in_jail else p.position


class MonopolyPresenter(BasicPresenter):
    """The kiosk's view of standard Monopoly (and the base of its variants')."""

    description = "The standard rules: every rule, auctions, trades and mortgages"
    hidden_options: frozenset[str] = frozenset()  # options the variant's rules depend on

    def __init__(self, game: Rules) -> None:
        super().__init__(game)
        self.rules = game

    # -- setup -----------------------------------------------------------------------------
    def table_options(self) -> tuple[TableOption, ...]:
        """The on/off options of ``TABLE_OPTIONS`` this variant's options define."""
        defaults = self.rules.default_options()
        have = {f.name for f in fields(defaults)}
        return tuple(o for o in TABLE_OPTIONS if o.name in have
                     and o.name not in self.hidden_options
                     and isinstance(getattr(defaults, o.name), bool))

    def parse_option(self, word: str) -> tuple[str, Any]:
        name, sep, value = word.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--option takes NAME=VALUE, not {word!r}")
        return self.rules.parse_option(name.strip(), value.strip())

    def players_summary(self, state: GameState) -> str:
        if state.sides:  # team play: "Team A: Ann+Cai vs Team B: Ben+Dee"
            return " vs ".join(dict.fromkeys(side_title(state, i)
                                             for i in range(len(state.players))))
        return super().players_summary(state)

    # -- labels ----------------------------------------------------------------------------
    def square_name(self, index: int) -> str:
        return self.rules.board.squares[index].name

    def action_label(self, state: GameState, a: Action) -> str:  # noqa: C901
        """What an option says on screen (short, plain words)."""
        rules, who, sq = self.rules, self.who, self.square_name
        if isinstance(a, Roll):
            return "Enter the dice"
        if isinstance(a, Buy):
            head = state.pending[0]
            return f"Buy {sq(head.square)} for ${rules.price(state, a.player, head.square)}"
        if isinstance(a, Decline):
            if state.pending and type(state.pending[0]).__name__ == "PlaceHouse":
                return "Give the house back"
            return "Don't buy" + (" (auction)" if state.options.auctions else "")
        if isinstance(a, EndTurn):
            return "End the turn"
        if isinstance(a, PayJail):
            return f"Pay ${state.options.jail_fee} to leave jail"
        if isinstance(a, UseJailCard):
            return "Use the Get Out of Jail Free card"
        if isinstance(a, DrawnCard):
            return card_by_id(deck_of(state), a.card).text
        if isinstance(a, Bid):
            return f"{who(state, a.player)} bids ${a.amount}"
        if isinstance(a, PassBid):
            return f"{who(state, a.player)} leaves the auction"
        if isinstance(a, DeclareBankruptcy):
            return "Declare bankruptcy"
        if isinstance(a, Build):
            return f"Build on {sq(a.square)} (${rules.board.squares[a.square].house_cost})"
        if isinstance(a, Sell):
            return f"Sell a building on {sq(a.square)}"
        if isinstance(a, Mortgage):
            return f"Mortgage {sq(a.square)} (+${rules.board.squares[a.square].mortgage})"
        if isinstance(a, Unmortgage):
            return f"Lift mortgage on {sq(a.square)} (${rules.unmortgage_cost(state, a.square)})"
        if isinstance(a, KeepMortgaged):
            return f"Keep {sq(a.square)} mortgaged (fee ${rules.transfer_fee(state, a.square)})"
        if isinstance(a, BreakDown):
            return f"Sell {words(a.group)} down to {','.join(map(str, a.levels))}"
        if isinstance(a, ClaimRent):
            return f"{who(state, a.player)} claims rent for {sq(a.square)}"
        if isinstance(a, CallHouseAuction):
            return f"{who(state, a.player)} calls a house auction"
        if isinstance(a, EndGame):
            return "End the game now (standings by net worth)"
        label = self.variant_label(state, a)
        if label is not None:
            return label
        from companion.transcript import format_action

        try:
            return format_action(rules, state, a)
        except ValueError:
            return type(a).__name__

    def variant_label(self, state: GameState, a: Action) -> str | None:
        """A variant's label for one of its own actions (None: not one of them)."""
        return None

    # -- the decision menu -----------------------------------------------------------------
    def menu(self, state: GameState, actions: Sequence[Action] | None = None,
             referee: Sequence[tuple[str, str]] = ()) -> Menu:
        from companion.games.monopoly.menus import root_menu

        return root_menu(self, state, actions, referee)

    def group_of(self, a: Action) -> str | None:
        """The menu group a variant gathers an action into (e.g. abilities), None for a row."""
        return None

    def group_rows(self, state: GameState, groups: Mapping[str, Mapping[int, Sequence[Action]]]
                   ) -> list[Option]:
        """The rows that open a variant's groups (after the ordinary rows)."""
        return []

    def is_roll(self, state: GameState, action: Action) -> bool:
        return isinstance(action, Roll)

    # -- the screen ------------------------------------------------------------------------
    def header(self, state: GameState) -> HeaderFacts:
        return HeaderFacts(state.turn_number, state.current, state.pot,
                           f"Bank: {state.bank_houses} houses, {state.bank_hotels} hotels")

    def game_over(self, state: GameState) -> GameOver | None:
        outcome = state.outcome
        if outcome is None:
            return None
        winner = title_of_name(state, outcome.winner) if outcome.winner else ""
        standings = ""
        if outcome.standings:
            standings = "Standings: " + ", ".join(
                f"{k}. {title_of_name(state, name)} ${worth:,}"
                for k, (name, worth) in enumerate(outcome.standings, 1))
        return GameOver(f"{winner} wins" if winner else "Game over",
                        "Game over: " + (f"{winner} wins" if winner
                                         else "standings by net worth"), standings)

    def player_cards(self, state: GameState, checks: Mapping[int, str]
                     ) -> tuple[PlayerCard, ...]:
        rules = self.rules
        deciders = set(rules.deciders(state))
        cards = []
        for i, p in enumerate(state.players):
            holder = state.side(i)  # team play: the team's lots are held by its first seat
            letter = team_of(state, i)
            card = PlayerCard(
                seat=i, name=p.name, colour=theme.seat_colour(i), cash=p.cash,
                groups=self.lot_groups(state, holder),
                no_groups="no team lots" if letter else "no properties",
                current=i == state.current and state.outcome is None,
                deciding=i in deciders, bankrupt=p.bankrupt, in_jail=p.in_jail,
                jail_cards=len(p.jail_cards),
                square=self.place_name(cell_of(state, i)), check=checks.get(i, ""),
                team=letter, team_label=side_title(state, i) if letter else "",
                team_colour=team_colour(letter))
            cards.append(self.variant_card(state, i, card))
        if state.sides:  # team play: a team's cards side by side, teams in letter order
            cards.sort(key=lambda c: (c.team or "~", c.seat if c.team else 0, c.seat))
        return tuple(cards)

    def variant_card(self, state: GameState, seat: int, card: PlayerCard) -> PlayerCard:
        """A variant's own fields on a seat's card (role, level, ...); the card as it is."""
        return card

    def lot_groups(self, state: GameState, holder: int) -> tuple[GroupRow, ...]:
        rules = self.rules
        groups = []
        for g, lots in rules.board.groups.items():
            mine = [j for j in lots if state.squares[j].owner == holder]
            if not mine:
                continue
            chips = []
            for j in mine:
                sq = state.squares[j]
                name = rules.board.squares[j].name
                chips.append(LotChip(short_name(name), name, sq.houses, sq.hotel, sq.mortgaged,
                                     self.lot_marks(state, j)))
            groups.append(GroupRow(g, GROUP_COLOURS.get(g, (150, 150, 150)),
                                   tuple(chips), len(mine) == len(lots)))
        return tuple(groups)

    def lot_marks(self, state: GameState, index: int) -> tuple[str, ...]:
        """Marks a variant puts on a lot's chip (e.g. enchantments), short words."""
        return ()

    def place_marks(self, state: GameState) -> dict[int, tuple[str, ...]]:
        """The lot marks by square, for the camera view (the squares are the board's places)."""
        out = {}
        for i in range(len(self.rules.board.squares)):
            marks = self.lot_marks(state, i)
            if marks:
                out[i] = marks
        return out

    # -- the board -------------------------------------------------------------------------
    def place_of(self, state: GameState, seat: int) -> int | None:
        if state.players[seat].bankrupt:
            return None
        return cell_of(state, seat)

    def place_name(self, place: int) -> str:
        if place == JAIL_CELL:
            return "In Jail"
        if place == 10:
            return "Just Visiting"
        return self.square_name(place)


def deck_of(state: GameState) -> str:
    """The deck of the card being drawn (the pending step's), ``chance`` by default."""
    head = state.pending[0] if state.pending else None
    return str(getattr(head, "deck", "chance"))

