"""What the kiosk shows of Illumonopoly: Monopoly's screen plus each player's treasuries,
Court Date card count, Illuminati and Legal Power on their card (with private treasuries only
the total, the split shown to its owner while they hold their button); the table-wide effects
(Rent Control, Legal Holiday, a missing lot, IRS Audits, landmarks, frozen and half-valued
lots) as banners; a contest panel (the number to roll, what each side spent, who has passed);
amount pickers in the contest's own units; plain labels for the variant's actions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.core.dice import DicePrompt
from companion.games.monopoly.actions import Action, Choose, Pass
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
    ContestRoll,
    EveningChoice,
    InterferenceWindow,
    SupportRound,
)
from companion.games.monopoly.illumonopoly.state import (
    ILLUMINATI_NAMES,
    IllumPlayer,
    IllumTable,
)
from companion.games.monopoly.presenter import MonopolyPresenter
from companion.games.monopoly.state import GameState
from companion.kiosk import theme
from companion.kiosk.inputs import Menu
from companion.kiosk.views import InfoPanel, PlayerCard, TableBanner

SHORT_GROUP = {"light_blue": "lt blue", "dark_blue": "dk blue", "railroad": "rail",
               "utility": "util"}
SUITS = {"landmark": "landmark", "title": "title defect", "antitrust": "antitrust"}


def _words(text: str) -> str:
    return text.replace("_", " ")


class IllumonopolyPresenter(MonopolyPresenter):
    """The kiosk's view of Illumonopoly."""

    description = "Treasuries, interference, court cases, Court Date cards, the Illuminati"

    role_word = "Illuminati"

    def roles(self) -> tuple[str, ...]:
        """``basic`` (the basic game's Legal Power) or one of the advanced game's Illuminati."""
        return ("basic", *ILLUMINATI_NAMES)

    # -- the screen ------------------------------------------------------------------------
    def banners(self, state: GameState) -> tuple[TableBanner, ...]:
        """The table-wide effects now in force, those that change play most first."""
        tb = state.table_of(IllumTable)
        name = self.square_name
        out: list[TableBanner] = []
        for seat, _left in tb.rent_control:
            out.append(TableBanner(f"RENT CONTROL ({state.players[seat].name})", theme.WARN))
        if tb.legal_holiday:
            who = ", ".join(state.players[s].name for s in tb.legal_holiday)
            out.append(TableBanner(f"LEGAL HOLIDAY: no suits ({who})", theme.SELECT))
        if tb.missing[0] >= 0:
            out.append(TableBanner(f"MISSING: {name(tb.missing[0])}", theme.BAD))
        audited = [p.name for p in state.players if isinstance(p, IllumPlayer) and p.audited]
        if audited:
            out.append(TableBanner("IRS AUDIT: " + ", ".join(audited), theme.BAD))
        for i in tb.landmarks:
            out.append(TableBanner(f"Landmark: {name(i)}", theme.MUTED))
        for i, _s in tb.blocked:
            out.append(TableBanner(f"Frozen: {name(i)}", theme.MUTED))
        for i, _s in tb.bribed:
            out.append(TableBanner(f"Half value: {name(i)}", theme.MUTED))
        return tuple(out)

    def panel(self, state: GameState) -> InfoPanel | None:
        """The contest or card window at the head of the queue: the number to roll, what each
        side has spent, who has passed and who is still asked."""
        head = state.pending[0] if state.pending else None
        names = [p.name for p in state.players]

        def asked(w: Any) -> str:
            passed = ", ".join(names[s] for s in w.passed) or "nobody"
            waiting = ", ".join(names[s] for s in w.waiting) or "nobody"
            return f"Passed: {passed}. To answer: {waiting}"

        if isinstance(head, ContestRoll) and head.contest is not None:
            c = head.contest
            return InfoPanel(f"{names[c.a]} rolls 2d6: {c.number} or less wins",
                             self._contest_lines(state, c))
        if isinstance(head, SupportRound):
            side_a, _b = head.sides()
            passed = ", ".join(names[s] for s in head.passed) or "nobody yet"
            lines = self._contest_lines(state, head) + (f"Passed: {passed}",)
            return InfoPanel(f"{names[head.a]} ({side_a}) needs {head.number} or less on 2d6",
                             lines)
        if isinstance(head, InterferenceWindow):
            what = (f"{names[head.purchaser]} trades for {self.square_name(head.square)}"
                    if head.trade is not None else
                    f"{names[head.purchaser]} buys {self.square_name(head.square)}")
            how = ("Secret Deal: only an Interference card opposes it" if head.secret else
                   "Anyone may interfere: $50 to the bank, then a contest")
            return InfoPanel(what, (how, asked(head)))
        if isinstance(head, CardWindow) and head.card is not None:
            kind = _words(head.card.kind)
            standing = "cancelled" if head.cancelled else "stands"
            return InfoPanel(f"{names[head.card.player]} played {kind}: it {standing}",
                             ("Answer with Cancellation, or pass", asked(head)))
        if isinstance(head, EveningChoice):
            return InfoPanel(f"{self.square_name(head.square)} returned bare: the group is "
                             "uneven", (f"Build it up to {head.needed} (${head.cost}), or the "
                                        "higher lots are sold down",))
        return None

    def _contest_lines(self, state: GameState, c: SupportRound) -> tuple[str, ...]:
        names = [p.name for p in state.players]
        what = (f"{SUITS.get(c.kind, c.kind).capitalize()}, {self.square_name(c.square)}"
                if c.case else f"Purchase of {self.square_name(c.square)}")
        return (f"{what}: base {c.base}",
                f"Spent: {names[c.a]} ${c.spent_a}, {names[c.b]} ${c.spent_b} ({c.net:+d})")

    def dice_prompt(self, state: GameState) -> DicePrompt | None:
        """A contest's roll says what it is for (the engine's purpose word is technical)."""
        prompt = super().dice_prompt(state)
        head = state.pending[0] if state.pending else None
        if prompt is not None and isinstance(head, ContestRoll) and head.contest is not None:
            return replace(prompt, purpose="the court case" if head.contest.case else "the contest")
        return prompt

    def menu(self, state: GameState, actions: Sequence[Action] | None = None,
             referee: Sequence[tuple[str, str]] = ()) -> Menu:
        """Monopoly's menu; while the contest panel tells the contest, a short title."""
        menu = super().menu(state, actions, referee)
        head = state.pending[0] if state.pending else None
        if isinstance(head, SupportRound):
            extra = " (group money x2)" if head.case else ""
            return replace(menu, title=f"Spend ${head.unit} units{extra}, or pass")
        if isinstance(head, InterferenceWindow):
            return replace(menu, title="Interfere with the purchase, or pass")
        if isinstance(head, CardWindow):
            return replace(menu, title="Cancel the card, or pass")
        return menu

    def variant_card(self, state: GameState, seat: int, card: PlayerCard) -> PlayerCard:
        p = state.players[seat]
        if not isinstance(p, IllumPlayer):
            return card
        lp = self.rules.legal_power(state, seat)  # type: ignore[attr-defined]
        extras = [f"LP {lp}", f"Cards {p.court_hand}"]
        if p.audited:
            extras.append("AUDIT")
        if not self.public(state):  # I-8: the total only; the owner peeks at the split
            return replace(card, role=ILLUMINATI_NAMES.get(p.illuminati, ""),
                           extras=(*extras, "Treasuries private"), enchantments=())
        extras.append(f"Central ${p.central}")
        # the group treasuries as a row of marked chips (the card's icon row), one per group
        chips = tuple(f"{SHORT_GROUP.get(g, g)} ${a}" for g, a in p.treasuries)
        return replace(card, role=ILLUMINATI_NAMES.get(p.illuminati, ""), extras=tuple(extras),
                       enchantments=chips)

    @staticmethod
    def public(state: GameState) -> bool:
        return bool(getattr(state.options, "public_treasuries", True))

    def private_lines(self, state: GameState, seat: int) -> tuple[str, ...]:
        """What the seat's player sees while holding their button: their treasuries (when
        they are private), the cards of a virtual hand, what their Corporate Spies saw."""
        p = state.players[seat]
        if not isinstance(p, IllumPlayer):
            return ()
        out: list[str] = []
        if not self.public(state):
            out.append(f"Central ${p.central}")
            out += [f"{_words(g)} ${a}" for g, a in p.treasuries]
        if p.court_cards:
            out.append("Cards: " + ", ".join(_words(k) for k in p.court_cards))
        names = [q.name for q in state.players]
        for spy, target, what, seen in state.table_of(IllumTable).spied:
            if spy == seat:
                where = "cards" if what == "cards" else f"{_words(what)} treasury"
                out.append(f"Spied: {names[target]}'s {where}: {seen}")
        return tuple(out)

    def lot_marks(self, state: GameState, index: int) -> tuple[str, ...]:
        return tuple(k for k in self.rules.square_json(state, index))

    # -- labels ----------------------------------------------------------------------------
    def variant_label(self, state: GameState, a: Action) -> str | None:  # noqa: C901
        who, sq = self.who, self.square_name
        if isinstance(a, Transfer):
            free = self.rules.free_transfer_now(state, a.player)  # type: ignore[attr-defined]
            fee = "free" if free else f"fee ${self.rules.money_fee(state, a.amount)}"  # type: ignore[attr-defined]
            return f"Move ${a.amount}: {_words(a.source)} > {_words(a.dest)} ({fee})"
        if isinstance(a, Interfere):
            return f"{who(state, a.player)}: interfere ($50)"
        if isinstance(a, Support):
            return f"{who(state, a.player)}: ${a.amount} for the {a.side}"
        if isinstance(a, Pass):
            return f"{who(state, a.player)}: pass"
        if isinstance(a, Sue):
            return (f"Sue {state.players[a.defendant].name}: {SUITS.get(a.kind, a.kind)} "
                    f"{sq(a.target)} ($50)")
        if isinstance(a, PlayCard):
            target = f" on {state.players[a.target].name}" if a.target >= 0 else ""
            lot = f" ({sq(a.square)})" if a.square >= 0 else ""
            deal = " as a Secret Deal" if a.as_deal else ""
            return f"{who(state, a.player)}: play {_words(a.kind)}{deal}{target}{lot}"
        if isinstance(a, BavarianDeal):
            return "Secret Deal for $100"
        if isinstance(a, DeclareMissing):
            return f"{sq(a.square)} goes missing"
        if isinstance(a, PayInKind):
            return f"Offer {sq(a.square)} instead of the rent"
        if isinstance(a, Choose):
            if a.what == "lot" and a.option.isdigit():
                return f"Give up {sq(int(a.option))}"
            if a.what == "offer":
                return f"{who(state, a.player)}: take the lot instead of the rent"
            if a.what == "even":
                return ("Build the bare lot up (even group)" if a.option == "build"
                        else "Sell the group down to even it")
            return f"{a.option.capitalize()} the case"
        return None

    def group_of(self, a: Action) -> str | None:
        """Support and transfers open amount pickers; suits and card plays sub-menus."""
        return {"Transfer": "transfer", "Sue": "sue", "PlayCard": "court",
                "Support": "support"}.get(type(a).__name__)

    def group_rows(self, state: GameState, groups: Any) -> list[Any]:
        from companion.kiosk.inputs import Menu, Option

        rows: list[Any] = []
        titles = {"sue": "Go to court", "court": "Play a Court Date card"}
        for kind, by_seat in groups.items():
            for seat, actions in by_seat.items():
                name = state.players[seat].name
                if kind == "support":
                    rows += self._support_rows(state, seat, actions)
                    continue
                if kind == "transfer":
                    rows.append(Option(f"{name}: move money between treasuries",
                                       open=self._transfer_menu(state, seat), seat=seat))
                    continue
                title = titles.get(kind, kind)
                options = [Option(self.action_label(state, a), action=a) for a in actions]

                def make(title: str = title, options: list[Any] = options) -> Any:
                    return Menu(title, options)
                rows.append(Option(f"{name}: {title}", open=make, seat=seat))
        return rows

    def _support_rows(self, state: GameState, seat: int, actions: Sequence[Any]) -> list[Any]:
        """A picker per side from the central treasury; for a party, one more from their own
        treasury of the contested lot's group (counting double in a court case)."""
        from companion.kiosk.inputs import Option

        head = state.pending[0] if state.pending else None
        p = state.players[seat]
        if not isinstance(head, SupportRound) or not isinstance(p, IllumPlayer):
            return []
        name = p.name
        rows: list[Any] = []
        for side in dict.fromkeys(a.side for a in actions):
            rows.append(Option(f"{name}: spend for the {side} (${head.unit} units)",
                               open=self._support_picker(state, seat, side, head, "central"),
                               seat=seat))
        group = self.rules.board.squares[head.square].group
        own = head.sides()[0] if seat == head.a else head.sides()[1] if seat == head.b else ""
        may_group = seat in (head.a, head.b) and (head.case or seat == head.a)
        if own and may_group and p.treasury(group) >= head.unit and not p.audited:
            how = " (counts double)" if head.case else ""
            rows.append(Option(f"{name}: spend {_words(group)} money for the {own}{how}",
                               open=self._support_picker(state, seat, own, head, group),
                               seat=seat))
        return rows

    def _support_picker(self, state: GameState, seat: int, side: str, head: SupportRound,
                        source: str) -> Any:
        """An amount picker in the contest's units: $50/$100/$500 against a purchase,
        $10/$50/$100 in a court case."""
        from companion.kiosk.inputs import AmountPicker

        p = state.players[seat]
        assert isinstance(p, IllumPlayer)
        unit = head.unit
        high = max(unit, p.treasury(source) // unit * unit)
        steps = (unit * 10, unit * 2, unit)
        where = "" if source == "central" else f" from {_words(source)}"

        def make() -> Any:
            return AmountPicker(f"{p.name} spends for the {side}{where} (${unit} units)", unit,
                                high, unit, lambda v: Support(seat, side, v, source)
                                if v % unit == 0 else None, ok_label="Spend", steps=steps)
        return make

    def _transfer_menu(self, state: GameState, seat: int) -> Any:
        """An amount picker per direction: each group treasury to central and back."""
        from companion.kiosk.inputs import AmountPicker, Menu, Option

        p = state.players[seat]
        assert isinstance(p, IllumPlayer)
        held = dict.fromkeys(self.rules.board.squares[i].group
                             for i in self.rules.lots_of(state, seat))  # type: ignore[attr-defined]
        pairs = [(g, "central") for g, a in p.treasuries if a > 0]
        pairs += [("central", g) for g in held if p.central > 0]

        public = self.public(state)

        def has(src: str) -> str:
            return f" (has ${p.treasury(src)})" if public else ""

        def picker(src: str, dst: str) -> Any:
            have = p.treasury(src)

            def make() -> Any:
                return AmountPicker(f"Move money: {_words(src)} > {_words(dst)}{has(src)}",
                                    1, have, min(have, 100),
                                    lambda v: Transfer(seat, src, dst, v), ok_label="Move")
            return make

        def make() -> Any:
            return Menu(f"{p.name}: move money (10%, at least $5, two free after moving)",
                        [Option(f"{_words(a)} > {_words(b)}{has(a)}",
                                open=picker(a, b), seat=seat) for a, b in pairs])
        return make
