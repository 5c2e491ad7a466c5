"""Putting a Monopoly trade together with the kiosk's buttons (a pad of the decision menu)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.monopoly.actions import Trade, TradeSide
from companion.games.monopoly.engine import Rules
from companion.games.monopoly.state import GameState
from companion.kiosk.inputs import AmountPicker, Outcome, Pop, Push, Row, Submit, words
from hardware.buttons import Input, InputKind


@dataclass
class TradeBuilder:
    """Put a trade together with the buttons: toggle lots and jail cards on both sides, set
    cash on both sides, then propose it; the rules check it before it can be confirmed.

    Team play: a member trades the team's lots and pool (cash rows say "team pool"); between
    teammates only jail cards are offered (they already share cash and lots)."""

    rules: Rules
    state: GameState
    player: int
    partner: int
    give: set[int] = field(default_factory=set)
    get: set[int] = field(default_factory=set)
    give_cash: int = 0
    get_cash: int = 0
    give_cards: set[str] = field(default_factory=set)
    get_cards: set[str] = field(default_factory=set)
    index: int = 0

    @property
    def title(self) -> str:
        return (f"Trade: {self.state.players[self.player].name} with "
                f"{self.state.players[self.partner].name}")

    @property
    def teammates(self) -> bool:
        return self.state.allied(self.player, self.partner)

    def _lots(self, seat: int) -> list[int]:
        if self.teammates:
            return []
        holder = self.state.side(seat)  # team play: the team's lots, held by its first seat
        return [i for i, s in enumerate(self.state.squares) if s.owner == holder]

    def _cash_label(self, seat: int, amount: int) -> str:
        pool = " (team pool)" if len(self.state.members(seat)) > 1 else ""
        return f"{self.state.players[seat].name} gives ${amount}{pool} >"

    def items(self) -> list[tuple[str, str, Any]]:
        """(kind, label, key) per row."""
        me = self.state.players[self.player].name
        other = self.state.players[self.partner].name
        cash = not self.teammates
        out: list[tuple[str, str, Any]] = []
        for i in self._lots(self.player):
            mark = "[x]" if i in self.give else "[ ]"
            out.append(("give", f"{mark} {me} gives {self.rules.board.squares[i].name}", i))
        for d in self.state.players[self.player].jail_cards:
            mark = "[x]" if d in self.give_cards else "[ ]"
            out.append(("give_card", f"{mark} {me} gives jail card ({words(d)})", d))
        if cash:
            out.append(("give_cash", self._cash_label(self.player, self.give_cash), None))
        for i in self._lots(self.partner):
            mark = "[x]" if i in self.get else "[ ]"
            out.append(("get", f"{mark} {other} gives {self.rules.board.squares[i].name}", i))
        for d in self.state.players[self.partner].jail_cards:
            mark = "[x]" if d in self.get_cards else "[ ]"
            out.append(("get_card", f"{mark} {other} gives jail card ({words(d)})", d))
        if cash:
            out.append(("get_cash", self._cash_label(self.partner, self.get_cash), None))
        problem = self.problem()
        out.append(("propose", "Both agree: make the trade" if problem is None
                    else f"Cannot trade: {problem}", None))
        return out

    def action(self) -> Trade:
        return Trade(self.player, self.partner,
                     TradeSide(tuple(sorted(self.give)), self.give_cash,
                               tuple(sorted(self.give_cards))),
                     TradeSide(tuple(sorted(self.get)), self.get_cash,
                               tuple(sorted(self.get_cards))))

    def problem(self) -> str | None:
        action = self.action()
        if action.give.empty and action.get.empty:
            return "choose what changes hands"
        return self.rules.trade_problem(self.state, action)

    def rows(self) -> list[Row]:
        items = self.items()
        return [Row(label, i == self.index, kind != "propose" or self.problem() is None)
                for i, (kind, label, _k) in enumerate(items)]

    def handle(self, inp: Input) -> Outcome | None:
        items = self.items()
        n = len(items)
        if inp.kind is InputKind.NEXT:
            self.index = (self.index + 1) % n
        elif inp.kind is InputKind.PREV:
            self.index = (self.index - 1) % n
        elif inp.kind is InputKind.BACK:
            return Pop()
        elif inp.kind is InputKind.CONFIRM:
            kind, _label, key = items[self.index]
            if kind == "give":
                self.give ^= {key}
            elif kind == "get":
                self.get ^= {key}
            elif kind == "give_card":
                self.give_cards ^= {key}
            elif kind == "get_card":
                self.get_cards ^= {key}
            elif kind in ("give_cash", "get_cash"):
                seat = self.player if kind == "give_cash" else self.partner
                current = self.give_cash if kind == "give_cash" else self.get_cash

                def done(value: int, kind: str = kind) -> Outcome:
                    if kind == "give_cash":
                        self.give_cash = value
                    else:
                        self.get_cash = value
                    return Pop()

                return Push(AmountPicker(f"Cash from {self.state.players[seat].name}", 0,
                                         self.state.players[seat].cash, current,
                                         lambda v: None, on_done=done))
            elif kind == "propose" and self.problem() is None:
                return Submit(self.action())
        return None
