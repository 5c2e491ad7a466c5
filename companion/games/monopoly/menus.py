"""The decision at hand as a Monopoly menu tree: a row per action, with the card drawn, bids,
the properties (build, sell, mortgage), trades and the referee's commands in sub-menus; a
variant's own groups (e.g. abilities) come from its presenter's ``group_of``/``group_rows``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.core.actions import Action
from companion.games.monopoly.actions import (
    Bid,
    BreakDown,
    Build,
    DrawnCard,
    EndGame,
    Mortgage,
    Roll,
    Sell,
    Unmortgage,
)
from companion.games.monopoly.engine import Rules
from companion.games.monopoly.pending import Auction
from companion.games.monopoly.presenter import MonopolyPresenter, deck_of
from companion.games.monopoly.state import GameState
from companion.games.monopoly.trade_builder import TradeBuilder
from companion.kiosk.inputs import AmountPicker, Menu, Option, Pad, words

MANAGEMENT = (Build, Sell, Mortgage, Unmortgage, BreakDown)


def _who(state: GameState, seat: int) -> str:
    return state.players[seat].name


def root_menu(p: MonopolyPresenter, state: GameState, acts: Sequence[Action] | None = None,
              referee: Sequence[tuple[str, str]] = ()) -> Menu:
    """Every legal action of the moment, as a menu tree (see the module docstring).
    ``referee``: more (label, command) rows for the referee menu (camera set-up, new game)."""
    rules = p.rules
    if acts is None:
        acts = rules.legal_actions(state)
    deciders = rules.deciders(state)
    options: list[Option] = []
    head = state.pending[0] if state.pending else None
    mine = [a for a in acts if not isinstance(a, MANAGEMENT)]
    groups: dict[str, dict[int, list[Action]]] = {}
    cards: list[Action] = []
    bids: dict[int, list[Bid]] = {}
    for a in mine:
        group = p.group_of(a)
        if isinstance(a, Roll):
            options.insert(0, Option(f"{_who(state, a.player)}: enter the dice", command="dice",
                                     seat=a.player))
        elif isinstance(a, DrawnCard):
            cards.append(a)
        elif isinstance(a, Bid):
            bids.setdefault(a.player, []).append(a)
        elif group is not None:
            groups.setdefault(group, {}).setdefault(a.player, []).append(a)
        elif isinstance(a, EndGame):
            continue
        else:
            label = p.action_label(state, a)
            if len(deciders) > 1 or a.player not in deciders:
                if not label.startswith(_who(state, a.player)):
                    label = f"{_who(state, a.player)}: {label}"
            options.append(Option(label, action=a, seat=a.player))
    if cards:
        deck = words(deck_of(state)).title()
        options.insert(0, Option(f"Say which {deck} card was drawn",
                                 open=list_menu(p, f"Which {deck} card?", state, cards),
                                 seat=cards[0].player))
    for seat, seat_bids in bids.items():
        low = min(b.amount for b in seat_bids)
        high = state.players[seat].cash
        assert isinstance(head, Auction)
        what = p.square_name(head.square) if head.square >= 0 else "a house"
        options.insert(0, Option(
            f"{_who(state, seat)}: bid on {what} (high ${head.high_bid}) ", seat=seat,
            open=_bid_picker(state, seat, what, low, high)))
    options += p.group_rows(state, groups)
    manage = [a for a in acts if isinstance(a, MANAGEMENT)]
    if manage:
        options.append(Option("Properties: build, sell, mortgage",
                              open=_manage_menu(p, state, manage)))
    active = state.active_players
    if len(active) >= 2 and state.outcome is None and all(
            rules.may_manage(state, seat, "trade") for seat in active[:1]):
        options.append(Option("Trade between players", open=_trade_menu(rules, state)))
    options.append(Option("Referee: undo, end game, save",
                          open=_referee_menu(rules, state, acts, referee)))
    title = rules.waiting_for(state) if state.outcome is None else "The game is over"
    return Menu(title[:1].upper() + title[1:], options, top=True)


def list_menu(p: MonopolyPresenter, title: str, state: GameState,
              acts: Sequence[Action]) -> Callable[[], Pad]:
    """The opener of a menu with a row per action."""
    def make() -> Pad:
        return Menu(title, [Option(p.action_label(state, a), action=a, seat=a.player)
                            for a in acts])
    return make


def _bid_picker(state: GameState, seat: int, what: str, low: int,
                high: int) -> Callable[[], Pad]:
    def make() -> Pad:
        return AmountPicker(f"{state.players[seat].name} bids on {what}", low, high, low,
                            lambda v: Bid(seat, v), ok_label="Bid")
    return make


def _manage_menu(p: MonopolyPresenter, state: GameState,
                 acts: Sequence[Action]) -> Callable[[], Pad]:
    def make() -> Pad:
        seats = sorted({a.player for a in acts})
        options = []
        for seat in seats:
            theirs = [a for a in acts if a.player == seat]
            options.append(Option(f"{_who(state, seat)} ({len(theirs)} choices)", seat=seat,
                                  open=list_menu(p, f"{_who(state, seat)}: properties",
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
