"""Illumonopoly as a layer over standard Monopoly (rule source: Illumonopoly, every section;
the numbered rules IL.n follow /work/shared/specs/four-games.md section 1, rulings I-n are in
docs/illumonopoly/rulings.md).

Money: a player's ``cash`` is the total of their treasuries; ``credit``/``debit`` decide which
treasury money lands in or comes from (by the payment's reason), ``can_pay`` says whether the
treasuries a payment may use cover it (IL.4-IL.8). Contests and cards are pending steps
(``contests.py``); the turn's bookkeeping lives on the table (``state.IllumTable``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.games.monopoly.actions import (
    Action,
    Bid,
    Build,
    Buy,
    Choose,
    Decline,
    EndTurn,
    Mortgage,
    Pass,
    PayJail,
    Sell,
    Trade,
    TradeSide,
    Unmortgage,
)
from companion.games.monopoly.cards import DECKS, load_deck
from companion.games.monopoly.engine import LandContext, RollSpec, Rules, round_money
from companion.games.monopoly.illumonopoly import bots
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
    AntitrustChoice,
    CardWindow,
    ContestRoll,
    EveningChoice,
    HeldCaseChoice,
    InKindOffer,
    InterferenceWindow,
    SupportRound,
    reopened,
)
from companion.games.monopoly.illumonopoly.state import (
    CARD_KINDS,
    CARD_TIMING,
    CENTRAL,
    COPIES,
    ILLUMINATI,
    ILLUMINATI_NAMES,
    SUIT_KINDS,
    HeldCase,
    IllumOptions,
    IllumPlayer,
    IllumTable,
)
from companion.games.monopoly.pending import BuyDecision, Debt, Pending, PlaceHouse
from companion.games.monopoly.state import BANK, GameState, Options, PlayerState, VariantTable
from companion.games.monopoly.txn import Txn

FILING_FEE = 50  # IL.14, IL.43
IDLE_BONUS = 200  # IL.39
BAVARIAN_FEE = 100  # IL.53
# what a player may do on their own turn and still collect the do-nothing bonus (I-5)
IDLE_ACTIONS = (Decline, EndTurn, Pass, Choose)
ALIASES = {"bavarian_illuminati": "bavarian", "gnomes_of_zurich": "gnomes",
           "servants_of_cthulhu": "cthulhu", "bermuda_triangle": "bermuda",
           "discordian_society": "discordian", "discordians": "discordian"}

State = GameState | Txn


def _p(state: State, seat: int) -> IllumPlayer:
    p = state.players[seat]
    assert isinstance(p, IllumPlayer)
    return p


class Illumonopoly(Rules):
    """Monopoly with treasuries, interference, court cases, Court Date cards and the
    Illuminati."""

    player_fields = ("treasury", "central", "illuminati", "court_hand", "court_cards",
                     "audited")
    square_fields = ("landmark", "missing", "frozen", "bribed")
    name = "illumonopoly"
    player_type = IllumPlayer

    def __init__(self) -> None:
        super().__init__()
        self._lot_group = {i: sq.group for i, sq in enumerate(self.board.squares) if sq.ownable}
        self._lot_by_name = {sq.name: i for i, sq in enumerate(self.board.squares)}
        self._repairs = frozenset(c.text for d in DECKS for c in load_deck(d)
                                  if c.effect == "repairs")

    def presenter(self) -> Any:
        """What the kiosk shows of Illumonopoly (treasuries, cards, contests)."""
        if self._presenter is None:
            from companion.games.monopoly.illumonopoly.presenter import IllumonopolyPresenter

            self._presenter = IllumonopolyPresenter(self)
        return self._presenter

    # ======================================================================================
    # Setting up
    # ======================================================================================
    def default_options(self) -> Options:
        """The basic game's settings; house-shortage auctions are off (I-32)."""
        return IllumOptions(house_shortage_auctions=False)

    def new_player(self, name: str, options: Options, role: str = "") -> PlayerState:
        """A player of the basic game (no role, or ``basic``) or of the advanced game (an
        Illuminati: bavarian, gnomes, cthulhu, bermuda, discordian)."""
        role = ALIASES.get(role.lower(), role.lower())
        if role in ("basic", "none"):
            role = ""
        if role and role not in ILLUMINATI:
            raise ValueError(f"unknown Illuminati {role!r}; choose one of "
                             f"{', '.join(ILLUMINATI)} (or none for the basic game)")
        return IllumPlayer(name=name, cash=options.starting_cash, illuminati=role)

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Options | None = None,
                 seed: int = 0, decks: Any = None,
                 table: VariantTable | None = None) -> GameState:
        """Team play is not offered (I-31); a virtual Court Date deck is shuffled from the
        seed."""
        options = options or self.default_options()
        if options.teams:
            raise ValueError("illumonopoly has no team play (a team's pooled cash cannot keep "
                             "separate treasuries); leave the teams option empty")
        mode = getattr(options, "court_deck", "physical")
        if mode not in ("physical", "virtual"):
            raise ValueError(f"court_deck is physical or virtual, not {mode!r}")
        deck: tuple[str, ...] = ()
        if mode == "virtual":
            cards = [k for k in CARD_KINDS for _ in range(COPIES)]
            random.Random(seed * 7919 + 28).shuffle(cards)
            deck = tuple(cards)
        return super().new_game(players, options, seed, decks,
                                table=table if table is not None else IllumTable(deck=deck))

    # ======================================================================================
    # Reading the table
    # ======================================================================================
    def table(self, state: State) -> IllumTable:
        return state.table_of(IllumTable)

    def opt(self, state: State, name: str, default: Any) -> Any:
        return getattr(state.options, name, default)

    @staticmethod
    def in_play(state: State, index: int) -> bool:
        """A lot neither landmarked nor missing (I-18)."""
        tb = state.table
        if type(tb) is IllumTable:
            return index not in tb.landmarks and tb.missing[0] != index
        return True

    def group_lots(self, state: State, group: str) -> Sequence[int]:
        lots = self.board.groups[group]
        tb = state.table
        if type(tb) is IllumTable and (tb.landmarks or tb.missing[0] >= 0):
            return [i for i in lots if i not in tb.landmarks and i != tb.missing[0]]
        return lots

    def lots_of(self, state: State, seat: int) -> list[int]:
        """The lots ``seat`` owns that are in play."""
        lots = [i for i, s in enumerate(state.squares) if s.owner == seat]
        tb = state.table
        if type(tb) is IllumTable and (tb.landmarks or tb.missing[0] >= 0):
            return [i for i in lots if i not in tb.landmarks and i != tb.missing[0]]
        return lots

    def legal_power(self, state: State, seat: int) -> int:
        """IL.44 / IL.52: the Illuminati's, else the larger of 3 and the lots owned (I-16)."""
        ill = _p(state, seat).illuminati
        if ill:
            return ILLUMINATI[ill][0]
        return max(3, len(self.lots_of(state, seat)))

    @staticmethod
    def audited(state: State, seat: int) -> bool:
        return _p(state, seat).audited

    def holds_card(self, state: State, seat: int, kind: str) -> bool:
        p = _p(state, seat)
        if p.bankrupt or p.court_hand <= 0:
            return False
        if self.opt(state, "court_deck", "physical") == "virtual":
            return kind in p.court_cards
        return True

    def monopoly_groups(self, state: State, seat: int) -> list[str]:
        """IL.50: whole colour groups (of the lots in play), both utilities, or three of the
        four railroads."""
        out = []
        for group, lots in self.board.groups.items():
            mine = sum(1 for i in lots if state.squares[i].owner == seat and self.in_play(state, i))
            live = len(self.group_lots(state, group))
            if group == "railroad":
                if mine >= 3:
                    out.append(group)
            elif mine and mine == live:
                out.append(group)
        return out

    # ======================================================================================
    # Money: treasuries (IL.2-IL.12)
    # ======================================================================================
    def concerned_group(self, reason: str) -> str | None:
        """The property group a payment or receipt concerns, read from its reason."""
        for prefix in ("rent for ", "mortgaged ", "bought ", "building on ", "unmortgaged ",
                       "10% on mortgaged ", "auction for "):
            if reason.startswith(prefix):
                index = self._lot_by_name.get(reason[len(prefix):])
                return None if index is None else self._lot_group.get(index)
        return None

    def spend_sources(self, state: State, seat: int, reason: str) -> list[str]:
        """The treasuries a payment may come from (IL.7): central and the concerned group's
        (every group's for a per-building assessment; all of them on bankruptcy)."""
        p = _p(state, seat)
        if reason == "bankruptcy":
            return [CENTRAL, *(g for g, _a in p.treasuries)]
        if reason in self._repairs:
            return [CENTRAL, *(g for g, _a in p.treasuries)]
        group = self.concerned_group(reason)
        if group is None or reason.startswith("rent for ") or reason.startswith("mortgaged "):
            return [CENTRAL]
        if self.opt(state, "payment_source", "group_first") == "central_first":
            return [CENTRAL, group]
        return [group, CENTRAL]

    def can_spend(self, state: State, seat: int, amount: int, reason: str) -> bool:
        p = _p(state, seat)
        return sum(p.treasury(s) for s in self.spend_sources(state, seat, reason)) >= amount

    def can_pay(self, t: State, player: int, amount: int, reason: str) -> bool:
        """hook: the treasuries this payment may use cover it."""
        return self.can_spend(t, player, amount, reason)

    def set_treasury(self, t: Txn, seat: int, group: str, amount: int) -> None:
        """Set one group treasury (the central treasury absorbs the difference: ``cash`` is
        unchanged)."""
        p = _p(t, seat)
        rest = [(g, a) for g, a in p.treasuries if g != group]
        if amount:
            rest.append((group, amount))
        order = list(self.board.groups)
        t.set_player(seat, treasuries=tuple(sorted(rest, key=lambda e: order.index(e[0]))))

    def credit(self, t: Txn, player: int, amount: int, reason: str) -> None:
        """IL.4-IL.6: rent and mortgage money land in the lot's group treasury, the rest in
        the central treasury."""
        p = _p(t, player)
        t.set_player(player, cash=p.cash + amount)
        if reason.startswith("rent for ") or reason.startswith("mortgaged "):
            group = self.concerned_group(reason)
            if group is not None:
                self.set_treasury(t, player, group, p.treasury(group) + amount)

    def debit(self, t: Txn, player: int, amount: int, reason: str) -> None:
        """IL.7: the payment comes from the treasuries it may use (``spend_sources``, in that
        order; the central treasury is what ``cash`` holds beyond the group treasuries).
        Should they fall short (a path checked on the total only) the rest comes from the
        other group treasuries (I-33)."""
        p = _p(t, player)
        sources = self.spend_sources(t, player, reason)
        left = amount
        if sources[0] == CENTRAL:
            left -= min(max(0, p.central), left)
        for g in [s for s in sources if s != CENTRAL]:
            take = min(p.treasury(g), left)
            if take:
                self.set_treasury(t, player, g, p.treasury(g) - take)
                left -= take
        p = _p(t, player)
        if sources[0] != CENTRAL:  # (central first: already counted above)
            left -= min(max(0, p.central), left)
        for g, have in list(p.treasuries):
            if left <= 0:
                break
            take = min(have, left)
            self.set_treasury(t, player, g, have - take)
            left -= take
        t.set_player(player, cash=_p(t, player).cash - amount)

    def money_fee(self, state: State, amount: int) -> int:
        """IL.10 / I-1: 10% of the amount moved, rounded up, at least $5."""
        mode = self.opt(state, "transfer_fee_rounding", "up")
        return max(5, round_money(amount * 0.1, mode))

    def movable(self, state: State, amount: int) -> int:
        """The most a treasury holding ``amount`` can send, paying the fee from itself."""
        best = 0
        lo, hi = 0, amount
        while lo <= hi:
            mid = (lo + hi) // 2
            if mid + self.money_fee(state, mid) <= amount:
                best, lo = mid, mid + 1
            else:
                hi = mid - 1
        return best

    def free_transfer_now(self, state: State, seat: int) -> bool:
        """IL.11 / I-4: after the turn's last movement, the mover's first two transfers are
        free; Gnomes of Zurich move money free then without limit (IL.54, I-29)."""
        if seat != state.current or not state.rolled or state.roll_again or state.pending:
            return False
        if _p(state, seat).illuminati == "gnomes":
            return True
        return self.table(state).free_transfers > 0

    def transfer_problem(self, state: State, a: Transfer) -> str | None:
        p = _p(state, a.player)
        held = {self._lot_group[i] for i in self.lots_of(state, a.player)}
        held |= {g for g, _x in p.treasuries}
        if a.amount <= 0:
            return "transfer a positive whole number of dollars"
        if (a.source == CENTRAL) == (a.dest == CENTRAL):
            return ("a transfer moves money between the central treasury and one group "
                    "treasury (group to group takes two transfers)")
        group = a.dest if a.source == CENTRAL else a.source
        if group not in self.board.groups:
            return (f"no treasury named {group!r}; name central or a group: "
                    f"{', '.join(self.board.groups)}")
        if group not in held:
            return f"{p.name} holds no {group.replace('_', ' ')} lots, so has no such treasury"
        if p.audited and not self.raising(state, a.player):
            return f"{p.name} is under an IRS Audit: transfers only to pay a debt"
        fee_from = a.fee_from or a.source
        if fee_from not in (a.source, a.dest):
            return "the fee comes from one of the two treasuries of the transfer"
        fee = 0 if self.free_transfer_now(state, a.player) else self.money_fee(state, a.amount)
        have = p.treasury(a.source)
        if have <= 0:
            return f"{p.name}'s {a.source.replace('_', ' ')} treasury is empty"
        need = a.amount + (fee if fee_from == a.source else 0)
        if have < need:
            return (f"{p.name}'s {a.source.replace('_', ' ')} treasury holds ${have}; moving "
                    f"${a.amount} needs ${need} (fee ${fee})")
        if fee_from == a.dest and p.treasury(a.dest) + a.amount < fee:
            return f"the {a.dest} treasury cannot cover the ${fee} fee"
        return None

    def raising(self, state: State, seat: int) -> bool:
        head = state.pending[0] if state.pending else None
        return isinstance(head, Debt) and head.player == seat

    def _do_transfer(self, t: Txn, a: Transfer) -> None:
        problem = self.transfer_problem(t, a)
        if problem:
            raise IllegalActionError(problem)
        free = self.free_transfer_now(t, a.player)
        fee = 0 if free else self.money_fee(t, a.amount)
        if free and _p(t, a.player).illuminati != "gnomes":
            t.table = replace(self.table(t), free_transfers=self.table(t).free_transfers - 1)
        p = _p(t, a.player)
        if a.source != CENTRAL:
            self.set_treasury(t, a.player, a.source, p.treasury(a.source) - a.amount)
        else:
            self.set_treasury(t, a.player, a.dest, p.treasury(a.dest) + a.amount)
        t.emit("transferred", a.player, amount=a.amount, detail=f"{a.source}>{a.dest}")
        if fee:
            src = a.fee_from or a.source
            if src != CENTRAL:
                self.set_treasury(t, a.player, src, _p(t, a.player).treasury(src) - fee)
            t.set_player(a.player, cash=_p(t, a.player).cash - fee)
            t.bank_net -= fee
            t.emit("paid", a.player, amount=fee, other=BANK, detail="transfer fee")

    def sweep_treasuries(self, t: Txn) -> None:
        """IL.51 / I-21: a group treasury whose group the player no longer holds empties
        into the central treasury."""
        for seat, p in enumerate(t.players):
            if not isinstance(p, IllumPlayer) or not p.treasuries:
                continue
            held = {self._lot_group[i] for i in self.lots_of(t, seat)}
            gone = [(g, a) for g, a in p.treasuries if g not in held]
            if gone:
                t.set_player(seat, treasuries=tuple(e for e in p.treasuries if e[0] in held))
                for g, a in gone:
                    t.emit("treasury_emptied", seat, amount=a, detail=g)

    def liquid(self, state: State, seat: int, reason: str) -> int:
        """I-30: what the player could put toward a payment: the treasuries it may use, the
        other treasuries less the transfer fees, and what selling and mortgaging would raise
        (into each lot's group treasury)."""
        p = _p(state, seat)
        sources = set(self.spend_sources(state, seat, reason))
        per_group: dict[str, int] = {g: a for g, a in p.treasuries}
        for i, s in enumerate(state.squares):
            if s.owner != seat or not self.in_play(state, i):
                continue
            sq = self.board.squares[i]
            g = sq.group
            per_group[g] = per_group.get(g, 0) + s.level * (sq.house_cost // 2) + \
                (0 if s.mortgaged else sq.mortgage)
        total = p.central
        for g, a in per_group.items():
            total += a if g in sources else self.movable(state, a)
        return total

    def insolvent(self, state: State, player: int, amount: int) -> bool:
        head = state.pending[0] if state.pending else None
        reason = head.reason if isinstance(head, Debt) else ""
        return self.liquid(state, player, reason) < amount

    # ======================================================================================
    # Turn flow
    # ======================================================================================
    def start_turn(self, t: Txn, player: int) -> None:
        """Reset the turn's bookkeeping; effects that last "until the player's next turn"
        end (Legal Holiday, Bribed Assessor, a frozen lot); a held case asks."""
        tb = self.table(t)
        tb = replace(tb, cases_used=0, extra_cases=0, free_transfers=2, acted=False,
                     card_played=False, secret_deal=False, ability_used=False, offered=(),
                     legal_holiday=tuple(s for s in tb.legal_holiday if s != player),
                     bribed=tuple(b for b in tb.bribed if b[1] != player),
                     blocked=tuple(b for b in tb.blocked if b[1] != player))
        if tb.missing[1] >= 0 and t.players[tb.missing[1]].bankrupt:
            # I-40: the Bermuda player left the game, so no "next turn" of theirs ends it
            gone = tb.missing[0]
            tb = replace(tb, missing=(-1, -1, 0))
            t.table = tb
            t.emit("missing_returned", player, square=gone)
            self.even_group(t, self.board.squares[gone].group, ask=False)
            tb = self.table(t)
        t.table = tb
        super().start_turn(t, player)
        for k, case in enumerate(tb.held_cases):
            if case.plaintiff == player:
                t.push(HeldCaseChoice(player, k))
                break

    def _do_end_turn(self, t: Txn, action: EndTurn) -> None:
        """The do-nothing bonus (IL.39-IL.41, I-5), then lasting effects count down."""
        if action.player == t.current and not t.pending and t.rolled and not t.roll_again:
            tb = self.table(t)
            if not tb.acted and not _p(t, action.player).bankrupt:
                t.emit("idle_bonus", action.player, amount=IDLE_BONUS)
                t.receive(action.player, IDLE_BONUS, BANK, "did nothing but move")
                t.flush()
            self.count_down(t, action.player)
        super()._do_end_turn(t, action)

    def count_down(self, t: Txn, seat: int) -> None:
        tb = self.table(t)
        rc = tuple((s, n - 1 if s == seat else n) for s, n in tb.rent_control)
        rc = tuple(e for e in rc if e[1] > 0)
        missing = tb.missing
        if missing[1] == seat:
            missing = (missing[0], seat, missing[2] - 1) if missing[2] > 1 else (-1, -1, 0)
        t.table = replace(tb, rent_control=rc, missing=missing)
        if missing[0] < 0 <= tb.missing[0]:
            t.emit("missing_returned", seat, square=tb.missing[0])
            # at the turn's end no decision can wait: the group is sold down (I-35)
            self.even_group(t, self.board.squares[tb.missing[0]].group, ask=False)

    def after_action(self, t: Txn, action: Action) -> None:
        """Empty the treasuries of groups no longer held; note what the current player did
        on their own turn (the do-nothing bonus)."""
        self.sweep_treasuries(t)
        if isinstance(action, Decline) and self.table(t).secret_deal:
            t.table = replace(self.table(t), secret_deal=False)  # the deal went with the lot
        continued = isinstance(action, Choose) and action.what == "case" and \
            action.option == "continue"  # a legal action (I-5)
        if action.player == t.origin.current and (continued or not isinstance(
                action, IDLE_ACTIONS)) and not (type(action).__name__ == "Roll"):
            tb = self.table(t)
            if not tb.acted:
                t.table = replace(tb, acted=True)

    def handle_roll(self, t: Txn, spec: RollSpec, dice: tuple[int, ...]) -> None:
        """IL.26 / I-23: any doubles (movement or jail roll) ends an IRS Audit."""
        if spec.purpose in ("move", "jail") and self.is_doubles(dice) and \
                _p(t, spec.player).audited:
            t.set_player(spec.player, audited=False)
            t.emit("audit_ended", spec.player)
        super().handle_roll(t, spec, dice)

    # ======================================================================================
    # The board: landing, passing, rent
    # ======================================================================================
    def collect_go(self, t: Txn, player: int, landed: bool) -> None:
        """IL.17 / I-6: landing on GO also draws a Court Date card."""
        super().collect_go(t, player, landed)
        if landed or self.opt(t, "court_card_on_passing_go", False):
            self.draw_court_card(t, player)

    def free_parking(self, t: Txn, player: int) -> None:
        super().free_parking(t, player)
        self.draw_court_card(t, player)

    def draw_court_card(self, t: Txn, seat: int) -> None:
        """A card into the hand: a count (physical deck) or the deck's top card (virtual);
        when all 52 are out the discards are shuffled back (I-6)."""
        tb = self.table(t)
        p = _p(t, seat)
        held = sum(_p(t, s).court_hand for s in range(len(t.players)))
        if self.opt(t, "court_deck", "physical") == "virtual":
            deck = tb.deck
            if not deck:
                cards = list(tb.played)
                random.Random(t.turn_number * 7919 + len(cards)).shuffle(cards)
                deck, tb = tuple(cards), replace(tb, played=())
                if not deck:
                    t.emit("court_deck_empty", seat)
                    return
            t.table = replace(tb, deck=deck[1:])
            t.set_player(seat, court_hand=p.court_hand + 1, court_cards=p.court_cards + deck[:1])
        else:
            if held + len(tb.played) >= COPIES * len(CARD_KINDS):
                if held >= COPIES * len(CARD_KINDS):
                    t.emit("court_deck_empty", seat)
                    return
                t.table = replace(tb, played=())
            t.set_player(seat, court_hand=p.court_hand + 1)
        t.emit("court_card_drawn", seat)

    def resolve_square(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        """A landmarked lot is out of play; a frozen lot cannot be bought this round."""
        sq = self.board.squares[index]
        if sq.ownable and t.squares[index].owner is None:
            tb = self.table(t)
            if index in tb.landmarks:
                t.emit("landmark_visited", player, square=index)
                return
            if any(b[0] == index for b in tb.blocked):
                t.emit("lot_frozen", player, square=index)
                return
        super().resolve_square(t, player, index, ctx)

    def passing(self, t: Txn, player: int, index: int, forward: bool, land: bool) -> bool:
        """IL.56 / I-28: a move that would pass the missing lot stops on it."""
        if self.table(t).missing[0] == index:
            return True
        return super().passing(t, player, index, forward, land)

    def on_land(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        if self.table(t).missing[0] == index:
            t.emit("stopped_at_missing", player, square=index)
            if player == t.current:
                t.roll_again = False
            return
        super().on_land(t, player, index, ctx)

    def rent_due(self, t: Txn, payer: int, index: int, ctx: LandContext) -> int:
        """No rent on landmarked or missing lots; a whole group is every lot still in play
        (I-18); Rent Control caps improved lots at their one-house rent (IL.27)."""
        if not self.in_play(t, index):
            return 0
        sq = self.board.squares[index]
        s = t.squares[index]
        rent = super().rent_due(t, payer, index, ctx)
        if sq.kind == "street" and not s.level and not s.mortgaged and s.owner is not None:
            live = self.group_lots(t, sq.group)
            whole = all(t.squares[i].owner == s.owner for i in live)
            rent = sq.rents[0] * (2 if whole else 1) * ctx.rent_multiplier
        if sq.kind == "street" and s.level and self.table(t).rent_control:
            rent = min(rent, sq.rents[1])
        return rent

    def price(self, state: State, player: int, index: int) -> int:
        """IL.37: the printed price whatever stands on the lot; half under Bribed Assessor
        (I-25)."""
        return self.valued(state, index, self.board.squares[index].price)

    def valued(self, state: State, index: int, value: int) -> int:
        if any(b[0] == index for b in self.table(state).bribed):
            return value // 2
        return value

    # ======================================================================================
    # Buying, with interference (IL.13-IL.16)
    # ======================================================================================
    def _pending_actions(self, state: GameState, head: Pending) -> list[Action]:
        out = [a for a in super()._pending_actions(state, head)
               if not isinstance(a, Unmortgage) or self.unmortgage_ok(state, a.player, a.square)]
        if isinstance(head, BuyDecision):
            out = [a for a in out if not isinstance(a, Buy)]
            if self.buy_problem(state, head.player, head.square) is None:
                out.insert(0, Buy(head.player))
            p = _p(state, head.player)
            if p.illuminati == "bavarian" and not self.table(state).secret_deal and \
                    not p.audited and self.can_spend(state, head.player, BAVARIAN_FEE, ""):
                out.append(BavarianDeal(head.player))
            if self.holds_card(state, head.player, "secret_deal") and \
                    not self.table(state).secret_deal:
                out.append(PlayCard(head.player, "secret_deal"))
            half = PlayCard(head.player, "bribed_assessor", square=head.square)
            if self.card_problem(state, half) is None and \
                    all(b[0] != head.square for b in self.table(state).bribed):
                out.append(half)
        return out

    def buy_problem(self, state: State, player: int, index: int) -> str | None:
        p = _p(state, player)
        name = self.board.squares[index].name
        if p.audited:
            return f"{p.name} is under an IRS Audit and may not buy"
        price = self.price(state, player, index)
        if not self.can_spend(state, player, price, f"bought {name}"):
            have = sum(p.treasury(s) for s in self.spend_sources(state, player, f"bought {name}"))
            return (f"{name} costs ${price}; the central and {self._lot_group[index]} "
                    f"treasuries hold ${have}: transfer money in first, or decline")
        return None

    def _do_buy(self, t: Txn, action: Buy) -> None:
        """Announcing the purchase opens the interference window (I-9)."""
        head = self._head(t, BuyDecision, action.player)
        problem = self.buy_problem(t, action.player, head.square)
        if problem:
            raise IllegalActionError(problem)
        t.pending.pop(0)
        tb = self.table(t)
        secret = tb.secret_deal
        t.table = replace(tb, secret_deal=False)
        n = len(t.players)
        others = tuple((action.player + k) % n for k in range(1, n))
        eligible = tuple(s for s in others if not t.players[s].bankrupt)
        t.emit("purchase_announced", action.player, square=head.square,
               detail="secret deal" if secret else "")
        t.push(InterferenceWindow(-1, eligible, (), action.player, head.square, secret))

    def complete_purchase(self, t: Txn, purchaser: int, index: int) -> None:
        price = self.price(t, purchaser, index)
        name = self.board.squares[index].name
        t.set_square(index, owner=purchaser)
        t.emit("bought", purchaser, amount=price, square=index)
        t.charge(purchaser, BANK, price, f"bought {name}")

    def _do_interfere(self, t: Txn, a: Interfere) -> None:
        head = t.pending[0] if t.pending else None
        if not isinstance(head, InterferenceWindow):
            raise IllegalActionError("no purchase is being announced: interfere when one is")
        if a.player not in head.waiting:
            raise IllegalActionError(f"{t.name(a.player)} is not being asked about this purchase")
        if head.secret:
            raise IllegalActionError("this purchase is a Secret Deal: only an Interference card "
                                     "lets you interfere")
        self.file_against(t, head, a.player, help_b=True)

    def file_against(self, t: Txn, head: InterferenceWindow, seat: int, help_b: bool) -> None:
        self.spend_check(t, seat, FILING_FEE, CENTRAL)
        t.pending.pop(0)
        self.spend(t, seat, FILING_FEE, CENTRAL, "filing fee")
        t.emit("interfered", seat, square=head.square, other=head.purchaser)
        n = len(t.players)
        order = tuple(s for s in ((head.purchaser + k) % n for k in range(1, n + 1))
                      if not t.players[s].bankrupt)
        t.push(SupportRound(-1, order, (), "purchase", head.purchaser, seat, head.square, 10,
                            help_b=help_b, trade=head.trade, in_kind=head.in_kind))

    def spend_check(self, state: State, seat: int, amount: int, source: str) -> None:
        p = _p(state, seat)
        if p.audited:
            raise IllegalActionError(f"{p.name} is under an IRS Audit: no spending except on "
                                     "debts")
        have = p.treasury(source)
        if have < amount:
            raise IllegalActionError(f"{p.name}'s {source.replace('_', ' ')} treasury holds "
                                     f"${have}, not ${amount}")

    def spend(self, t: Txn, seat: int, amount: int, source: str, reason: str) -> None:
        """Money from one named treasury to the bank."""
        p = _p(t, seat)
        if source != CENTRAL:
            self.set_treasury(t, seat, source, p.treasury(source) - amount)
        t.set_player(seat, cash=_p(t, seat).cash - amount)
        t.bank_net -= amount
        t.emit("paid", seat, amount=amount, other=BANK, detail=reason)

    def _do_support(self, t: Txn, a: Support) -> None:
        head = t.pending[0] if t.pending else None
        if not isinstance(head, SupportRound):
            raise IllegalActionError("no contest is open: support is spent during one")
        if a.player not in head.waiting:
            raise IllegalActionError(f"{t.name(a.player)} is not being asked in this contest "
                                     "(passed, or takes no part)")
        side_a, side_b = head.sides()
        if a.side not in (side_a, side_b):
            raise IllegalActionError(f"support {side_a} or {side_b}, not {a.side!r}")
        for_a = a.side == side_a
        if not for_a and not head.help_b and a.player != head.b:
            raise IllegalActionError(f"{t.name(head.b)} played Interference without help: "
                                     "only they spend on their side")
        if a.amount <= 0 or a.amount % head.unit:
            raise IllegalActionError(f"spend in ${head.unit} units (e.g. {head.unit * 2})")
        doubled = False
        if a.source != CENTRAL:
            group = self._lot_group[head.square]
            if a.player not in (head.a, head.b) or a.source != group:
                raise IllegalActionError(
                    f"only the two parties may spend from their {group.replace('_', ' ')} "
                    "treasury here; everyone else spends from central")
            doubled = head.case  # IL.46: the contested group's money counts double
        self.spend_check(t, a.player, a.amount, a.source)
        self.spend(t, a.player, a.amount, a.source, "court support")
        units = a.amount // head.unit * (2 if doubled else 1)
        t.pending[0] = reopened(head, a.player, units if for_a else -units, a.amount, for_a)
        t.emit("supported", a.player, amount=a.amount, detail=a.side + (" double" if doubled else ""))

    def contest_spent(self, t: Txn, head: SupportRound) -> None:
        """The support round is over: roll, or decide without a roll (IL.47, I-11)."""
        number = head.number
        t.emit("contest_number", head.a, amount=number, detail=head.kind)
        if head.case:
            if number < 2:
                self.case_decided(t, head, False, 0)
                return
        else:
            fail_high = self.opt(t, "interference_11_12_fail", False)
            if number >= 12 and not fail_high:
                self.purchase_decided(t, head, True)
                return
            if number <= 1:
                self.purchase_decided(t, head, False)
                return
        t.push(ContestRoll(head.a, contest=head))

    def contest_rolled(self, t: Txn, head: SupportRound, total: int) -> None:
        fails_high = head.case or self.opt(t, "interference_11_12_fail", False)
        won = total <= head.number and not (fails_high and total >= 11)
        if head.case:
            self.case_decided(t, head, won, total)
        else:
            self.purchase_decided(t, head, won)

    def purchase_decided(self, t: Txn, head: SupportRound, won: bool) -> None:
        """IL.16 / I-12: the purchase goes ahead, or the lot is frozen (not auctioned)."""
        if head.trade is not None:
            if won:
                self.complete_trade(t, head.trade, head.in_kind)
            else:  # (a lot offered for rent: the rent stays owed in money, I-12)
                t.emit("trade_blocked", head.b, square=head.square, other=head.a)
            return
        if won:
            self.complete_purchase(t, head.a, head.square)
            return
        tb = self.table(t)
        t.table = replace(tb, blocked=tb.blocked + ((head.square, head.a),))
        t.emit("purchase_blocked", head.b, square=head.square, other=head.a)

    # ======================================================================================
    # Legal actions (IL.43-IL.51)
    # ======================================================================================
    def cases_allowed(self, state: State, seat: int) -> int:
        tb = self.table(state)
        return 1 + tb.extra_cases + (1 if _p(state, seat).illuminati == "discordian" else 0)

    def sue_problem(self, state: State, s: Sue) -> str | None:
        tb = self.table(state)
        p = _p(state, s.player)
        if s.player != state.current:
            return "a legal action is begun on your own turn"
        if state.pending or state.rolled:
            return "legal actions come first in the turn, before rolling (turn step 1)"
        if s.defendant == s.player:
            return "you cannot sue yourself: name another player"
        if not 0 <= s.defendant < len(state.players) or state.players[s.defendant].bankrupt:
            return "the defendant is not in the game"
        if s.kind not in SUIT_KINDS:
            return f"a suit is {', '.join(SUIT_KINDS)}, not {s.kind!r}"
        if tb.legal_holiday:
            return "a Legal Holiday is on: no court case may be begun"
        if tb.cases_used >= self.cases_allowed(state, s.player):
            return "no more legal actions this turn"
        if p.audited:
            return f"{p.name} is under an IRS Audit: no court fees"
        if p.central < FILING_FEE:
            return f"the filing fee is ${FILING_FEE}; {p.name}'s central treasury holds ${p.central}"
        if not 0 <= s.target < len(self.board.squares) or not self.board.squares[s.target].ownable:
            return "name a lot as the suit's target"
        sq = self.board.squares[s.target]
        owner = state.squares[s.target].owner
        if not self.in_play(state, s.target):
            return f"{sq.name} is out of play"
        if any(c.plaintiff == s.player and c.defendant == s.defendant and c.target == s.target
               for c in tb.held_cases):
            return "that case is held by a Holding Action"
        if s.kind == "landmark":
            if sq.kind != "street":
                return "only a street can be declared a historic landmark (no railroads or utilities)"
            if owner != s.defendant and not (owner is None and self.opt(state, "landmark_unowned", False)):
                return f"{sq.name} is not {state.players[s.defendant].name}'s"
        elif s.kind == "title":
            if owner != s.defendant:
                return f"{sq.name} is not {state.players[s.defendant].name}'s"
        elif sq.group not in self.monopoly_groups(state, s.defendant):
            return (f"{state.players[s.defendant].name} holds no monopoly of the "
                    f"{sq.group.replace('_', ' ')} group")
        return None

    def base_elp(self, state: State, plaintiff: int, defendant: int, kind: str) -> int:
        """IL.45: plaintiff's Legal Power less the defendant's; +6 antitrust (IL.50), +2 for
        Cthulhu's landmark suits (IL.55)."""
        elp = self.legal_power(state, plaintiff) - self.legal_power(state, defendant)
        if kind == "antitrust":
            elp += 6
        if kind == "landmark" and _p(state, plaintiff).illuminati == "cthulhu":
            elp += 2
        return elp

    def _do_sue(self, t: Txn, s: Sue) -> None:
        problem = self.sue_problem(t, s)
        if problem:
            raise IllegalActionError(problem)
        self.spend(t, s.player, FILING_FEE, CENTRAL, "filing fee")
        tb = self.table(t)
        t.table = replace(tb, cases_used=tb.cases_used + 1)
        t.emit("sued", s.player, other=s.defendant, square=s.target, detail=s.kind)
        self.open_case(t, s.player, s.defendant, s.kind, s.target, 0)

    def open_case(self, t: Txn, plaintiff: int, defendant: int, kind: str, target: int,
                  net: int) -> None:
        n = len(t.players)
        order = tuple(s for s in ((plaintiff + k) % n for k in range(1, n + 1))
                      if not t.players[s].bankrupt)
        base = self.base_elp(t, plaintiff, defendant, kind)
        t.push(SupportRound(-1, order, (), kind, plaintiff, defendant, target, base, net))

    def case_decided(self, t: Txn, head: SupportRound, won: bool, total: int) -> None:
        t.emit("case_won" if won else "case_lost", head.a, other=head.b, square=head.square,
               amount=total, detail=head.kind)
        if not won:
            return
        index = head.square
        if head.kind == "landmark":
            self.make_landmark(t, index)
        elif head.kind == "title":
            self.seize_title(t, head.a, index)
        else:
            group = self.board.squares[index].group
            lots = tuple(i for i in self.group_lots(t, group) if t.squares[i].owner == head.b)
            t.push(AntitrustChoice(head.b, lots))

    def make_landmark(self, t: Txn, index: int) -> None:
        """IL.48: out of play; the owner is paid the printed price (less an unpaid mortgage,
        I-34); its buildings go back to the bank unpaid."""
        s = t.squares[index]
        sq = self.board.squares[index]
        owner = s.owner
        self.strip(t, index, paid_to=None)
        t.set_square(index, owner=None, mortgaged=False)
        tb = self.table(t)
        t.table = replace(tb, landmarks=tuple(sorted(tb.landmarks + (index,))))
        t.emit("landmarked", owner, square=index)
        if owner is not None:
            pay = self.valued(t, index, sq.price) - (sq.mortgage if s.mortgaged else 0)
            t.receive(owner, pay, BANK, f"landmark {sq.name}")
        self.even_group(t, sq.group)

    def seize_title(self, t: Txn, plaintiff: int, index: int) -> None:
        """IL.49 / I-19: the plaintiff owns the lot; the former owner sells its buildings back
        at half price."""
        owner = t.squares[index].owner
        self.strip(t, index, paid_to=owner, rate=0.5)
        t.emit("title_seized", plaintiff, square=index, other=owner)
        self.give_lot(t, index, plaintiff)
        self.even_group(t, self.board.squares[index].group)

    def antitrust_lose(self, t: Txn, defendant: int, index: int) -> None:
        """IL.50 / I-20: the lot returns to the bank; the defendant is paid its printed price
        and the full cost of its buildings."""
        sq = self.board.squares[index]
        self.strip(t, index, paid_to=defendant, rate=1.0)
        mortgaged = t.squares[index].mortgaged
        t.set_square(index, owner=None, mortgaged=False)
        t.emit("broken_up", defendant, square=index)
        pay = self.valued(t, index, sq.price) - (sq.mortgage if mortgaged else 0)
        t.receive(defendant, pay, BANK, f"antitrust {sq.name}")
        if self.opt(t, "antitrust_strip_group", False):
            for i in self.board.groups[sq.group]:
                if t.squares[i].owner == defendant:
                    self.strip(t, i, paid_to=defendant, rate=1.0)
        self.even_group(t, sq.group)

    def strip(self, t: Txn, index: int, paid_to: int | None, rate: float = 0.5) -> None:
        """Take every building off a lot; ``paid_to`` is paid ``rate`` of the house price per
        level (valued under Bribed Assessor)."""
        level = t.squares[index].level
        while t.squares[index].level:
            self.remove_building(t, index)
        if level and paid_to is not None:
            each = int(self.board.squares[index].house_cost * rate)
            t.receive(paid_to, self.valued(t, index, level * each), BANK,
                      f"buildings off {self.board.squares[index].name}")

    def even_group(self, t: Txn, group: str, ask: bool = True) -> None:
        """IL.35 / IL.38 / I-26 / I-35: bring a group back to even building. With ``ask``
        (a lot came back bare or lost its buildings) the owner of the highest lot may build
        the low lots up instead, when they can (``EveningChoice``); otherwise the highest
        lots are sold down one level at a time, their owners paid half the house price."""
        if group in ("railroad", "utility"):
            return
        if ask:
            choice = self.evening_choice(t, group)
            if choice is not None and self.evening_build_problem(t, choice) is None:
                t.push(choice)
                t.emit("evening_asked", choice.player, square=choice.square, amount=choice.cost)
                return
        while True:
            lots = self.group_lots(t, group)
            if not lots:
                return
            levels = [t.squares[i].level for i in lots]
            if max(levels) - min(levels) <= 1:
                return
            top = max(lots, key=lambda i: (t.squares[i].level, i))
            if t.squares[top].hotel and t.bank_houses < t.options.max_houses:
                self.strip(t, top, t.squares[top].owner)
                continue
            self.remove_building(t, top)
            owner = t.squares[top].owner
            if owner is not None:
                half = self.board.squares[top].house_cost // 2
                t.receive(owner, self.valued(t, top, half), BANK,
                          f"sold a building on {self.board.squares[top].name}")

    def evening_choice(self, state: State, group: str) -> EveningChoice | None:
        """The choice I-35 gives when ``group`` is uneven: who decides (the owner of the
        highest lot), the low lots' level to reach and its price; None when the group is
        even or the highest lot has no owner."""
        lots = self.group_lots(state, group)
        if not lots:
            return None
        levels = {i: state.squares[i].level for i in lots}
        high = max(levels.values())
        if high - min(levels.values()) <= 1:
            return None
        top = min(i for i in lots if levels[i] == high)
        owner = state.squares[top].owner
        if owner is None:
            return None
        low = [i for i in lots if levels[i] < high - 1]
        cost = sum((high - 1 - levels[i]) * self.board.squares[i].house_cost for i in low)
        return EveningChoice(owner, group, low[0], high - 1, cost)

    def evening_build_problem(self, state: State, c: EveningChoice) -> str | None:
        """Building the low lots up needs them to be the chooser's or unowned (IL.34, IL.36),
        unmortgaged, the money in central or the group's treasury, no IRS Audit, and the
        bank's houses."""
        p = _p(state, c.player)
        lots = self.group_lots(state, c.group)
        low = [i for i in lots if state.squares[i].level < c.needed]
        if p.audited:
            return f"{p.name} is under an IRS Audit and may not spend on building"
        for i in low:
            s = state.squares[i]
            if s.owner not in (None, c.player) or s.mortgaged:
                return (f"{self.board.squares[i].name} is not {p.name}'s to build on; the "
                        "group is sold down")
        houses = sum(c.needed - state.squares[i].level for i in low)
        if houses > state.bank_houses:
            return f"the bank has {state.bank_houses} houses; building up needs {houses}"
        name = self.board.squares[c.square].name
        if not self.can_spend(state, c.player, c.cost, f"building on {name}"):
            return f"building up costs ${c.cost}; the central and group treasuries fall short"
        return None

    def even_up(self, t: Txn, c: EveningChoice) -> None:
        """I-35: the chooser builds the low lots up to ``needed``, paying the bank."""
        for i in self.group_lots(t, c.group):
            while t.squares[i].level < c.needed:
                self.add_building(t, i)
        t.emit("evened_up", c.player, square=c.square, amount=c.cost)
        t.charge(c.player, BANK, c.cost, f"building on {self.board.squares[c.square].name}")

    def resume_case(self, t: Txn, seat: int, k: int, go_on: bool) -> None:
        tb = self.table(t)
        case = tb.held_cases[k]
        t.table = replace(tb, held_cases=tb.held_cases[:k] + tb.held_cases[k + 1:])
        if not go_on:
            t.emit("case_abandoned", seat, other=case.defendant, square=case.target)
            return
        tb = self.table(t)
        t.table = replace(tb, cases_used=tb.cases_used + 1)
        t.emit("case_continued", seat, other=case.defendant, square=case.target)
        if t.players[case.defendant].bankrupt:
            return
        self.open_case(t, seat, case.defendant, case.kind, case.target, case.support)

    def lot_option(self, option: str) -> int:
        if option.isdigit():
            return int(option)
        return self._lot_by_name.get(option, -1)

    # ======================================================================================
    # Court Date cards (IL.17-IL.33)
    # ======================================================================================
    def card_problem(self, state: State, c: PlayCard) -> str | None:  # noqa: C901
        if c.kind not in CARD_KINDS:
            return (f"unknown Court Date card kind {c.kind!r}; the kinds are "
                    f"{', '.join(CARD_KINDS)}")
        p = _p(state, c.player)
        virtual = self.opt(state, "court_deck", "physical") == "virtual"
        if p.court_hand <= 0:
            return f"{p.name} holds no Court Date cards"
        if virtual and c.kind not in p.court_cards and not c.as_deal:
            return f"{p.name} holds no {c.kind.replace('_', ' ')} card"
        if c.as_deal and c.kind == "secret_deal":
            return "a Secret Deal is played as itself (as=secret_deal is for other cards)"
        timing = "acquire" if c.as_deal else CARD_TIMING[c.kind]
        head = state.pending[0] if state.pending else None
        tb = self.table(state)
        own = c.player == state.current
        what = c.kind.replace("_", " ")
        if timing == "start" and not (own and not state.rolled and not state.pending):
            return f"{what} is played at the start of your own turn, before rolling"
        if timing == "end":
            if not (own and state.rolled and not state.roll_again and not state.pending):
                return f"{what} is played at the end of your own turn (after moving)"
            if tb.card_played:
                return "one Court Date card per turn at the end of the turn"
        trading = own and head is None  # announcing a trade for a lot next (I-39)
        if timing == "acquire" and not (trading or (isinstance(head, BuyDecision)
                                                    and head.player == c.player)):
            return ("a Secret Deal is played when you announce buying a lot, or on your own "
                    "turn just before a trade for one")
        if timing == "acquire" and tb.secret_deal:
            return "this purchase is already a Secret Deal"
        if timing == "case" and not (isinstance(head, SupportRound) and head.case):
            return f"{what} is played during a court case"
        if timing == "reply_deal" and not (isinstance(head, InterferenceWindow) and head.secret
                                           and c.player in head.waiting):
            return "Interference is played when someone plays a Secret Deal"
        if timing == "reply_deal" and (p.central < FILING_FEE or p.audited):
            return (f"interfering costs ${FILING_FEE} from the central treasury"
                    + (", which an IRS Audit forbids" if p.audited else ""))
        if timing == "reply_card" and not (isinstance(head, CardWindow) and c.player in head.waiting):
            return "Cancellation is played right after another Court Date card"
        if timing == "any" and isinstance(head, (CardWindow, InterferenceWindow)):
            return "answer the card or the purchase first"
        return self.card_target_problem(state, c)

    def card_target_problem(self, state: State, c: PlayCard) -> str | None:
        kind = c.kind if not c.as_deal else "secret_deal"
        n = len(state.players)
        needs_seat = kind in ("irs_audit", "brain_drain", "corporate_spy")
        if needs_seat:
            if not 0 <= c.target < n or c.target == c.player or state.players[c.target].bankrupt:
                return f"{kind.replace('_', ' ')} names another player still in the game"
        if c.treasury and kind != "corporate_spy":
            return "only Corporate Spy names a treasury"
        if c.treasury and c.treasury != CENTRAL:
            held = {self._lot_group[i] for i in self.lots_of(state, c.target)}
            held |= {g for g, _a in _p(state, c.target).treasuries}
            if c.treasury not in held:
                return (f"{state.players[c.target].name} has no {c.treasury.replace('_', ' ')} "
                        f"treasury; name central or one of: {', '.join(sorted(held)) or 'none'}")
            if kind == "brain_drain" and _p(state, c.target).court_hand <= 0:
                return f"{state.players[c.target].name} holds no Court Date cards"
        sq_ok = 0 <= c.square < len(self.board.squares)
        if kind == "condemned_property":
            if not sq_ok or not state.squares[c.square].level:
                return "condemned property names an improved lot"
        if kind == "bribed_assessor":
            if not sq_ok or not self.board.squares[c.square].ownable:
                return "bribed assessor names a lot"
        if kind == "historic_blunder":
            if not sq_ok or c.square not in self.table(state).landmarks:
                return "historic blunder names a historic landmark"
        return None

    def _do_play_card(self, t: Txn, c: PlayCard) -> None:
        problem = self.card_problem(t, c)
        if problem:
            raise IllegalActionError(problem)
        p = _p(t, c.player)
        cards = list(p.court_cards)
        if c.kind in cards:
            cards.remove(c.kind)
        t.set_player(c.player, court_hand=p.court_hand - 1, court_cards=tuple(cards))
        tb = self.table(t)
        timing = "acquire" if c.as_deal else CARD_TIMING[c.kind]
        t.table = replace(tb, played=tb.played + (c.kind,),
                          card_played=tb.card_played or timing == "end")
        t.emit("court_card", c.player, detail=c.kind + (" as secret deal" if c.as_deal else ""),
               other=c.target if c.target >= 0 else None,
               square=c.square if c.square >= 0 else None)
        head = t.pending[0] if t.pending else None
        if c.kind == "cancellation" and isinstance(head, CardWindow):
            eligible = tuple(s for s in self.card_order(t, c.player) if s != c.player)
            t.pending[0] = replace(head, cancelled=not head.cancelled, last=c.player,
                                   eligible=eligible, passed=())
            return
        eligible = tuple(s for s in self.card_order(t, c.player) if s != c.player)
        t.push(CardWindow(-1, eligible, (), c, False, c.player))

    def card_order(self, state: State, seat: int) -> list[int]:
        n = len(state.players)
        return [s for s in ((seat + k) % n for k in range(1, n + 1))
                if not state.players[s].bankrupt and _p(state, s).court_hand > 0]

    def card_takes_effect(self, t: Txn, c: PlayCard) -> None:  # noqa: C901
        kind = "secret_deal" if c.as_deal else c.kind
        tb = self.table(t)
        head = t.pending[0] if t.pending else None
        t.emit("court_card_effect", c.player, detail=kind)
        if kind == "secret_deal":
            t.table = replace(tb, secret_deal=True)
        elif kind == "interference":
            if isinstance(head, InterferenceWindow):
                self.file_against(t, head, c.player, help_b=c.help)
        elif kind == "historic_blunder":
            t.table = replace(tb, landmarks=tuple(i for i in tb.landmarks if i != c.square))
            t.emit("landmark_returned", c.player, square=c.square)
            self.even_group(t, self.board.squares[c.square].group)
        elif kind == "holding_action":
            if isinstance(head, SupportRound) and head.case:
                t.pending.pop(0)
                t.table = replace(tb, held_cases=tb.held_cases + (HeldCase(
                    head.a, head.b, head.kind, head.square, head.net),))
                t.emit("case_held", c.player, other=head.a, square=head.square)
        elif kind == "idle_hands":
            t.table = replace(tb, extra_cases=tb.extra_cases + 1)
        elif kind == "irs_audit":
            t.set_player(c.target, audited=True)
        elif kind == "rent_control":
            t.table = replace(tb, rent_control=tb.rent_control + ((c.player, 2),))
        elif kind == "brain_drain":
            victim = _p(t, c.target)
            taken: tuple[str, ...] = ()
            left = victim.court_cards
            if victim.court_cards:  # virtual: a card chosen by the game's own count (I-36)
                k = t.turn_number % len(left)
                taken, left = left[k:k + 1], left[:k] + left[k + 1:]
            if victim.court_hand > 0:
                t.set_player(c.target, court_hand=victim.court_hand - 1, court_cards=left)
                me = _p(t, c.player)
                t.set_player(c.player, court_hand=me.court_hand + 1,
                             court_cards=me.court_cards + taken)
                t.emit("card_taken", c.player, other=c.target)
        elif kind == "condemned_property":
            index = c.square
            s = t.squares[index]
            if s.hotel and t.bank_houses < t.options.max_houses:
                # I-42: the bank cannot give four houses for the hotel: the lot keeps as many
                # as it has; the levels it loses beyond the first are sold at half price
                keep = max(0, t.bank_houses)
                t.bank_hotels += 1
                t.bank_houses -= keep
                t.set_square(index, hotel=False, houses=keep)
                lost = t.options.max_houses - keep
                if lost and s.owner is not None:
                    half = self.board.squares[index].house_cost // 2
                    t.receive(s.owner, self.valued(t, index, lost * half), BANK,
                              f"sold a building on {self.board.squares[index].name}")
                self.even_group(t, self.board.squares[index].group, ask=False)
            elif s.level:
                self.remove_building(t, index)
                # the card says the other houses must come down (paid): no choice (I-26)
                self.even_group(t, self.board.squares[index].group, ask=False)
        elif kind == "corporate_spy":
            victim = _p(t, c.target)
            if c.treasury:
                what, seen = c.treasury, f"${victim.treasury(c.treasury)}"
            else:
                what = "cards"
                seen = (", ".join(k.replace("_", " ") for k in victim.court_cards)
                        or "none") if self.opt(t, "court_deck", "physical") == "virtual" \
                    else "shown at the table"
            t.table = replace(tb, spied=(tb.spied + ((c.player, c.target, what, seen),))[-8:])
            t.emit("spied", c.player, other=c.target, detail=what)
        elif kind == "bribed_assessor":
            t.table = replace(tb, bribed=tb.bribed + ((c.square, c.player),))
        elif kind == "legal_holiday":
            t.table = replace(tb, legal_holiday=tb.legal_holiday + (c.player,))

    # ======================================================================================
    # Building (IL.34-IL.38)
    # ======================================================================================
    def house_shortage(self, state: GameState) -> bool:
        return False  # I-32

    def _build_problem(self, state: State, player: int, index: int,
                       free: bool = False) -> str | None:
        sq = self.board.squares[index]
        s = state.squares[index]
        p = _p(state, player)
        if not sq.is_street:
            return f"{sq.name} is not a street; only streets take houses"
        if s.owner is not None and s.owner != player:
            return f"{sq.name} is {state.players[s.owner].name}'s"
        if not self.in_play(state, index):
            return f"{sq.name} is out of play"
        if s.owner is None and not any(state.squares[i].owner == player
                                       for i in self.board.groups[sq.group]):
            return (f"{sq.name} is unowned: build on it while you hold a lot of the "
                    f"{sq.group.replace('_', ' ')} group (I-38)")
        if s.mortgaged:
            return f"lift the mortgage on {sq.name} before building"
        if s.hotel:
            return f"{sq.name} already has a hotel"
        levels = [state.squares[i].level for i in self.group_lots(state, sq.group)]
        if s.level > min(levels):
            return (f"build evenly across the whole group, whoever owns the lots: another lot "
                    f"has fewer buildings than {sq.name}")
        if p.audited and not free:
            return f"{p.name} is under an IRS Audit and may not spend on building"
        if not free and not self.can_spend(state, player, sq.house_cost, f"building on {sq.name}"):
            return f"a building on {sq.name} costs ${sq.house_cost}; the treasuries it may use fall short"
        if s.houses >= state.options.max_houses:
            return None if state.bank_hotels else "the bank has no hotels left"
        return None if state.bank_houses else "the bank has no houses left"

    def management_actions(self, state: GameState, player: int,
                           shortage: bool | None = None) -> list[Action]:
        """The engine's sell/mortgage/unmortgage list; building on any lot of one's own or
        unowned, even across the group (IL.34-IL.36)."""
        out: list[Action] = []
        head = state.pending[0] if state.pending else None
        if isinstance(head, PlaceHouse):
            return out
        raising = self.raising(state, player)
        mine = self.lots_of(state, player)
        if not mine:
            return out
        if not raising and self.may_manage(state, player, "unmortgage"):
            for i in mine:
                if state.squares[i].mortgaged and not self.transfer_pending(state, i) and \
                        self.unmortgage_ok(state, player, i):
                    out.append(Unmortgage(player, i))
        sqs = state.squares
        sell = raising or self.may_manage(state, player, "sell")
        mortgage = raising or self.may_manage(state, player, "mortgage")
        for i in mine:
            s = sqs[i]
            if sell and s.level and self._sell_problem(state, player, i) is None:
                out.append(Sell(player, i))
            # (the checks of _mortgage_problem inlined: ``mine`` are the player's lots in
            # play, and only the lot itself must be bare, I-37; this runs every step)
            if mortgage and not s.mortgaged and not s.level:
                out.append(Mortgage(player, i))
        p = _p(state, player)
        if raising or not self.may_manage(state, player, "build") or p.audited:
            return out
        for group in dict.fromkeys(self._lot_group[i] for i in mine):
            if group in ("railroad", "utility"):
                continue
            live = self.group_lots(state, group)
            if not live:
                continue
            sqs = state.squares
            low = min(sqs[i].level for i in live)
            if low >= 5:
                continue
            cost = self.board.squares[live[0]].house_cost
            if p.central + p.treasury(group) < cost:
                continue  # (the checks of _build_problem, inlined: this runs every step)
            if (state.bank_houses if low < state.options.max_houses else state.bank_hotels) <= 0:
                continue
            for i in live:
                s = sqs[i]
                if s.level == low and not s.mortgaged and (s.owner == player or s.owner is None):
                    out.append(Build(player, i))
        return out

    def _sell_problem(self, state: State, player: int, index: int) -> str | None:
        """I-37: selling is even among the seller's own lots of the group (buildings on
        rivals' or unowned lots cannot hold a seller back)."""
        sq = self.board.squares[index]
        s = state.squares[index]
        if s.owner != player:
            return f"you do not own {sq.name}"
        if not s.level:
            return f"{sq.name} has no buildings to sell"
        if not self.in_play(state, index):
            return f"{sq.name} is out of play"
        mine = [state.squares[i].level for i in self.group_lots(state, sq.group)
                if state.squares[i].owner == player]
        if s.level < max(mine):
            return f"sell evenly: another of your lots in the group has more buildings than {sq.name}"
        return None

    def _do_sell(self, t: Txn, action: Sell) -> None:
        """I-37: a hotel the bank cannot break into houses is sold whole (five levels at half
        the house price)."""
        s = t.squares[action.square] if 0 <= action.square < len(t.squares) else None
        if s is not None and s.hotel and t.bank_houses < t.options.max_houses:
            self._manage_check(t, action.player, "sell")
            problem = self._sell_problem(t, action.player, action.square)
            if problem:
                raise IllegalActionError(problem)
            self.strip(t, action.square, paid_to=action.player)
            t.emit("sold", action.player, square=action.square)
            return
        super()._do_sell(t, action)

    def mortgage_building_problem(self, state: State, player: int, index: int) -> str | None:
        """Only the lot itself must be bare (rivals' buildings in its group do not block)."""
        if state.squares[index].level:
            return f"sell the buildings on {self.board.squares[index].name} first"
        return None

    def unmortgage_ok(self, state: State, player: int, index: int) -> bool:
        name = self.board.squares[index].name
        return not _p(state, player).audited and self.can_spend(
            state, player, self.unmortgage_cost(state, index), f"unmortgaged {name}")

    def _do_unmortgage(self, t: Txn, action: Unmortgage) -> None:
        p = _p(t, action.player)
        name = self.board.squares[action.square].name
        if p.audited:
            raise IllegalActionError(f"{p.name} is under an IRS Audit and may not unmortgage")
        cost = self.unmortgage_cost(t, action.square)
        if t.squares[action.square].owner == action.player and \
                not self.can_spend(t, action.player, cost, f"unmortgaged {name}"):
            raise IllegalActionError(f"lifting the mortgage on {name} costs ${cost}; its group "
                                     "and central treasuries fall short: transfer money first")
        super()._do_unmortgage(t, action)

    def _do_pay_jail(self, t: Txn, action: PayJail) -> None:
        p = _p(t, action.player)
        if p.audited:
            raise IllegalActionError(f"{p.name} is under an IRS Audit: no voluntary payments")
        if p.central < t.options.jail_fee:
            raise IllegalActionError(f"the jail fee is ${t.options.jail_fee}; the central "
                                     f"treasury holds ${p.central}")
        super()._do_pay_jail(t, action)

    def _do_bid(self, t: Txn, action: Bid) -> None:
        if _p(t, action.player).audited:
            raise IllegalActionError("under an IRS Audit a player may not bid")
        super()._do_bid(t, action)

    def exchange(self, t: Txn, action: Trade) -> None:
        """IL.13 / I-12: a trade that moves a lot is an acquisition the other players may
        oppose (the proposer is the purchaser; a Secret Deal played or bought for it this
        turn lets only an Interference card oppose it, I-39). It waits for the interference
        window (`complete_trade`); a blocked trade is cancelled whole."""
        if not (action.give.squares or action.get.squares):
            super().exchange(t, action)
            return
        tb = self.table(t)
        secret = tb.secret_deal and action.player == t.current
        if secret:
            t.table = replace(tb, secret_deal=False)
        self.announce_trade(t, action, action.player, secret, in_kind=False)

    def announce_trade(self, t: Txn, action: Trade, purchaser: int, secret: bool,
                       in_kind: bool) -> None:
        n = len(t.players)
        eligible = tuple(s for s in ((action.player + k) % n for k in range(1, n))
                         if s not in (action.player, action.partner)
                         and not t.players[s].bankrupt)
        square = (action.get.squares or action.give.squares)[0]
        t.emit("trade_announced", action.player, other=action.partner, square=square,
               detail="secret deal" if secret else "in kind" if in_kind else "")
        t.push(InterferenceWindow(-1, eligible, (), purchaser, square, secret, action, in_kind))

    def complete_trade(self, t: Txn, action: Trade, in_kind: bool = False) -> None:
        """The trade goes ahead if it still can (the money or lots may have moved since); a
        lot given instead of rent settles the rent debt (IL.13)."""
        problem = self.trade_problem(t, action)
        if problem:
            t.emit("trade_failed", action.player, other=action.partner, detail=problem)
            return
        super().exchange(t, action)
        if in_kind:
            for k, item in enumerate(t.pending):
                if isinstance(item, Debt) and item.player == action.player and \
                        item.creditor == action.partner:
                    del t.pending[k]
                    t.emit("rent_in_kind", action.player, other=action.partner,
                           square=action.give.squares[0], amount=item.amount)
                    if item.then is not None:
                        t.push(item.then)
                    break

    # -- rent paid in kind (IL.13) ---------------------------------------------------------
    def in_kind_problem(self, state: State, a: PayInKind) -> str | None:
        head = state.pending[0] if state.pending else None
        if not (isinstance(head, Debt) and head.player == a.player and head.creditor >= 0
                and head.reason.startswith("rent for ")):
            return "a lot is offered instead of rent while that rent is owed and unpaid"
        if not 0 <= a.square < len(self.board.squares) or not self.board.squares[a.square].ownable:
            return "name one of your lots to offer"
        if not self.in_play(state, a.square):
            return f"{self.board.squares[a.square].name} is out of play"
        if a.square in self.table(state).offered:
            return (f"{self.board.squares[a.square].name} was offered instead of rent this turn "
                    "already; offer another lot or raise the money")
        return self.trade_problem(state, self.in_kind_trade(state, a))

    def in_kind_trade(self, state: State, a: PayInKind) -> Trade:
        head = state.pending[0]
        assert isinstance(head, Debt)
        return Trade(a.player, head.creditor, TradeSide(squares=(a.square,)), TradeSide())

    def _do_pay_in_kind(self, t: Txn, a: PayInKind) -> None:
        problem = self.in_kind_problem(t, a)
        if problem:
            raise IllegalActionError(problem)
        head = t.pending[0]
        assert isinstance(head, Debt)
        t.emit("in_kind_offered", a.player, other=head.creditor, square=a.square,
               amount=head.amount)
        tb = self.table(t)
        t.table = replace(tb, offered=tb.offered + (a.square,))
        t.push(InKindOffer(head.creditor, a.player, a.square))

    def in_kind_accepted(self, t: Txn, offer: InKindOffer) -> None:
        """The creditor takes the lot: the others may interfere before it passes (the
        creditor is the purchaser)."""
        trade = Trade(offer.debtor, offer.player, TradeSide(squares=(offer.square,)),
                      TradeSide())
        problem = self.trade_problem(t, trade)
        if problem:
            raise IllegalActionError(problem)
        self.announce_trade(t, trade, offer.player, False, in_kind=True)

    def trade_problem(self, state: State, action: Trade) -> str | None:
        """Cash in a trade passes between central treasuries (IL.12)."""
        problem = super().trade_problem(state, action)
        if problem:
            return problem
        for who, side in ((action.player, action.give), (action.partner, action.get)):
            p = _p(state, who)
            if side.cash > p.central:
                return f"{p.name}'s central treasury holds ${p.central}"
            if side.cash and p.audited and not self.raising(state, who):
                return f"{p.name} is under an IRS Audit and may not pay money away"
        return None

    # ======================================================================================
    # The Illuminati's abilities (IL.52-IL.57)
    # ======================================================================================
    def _do_bavarian(self, t: Txn, a: BavarianDeal) -> None:
        head = t.pending[0] if t.pending else None
        p = _p(t, a.player)
        if p.illuminati != "bavarian":
            raise IllegalActionError("only the Bavarian Illuminati buy Secret Deals")
        buying = isinstance(head, BuyDecision) and head.player == a.player
        if not buying and not (head is None and a.player == t.current):
            raise IllegalActionError("buy the Secret Deal while announcing a purchase, or on "
                                     "your own turn just before a trade for a lot")
        if self.table(t).secret_deal:
            raise IllegalActionError("this purchase is already a Secret Deal")
        self.spend_check(t, a.player, BAVARIAN_FEE, CENTRAL)
        self.spend(t, a.player, BAVARIAN_FEE, CENTRAL, "Bavarian secret deal")
        t.table = replace(self.table(t), secret_deal=True)
        square = head.square if isinstance(head, BuyDecision) else None
        t.emit("secret_deal_bought", a.player, square=square)

    def missing_problem(self, state: State, a: DeclareMissing) -> str | None:
        p = _p(state, a.player)
        if p.illuminati != "bermuda":
            return "only the Bermuda Triangle makes lots go missing"
        if a.player != state.current or not state.rolled or state.roll_again or state.pending:
            return "special abilities come last in your own turn (step 5)"
        if self.table(state).ability_used:
            return "the ability was used this turn"
        if not 0 <= a.square < len(self.board.squares) or not self.board.squares[a.square].ownable:
            return "name a lot to go missing"
        if a.square in self.table(state).landmarks:
            return "a historic landmark is already out of play"
        return None

    def _do_missing(self, t: Txn, a: DeclareMissing) -> None:
        problem = self.missing_problem(t, a)
        if problem:
            raise IllegalActionError(problem)
        t.table = replace(self.table(t), missing=(a.square, a.player, 2), ability_used=True)
        t.emit("lot_missing", a.player, square=a.square)

    # ======================================================================================
    # Dispatch, legal actions, bots
    # ======================================================================================
    def apply_extra(self, t: Txn, action: Action) -> None:
        if isinstance(action, Transfer):
            self._do_transfer(t, action)
        elif isinstance(action, Interfere):
            self._do_interfere(t, action)
        elif isinstance(action, Support):
            self._do_support(t, action)
        elif isinstance(action, Sue):
            self._do_sue(t, action)
        elif isinstance(action, PlayCard):
            self._do_play_card(t, action)
        elif isinstance(action, BavarianDeal):
            self._do_bavarian(t, action)
        elif isinstance(action, DeclareMissing):
            self._do_missing(t, action)
        elif isinstance(action, PayInKind):
            self._do_pay_in_kind(t, action)
        else:
            super().apply_extra(t, action)

    def extra_legal_actions(self, state: GameState,
                            players: tuple[int, ...] | None = None) -> list[Action]:
        out: list[Action] = []
        cur = state.current
        head = state.pending[0] if state.pending else None
        for seat in range(len(state.players)):
            if state.players[seat].bankrupt or (players is not None and seat not in players):
                continue
            if seat == cur or self.raising(state, seat):
                out += self.transfer_options(state, seat)
        if isinstance(head, SupportRound) and head.case:
            for seat in head.waiting:
                if self.holds_card(state, seat, "holding_action") and \
                        (players is None or seat in players):
                    out.append(PlayCard(seat, "holding_action"))
        if players is not None and cur not in players:
            return out
        if head is None and not state.rolled:
            out += self.sue_options(state, cur)
            for kind in ("idle_hands", "rent_control"):
                c = PlayCard(cur, kind)
                if self.card_problem(state, c) is None:
                    out.append(c)
        if isinstance(head, Debt) and head.creditor >= 0 and head.reason.startswith("rent for "):
            for i in self.lots_of(state, head.player):
                offer = PayInKind(head.player, i)
                if self.in_kind_problem(state, offer) is None:
                    out.append(offer)
        if head is None and state.rolled and not state.roll_again:
            out += self.end_card_options(state, cur)
            if _p(state, cur).illuminati == "bermuda" and not self.table(state).ability_used:
                for i in self.best_lots(state, cur)[:2]:
                    out.append(DeclareMissing(cur, i))
        return out

    def legal_actions(self, state: GameState, players: tuple[int, ...] | None = None) -> list[Action]:
        """The engine's list without what the treasuries or an IRS Audit forbid (the jail fee
        from central, bids)."""
        out = super().legal_actions(state, players)
        fee = state.options.jail_fee
        return [a for a in out
                if not (isinstance(a, PayJail) and (_p(state, a.player).audited
                                                    or _p(state, a.player).central < fee))
                and not (isinstance(a, Bid) and _p(state, a.player).audited)]

    def transfer_options(self, state: GameState, seat: int) -> list[Action]:
        """Each group treasury's money to central (as much as its fee allows)."""
        out: list[Action] = []
        p = _p(state, seat)
        free = self.free_transfer_now(state, seat)
        for g, a in p.treasuries:
            amount = a if free else self.movable(state, a)
            if amount > 0:
                t = Transfer(seat, g, CENTRAL, amount)
                if self.transfer_problem(state, t) is None:
                    out.append(t)
        return out

    def best_lots(self, state: GameState, seat: int) -> list[int]:
        """Rivals' lots, the most valuable first (targets for suits and Bermuda)."""
        lots = [i for i, s in enumerate(state.squares)
                if s.owner is not None and s.owner != seat and self.in_play(state, i)]
        return sorted(lots, key=lambda i: (-(self.board.squares[i].price +
                                             state.squares[i].level * 100), i))

    def blocking_lots(self, state: GameState, seat: int, best: list[int]) -> list[int]:
        """Rivals' streets in the groups where ``seat`` holds a street (what keeps their
        building even with the rival's), the most valuable first."""
        mine = {self._lot_group[i] for i in self.lots_of(state, seat)
                if self.board.squares[i].kind == "street"}
        return [i for i in best if self._lot_group[i] in mine]

    def sue_options(self, state: GameState, seat: int) -> list[Action]:
        out: list[Action] = []
        if self.table(state).legal_holiday or _p(state, seat).central < FILING_FEE + 100:
            return out
        best = self.best_lots(state, seat)
        for i in dict.fromkeys(best[:2] + self.blocking_lots(state, seat, best)[:3]):
            owner = state.squares[i].owner
            assert owner is not None
            for kind in ("title", "landmark", "antitrust"):
                s = Sue(seat, owner, kind, i)
                if self.sue_problem(state, s) is None:
                    out.append(s)
        return out

    def end_card_options(self, state: GameState, seat: int) -> list[Action]:
        out: list[Action] = []
        if not self.holds_card(state, seat, "legal_holiday") and \
                _p(state, seat).court_hand <= 0:
            return out
        rich = sorted((s for s in state.active_players if s != seat),
                      key=lambda s: -state.players[s].cash)
        for kind in ("legal_holiday", "irs_audit", "brain_drain", "corporate_spy"):
            target = -1
            if kind != "legal_holiday":
                target = next((s for s in rich if kind != "brain_drain"
                               or _p(state, s).court_hand > 0), -1)
            c = PlayCard(seat, kind, target)
            if self.card_problem(state, c) is None:
                out.append(c)
        if not self.opt(state, "public_treasuries", True) and rich:  # I-8: a look inside
            spy = [PlayCard(seat, "corporate_spy", rich[0], treasury=CENTRAL)]
            spy += [PlayCard(seat, "corporate_spy", rich[0], treasury=g)
                    for g, _a in _p(state, rich[0]).treasuries[:2]]
            out += [c for c in spy if self.card_problem(state, c) is None]
        plays = [PlayCard(seat, "historic_blunder", square=i)
                 for i in self.table(state).landmarks]
        built = [i for i in self.best_lots(state, seat) if state.squares[i].level]
        plays += [PlayCard(seat, "condemned_property", square=i) for i in built[:2]]
        out += [c for c in plays if self.card_problem(state, c) is None]
        return out

    def bot_hint(self, state: GameState, actions: Sequence[Action]) -> Action | None:
        return bots.bot_hint(self, state, actions)

    def invariant_problems(self, state: GameState) -> list[str]:
        problems = super().invariant_problems(state)
        for p in state.players:
            if not isinstance(p, IllumPlayer):
                continue
            if p.central < 0:
                problems.append(f"{p.name}'s central treasury is ${p.central}")
            problems += [f"{p.name}'s {g} treasury is ${a}" for g, a in p.treasuries if a < 0]
        return problems

    # ======================================================================================
    # Transcript, JSON and narration
    # ======================================================================================
    def parse_variant_verb(self, state: GameState, player: int, verb: str,
                           args: list[str]) -> Action | None:
        from companion.games.monopoly.illumonopoly import words

        return words.parse_verb(self, state, player, verb, args)

    def format_variant_action(self, state: GameState, action: Action) -> str | None:
        from companion.games.monopoly.illumonopoly import words

        return words.format_action(self, state, action)

    def set_player_field(self, player: PlayerState, key: str, value: str) -> PlayerState:
        from companion.games.monopoly.illumonopoly import words

        return words.set_player_field(self, player, key, value)

    def set_square_field(self, state: GameState, index: int, key: str, value: str) -> GameState:
        from companion.games.monopoly.illumonopoly import words

        return words.set_square_field(self, state, index, key, value)

    def player_json(self, state: GameState, index: int) -> dict[str, Any]:
        p = _p(state, index)
        out: dict[str, Any] = {
            "central": p.central, "treasuries": dict(p.treasuries),
            "court_hand": p.court_hand, "legal_power": self.legal_power(state, index),
            "illuminati": p.illuminati, "audited": p.audited,
        }
        if p.court_cards:
            out["court_cards"] = list(p.court_cards)
        return out

    def square_json(self, state: GameState, index: int) -> dict[str, Any]:
        tb = self.table(state)
        out: dict[str, Any] = {}
        if index in tb.landmarks:
            out["landmark"] = True
        if tb.missing[0] == index:
            out["missing"] = True
        if any(b[0] == index for b in tb.blocked):
            out["frozen"] = True
        if any(b[0] == index for b in tb.bribed):
            out["bribed"] = True
        return out

    def describe_event(self, state: GameState, event: Event) -> str | None:
        from companion.games.monopoly.illumonopoly import words

        return words.describe_event(self, state, event)

    def illuminati_name(self, key: str) -> str:
        return ILLUMINATI_NAMES.get(key, "")
