"""What the kiosk shows of Illumonopoly: Monopoly's screen plus each player's treasuries,
Court Date card count, Illuminati and Legal Power on their card; the table-wide effects (Rent
Control, Legal Holiday, a missing lot, landmarks, frozen lots) in the header's banner line;
the contest in progress as the decision panel's title (the number to roll, what each side
spent); plain labels for the variant's actions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.monopoly.actions import Action, Choose, Pass
from companion.games.monopoly.illumonopoly.actions import (
    BavarianDeal,
    DeclareMissing,
    Interfere,
    PlayCard,
    Sue,
    Support,
    Transfer,
)
from companion.games.monopoly.illumonopoly.state import (
    ILLUMINATI_NAMES,
    IllumPlayer,
    IllumTable,
)
from companion.games.monopoly.presenter import MonopolyPresenter
from companion.games.monopoly.state import GameState
from companion.kiosk.presenter import HeaderFacts
from companion.kiosk.views import PlayerCard

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
    def header(self, state: GameState) -> HeaderFacts:
        facts = super().header(state)
        banners = self.banners(state)
        return replace(facts, bank=" | ".join(banners) if banners else facts.bank)

    def banners(self, state: GameState) -> list[str]:
        """The table-wide effects now in force, shortest words first."""
        tb = state.table_of(IllumTable)
        name = self.square_name
        out = []
        for seat, _left in tb.rent_control:
            out.append(f"RENT CONTROL ({state.players[seat].name})")
        if tb.legal_holiday:
            out.append("LEGAL HOLIDAY: no suits")
        if tb.missing[0] >= 0:
            out.append(f"MISSING: {name(tb.missing[0])}")
        audited = [p.name for p in state.players if isinstance(p, IllumPlayer) and p.audited]
        if audited:
            out.append("IRS AUDIT: " + ", ".join(audited))
        if tb.landmarks:
            out.append("Landmarks: " + ", ".join(name(i) for i in tb.landmarks))
        if tb.blocked:
            out.append("Frozen: " + ", ".join(name(i) for i, _s in tb.blocked))
        if tb.bribed:
            out.append("Half value: " + ", ".join(name(i) for i, _s in tb.bribed))
        return out

    def variant_card(self, state: GameState, seat: int, card: PlayerCard) -> PlayerCard:
        p = state.players[seat]
        if not isinstance(p, IllumPlayer):
            return card
        lp = self.rules.legal_power(state, seat)  # type: ignore[attr-defined]
        extras = [f"LP {lp}", f"Cards {p.court_hand}"]
        if p.audited:
            extras.append("AUDIT")
        extras.append(f"Central ${p.central}")
        # the group treasuries as a row of marked chips (the card's icon row), one per group
        chips = tuple(f"{SHORT_GROUP.get(g, g)} ${a}" for g, a in p.treasuries)
        return replace(card, role=ILLUMINATI_NAMES.get(p.illuminati, ""), extras=tuple(extras),
                       enchantments=chips)

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
        if isinstance(a, Choose):
            if a.what == "lot" and a.option.isdigit():
                return f"Give up {sq(int(a.option))}"
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
                    for side in dict.fromkeys(a.side for a in actions):
                        unit = min(a.amount for a in actions if a.side == side)
                        rows.append(Option(f"{name}: spend for the {side} (${unit} units)",
                                           open=self._support_picker(state, seat, side, unit),
                                           seat=seat))
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

    def _support_picker(self, state: GameState, seat: int, side: str, unit: int) -> Any:
        from companion.kiosk.inputs import AmountPicker

        p = state.players[seat]
        high = max(unit, (p.central if isinstance(p, IllumPlayer) else p.cash) // unit * unit)

        def make() -> Any:
            return AmountPicker(f"{p.name} spends for the {side} (${unit} units)", unit, high,
                                unit, lambda v: Support(seat, side, v) if v % unit == 0
                                else None, ok_label="Spend")
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

        def picker(src: str, dst: str) -> Any:
            have = p.treasury(src)

            def make() -> Any:
                return AmountPicker(f"Move money: {_words(src)} > {_words(dst)} (has ${have})",
                                    1, have, min(have, 100),
                                    lambda v: Transfer(seat, src, dst, v), ok_label="Move")
            return make

        def make() -> Any:
            return Menu(f"{p.name}: move money (10%, at least $5, two free after moving)",
                        [Option(f"{_words(a)} > {_words(b)} (has ${p.treasury(a)})",
                                open=picker(a, b), seat=seat) for a, b in pairs])
        return make
