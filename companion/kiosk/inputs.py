"""From buttons to decisions: the game-level inputs and the menus every decision is made with.

Keys and GPIO buttons both arrive as :class:`hardware.buttons.Input` values (PREV, NEXT,
CONFIRM, BACK and one REACT per seat) through one :class:`~hardware.buttons.InputQueue`. The
screens only ever see those inputs.

Every decision the rules engine offers (``rules.legal_actions``) becomes a menu option; options
that need a choice (an ability and its target or direction, a square to build on, a bid amount,
a trade) open a sub-menu or a picker. Everything is reachable with PREV/NEXT/CONFIRM/BACK alone;
the REACT buttons are shortcuts that jump to a seat's own options (off-turn reactions, bids).

A pad (menu, amount picker, trade builder, dice entry) answers an input with an ``Outcome``:
``Submit(action)``, ``Push(pad)``, ``Pop()`` or ``Command(name)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.games.monopoly.actions import (
    Action,
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
    Trade,
    TradeSide,
    Unmortgage,
    UseJailCard,
)
from companion.games.monopoly.cards import card_by_id
from companion.games.monopoly.dungeonopoly.names import title_of
from companion.games.monopoly.engine import Rules
from companion.games.monopoly.pending import Auction
from companion.games.monopoly.state import GameState
from hardware.buttons import CONFIRM, NEXT, PREV, Input, InputKind

MANAGEMENT = (Build, Sell, Mortgage, Unmortgage, BreakDown)


# ----------------------------------------------------------------------------------------------
# Outcomes
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Submit:
    action: Action


@dataclass(frozen=True)
class Push:
    pad: Pad


@dataclass(frozen=True)
class Pop:
    pass


@dataclass(frozen=True)
class Command:
    name: str  # dice | undo | export


Outcome = Submit | Push | Pop | Command


@dataclass(frozen=True)
class Row:
    text: str
    selected: bool = False
    enabled: bool = True
    note: str = ""


class Pad(Protocol):
    @property
    def title(self) -> str: ...

    def rows(self) -> list[Row]: ...

    def handle(self, inp: Input) -> Outcome | None: ...


# ----------------------------------------------------------------------------------------------
# Labels
# ----------------------------------------------------------------------------------------------
def _sq(rules: Rules, index: int) -> str:
    return rules.board.squares[index].name


def _who(state: GameState, seat: int) -> str:
    return state.players[seat].name


def words(name: str) -> str:
    return name.replace("_", " ")


def action_label(rules: Rules, state: GameState, a: Action) -> str:
    """What an option says on screen (short, plain words)."""
    if isinstance(a, Roll):
        return "Enter the dice"
    if isinstance(a, Buy):
        head = state.pending[0]
        return f"Buy {_sq(rules, head.square)} for ${rules.price(state, a.player, head.square)}"
    if isinstance(a, Decline):
        if state.pending and type(state.pending[0]).__name__ == "PlaceHouse":
            return "Give the house back"
        auctions = state.options.auctions
        return "Don't buy" + (" (auction)" if auctions else "")
    if isinstance(a, EndTurn):
        return "End the turn"
    if isinstance(a, PayJail):
        return f"Pay ${state.options.jail_fee} to leave jail"
    if isinstance(a, UseJailCard):
        return "Use the Get Out of Jail Free card"
    if isinstance(a, DrawnCard):
        return card_by_id(_deck_of(state), a.card).text
    if isinstance(a, Bid):
        return f"{_who(state, a.player)} bids ${a.amount}"
    if isinstance(a, PassBid):
        return f"{_who(state, a.player)} leaves the auction"
    if isinstance(a, DeclareBankruptcy):
        return "Declare bankruptcy"
    if isinstance(a, Build):
        return f"Build on {_sq(rules, a.square)} (${rules.board.squares[a.square].house_cost})"
    if isinstance(a, Sell):
        return f"Sell a building on {_sq(rules, a.square)}"
    if isinstance(a, Mortgage):
        return f"Mortgage {_sq(rules, a.square)} (+${rules.board.squares[a.square].mortgage})"
    if isinstance(a, Unmortgage):
        return f"Lift mortgage on {_sq(rules, a.square)} (${rules.unmortgage_cost(state, a.square)})"
    if isinstance(a, KeepMortgaged):
        return f"Keep {_sq(rules, a.square)} mortgaged (fee ${rules.transfer_fee(state, a.square)})"
    if isinstance(a, BreakDown):
        return f"Sell {words(a.group)} down to {','.join(map(str, a.levels))}"
    if isinstance(a, ClaimRent):
        return f"{_who(state, a.player)} claims rent for {_sq(rules, a.square)}"
    if isinstance(a, CallHouseAuction):
        return f"{_who(state, a.player)} calls a house auction"
    if isinstance(a, EndGame):
        return "End the game now (standings by net worth)"
    name = type(a).__name__
    if name == "UseAbility":
        return ability_label(state, a)
    if name == "Pass":
        return f"{_who(state, a.player)}: pass"
    if name == "Accept":
        return "Accept the card"
    if name == "Choose":
        what, option = str(getattr(a, "what", "")), str(getattr(a, "option", ""))
        if what == "draft" and option.isdigit() and int(option) < len(rules.board.squares):
            sq = rules.board.squares[int(option)]
            return f"Draft {sq.name}" + (f" (${sq.price})" if getattr(sq, "price", 0) else "")
        return f"Choose {words(what)}: {' '.join(title_of(o) for o in option.split(':'))}"
    if name == "TrainSkill":
        return f"Train {title_of(getattr(a, 'skill', ''))} (+{getattr(a, 'ranks', 1)})"
    try:
        return rules.format_action(state, a)
    except ValueError:
        return name


def ability_label(state: GameState, a: Any) -> str:
    parts = [title_of(a.ability)]
    if a.target is not None:
        parts.append(f"on {_who(state, a.target)}")
    for k, v in a.params:
        if k == "square":
            continue
        parts.append(f"{words(k)} {words(v)}")
    return " ".join(parts)


def target_label(state: GameState, rules: Rules, a: Any) -> str:
    """The part of an ability use that differs between its candidates (target, direction...)."""
    parts = []
    if a.target is not None:
        parts.append(_who(state, a.target))
    for k, v in a.params:
        if k == "square" and v.lstrip("-").isdigit() and 0 <= int(v) < len(rules.board.squares):
            parts.append(_sq(rules, int(v)))
        else:
            parts.append(f"{words(k)}: {words(v)}")
    return ", ".join(parts) or "Use it"


def _deck_of(state: GameState) -> str:
    head = state.pending[0] if state.pending else None
    return str(getattr(head, "deck", "chance"))


# ----------------------------------------------------------------------------------------------
# Menus
# ----------------------------------------------------------------------------------------------
@dataclass
class Option:
    label: str
    action: Action | None = None
    open: Callable[[], Pad] | None = None
    command: str | None = None
    seat: int | None = None  # whose option (REACT shortcut), None = the table's
    enabled: bool = True
    note: str = ""

    def outcome(self) -> Outcome | None:
        if not self.enabled:
            return None
        if self.action is not None:
            return Submit(self.action)
        if self.open is not None:
            return Push(self.open())
        if self.command is not None:
            return Command(self.command)
        return None


@dataclass
class Menu:
    """A list of options: PREV/NEXT move, CONFIRM chooses, BACK goes up (not at the top)."""

    title: str
    options: list[Option]
    index: int = 0
    top: bool = False

    def rows(self) -> list[Row]:
        return [Row(o.label + (" >" if o.open else ""), i == self.index, o.enabled, o.note)
                for i, o in enumerate(self.options)]

    def handle(self, inp: Input) -> Outcome | None:
        n = len(self.options)
        if inp.kind is InputKind.NEXT and n:
            self.index = (self.index + 1) % n
        elif inp.kind is InputKind.PREV and n:
            self.index = (self.index - 1) % n
        elif inp.kind is InputKind.CONFIRM and n:
            return self.options[self.index].outcome()
        elif inp.kind is InputKind.BACK and not self.top:
            return Pop()
        elif inp.kind is InputKind.REACT and inp.seat is not None:
            for i, o in enumerate(self.options):
                if o.seat == inp.seat and o.enabled:
                    self.index = i
                    break
        return None

    def find(self, action: Action) -> int | None:
        for i, o in enumerate(self.options):
            if o.action == action:
                return i
        return None

    def plan(self, action: Action, depth: int = 0) -> list[Input] | None:
        """The button presses that reach ``action`` from here (for the demo's autopilot)."""
        for i, o in enumerate(self.options):
            steps = _moves(self.index, i, len(self.options))
            if o.action == action and o.enabled:
                return [*steps, CONFIRM]
            if o.open is not None and o.enabled and depth < 4:
                sub = o.open()
                inner = sub_plan(sub, action, depth + 1)
                if inner is not None:
                    return [*steps, CONFIRM, *inner]
        return None


def _moves(start: int, goal: int, n: int) -> list[Input]:
    if n == 0:
        return []
    fwd = (goal - start) % n
    back = (start - goal) % n
    return [NEXT] * fwd if fwd <= back else [PREV] * back


def sub_plan(pad: Pad, action: Action, depth: int) -> list[Input] | None:
    if isinstance(pad, Menu):
        return pad.plan(action, depth)
    if isinstance(pad, AmountPicker):
        return pad.plan(action)
    return None


# ----------------------------------------------------------------------------------------------
# Amounts (auction bids, trade cash)
# ----------------------------------------------------------------------------------------------
STEPS = (100, 10, 1)


@dataclass
class AmountPicker:
    """An amount chosen with the buttons: a row of [-100] [-10] [-1] [OK $N] [+1] [+10] [+100].

    PREV/NEXT move between them, CONFIRM on a step applies it, CONFIRM on the middle one takes
    the amount; BACK leaves."""

    title: str
    low: int
    high: int
    value: int
    make: Callable[[int], Action | None]
    ok_label: str = "OK"
    cursor: int = 3  # 0..6, 3 = OK
    on_done: Callable[[int], Outcome | None] | None = None

    def __post_init__(self) -> None:
        self.value = max(self.low, min(self.high, self.value))

    @property
    def buttons(self) -> list[str]:
        return [f"-{s}" for s in STEPS] + [f"{self.ok_label} ${self.value}"] + \
            [f"+{s}" for s in reversed(STEPS)]

    def delta(self, i: int) -> int:
        return (-STEPS[i]) if i < 3 else (STEPS[6 - i] if i > 3 else 0)

    def rows(self) -> list[Row]:
        return [Row(b, i == self.cursor) for i, b in enumerate(self.buttons)]

    def handle(self, inp: Input) -> Outcome | None:
        if inp.kind is InputKind.NEXT:
            self.cursor = min(6, self.cursor + 1)
        elif inp.kind is InputKind.PREV:
            self.cursor = max(0, self.cursor - 1)
        elif inp.kind is InputKind.BACK:
            return Pop()
        elif inp.kind is InputKind.CONFIRM:
            if self.cursor == 3:
                if self.on_done is not None:
                    return self.on_done(self.value)
                action = self.make(self.value)
                return Submit(action) if action is not None else None
            self.value = max(self.low, min(self.high, self.value + self.delta(self.cursor)))
        return None

    def plan(self, action: Action) -> list[Input] | None:
        amount = getattr(action, "amount", None)
        if amount is None or not self.low <= amount <= self.high:
            return None
        if self.make(amount) != action:
            return None
        out: list[Input] = []
        cursor = self.cursor
        diff = amount - self.value
        sign = 1 if diff > 0 else -1
        rest = abs(diff)
        for k, step in enumerate(STEPS):
            count, rest = divmod(rest, step)
            if count:
                target = (6 - k) if sign > 0 else k
                out += _walk(cursor, target)
                cursor = target
                out += [CONFIRM] * count
        out += _walk(cursor, 3)
        out.append(CONFIRM)
        return out


def _walk(a: int, b: int) -> list[Input]:
    return [NEXT] * (b - a) if b >= a else [PREV] * (a - b)


# ----------------------------------------------------------------------------------------------
# Trades
# ----------------------------------------------------------------------------------------------
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
            out.append(("give", f"{mark} {me} gives {_sq(self.rules, i)}", i))
        for d in self.state.players[self.player].jail_cards:
            mark = "[x]" if d in self.give_cards else "[ ]"
            out.append(("give_card", f"{mark} {me} gives jail card ({words(d)})", d))
        if cash:
            out.append(("give_cash", self._cash_label(self.player, self.give_cash), None))
        for i in self._lots(self.partner):
            mark = "[x]" if i in self.get else "[ ]"
            out.append(("get", f"{mark} {other} gives {_sq(self.rules, i)}", i))
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


# ----------------------------------------------------------------------------------------------
# The decision at hand as a menu
# ----------------------------------------------------------------------------------------------
def root_menu(rules: Rules, state: GameState, acts: Sequence[Action] | None = None,
              referee: Sequence[tuple[str, str]] = ()) -> Menu:
    """Every legal action of the moment, as a menu tree (see the module docstring).
    ``referee``: more (label, command) rows for the referee menu (camera set-up, new game)."""
    if acts is None:
        acts = rules.legal_actions(state)
    deciders = rules.deciders(state)
    options: list[Option] = []
    head = state.pending[0] if state.pending else None
    mine = [a for a in acts if not isinstance(a, MANAGEMENT)]
    abilities: dict[int, list[Action]] = {}
    trains: dict[int, list[Action]] = {}
    cards: list[Action] = []
    bids: dict[int, list[Bid]] = {}
    for a in mine:
        name = type(a).__name__
        if isinstance(a, Roll):
            options.insert(0, Option(f"{_who(state, a.player)}: enter the dice", command="dice",
                                     seat=a.player))
        elif isinstance(a, DrawnCard):
            cards.append(a)
        elif isinstance(a, Bid):
            bids.setdefault(a.player, []).append(a)
        elif name == "UseAbility":
            abilities.setdefault(a.player, []).append(a)
        elif name == "TrainSkill":
            trains.setdefault(a.player, []).append(a)
        elif isinstance(a, EndGame):
            continue
        else:
            label = action_label(rules, state, a)
            if len(deciders) > 1 or a.player not in deciders:
                if not label.startswith(_who(state, a.player)):
                    label = f"{_who(state, a.player)}: {label}"
            options.append(Option(label, action=a, seat=a.player))
    if cards:
        deck = words(_deck_of(state)).title()
        options.insert(0, Option(f"Say which {deck} card was drawn",
                                 open=_list_menu(f"Which {deck} card?", rules, state, cards),
                                 seat=cards[0].player))
    for seat, seat_bids in bids.items():
        low = min(b.amount for b in seat_bids)
        high = state.players[seat].cash
        assert isinstance(head, Auction)
        what = _sq(rules, head.square) if head.square >= 0 else "a house"
        options.insert(0, Option(
            f"{_who(state, seat)}: bid on {what} (high ${head.high_bid}) ", seat=seat,
            open=_bid_picker(state, seat, what, low, high)))
    for seat, uses in abilities.items():
        options.append(Option(f"{_who(state, seat)}: use an ability", seat=seat,
                              open=_ability_menu(rules, state, seat, uses)))
    for seat, items in trains.items():
        options.append(Option(f"{_who(state, seat)}: train rogue skills", seat=seat,
                              open=_list_menu("Train which skill?", rules, state, items)))
    manage = [a for a in acts if isinstance(a, MANAGEMENT)]
    if manage:
        options.append(Option("Properties: build, sell, mortgage",
                              open=_manage_menu(rules, state, manage)))
    active = state.active_players
    if len(active) >= 2 and state.outcome is None and all(
            rules.may_manage(state, p, "trade") for p in active[:1]):
        options.append(Option("Trade between players", open=_trade_menu(rules, state)))
    options.append(Option("Referee: undo, end game, save",
                          open=_referee_menu(rules, state, acts, referee)))
    title = rules.waiting_for(state) if state.outcome is None else "The game is over"
    return Menu(title[:1].upper() + title[1:], options, top=True)


def _list_menu(title: str, rules: Rules, state: GameState,
               acts: Sequence[Action]) -> Callable[[], Pad]:
    def make() -> Pad:
        return Menu(title, [Option(action_label(rules, state, a), action=a, seat=a.player)
                            for a in acts])
    return make


def _bid_picker(state: GameState, seat: int, what: str, low: int,
                high: int) -> Callable[[], Pad]:
    def make() -> Pad:
        return AmountPicker(f"{state.players[seat].name} bids on {what}", low, high, low,
                            lambda v: Bid(seat, v), ok_label="Bid")
    return make


def _ability_menu(rules: Rules, state: GameState, seat: int,
                  uses: Sequence[Action]) -> Callable[[], Pad]:
    def make() -> Pad:
        by_name: dict[str, list[Action]] = {}
        for a in uses:
            by_name.setdefault(str(getattr(a, "ability", "")), []).append(a)
        options = []
        for name, group in by_name.items():
            label = title_of(name)
            if len(group) == 1:
                options.append(Option(ability_label(state, group[0]), action=group[0], seat=seat))
            else:
                options.append(Option(label, seat=seat, open=_target_menu(rules, state, label,
                                                                           group)))
        return Menu(f"{state.players[seat].name}: which ability?", options)
    return make


def _target_menu(rules: Rules, state: GameState, label: str,
                 group: Sequence[Action]) -> Callable[[], Pad]:
    def make() -> Pad:
        return Menu(f"{label}: choose", [Option(target_label(state, rules, a), action=a,
                                                seat=a.player) for a in group])
    return make


def _manage_menu(rules: Rules, state: GameState, acts: Sequence[Action]) -> Callable[[], Pad]:
    def make() -> Pad:
        seats = sorted({a.player for a in acts})
        options = []
        for seat in seats:
            theirs = [a for a in acts if a.player == seat]
            options.append(Option(f"{_who(state, seat)} ({len(theirs)} choices)", seat=seat,
                                  open=_list_menu(f"{_who(state, seat)}: properties", rules,
                                                  state, theirs)))
        return Menu("Whose properties?", options)
    return make


def _trade_menu(rules: Rules, state: GameState) -> Callable[[], Pad]:
    def make() -> Pad:
        active = state.active_players
        options = []
        for a in active:
            for b in active:
                if a >= b:
                    continue
                label = f"{_who(state, a)} and {_who(state, b)}"
                if state.allied(a, b):  # teammates: only a jail card can change hands
                    if not (state.players[a].jail_cards or state.players[b].jail_cards):
                        continue
                    label += ": a jail card"
                options.append(Option(label, seat=a, open=_trade_builder(rules, state, a, b)))
        return Menu("Who trades?", options)
    return make


def _trade_builder(rules: Rules, state: GameState, a: int, b: int) -> Callable[[], Pad]:
    def make() -> Pad:
        return TradeBuilder(rules, state, a, b)
    return make


def _referee_menu(rules: Rules, state: GameState, acts: Sequence[Action],
                  more: Sequence[tuple[str, str]] = ()) -> Callable[[], Pad]:
    def make() -> Pad:
        options = [Option("Undo the last action", command="undo"),
                   Option("Save the game as a transcript", command="export")]
        ends = [a for a in acts if isinstance(a, EndGame)]
        if state.outcome is None:
            options.append(Option("End the game now (standings by net worth)",
                                  action=ends[0] if ends else EndGame(state.current)))
        options += [Option(label, command=command) for label, command in more]
        return Menu("Referee", options)
    return make
