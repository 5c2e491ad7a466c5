"""Panels of the kiosk screen, one module each. A view draws a plain view-model (built by the
screen in ``update``) through a :class:`~companion.kiosk.painter.Painter`; it never changes game
or screen state."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from companion.kiosk.map_view import MapTarget, MapView, Square
from companion.kiosk.painter import Colour


@dataclass(frozen=True)
class LotChip:
    short: str
    name: str
    houses: int
    hotel: bool
    mortgaged: bool
    enchantments: tuple[str, ...] = ()


@dataclass(frozen=True)
class GroupRow:
    group: str
    colour: Colour
    lots: tuple[LotChip, ...]
    owns_all: bool


@dataclass(frozen=True)
class PlayerCard:
    seat: int
    name: str
    colour: Colour
    cash: int | None  # None: the game has no money
    role: str = ""
    level: int | None = None
    ep: int | None = None
    ep_into: int = 0  # EP gained towards the next level
    ep_need: int = 10  # EP per level
    max_level: bool = False
    enchantments: tuple[str, ...] = ()
    extras: tuple[str, ...] = ()  # other per-player facts from the variant (skills, hidden...)
    groups: tuple[GroupRow, ...] = ()
    no_groups: str = ""  # what the card says when it has no groups ("no properties")
    current: bool = False
    deciding: bool = False
    bankrupt: bool = False
    in_jail: bool = False
    jail_cards: int = 0
    square: str = ""
    check: str = ""  # pawn check note (mismatch)
    # team play: the team's letter, "Team A: Ann+Cai" and its colour ("" = plays alone); the
    # cash is then the team's shared pool and the lots are the team's
    team: str = ""
    team_label: str = ""
    team_colour: Colour = (150, 150, 150)
    # a status badge a game gives a seat (e.g. what the player has become): a chip in its
    # colour with a one-letter icon, then the word; the card's left edge takes the colour
    badge: str = ""
    badge_icon: str = ""
    badge_colour: Colour = (150, 150, 150)
    # a bar with words and a scale (e.g. "damage 4/10"): (label, value, out of); None = none
    meter: tuple[str, int, int] | None = None
    status: str = ""  # a warning word before the card's facts ("DEAD"), drawn in red


@dataclass(frozen=True)
class TableBanner:
    """An effect in force across the whole table (a game's word for it, e.g. a rule suspended
    until someone's next turn): a coloured tag in the top bar."""

    text: str
    colour: Colour = (250, 160, 60)


@dataclass(frozen=True)
class InfoPanel:
    """A game's box of facts about the decision at hand (e.g. a contest: the number to roll,
    what each side has spent, who has passed), drawn above the options: a headline and a few
    short lines."""

    headline: str
    lines: tuple[str, ...] = ()
    colour: Colour = (255, 204, 64)


@dataclass(frozen=True)
class HeaderModel:
    variant: str
    turn: int
    current: str
    current_colour: Colour
    pot: int | None  # None: the game has no central pot
    bank: str
    camera: str
    camera_ok: bool
    outcome: str = ""
    banners: tuple[TableBanner, ...] = ()  # table-wide effects, most important first


@dataclass(frozen=True)
class DiceModel:
    """The dice pad as drawn: one entry per die, each named by its kind and showing its face as
    the kind reads it (a die's number of faces is never what the screen says)."""

    kinds: tuple[str, ...]  # each die as the screen names it ("d6", "piecepack die")
    values: tuple[int, ...]
    labels: tuple[str, ...]  # each value as its face reads ("null", "ace", "4")
    mode: str
    cursor: int
    problem: str = ""
    guessed: tuple[bool, ...] = ()  # a value pre-filled from the camera's guess, not yet checked


@dataclass(frozen=True)
class DecisionModel:
    title: str
    pad_title: str
    rows: tuple[tuple[str, bool, bool], ...]  # text, selected, enabled
    hint: str
    dice: DiceModel | None = None
    banners: tuple[tuple[str, Colour], ...] = ()
    depth: int = 0
    notes: tuple[str, ...] = ()  # what the decision's results do (the root menu's notes)
    notes_page: int = 0  # which page of notes shows when they need more than one (cycles)
    panel: InfoPanel | None = None  # the game's facts about the decision at hand


@dataclass(frozen=True)
class CameraModel:
    surface: pygame.Surface | None
    live: bool
    status: str
    dice: tuple[tuple[tuple[int, int, int, int], int | None, str], ...] = ()
    pieces: tuple[tuple[str | None, tuple[int, int], Colour, bool], ...] = ()  # name, xy, c, bad
    corners: tuple[tuple[int, int], ...] = ()
    source_width: int = 1  # width of the thumbnail the overlay points refer to
    warning: bool = False  # the status is a problem (e.g. pieces not read)
    marks: tuple[tuple[str, tuple[int, int]], ...] = ()  # a place's mark, its centre


@dataclass(frozen=True)
class MapModel:
    """The map as drawn this frame: the game's view, the squares the picker offers (with their
    span) and the one under its cursor (None: no picker on top)."""

    view: MapView
    picking: tuple[MapTarget, ...] = ()
    cursor: Square | None = None


@dataclass(frozen=True)
class PeekModel:
    """A player's private holdings, shown while their button is held."""

    name: str
    colour: Colour
    lines: tuple[str, ...]


@dataclass(frozen=True)
class ScreenModel:
    header: HeaderModel
    players: tuple[PlayerCard, ...]
    decision: DecisionModel
    camera: CameraModel
    log: tuple[str, ...] = field(default_factory=tuple)
    map: MapModel | None = None
    peek: PeekModel | None = None
