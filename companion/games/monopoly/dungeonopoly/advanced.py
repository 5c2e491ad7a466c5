"""Dungeonopoly's advanced and alternative rules as table options (rule source: Dungeonopoly,
"Advanced and alternative rules": Politics, Quicker game, Blitz game, Gestalt classes).

Options (``option NAME=VALUE`` in a transcript, ``--option NAME=VALUE`` for ``companion
simulate``), all off by default:

- ``strict_politics``: rent is always charged (never left for the owner to claim) and trades
  happen only at listed value: each side's cash + lots at printed price (less the mortgage on a
  mortgaged lot) + $50 per Get Out of Jail Free card must be equal (D-70). A gift is a trade
  with one side empty, so it is refused too.
- ``quicker_game``: three lots dealt free to each player at the start (shuffled by the game's
  seed), at most one turn in jail, houses stop at three (the fourth building is the hotel),
  a level for every 5 EP.
- ``blitz``: before play the players draft every remaining lot, one at a time in seat order
  (``NAME choose draft SQUARE``); characters start at level 10.
- ``gestalt``: a character has two classes (``player Ann fighter+wizard``), with the abilities of
  both at one shared level (so she levels in both at once).

Team play is not implemented yet (see docs/dungeonopoly/advanced-rules.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from companion.core.errors import IllegalActionError
from companion.games.monopoly.dungeonopoly.abilities import Choose
from companion.games.monopoly.dungeonopoly.steps import Decision
from companion.games.monopoly.state import GameState, Options

if TYPE_CHECKING:
    from companion.games.monopoly.actions import Action, Trade, TradeSide
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.dungeonopoly.terms import Table
    from companion.games.monopoly.txn import Txn

QUICK_DEAL = 3
QUICK_MAX_HOUSES = 3
QUICK_JAIL_TURNS = 1
QUICK_EP_PER_LEVEL = 5
BLITZ_LEVEL = 10
JAIL_CARD_VALUE = 50


def opt(options: Options, name: str) -> Any:
    return getattr(options, name, False)


def prepare_options(options: Options) -> Options:
    """The quicker game's figures and strict politics' automatic rent, written into the
    options so that state and transcripts show them."""
    changes: dict[str, Any] = {}
    if opt(options, "quicker_game"):
        changes.update(max_houses=QUICK_MAX_HOUSES, max_jail_turns=QUICK_JAIL_TURNS,
                       ep_per_level=QUICK_EP_PER_LEVEL)
    if opt(options, "strict_politics"):
        changes["rent_must_be_claimed"] = False
    return options.with_values(**changes) if changes else options


def check_role(role: str, options: Options) -> None:
    """Multiclassing is not allowed, except as the gestalt option's two classes."""
    if "+" not in role:
        return
    parts = role.split("+")
    if not opt(options, "gestalt"):
        raise ValueError(f"{role!r}: two classes need the gestalt option (option gestalt=true); "
                         "otherwise choose one class")
    if len(parts) != 2 or parts[0] == parts[1] or not all(parts):
        raise ValueError(f"{role!r}: a gestalt character has two different classes, "
                         "written CLASS+CLASS")


def setup(layer: Dungeonopoly, state: GameState) -> GameState:
    """Deal lots (quicker game), set starting levels and open the draft (blitz)."""
    options = state.options
    if opt(options, "blitz"):
        per = getattr(options, "ep_per_level", 10)
        state = replace(state, players=tuple(
            replace(p, level=BLITZ_LEVEL, ep=(BLITZ_LEVEL - 1) * per)  # type: ignore[call-arg]
            for p in state.players))
    if opt(options, "quicker_game"):
        lots = [i for i, sq in enumerate(layer.board.squares) if sq.ownable]
        random.Random(state.seed * 7919 + 17).shuffle(lots)
        squares = list(state.squares)
        k = 0
        for _round in range(QUICK_DEAL):
            for seat in range(len(state.players)):
                if k < len(lots):
                    squares[lots[k]] = replace(squares[lots[k]], owner=state.side(seat))
                    k += 1
        state = replace(state, squares=tuple(squares))
    if opt(options, "blitz") and free_lots(layer, state):
        state = replace(state, pending=(DraftPick(0),) + state.pending)
    return state


def free_lots(layer: Dungeonopoly, table: Table) -> list[int]:
    return [i for i, sq in enumerate(layer.board.squares)
            if sq.ownable and table.squares[i].owner is None]


@dataclass(frozen=True, slots=True)
class DraftPick(Decision):
    """Blitz: ``player`` picks the next lot of the draft (``choose draft SQUARE``)."""

    prompt: ClassVar[str] = "pick a lot in the blitz draft"

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        return [Choose(self.player, "draft", str(i)) for i in free_lots(layer, state)]

    def choose(self, layer: Dungeonopoly, t: Txn, what: str, option: str) -> None:
        lots = free_lots(layer, t)
        try:
            index = int(option)
        except ValueError:
            index = next((i for i in lots if layer.board.squares[i].name.lower() ==
                          option.lower()), -1)
        if what != "draft" or index not in lots:
            raise IllegalActionError("choose draft SQUARE: a square number of a lot nobody "
                                     "holds yet")
        t.set_square(index, owner=self.player)
        t.emit("drafted", self.player, square=index)
        if len(lots) > 1:
            n = len(t.players)
            nxt = (self.player + 1) % n
            while t.players[nxt].bankrupt:
                nxt = (nxt + 1) % n
            t.push(DraftPick(nxt))


def listed_value(layer: Dungeonopoly, table: Table, side: TradeSide) -> int:
    """A trade side at listed value: cash, lots at printed price (less the mortgage on a
    mortgaged lot), $50 per Get Out of Jail Free card."""
    total = side.cash + JAIL_CARD_VALUE * len(side.jail_cards)
    for i in side.squares:
        sq = layer.board.squares[i]
        total += sq.price - (sq.mortgage if table.squares[i].mortgaged else 0)
    return total


def trade_problem(layer: Dungeonopoly, table: Table, action: Trade) -> str | None:
    if not opt(table.options, "strict_politics"):
        return None
    give = listed_value(layer, table, action.give)
    get = listed_value(layer, table, action.get)
    if give != get:
        return (f"strict politics: trades only at listed value (this gives ${give} for ${get}; "
                "lots count at printed price less any mortgage, jail cards at $50)")
    return None
