"""A MonopoZombie table for tests whose players, lots and stage are set directly."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.registry import find_game
from companion.games.monopoly.actions import Action, Roll
from companion.games.monopoly.monopozombie import MonopoZombie, ZombieOptions, ZombiePlayer
from companion.games.monopoly.monopozombie.layer import stage, table
from companion.games.monopoly.state import GameState
from companion.kiosk.pawn_check import BoardSeen
from companion.kiosk.table_feed import TableReading
from companion.session import Session
from companion.transcript import replay

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


class Z:
    """A MonopoZombie table for one test: ``z.act(action)`` applies and keeps the events."""

    def __init__(self, players: int = 4, decks: dict[str, list[str]] | None = None,
                 **options: Any) -> None:
        rules = find_game("monopozombie")
        assert isinstance(rules, MonopoZombie)
        self.rules = rules
        opts = replace(ZombieOptions(), **options)
        self.state: GameState = rules.new_game(NAMES[:players], opts, seed=1, decks=decks)
        self.events: list[Event] = []

    def seat(self, name: str) -> int:
        return self.state.player_index(name)

    def p(self, name: str) -> ZombiePlayer:
        player = self.state.players[self.seat(name)]
        assert isinstance(player, ZombiePlayer)
        return player

    def put(self, name: str, **fields: Any) -> Z:
        """Set fields of a player (position, zombie, homeless, lap_done ...)."""
        players = list(self.state.players)
        players[self.seat(name)] = replace(players[self.seat(name)], **fields)
        self.state = replace(self.state, players=tuple(players))
        return self

    def veterans(self, *names: str) -> Z:
        """These players (all when none named) are past their first lap."""
        for n in names or [p.name for p in self.state.players]:
            self.put(n, lap_done=True)
        return self

    def lot(self, square: int, owner: str | None, houses: int = 0, hotel: bool = False,
            mortgaged: bool = False) -> Z:
        squares = list(self.state.squares)
        old = squares[square]
        squares[square] = replace(old, owner=None if owner is None else self.seat(owner),
                                  houses=0 if hotel else houses, hotel=hotel,
                                  mortgaged=mortgaged)
        bank_houses = self.state.bank_houses + old.houses * (not old.hotel) - \
            (0 if hotel else houses)
        bank_hotels = self.state.bank_hotels + int(old.hotel) - int(hotel)
        self.state = replace(self.state, squares=tuple(squares), bank_houses=bank_houses,
                             bank_hotels=bank_hotels)
        return self

    def turn(self, name: str, rolled: bool = False) -> Z:
        self.state = replace(self.state, current=self.seat(name), rolled=rolled,
                             roll_again=False, doubles=0)
        return self

    def stage(self, name: str) -> Z:
        self.state = replace(self.state, table=replace(table(self.state), stage=name))
        return self

    @property
    def stage_now(self) -> str:
        return stage(self.state)

    def act(self, action: Action) -> list[Event]:
        self.state, events = self.rules.apply(self.state, action)
        self.events += events
        return list(events)

    def roll(self, name: str, *dice: int) -> list[Event]:
        return self.act(Roll(self.seat(name), tuple(dice)))

    def refused(self, action: Action, words: str) -> str:
        """The action is refused with a message containing ``words``; nothing changes."""
        before = self.state
        with pytest.raises(IllegalActionError) as err:
            self.rules.apply(self.state, action)
        assert words in str(err.value), str(err.value)
        assert self.state == before
        return str(err.value)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def pos(self, name: str) -> int:
        return self.state.players[self.seat(name)].position


class Feed:
    """A camera for kiosk tests: it hands over prepared board readings (``see``) and keeps
    what it was told (the dice to expect, the places to look)."""

    def __init__(self) -> None:
        self.readings: list[TableReading] = []
        self.expected: object = None
        self.dice: list[tuple[int, ...] | None] = []

    def see(self, occupants: dict[int, tuple[str, ...]]) -> None:
        img = np.zeros((270, 480, 3), np.uint8)
        self.readings.append(TableReading(len(self.readings) + 1, img,
                                          board=BoardSeen("ok", "", occupants, True)))

    def expect_dice(self, sides: Sequence[int] | None,
                    kinds: Sequence[str] | None = None) -> None:
        self.dice.append(tuple(sides) if sides is not None else None)

    def poll(self) -> TableReading | None:
        return self.readings.pop(0) if self.readings else None

    def status(self) -> tuple[bool, str]:
        return True, "camera running"

    def set_expected(self, expected: object) -> None:
        self.expected = expected

    def reset_dice(self) -> None:
        pass

    def close(self) -> None:
        pass


def session(text: str) -> Session:
    """A kiosk session of the game a transcript text leaves."""
    result = replay(text)
    return Session(result.rules, result.state, [ln for ln in text.splitlines() if ln], None)
