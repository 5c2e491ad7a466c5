"""What the kiosk asks a game: the contract between the screens and each game's presenter.

A game's ``presenter()`` returns an object meeting :class:`Presenter`; the kiosk builds every
game-specific thing it shows from it (the decision menu and its labels, the player cards, the
header, the setup screen's roles and options, the board places the pawn check names) and holds
no game's name. :class:`BasicPresenter` is a plain presenter every game can start from: one
menu row per legal action labelled by its transcript line, a card per player with the name.

The protocol lives in the kiosk, not in ``companion.core``, because it speaks the kiosk's own
types (menus and pads, player-card and header view models): only a game's presenter module,
imported lazily by its ``presenter()``, depends on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.kiosk import theme
from companion.kiosk.dice_flow import DiceSeen, RollRead
from companion.kiosk.inputs import Menu, Option, Pad
from companion.kiosk.map_view import MapView
from companion.kiosk.painter import Colour
from companion.kiosk.views import InfoPanel, PlayerCard, TableBanner


@dataclass(frozen=True)
class TableOption:
    """A table option the setup screen offers: the option's field name, its label and a line
    of help; on/off, or with ``values`` one of those (words as an ``option`` line writes them,
    CONFIRM moves to the next)."""

    name: str
    label: str
    help: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class HeaderFacts:
    """The game's part of the top bar: the turn, whose turn it is, a central pot (None: the
    game has none) and a line about the bank ("" for none)."""

    turn: int
    current: int
    pot: int | None = None
    bank: str = ""


@dataclass(frozen=True)
class GameOver:
    """A finished game as the screen tells it: the header's words ("Ann wins"), the decision
    panel's title and a line of standings ("" for none)."""

    header: str
    title: str
    standings: str = ""


@dataclass(frozen=True)
class CameraAnswer:
    """What a game makes of pieces the camera read for a decision that is not a roll (a coin
    turned over ...): ``action``, the answer read (its menu row is pre-selected, a player
    confirms it) or None; ``text``, what the camera read or what is wrong and what to do."""

    action: Action | None
    text: str


class Presenter(Protocol):
    """What the kiosk shows of one game or variant."""

    @property
    def description(self) -> str:
        """One line for the setup screen's rule-set menu."""
        ...

    # -- setup -----------------------------------------------------------------------------
    def roles(self) -> tuple[str, ...]:
        """The roles (e.g. character classes) a player picks from, in menu order; () for none."""
        ...

    def role_note(self, role: str) -> str:
        """A few words the setup screen shows beside a role on its page ("" for none)."""
        ...

    @property
    def role_word(self) -> str:
        """What the setup screen calls a role ("class")."""
        ...

    @property
    def seat_word(self) -> str:
        """What the setup screen calls a seat ("player"; "team" where each seat is a team)."""
        ...

    @property
    def second_role_option(self) -> str:
        """The on/off table option that gives every player a second role ("" for none)."""
        ...

    def table_options(self) -> tuple[TableOption, ...]:
        """The on/off table options the setup screen offers for this game."""
        ...

    def players_summary(self, state: Any) -> str:
        """Who plays, in a few words ("Ann, Ben" or "Team A: Ann+Cai vs Ben")."""
        ...

    def parse_option(self, word: str) -> tuple[str, Any]:
        """A command line's ``NAME=VALUE`` as the option's name and typed value; raises
        ValueError naming the bad word."""
        ...

    # -- the decision at hand --------------------------------------------------------------
    def action_label(self, state: Any, action: Action) -> str:
        """What a menu row offering ``action`` says (short, plain words)."""
        ...

    def menu(self, state: Any, actions: Sequence[Action] | None = None,
             referee: Sequence[tuple[str, str]] = ()) -> Menu:
        """Every legal action of the moment as a menu tree (the top menu). The dice row opens
        the dice entry with ``command="dice"``; the last row is the referee menu (undo, save,
        and ``referee``'s (label, command) rows)."""
        ...

    def dice_prompt(self, state: Any) -> DicePrompt | None:
        """The dice the game waits for now, if any."""
        ...

    def is_roll(self, state: Any, action: Action) -> bool:
        """``action`` answers the dice prompt (the dice entry offers it, not a menu row)."""
        ...

    def roll_action(self, state: Any, prompt: DicePrompt, values: tuple[int, ...]) -> Action:
        """The action that answers ``prompt`` with ``values``."""
        ...

    # -- what the screen shows -------------------------------------------------------------
    def header(self, state: Any) -> HeaderFacts: ...

    def player_cards(self, state: Any, checks: Mapping[int, str]) -> tuple[PlayerCard, ...]:
        """A card per player in screen order (``checks``: the pawn check's note per seat)."""
        ...

    def game_over(self, state: Any) -> GameOver | None:
        """How the screen tells the end of the game (None while it goes on)."""
        ...

    # -- the board -------------------------------------------------------------------------
    def place_of(self, state: Any, seat: int) -> int | None:
        """Where the camera should see the seat's piece (a place the board reader numbers the
        same way), or None when it has no piece on the board (out of the game)."""
        ...

    def place_name(self, place: int) -> str:
        """A place's name for the screen ("Vermont Avenue", "In Jail")."""
        ...

    def place_marks(self, state: Any) -> Mapping[int, tuple[str, ...]]:
        """Short marks the game puts on board places (e.g. enchantments on lots: "Bless 3"),
        by place; the camera view draws them on those squares."""
        ...

    def piece_choices(self, state: Any) -> Mapping[int, tuple[int, ...]]:
        """Seats whose players are choosing where their piece goes now (a move picked after
        the roll), each with every place the piece may be put on; {} when no one is. The
        pawn check accepts the piece on any of them (or where it stands), and the menu's
        rows that carry ``places`` are pre-selected from where the camera sees it."""
        ...

    def map_view(self, state: Any) -> MapView | None:
        """The table as a square-grid map (a dungeon, a pitch), or None for a game whose board
        is a ring of places (the kiosk then shows no map)."""
        ...

    def seat_colour(self, state: Any, seat: int) -> Colour:
        """A seat's colour on screen (its pawn's)."""
        ...

    def private_lines(self, state: Any, seat: int) -> tuple[str, ...]:
        """What only ``seat``'s player may see (their hidden holdings), shown while they hold
        their button down; () when the game hides nothing."""
        ...

    def panel(self, state: Any) -> InfoPanel | None:
        """Facts about the decision at hand the options alone do not tell (e.g. a contest's
        number to roll, each side's spending, who has passed), drawn above the options; None
        when there is nothing to add."""
        ...

    def banners(self, state: Any) -> tuple[TableBanner, ...]:
        """Effects in force across the whole table, most important first (the top bar shows
        as many as fit); () for none."""
        ...

    # -- the camera ------------------------------------------------------------------------
    def roll_read(self, state: Any, prompt: DicePrompt, seen: DiceSeen) -> RollRead:
        """Whose dice the camera read: the dice of ``prompt``'s roll to offer for confirming,
        or a refusal saying why (another player's die, by its colour tag), and whether the
        same throw also holds the next roll."""
        ...

    def camera_pieces(self, state: Any) -> tuple[str, ...]:
        """The piece kinds (names registered in ``die_readers``) the camera reads for the
        decision at hand when no roll is due (a coin being turned over); () for none."""
        ...

    def table_dice(self) -> tuple[str, ...]:
        """The kinds of dice besides numbered ones (names registered in ``die_readers``) this
        game throws, so that the camera can leave such dice of an earlier roll, still lying
        in the tray, out of the roll at hand from the game's first roll on; () for none."""
        ...

    def camera_answer(self, state: Any, seen: DiceSeen) -> CameraAnswer | None:
        """The answer the pieces read (``camera_pieces``) give to the decision at hand."""
        ...

    def board_reader(self, state: Any) -> Any | None:
        """The game's own reader of where its pieces lie on the table (the table feed's board
        reader shape: ``process(frame, expected)``), or None for the standard board's."""
        ...

    def seen_choice(self, state: Any, seen: Any) -> Action | None:
        """The legal choice the camera sees already made on the table (a pawn standing on a
        square it may move to), to pre-select for a player to confirm; None for none.
        ``seen`` is a ``pawn_check.BoardSeen``."""
        ...

    def table_notes(self, state: Any, seen: Any) -> tuple[str, ...]:
        """What the camera sees on the table that the game does not have (or misses), besides
        the pawns the pawn check names (e.g. a tile laid where the game has none); ``seen`` is
        a stable ``pawn_check.BoardSeen``."""
        ...

    def demo_table(self, state: Any, size: tuple[int, int], seed: int) -> Any | None:
        """The demo's synthetic table for this game (a frame source the demo scripts), or
        None for the standard board's."""
        ...


class BasicPresenter:
    """A presenter for any :class:`~companion.core.game.Game`: rows labelled with the
    transcript line, no roles or options, cards with the names. Games subclass it."""

    description = ""
    role_word = "role"
    seat_word = "player"
    second_role_option = ""

    def __init__(self, game: Any) -> None:
        self.game = game

    def roles(self) -> tuple[str, ...]:
        return ()

    def role_note(self, role: str) -> str:
        return ""

    def table_options(self) -> tuple[TableOption, ...]:
        return ()

    def players_summary(self, state: Any) -> str:
        return ", ".join(p.name for p in state.players)

    def parse_option(self, word: str) -> tuple[str, Any]:
        name, sep, value = word.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--option takes NAME=VALUE, not {word!r}")
        return name.strip(), value.strip()

    def action_label(self, state: Any, action: Action) -> str:
        line = str(self.game.format_action(state, action))
        name = state.players[action.player].name
        return line[len(name) + 1:] if line.startswith(name + " ") else line

    def menu(self, state: Any, actions: Sequence[Action] | None = None,
             referee: Sequence[tuple[str, str]] = ()) -> Menu:
        if actions is None:
            actions = self.game.legal_actions(state)
        prompt = self.dice_prompt(state)
        options: list[Option] = []
        if prompt is not None:
            options.append(Option(f"{self.who(state, prompt.player)}: enter the dice",
                                  command="dice", seat=prompt.player))
        for a in actions:
            if prompt is not None and a.player == prompt.player and self.is_roll(state, a):
                continue
            options.append(Option(f"{self.who(state, a.player)}: {self.action_label(state, a)}",
                                  action=a, seat=a.player))
        options.append(Option("Referee: undo, save", open=self.referee_menu(state, referee)))
        title = self.game.waiting_for(state) if state.outcome is None else "The game is over"
        return Menu(title[:1].upper() + title[1:], options, top=True)

    def referee_menu(self, state: Any, more: Sequence[tuple[str, str]] = ()) -> Any:
        """The opener of the referee's menu: undo, save, then ``more`` (label, command)."""
        def make() -> Pad:
            options = [Option("Undo the last action", command="undo"),
                       Option("Save the game as a transcript", command="export")]
            options += [Option(label, command=command) for label, command in more]
            return Menu("Referee", options)
        return make

    def is_roll(self, state: Any, action: Action) -> bool:
        """The action answers the dice prompt (the dice entry offers it, not a row)."""
        prompt = self.dice_prompt(state)
        if prompt is None or action.player != prompt.player:
            return False
        probe = self.roll_action(state, prompt, tuple(kind.faces[0] for kind in prompt.dice))
        return type(action) is type(probe)

    def dice_prompt(self, state: Any) -> DicePrompt | None:
        prompt: DicePrompt | None = self.game.dice_prompt(state)
        return prompt

    def roll_action(self, state: Any, prompt: DicePrompt, values: tuple[int, ...]) -> Action:
        action: Action = self.game.roll_action(state, prompt, values)
        return action

    def header(self, state: Any) -> HeaderFacts:
        return HeaderFacts(int(getattr(state, "turn", 1)), int(getattr(state, "current", 0)))

    def player_cards(self, state: Any, checks: Mapping[int, str]) -> tuple[PlayerCard, ...]:
        deciders = set(self.game.deciders(state))
        current = self.header(state).current
        return tuple(PlayerCard(seat=i, name=p.name, colour=theme.seat_colour(i), cash=None,
                                current=i == current and state.outcome is None,
                                deciding=i in deciders, check=checks.get(i, ""),
                                square=self.place_title(state, i))
                     for i, p in enumerate(state.players))

    def place_title(self, state: Any, seat: int) -> str:
        place = self.place_of(state, seat)
        return "" if place is None else self.place_name(place)

    def game_over(self, state: Any) -> GameOver | None:
        outcome = state.outcome
        if outcome is None:
            return None
        if outcome.winner:
            return GameOver(f"{outcome.winner} wins", f"Game over: {outcome.winner} wins")
        return GameOver("Game over", "Game over")

    def place_of(self, state: Any, seat: int) -> int | None:
        return None

    def place_name(self, place: int) -> str:
        return str(place)

    def place_marks(self, state: Any) -> Mapping[int, tuple[str, ...]]:
        return {}

    def piece_choices(self, state: Any) -> Mapping[int, tuple[int, ...]]:
        return {}

    def map_view(self, state: Any) -> MapView | None:
        return None

    def private_lines(self, state: Any, seat: int) -> tuple[str, ...]:
        return ()

    def panel(self, state: Any) -> InfoPanel | None:
        return None

    def banners(self, state: Any) -> tuple[TableBanner, ...]:
        return ()

    def seat_colour(self, state: Any, seat: int) -> Colour:
        return theme.seat_colour(seat)

    def roll_read(self, state: Any, prompt: DicePrompt, seen: DiceSeen) -> RollRead:
        return RollRead(seen)

    def camera_pieces(self, state: Any) -> tuple[str, ...]:
        return ()

    def table_dice(self) -> tuple[str, ...]:
        return ()

    def camera_answer(self, state: Any, seen: DiceSeen) -> CameraAnswer | None:
        return None

    def board_reader(self, state: Any) -> Any | None:
        return None

    def seen_choice(self, state: Any, seen: Any) -> Action | None:
        return None

    def table_notes(self, state: Any, seen: Any) -> tuple[str, ...]:
        return ()

    def demo_table(self, state: Any, size: tuple[int, int], seed: int) -> Any | None:
        return None

    @staticmethod
    def who(state: Any, seat: int) -> str:
        return str(state.players[seat].name)


def game_title(name: str) -> str:
    """A game's registered name as a title: ``dice_duel`` -> ``Dice Duel``."""
    return name.replace("_", " ").title()


def presenter_of(game: Any) -> Presenter:
    """The presenter of ``game`` (every game has one: ``Game.presenter``)."""
    presenter: Presenter = game.presenter()
    return presenter
