"""The game screen in team play (SDL dummy driver; PNGs in out/kiosk-tests): each member's
card names its team, the pool is marked shared, the team's lots appear on every member's card,
the standings and the winner name the team; cards stay inside the screen with 4 players in 2
teams and 6 players in 3 teams. And the trade menu in team play."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.games.monopoly.actions import EndGame
from companion.games.monopoly.trade_builder import TradeBuilder
from companion.kiosk.headless import render_one
from companion.kiosk.inputs import Menu
from companion.kiosk.painter import Painter
from companion.kiosk.screens import GameScreen
from companion.kiosk.teams import letters_of, side_title, title_of_name
from companion.session import Session
from companion.transcript import replay
from hardware.buttons import BACK, CONFIRM, NEXT

SIZES = [(1280, 720), (800, 480)]
CLASSES = ["fighter", "wizard", "cleric", "rogue", "bard", "druid"]


def team_session(names: list[str], teams: str, extra: list[str] = (),  # type: ignore[assignment]
                 variant: str = "dungeonopoly") -> Session:
    lines = [f"variant {variant}", "seed 4", f"option teams={teams}"]
    lines += [f"player {n} {CLASSES[i] if variant == 'dungeonopoly' else ''}".rstrip()
              for i, n in enumerate(names)]
    lines += list(extra)
    result = replay("\n".join(lines) + "\n")
    return Session(result.rules, result.state, lines, None)


FOUR = ['set square "Boardwalk" owner=Ann houses=1', 'set square "Park Place" owner=Ann houses=1',
        'set square "Baltic Avenue" owner=Ben', 'set square "Reading Railroad" owner=Ben',
        "set player Cai jail_cards=chance"]


def check_panels(painter: Painter, size: tuple[int, int]) -> None:
    screen = pygame.Rect(0, 0, *size)
    panels = {p.name: pygame.Rect(p.rect) for p in painter.panels}
    for name, rect in panels.items():
        assert screen.contains(rect), f"panel {name} {rect} leaves the {size} screen"
    for d in painter.drawn:
        r = pygame.Rect(d.rect)
        assert panels[d.panel].contains(r), f"text {d.text!r} at {r} leaves panel {d.panel}"
        assert d.size >= 13, f"text {d.text!r} is too small ({d.size}px)"


def cards_inside(screen: GameScreen, size: tuple[int, int]) -> None:
    from companion.kiosk.views.players import grid

    lay = screen.layout
    assert screen.model is not None
    cells = grid(len(screen.model.players), lay.players, lay.pad)
    for cell in cells:
        assert lay.players.contains(cell) and pygame.Rect(0, 0, *size).contains(cell)


@pytest.mark.parametrize("size", SIZES)
def test_four_players_in_two_teams(size: tuple[int, int], png_dir: Path) -> None:
    session = team_session(["Ann", "Ben", "Cai", "Dee"], "Ann+Cai,Ben+Dee", FOUR)
    screen = GameScreen(session, None, size)
    painter = render_one(screen, size, png_dir / f"teams4-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_panels(painter, size)
    cards_inside(screen, size)
    texts = painter.texts("players")
    assert texts.count("Team A: Ann+Cai") == 2 and texts.count("Team B: Ben+Dee") == 2
    assert texts.count("shared pool") == 4
    assert texts.count("$3,000") == 4  # the pool, marked shared on each member's card
    assert "$1,500" not in texts
    # the team's lots on both members' cards, not only under the first seat
    assert texts.count("Boardwalk") == 2 and texts.count("Baltic") == 2
    assert "no properties" not in texts
    assert screen.model is not None
    assert [c.name for c in screen.model.players] == ["Ann", "Cai", "Ben", "Dee"]
    assert any("jail card" in t for t in texts)


@pytest.mark.parametrize("size", SIZES)
def test_six_players_in_three_teams(size: tuple[int, int], png_dir: Path) -> None:
    names = ["Ann", "Ben", "Cai", "Dee", "Eve", "Fin"]
    extra = [*FOUR, 'set square "Kentucky Avenue" owner=Cai hotel=true',
             "set player Ben in_jail=true position=Jail"]
    session = team_session(names, "Ann+Dee,Ben+Eve,Cai+Fin", extra)
    screen = GameScreen(session, None, size)
    painter = render_one(screen, size, png_dir / f"teams6-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_panels(painter, size)
    cards_inside(screen, size)
    texts = painter.texts("players")
    if size == (1280, 720):  # room for a line per team member
        for label in ("Team A: Ann+Dee", "Team B: Ben+Eve", "Team C: Cai+Fin"):
            assert texts.count(label) == 2, texts
        assert texts.count("shared pool") == 6
    else:  # short cards: a letter chip on the class line, "shared" before the pool
        assert [texts.count(letter) for letter in "ABC"] == [2, 2, 2], texts
        assert texts.count("shared") == 6 and not any(t.startswith("Team ") for t in texts)
    assert texts.count("$3,000") == 6
    assert texts.count("Kentucky") == 2
    assert screen.model is not None
    assert [c.name for c in screen.model.players] == ["Ann", "Dee", "Ben", "Eve", "Cai", "Fin"]
    assert any("IN JAIL" in t for t in texts)


def test_no_teams_draws_as_before(midgame: Session) -> None:
    screen = GameScreen(midgame, None, (1280, 720))
    painter = render_one(screen, (1280, 720))
    assert isinstance(painter, Painter)
    texts = painter.texts("players")
    assert "shared pool" not in texts and not any(t.startswith("Team ") for t in texts)
    assert screen.model is not None
    assert [c.seat for c in screen.model.players] == [0, 1, 2, 3]
    assert all(c.team == "" for c in screen.model.players)


@pytest.mark.parametrize("size", SIZES)
def test_game_over_names_the_team(size: tuple[int, int], png_dir: Path) -> None:
    session = team_session(["Ann", "Bob", "Cai"], "Ann+Cai", ['set square "Boardwalk" owner=Ann'],
                           variant="monopoly")
    session.apply(EndGame(0))
    screen = GameScreen(session, None, size)
    painter = render_one(screen, size, png_dir / f"teams-over-{size[0]}x{size[1]}.png")
    assert isinstance(painter, Painter)
    check_panels(painter, size)
    decision = " ".join(painter.texts("decision"))
    assert "Game over: Team A: Ann+Cai wins" in decision
    assert "1. Team A: Ann+Cai $3,400" in decision and "2. Bob $1,500" in decision
    assert "Team A: Ann+Cai wins" in painter.texts("header")


def test_team_names_from_the_option() -> None:
    session = team_session(["Ann", "Ben", "Cai", "Dee", "Eve"], "Dee+Ben,Ann+Cai", [],
                           variant="monopoly")
    st = session.state
    assert letters_of(st) == {1: "A", 0: "B"}  # the option's order: Dee+Ben is team A
    assert side_title(st, 3) == "Team A: Ben+Dee" and side_title(st, 4) == "Eve"
    assert title_of_name(st, "Ann+Cai") == "Team B: Ann+Cai"
    assert title_of_name(st, "Eve") == "Eve"


def test_trades_in_team_play_offer_only_what_the_rules_allow() -> None:
    session = team_session(["Ann", "Ben", "Cai", "Dee"], "Ann+Cai,Ben+Dee", FOUR,
                           variant="monopoly")
    st, rules = session.state, session.rules
    menu = rules.presenter().menu(st)
    trade = next(o for o in menu.options if o.label.startswith("Trade"))
    assert trade.open is not None
    who = trade.open()
    assert isinstance(who, Menu)
    labels = [o.label for o in who.options]
    # teammates only for a jail card (Cai holds one); Ben and Dee have none: not offered
    assert "Ann and Cai: a jail card" in labels
    assert not any(label.startswith("Ben and Dee") for label in labels)
    assert {"Ann and Ben", "Ann and Dee", "Ben and Cai", "Cai and Dee"} <= set(labels)
    # a member who does not hold the team's lots still trades them: Cai gives Boardwalk to Ben
    builder = TradeBuilder(rules, st, 2, 1)
    items = [label for _k, label, _key in builder.items()]
    assert "[ ] Cai gives Boardwalk" in items and "[ ] Ben gives Baltic Avenue" in items
    assert "Cai gives $0 (team pool) >" in items
    builder.get.add(5)  # Ben gives Reading Railroad, Cai pays $200 from the pool
    builder.give_cash = 200
    assert builder.problem() is None
    after = rules.apply(st, builder.action())[0]
    assert after.squares[5].owner == 0 and after.players[0].cash == 2800
    # teammates: no lots, no cash rows; the card passes with the buttons alone
    pair = who.options[labels.index("Ann and Cai: a jail card")]
    assert pair.open is not None
    mates = pair.open()
    assert isinstance(mates, TradeBuilder)
    rows = [label for _k, label, _key in mates.items()]
    assert not any("Boardwalk" in r or "$" in r for r in rows), rows
    card = next(i for i, (k, _l, _key) in enumerate(mates.items()) if k == "get_card")
    for _ in range(card):
        mates.handle(NEXT)
    mates.handle(CONFIRM)
    while mates.items()[mates.index][0] != "propose":
        mates.handle(NEXT)
    out = mates.handle(CONFIRM)
    from companion.kiosk.inputs import Submit

    assert isinstance(out, Submit)
    session.apply(out.action)
    assert session.state.players[0].jail_cards == ("chance",)
    assert session.state.players[2].jail_cards == ()


@pytest.mark.parametrize("variant,bot", [("monopoly", "heuristic"), ("dungeonopoly", "random")])
def test_team_games_played_only_with_buttons(variant: str, bot: str) -> None:
    """Bots pick every action of a team game; each is made by pressing the kiosk's buttons."""
    import random

    from companion.bots import RandomBot
    from companion.games.monopoly.actions import Roll, Trade
    from companion.games.monopoly.bots import HeuristicBot
    from companion.transcript import format_action

    roles = CLASSES[:4] if variant == "dungeonopoly" else [""] * 4
    players = list(zip(["Ann", "Ben", "Cai", "Dee"], roles, strict=True))
    rules_opts = Session.memory(variant, players).rules.default_options()
    session = Session.memory(variant, players, seed=11,
                             options=rules_opts.with_values(teams="Ann+Cai,Ben+Dee"))
    screen = GameScreen(session, None, (800, 480))
    rng = random.Random(2)
    chooser = HeuristicBot(4) if bot == "heuristic" else RandomBot(4)
    steps = 0
    while steps < 120 and session.state.outcome is None:
        screen.update(1 / 30)
        st = session.state
        acts = session.rules.legal_actions(st, session.rules.deciders(st))
        action = chooser.choose(session.rules, st, acts)
        if isinstance(action, Roll) and not action.dice:
            spec = session.rules.roll_spec(st)
            assert spec is not None
            action = Roll(action.player, tuple(rng.randint(1, s) for s in spec.sides))
        if isinstance(action, Trade):
            continue  # trades: see the trade test above
        before = len(session.lines)
        expected = format_action(session.rules, st, action)
        if isinstance(action, Roll):
            entry = screen.dice_entry()
            assert entry is not None
            presses = entry.plan_entry(action.dice)
        else:
            found = session.rules.presenter().menu(st).plan(action)
            assert found is not None, f"no button path to {expected}"
            presses = [BACK] * (len(screen.stack) - 1) + found
        for inp in presses:
            screen.handle(inp)
        assert session.lines[before:] == [expected], [b.text for b in screen.banners]
        steps += 1
    kinds = {line.split()[1] for line in session.lines}
    assert steps >= 40 and session.state.sides == (0, 1, 0, 1)
    assert {"roll", "buy"} <= kinds, kinds
