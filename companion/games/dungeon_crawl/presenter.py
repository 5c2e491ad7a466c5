"""What the kiosk shows of Dungeon Crawl: the dungeon as a map, the cards, the menus, the peek.

- The map (``map_view``): the laid tiles as 2x2 squares of floor (alternate tiles in two
  shades), coins as tokens showing their value (in the suit's colour once the suit is known),
  the stacks the dead left, the pawns in their colours with the player's initial; entrances are
  outlined while a pawn is placed or re-enters. The mover's legal destinations (and the
  entrances to place or re-enter at) are the map's targets, picked with the cursor.
- Laying a tile: the tile's suit, then its value (two short menus; the table turned it over),
  then the place on the map (a 2x2 target each) when the suit's direction allows more than one.
  Placing a coin: its value, then the square. Standing the four pawns: north, east and south
  in three short menus (west is the one left).
- The cards: treasure count, equipment, experience of both kinds, damage out of 10 as a bar,
  dead or alive. Treasure values are private: the shared screen shows only the count, and
  ``private_lines`` gives them while the player holds their button.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.games.dungeon_crawl import camera
from companion.games.dungeon_crawl.actions import (
    Attack,
    First,
    LayTile,
    Move,
    Pass,
    PlaceCoin,
    PlacePawn,
    Reenter,
    Reveal,
    Soak,
    Spend,
    Spoils,
    StandPawns,
    TreasureTaken,
)
from companion.games.dungeon_crawl.building import tile_places
from companion.games.dungeon_crawl.geometry import bounds, entrances, spaces_of
from companion.games.dungeon_crawl.pieces import (
    COLOURS,
    DEATH_DAMAGE,
    DIRECTION_NAMES,
    KIND_OF_SUIT,
    SUITS,
    TREASURES,
    value_label,
)
from companion.games.dungeon_crawl.state import CrawlState, Space, TileAt
from companion.games.dungeon_crawl.words import xy
from companion.kiosk import theme
from companion.kiosk.dice_flow import DiceSeen, RollRead
from companion.kiosk.die_readers import PIECEPACK_COIN
from companion.kiosk.inputs import MapPicker, Menu, Option, Pad
from companion.kiosk.map_view import MapCell, MapPiece, MapTarget, MapView, MapWall
from companion.kiosk.painter import Colour
from companion.kiosk.presenter import BasicPresenter, CameraAnswer, HeaderFacts
from companion.kiosk.views import PlayerCard

FLOOR = ("#6e5d45", "#5d4f3b")  # alternate tiles, so the 2x2 tiles read apart
GHOST = "#2c3042"  # where a tile may be laid
COIN = "#e6dcb8"  # a coin lying value side up, suit unknown
STACK = "#a0704a"  # what a dead character left
TILE_EDGE = "#241e16"
SUIT_COLOUR = {"suns": "#d72828", "moons": "#1e1e1e", "crowns": "#f0d723", "arms": "#1e5fcd"}
COIN_TEXT = {0: "n", 1: "A"}  # null and ace on a small coin


def heading(start: Space, end: Space) -> str:
    """A straight move in words: "2 north-east"."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    way = ("north" if dy > 0 else "south" if dy < 0 else "") + \
        ("-" if dx and dy else "") + ("east" if dx > 0 else "west" if dx < 0 else "")
    return f"{max(abs(dx), abs(dy))} {way}"


def corner(space: Space) -> str:
    """Which of its tile's four squares a space is: "north-west" ..."""
    return ("north" if space[1] % 2 else "south") + "-" + ("east" if space[0] % 2 else "west")


def tile_place(state: CrawlState, at: TileAt) -> str:
    """Where a tile goes, in words: against which side of the last tile laid, or (ruling C-4:
    that place taken) at the dungeon's far edge."""
    if not state.tiles:
        return "as tile one"
    last = state.tiles[-1].at
    dx, dy = at[0] - last[0], at[1] - last[1]
    if abs(dx) + abs(dy) == 1:
        side = {(1, 0): "east", (-1, 0): "west", (0, 1): "north", (0, -1): "south"}[(dx, dy)]
        return f"{side} of the last tile"
    return f"at the far edge, tile {xy(at)}"


def suit_colour(suit: str) -> Colour:
    return theme.colour_of(SUIT_COLOUR[suit])


def coin_word(value: int) -> str:
    return COIN_TEXT.get(value, str(value))


class Frame:
    """Dungeon spaces (x right, y north) to map squares (column, row from the top)."""

    def __init__(self, tiles: Sequence[TileAt]) -> None:
        x0, y0, x1, y1 = bounds(tiles) if tiles else (0, 0, 1, 1)
        self.x0, self.y1 = x0, y1
        self.width, self.height = x1 - x0 + 1, y1 - y0 + 1

    def square(self, space: Space) -> tuple[int, int]:
        return (space[0] - self.x0, self.y1 - space[1])

    def tile_square(self, tile: TileAt) -> tuple[int, int]:
        """The top-left square of a tile (its north-west space)."""
        return self.square((2 * tile[0], 2 * tile[1] + 1))


class CrawlPresenter(BasicPresenter):
    description = "A piecepack treasure hunt: build the dungeon, then crawl it for treasure"
    role_word = "colour"

    def roles(self) -> tuple[str, ...]:
        return tuple(COLOURS.values())

    # -- colours -----------------------------------------------------------------------------
    def seat_colour(self, state: CrawlState, seat: int) -> Colour:
        """A player's colour is their suit's (their die and pawn)."""
        return suit_colour(state.players[seat].suit)

    # -- the map -----------------------------------------------------------------------------
    def map_view(self, state: CrawlState) -> MapView:
        places = self._tile_places(state)
        frame = Frame([t.at for t in state.tiles] + [t for t in places])
        cells: list[MapCell] = []
        walls: list[MapWall] = []
        doors = set(entrances(state)) if self._entering(state) else set()
        taking = self._coin_tile(state)
        coin_tile = set(spaces_of(taking)) if taking is not None else set()
        for tile in state.tiles:
            fill = FLOOR[(tile.at[0] + tile.at[1]) % 2]
            for space in spaces_of(tile.at):
                edge = "good" if space in doors else "accent" if space in coin_tile else ""
                cells.append(MapCell(frame.square(space), fill, edge=edge))
        for place, suits in places.items():  # each place says which suits may go there
            nw = (2 * place[0], 2 * place[1] + 1)
            for space in spaces_of(place):
                words = "".join(x[0].upper() for x in suits) if space == nw else ""
                cells.append(MapCell(frame.square(space), GHOST, words, edge="accent"))
        for tile in state.tiles:  # the tiles' outlines
            nw = frame.tile_square(tile.at)
            for dx in (0, 1):
                walls.append(MapWall((nw[0] + dx, nw[1]), "n", TILE_EDGE))
                walls.append(MapWall((nw[0] + dx, nw[1] + 1), "s", TILE_EDGE))
            for dy in (0, 1):
                walls.append(MapWall((nw[0], nw[1] + dy), "w", TILE_EDGE))
                walls.append(MapWall((nw[0] + 1, nw[1] + dy), "e", TILE_EDGE))
        pieces: list[MapPiece] = []
        for coin in state.coins:
            colour = SUIT_COLOUR[coin.suit] if coin.suit else COIN
            pieces.append(MapPiece(frame.square(coin.at), colour, coin_word(coin.value), "token"))
        for stack in state.stacks:
            count = len(stack.treasures) + stack.equipment
            pieces.append(MapPiece(frame.square(stack.at), STACK, str(count), "token"))
        for p in state.players:
            if p.at is not None:
                pieces.append(MapPiece(frame.square(p.at), SUIT_COLOUR[p.suit], p.name[:1]))
        targets = tuple(MapTarget(frame.square(space), label, action)
                        for space, label, action in self._square_choices(state))
        legend = [(SUIT_COLOUR[p.suit], p.name) for p in state.players]
        legend += [(COIN, "coin (value)"), (STACK, "stack of the dead")]
        if doors:
            legend.append(("good", "entrance"))
        if coin_tile:
            legend.append(("accent", "the tile that takes a coin"))
        if places:
            legend.append(("accent", "a tile may go here (S M C A: its suits)"))
        title = (f"The dungeon: {len(state.tiles)} of 24 tiles laid"
                 if state.phase in ("start", "build") else
                 f"The dungeon: {len(state.coins)} coins lie, "
                 f"{state.crowns_revealed} of {TREASURES} treasures found")
        banners = tuple(f"{p.name} is dead: re-enters at an entrance on their turn"
                        for p in state.players if p.dead)
        return MapView(frame.width, frame.height, tuple(cells), tuple(walls), tuple(pieces),
                       targets, title, tuple(legend), banners)

    def _coin_tile(self, state: CrawlState) -> TileAt | None:
        """The tile a coin goes on now (the last laid, or tile one for the last coin)."""
        if state.outcome is not None or not state.tiles:
            return None
        if state.phase == "last_coin":
            return (0, 0)
        if state.pending is not None and state.pending.step == "coin":
            return state.tiles[-1].at
        return None

    def _entering(self, state: CrawlState) -> bool:
        if state.outcome is not None:
            return False
        if state.phase == "place_pawns":
            return True
        return (state.phase == "play" and state.pending is None
                and state.players[state.current].at is None)

    def _tile_places(self, state: CrawlState) -> dict[TileAt, list[str]]:
        """Where the tile being laid may go, with the suits that may go there (of the suits
        still to be drawn), while building."""
        if state.phase != "build" or state.pending is not None or state.outcome is not None:
            return {}
        if state.tiles and not state.directions:
            return {}
        left = {a.suit for a in self.game.legal_actions(state) if isinstance(a, LayTile)}
        found: dict[TileAt, list[str]] = {}
        for suit in SUITS:
            if suit in left:
                for place in tile_places(state, suit):
                    found.setdefault(place, []).append(suit)
        return dict(sorted(found.items()))

    def _square_choices(self, state: CrawlState) -> list[tuple[Space, str, Action]]:
        """The decisions that are a square each: a move, an entrance to enter or be placed at."""
        found: list[tuple[Space, str, Action]] = []
        for a in self.game.legal_actions(state):
            if isinstance(a, Move):
                found.append((a.to, self.action_label(state, a), a))
            elif isinstance(a, (Reenter, PlacePawn)):
                found.append((a.space, self.action_label(state, a), a))
        return found

    # -- the menus ---------------------------------------------------------------------------
    def action_label(self, state: CrawlState, action: Action) -> str:  # noqa: C901
        a = action
        names = [p.name for p in state.players]
        pending = state.pending
        if isinstance(a, First):
            return "builds first"
        if isinstance(a, Move):
            coin = state.coin_at(a.to)
            stack = state.stack_at(a.to)
            what = (f": coin {value_label(coin.value)}" if coin else
                    ": a stack" if stack else "")
            here = state.players[a.player].at
            return f"move {heading(here, a.to)}{what}" if here else f"move to {xy(a.to)}"
        if isinstance(a, Reenter):
            return f"re-enter at {xy(a.space)}"
        if isinstance(a, PlacePawn):
            return f"put {names[state.next_seat(a.player)]}'s pawn at {xy(a.space)}"
        if isinstance(a, Pass):
            if pending is not None and pending.step == "attack":
                return "no attack"
            if state.players[a.player].at is None:
                return "wait (stay out this turn)"
            return "pass (no move possible)"
        if isinstance(a, Reveal):
            return f"the coin is {a.suit} ({KIND_OF_SUIT[a.suit]})"
        if isinstance(a, Spend):
            if pending is not None and pending.step == "spend" and pending.suit:
                kind = "trap" if pending.suit == "suns" else "monster"
                return f"spend {a.amount} {kind} XP (roll +{a.amount})"
            return f"spend {a.amount} equipment (roll +{a.amount})"
        if isinstance(a, Soak):
            left = pending.value - a.amount if pending is not None else 0
            return f"use {a.amount} equipment (damage {left})"
        if isinstance(a, Attack):
            held = len(state.players[a.target].treasures)
            return f"attack {names[a.target]} ({held} treasure{'' if held == 1 else 's'})"
        if isinstance(a, Spoils):
            return ("take a random treasure" if a.kind == "treasure"
                    else "take an equipment point")
        if isinstance(a, TreasureTaken):
            return f"the treasure drawn is a {value_label(a.value)}"
        if isinstance(a, LayTile):
            return f"lay the {a.suit} {value_label(a.value)} tile {tile_place(state, a.at)}"
        if isinstance(a, PlaceCoin):
            word = value_label(a.value)
            return f"{'an' if word == 'ace' else 'a'} {word} coin on the {corner(a.space)} square"
        if isinstance(a, StandPawns):
            return ", ".join(f"{d} {s}" for d, s in zip(DIRECTION_NAMES, a.order, strict=True))
        return super().action_label(state, a)

    def menu(self, state: CrawlState, actions: Sequence[Action] | None = None,
             referee: Sequence[tuple[str, str]] = ()) -> Menu:
        if actions is None:
            actions = self.game.legal_actions(state)
        prompt = self.dice_prompt(state)
        options: list[Option] = []
        if prompt is not None:
            options.append(Option(f"{self.who(state, prompt.player)}: enter the die",
                                  command="dice", seat=prompt.player))
        tiles = [a for a in actions if isinstance(a, LayTile)]
        coins = [a for a in actions if isinstance(a, PlaceCoin)]
        pawns = [a for a in actions if isinstance(a, StandPawns)]
        if tiles:
            options += self._tile_options(state, tiles)
        if coins:
            options += self._coin_options(state, coins)
        if pawns:
            seat = pawns[0].player
            options.append(Option(f"{self.who(state, seat)}: stand the four pawns",
                                  open=self._pawn_menu(state, pawns, ()), seat=seat))
        for a in actions:
            if isinstance(a, (LayTile, PlaceCoin, StandPawns)):
                continue
            if prompt is not None and a.player == prompt.player and self.is_roll(state, a):
                continue
            options.append(Option(f"{self.who(state, a.player)}: {self.action_label(state, a)}",
                                  action=a, seat=a.player))
        options.append(Option("Referee: undo, save", open=self.referee_menu(state, referee)))
        title = self.game.waiting_for(state) if state.outcome is None else "The game is over"
        return Menu(title[:1].upper() + title[1:], options, top=True)

    def _tile_options(self, state: CrawlState, tiles: list[LayTile]) -> list[Option]:
        """A row per suit still in the pile; its value next, then the place (if more than one)."""
        who = self.who(state, tiles[0].player)
        options = []
        for suit in SUITS:
            mine = [a for a in tiles if a.suit == suit]
            if mine:
                article = "an" if suit[0] in "aeiou" else "a"
                options.append(Option(f"{who}: turned over {article} {suit} tile",
                                      open=self._tile_values(state, suit, mine),
                                      seat=mine[0].player))
        return options

    def _tile_values(self, state: CrawlState, suit: str,
                     tiles: list[LayTile]) -> Callable[[], Pad]:
        def make() -> Pad:
            options = []
            for value in sorted({a.value for a in tiles}):
                here = [a for a in tiles if a.value == value]
                label = f"the {suit} {value_label(value)}"
                if len(here) == 1:
                    options.append(Option(f"{label}: lay it {tile_place(state, here[0].at)}",
                                          action=here[0]))
                else:
                    options.append(Option(f"{label}: where?", open=self._tile_picker(state,
                                                                                      here)))
            return Menu(f"Which {suit} tile?", options)
        return make

    def _tile_picker(self, state: CrawlState, tiles: list[LayTile]) -> Callable[[], Pad]:
        def make() -> Pad:
            frame = Frame([t.at for t in state.tiles] + list(self._tile_places(state)))
            targets = [MapTarget(frame.tile_square(a.at), self.action_label(state, a), a,
                                 (2, 2)) for a in tiles]
            return MapPicker("Where does the tile go?", targets)
        return make

    def _coin_options(self, state: CrawlState, coins: list[PlaceCoin]) -> list[Option]:
        who = self.who(state, coins[0].player)
        options = []
        for value in sorted({a.value for a in coins}):
            here = [a for a in coins if a.value == value]
            word = value_label(value)
            label = f"{who}: {'an' if word == 'ace' else 'a'} {word} coin"
            if len(here) == 1:
                options.append(Option(f"{label} on the {corner(here[0].space)} square",
                                      action=here[0], seat=here[0].player))
            else:
                options.append(Option(f"{label}: where?", open=self._coin_picker(state, here),
                                      seat=here[0].player))
        return options

    def _coin_picker(self, state: CrawlState, coins: list[PlaceCoin]) -> Callable[[], Pad]:
        def make() -> Pad:
            frame = Frame([t.at for t in state.tiles])
            targets = [MapTarget(frame.square(a.space), self.action_label(state, a), a)
                       for a in coins]
            return MapPicker("Which square takes the coin?", targets)
        return make

    def _pawn_menu(self, state: CrawlState, pawns: list[StandPawns],
                   chosen: tuple[str, ...]) -> Callable[[], Pad]:
        """North, east, south in turn (west takes the last suit)."""
        def make() -> Pad:
            direction = DIRECTION_NAMES[len(chosen)]
            options = []
            for suit in SUITS:
                if suit in chosen:
                    continue
                order = (*chosen, suit)
                label = f"{suit} ({COLOURS[suit]}) points {direction}"
                if len(order) == 3:
                    action = next(a for a in pawns if a.order[:3] == order)
                    last = action.order[3]
                    options.append(Option(f"{label}, {last} west", action=action))
                else:
                    options.append(Option(label, open=self._pawn_menu(state, pawns, order)))
            return Menu(f"Which pawn points {direction}?", options)
        return make

    # -- the cards and the header ------------------------------------------------------------
    def header(self, state: CrawlState) -> HeaderFacts:
        bank = (f"treasures found {state.crowns_revealed}/{TREASURES}"
                if state.phase in ("play", "over") else f"tiles laid {len(state.tiles)}/24")
        current = self.game.deciders(state)[0] if self.game.deciders(state) else state.current
        return HeaderFacts(state.turn, current, None, bank)

    def player_cards(self, state: CrawlState, checks: Mapping[int, str]) -> tuple[PlayerCard, ...]:
        deciders = set(self.game.deciders(state))
        cards = []
        for i, p in enumerate(state.players):
            treasure = len(p.treasures)
            extras = (f"treasure {treasure}  equip {p.equipment}",
                      f"XP trap {p.trap_xp}  monster {p.monster_xp}")
            cards.append(PlayerCard(
                seat=i, name=p.name, colour=self.seat_colour(state, i), cash=None,
                extras=extras, current=i == state.current and state.outcome is None,
                deciding=i in deciders, check=checks.get(i, ""),
                meter=("damage", p.wounds, DEATH_DAMAGE), status="DEAD" if p.dead else ""))
        return tuple(cards)

    def private_lines(self, state: CrawlState, seat: int) -> tuple[str, ...]:
        """The values of the player's treasures (the screen shows only how many)."""
        values = sorted(self.game.peek(state, seat), reverse=True)
        if not values:
            return ("No treasure yet",)
        words = ", ".join(value_label(v) for v in values)
        count = f"{len(values)} treasure{'s' if len(values) > 1 else ''}"
        return (f"Treasures: {words}", f"{count}, worth {sum(values)} in all")

    # -- the camera --------------------------------------------------------------------------
    def roll_read(self, state: CrawlState, prompt: DicePrompt, seen: DiceSeen) -> RollRead:
        """Each player rolls their own die (ruling C-25): see ``camera.roll_read``."""
        return camera.roll_read(state, prompt, seen)

    def camera_pieces(self, state: CrawlState) -> tuple[str, ...]:
        """While a coin is turned over, the camera reads the coin shown in the dice area."""
        pending = state.pending
        if state.outcome is None and pending is not None and pending.step == "reveal":
            return (PIECEPACK_COIN,)
        return ()

    def camera_answer(self, state: CrawlState, seen: DiceSeen) -> CameraAnswer | None:
        return camera.coin_answer(state, seen)

    def place_of(self, state: CrawlState, seat: int) -> int | None:
        """Where the camera should see the seat's pawn: its space, numbered for the kiosk."""
        at = state.players[seat].at
        return None if at is None else camera.place_number(at)

    def place_name(self, place: int) -> str:
        return xy(camera.place_space(place))

    def board_reader(self, state: CrawlState) -> Any:
        """The tiles and pawns on the marker sheet (``camera.CrawlTableReader``)."""
        return camera.CrawlTableReader(state)

    def seen_choice(self, state: CrawlState, seen: Any) -> Action | None:
        return camera.seen_choice(state, self.game, seen)

    def table_notes(self, state: CrawlState, seen: Any) -> tuple[str, ...]:
        return camera.table_notes(state, seen)

    def demo_table(self, state: CrawlState, size: tuple[int, int], seed: int) -> Any:
        """The demo's camera: this game's table drawn with piecepack pieces."""
        from companion.games.dungeon_crawl.demo_table import CrawlDemoTable

        return CrawlDemoTable(self.game, state, size, seed)
