"""Every decision is reachable with the buttons alone: bots play whole stretches of games and
each action they pick is made by pressing PREV/NEXT/CONFIRM/BACK on the kiosk's menus."""

from __future__ import annotations

import random

import pytest

from companion.bots import RandomBot
from companion.core.dice import DicePrompt, die_of_sides
from companion.games.monopoly.actions import Bid, Roll, Trade, TradeSide
from companion.games.monopoly.bots import HeuristicBot
from companion.games.monopoly.trade_builder import TradeBuilder
from companion.kiosk.dice_flow import DiceEntry
from companion.kiosk.inputs import AmountPicker, Menu, Pop, Submit
from companion.kiosk.screens import GameScreen
from companion.session import Session, choose_variant
from companion.transcript import format_action
from hardware.buttons import BACK, CONFIRM, NEXT, PREV, Input


def roll_entry(player: int, sides: tuple[int, ...], purpose: str, name: str,
               camera_live: bool) -> DiceEntry:
    """A dice pad for a Monopoly roll of ``sides`` (its answer is a ``Roll``)."""
    return DiceEntry(DicePrompt(player, tuple(die_of_sides(s) for s in sides), purpose), name,
                     camera_live, lambda values: Roll(player, values))


def presses_for(screen: GameScreen, action: object, rng: random.Random) -> list[Input]:
    s = screen.session
    if isinstance(action, Roll):
        entry = screen.dice_entry()
        assert entry is not None, "a roll is due: the dice pad must be on top"
        return entry.plan_entry(action.dice)
    plan: list[Input] = [BACK] * (len(screen.stack) - 1)
    root = s.rules.presenter().menu(s.state)
    found = root.plan(action)  # type: ignore[arg-type]
    assert found is not None, f"no button path to {format_action(s.rules, s.state, action)}"  # type: ignore[arg-type]
    return plan + found


@pytest.mark.parametrize("variant,bot", [("monopoly", "heuristic"), ("monopoly", "random"),
                                         ("dungeonopoly", "heuristic"),
                                         ("dungeonopoly", "random")])
def test_bot_games_played_only_with_buttons(variant: str, bot: str) -> None:
    variant = choose_variant(variant)
    roles: list[str] = []
    if variant == "dungeonopoly":
        try:
            from companion.games.monopoly.dungeonopoly.abilities import class_names
        except ImportError as exc:
            pytest.skip(f"the Dungeonopoly layer does not import right now: {exc}")
        roles = [c for c in ("fighter", "wizard", "cleric", "rogue") if c in class_names()]
    players = [(n, roles[i % len(roles)] if roles else "")
               for i, n in enumerate(["Ann", "Ben", "Cai", "Dee"])]
    session = Session.memory(variant, players, seed=7)
    screen = GameScreen(session, None, (800, 480))
    rng = random.Random(5)
    chooser = HeuristicBot(3) if bot == "heuristic" else RandomBot(3)
    steps = 0
    while steps < 150 and session.state.outcome is None:
        screen.update(1 / 30)
        st = session.state
        acts = session.rules.legal_actions(st, session.rules.deciders(st))
        action = chooser.choose(session.rules, st, acts)
        if isinstance(action, Roll) and not action.dice:
            spec = session.rules.roll_spec(st)
            assert spec is not None
            action = Roll(action.player, tuple(rng.randint(1, s) for s in spec.sides))
        if isinstance(action, Trade):
            continue  # trades: see the trade builder test
        before = len(session.lines)
        expected = format_action(session.rules, st, action)
        for press in presses_for(screen, action, rng):
            screen.handle(press)
        assert session.lines[before:] == [expected], [b.text for b in screen.banners]
        steps += 1
    assert steps >= 40


def test_amount_picker_reaches_any_bid() -> None:
    picker = AmountPicker("bid", 10, 500, 10, lambda v: Bid(2, v))
    plan = picker.plan(Bid(2, 237))
    assert plan is not None
    out = None
    for press in plan:
        out = picker.handle(press)
    assert out == Submit(Bid(2, 237))
    picker = AmountPicker("bid", 10, 500, 300, lambda v: Bid(2, v))
    for press in [PREV, PREV, PREV, CONFIRM, CONFIRM, NEXT, NEXT, NEXT]:  # -100 twice, OK
        picker.handle(press)
    assert picker.value == 100
    assert picker.handle(CONFIRM) == Submit(Bid(2, 100))
    assert picker.handle(BACK) == Pop()


def test_trade_is_built_with_buttons() -> None:
    session = Session.memory("monopoly", [("Ann", ""), ("Ben", "")], seed=1)
    session.apply(Roll(0, (1, 2)))  # Baltic Avenue
    from companion.games.monopoly.actions import Buy, EndTurn
    session.apply(Buy(0))
    session.apply(EndTurn(0))
    builder = TradeBuilder(session.rules, session.state, 1, 0)
    labels = [r.text for r in builder.rows()]
    target = next(i for i, t in enumerate(labels) if "Ann gives Baltic" in t)
    for _ in range(target):
        builder.handle(NEXT)
    builder.handle(CONFIRM)  # tick Baltic
    cash_row = next(i for i, r in enumerate(builder.rows()) if r.text.startswith("Ben gives $"))
    for _ in range(builder.index - cash_row):
        builder.handle(PREV)
    out = builder.handle(CONFIRM)
    assert out is not None and hasattr(out, "pad")
    picker = out.pad  # type: ignore[union-attr]
    assert isinstance(picker, AmountPicker)
    for press in [NEXT, NEXT, NEXT, CONFIRM, PREV, CONFIRM, CONFIRM, PREV, PREV]:
        picker.handle(press)  # +100, +10 x2
    assert picker.handle(CONFIRM) == Pop()
    assert builder.give_cash == 120
    propose = len(builder.rows()) - 1
    while builder.index != propose:
        builder.handle(NEXT)
    out = builder.handle(CONFIRM)
    assert out == Submit(Trade(1, 0, TradeSide(cash=120), TradeSide(squares=(3,))))


def test_react_button_jumps_to_a_seats_option() -> None:
    session = Session.memory("monopoly", [("Ann", ""), ("Ben", ""), ("Cai", "")], seed=1)
    session.apply(Roll(0, (1, 2)))
    from companion.games.monopoly.actions import Decline
    session.apply(Decline(0))  # Baltic goes to auction: every seat bids
    menu = session.rules.presenter().menu(session.state)
    menu.handle(Input.react(2))
    assert menu.options[menu.index].seat == 2
    out = menu.handle(CONFIRM)
    assert out is not None and isinstance(out.pad, AmountPicker)  # type: ignore[union-attr]


def test_dice_entry_confirm_and_correct() -> None:
    entry = roll_entry(0, (6, 6,), "move", "Ann", True)
    from companion.kiosk.dice_flow import DiceSeen
    assert entry.offer(DiceSeen((5, 3)))
    assert entry.handle(CONFIRM) == Submit(Roll(0, (5, 3)))
    entry = roll_entry(0, (6, 6,), "move", "Ann", True)
    entry.offer(DiceSeen((5, 3)))
    entry.handle(NEXT)  # another press: correct them
    assert entry.mode == "edit"
    entry.handle(NEXT)  # 5 -> 6
    entry.handle(CONFIRM)
    assert entry.handle(CONFIRM) == Submit(Roll(0, (6, 3)))
    entry = roll_entry(0, (6, 6,), "move", "Ann", True)
    assert not entry.offer(DiceSeen((5, 3, 2)))
    assert "3 dice" in entry.problem
    assert not entry.offer(DiceSeen((5, None), "unsure"))
    entry = roll_entry(1, (20,), "check:x", "Ben", False)
    assert entry.mode == "edit"
    for press in entry.plan_entry((17,)):
        out = entry.handle(press)
    assert out == Submit(Roll(1, (17,)))


def test_menu_wraps_and_back_pops() -> None:
    session = Session.memory("monopoly", [("Ann", ""), ("Ben", "")])
    menu = session.rules.presenter().menu(session.state)
    assert isinstance(menu, Menu) and menu.top
    n = len(menu.options)
    menu.handle(PREV)
    assert menu.index == n - 1
    assert menu.handle(BACK) is None  # the top menu stays
