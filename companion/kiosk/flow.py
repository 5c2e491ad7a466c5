"""Which screen the table shows: resume or new game, the setup screen, the game.

``companion play`` (no ``--demo``) starts here. :class:`TableFlow.first` picks the first screen:

- a saved game at the journal path: :class:`~companion.kiosk.setup.ResumeScreen` (it resumes
  by itself after a few seconds, so after a power cut the game comes back at the same decision);
- a saved game that cannot be opened: a message and "Start a new game" (in a new file beside
  it; the bad file is kept as it is);
- no saved game: the setup screen, or straight into the game when seats were given
  (``--players``).

:meth:`TableFlow.next_screen` is called by the app after every frame and switches screens when
one is done (a choice made, a game started, "Start a new game" in the referee menu). A new game
at the journal path moves the previous saved game aside (renamed, never deleted) only once the
new one has passed the rules' checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.config import TableConfig
from companion.core.registry import find_game
from companion.kiosk.screens import GameScreen, MessageScreen
from companion.kiosk.setup import GameSetup, ResumeScreen, SetupScreen
from companion.session import Session, SessionError, fresh_path, set_aside

NEW_GAME_ROW = ("Start a new game (this one stays saved)", "new_game")


class TableFlow:
    def __init__(self, path: Path, size: tuple[int, int],
                 make_game: Callable[[Session, Sequence[tuple[str, str]]], GameScreen], *,
                 variant: str = TableConfig.game, seed: Callable[[], int] | None = None,
                 players: Sequence[tuple[str, str]] | None = None,
                 options: Any = None,
                 resume_after: float | None = 15.0) -> None:
        self.path = Path(path)
        self.size = size
        self._make_game = make_game
        self.variant = variant
        self.seed = seed or _random_seed
        self.players = list(players) if players else None
        self.options = options  # of the game started from --players (None: the defaults)
        self.resume_after = resume_after
        self.kept: list[Path] = []  # saved games moved aside for new ones
        self.active = self.path  # the saved game being played

    # -- screens -----------------------------------------------------------------------------
    def first(self) -> Any:
        if self.path.exists():
            try:
                session = Session.resume(self.path)
            except SessionError as exc:
                new_path = fresh_path(self.path)
                screen = MessageScreen(
                    "The saved game cannot be opened", f"{exc}",
                    [(f"Start a new game (saved as {new_path.name}; the old file is kept)",
                      "new")], self.size)
                return screen
            return ResumeScreen(session, self.size, fresh_path(self.path).name,
                                self.resume_after)
        if self.players:
            try:
                return self.game(Session.new(self.path, self.variant, self.players,
                                             self.seed(), self.options))
            except SessionError as exc:
                return self.setup(note=f"{exc}")
        return self.setup()

    def setup(self, note: str = "", cancel: bool = False,
              target: Path | None = None) -> SetupScreen:
        path = target or self.active

        def start(setup: GameSetup) -> Session:
            return self.start(setup, path)
        return SetupScreen(self.size, start, preferred=self.variant, note=note,
                           cancel=("Back to the saved game", "resume") if cancel else None)

    def game(self, session: Session) -> GameScreen:
        if session.journal is not None:
            self.active = session.journal.path
        return self._make_game(session, [NEW_GAME_ROW])

    def start(self, setup: GameSetup, path: Path) -> Session:
        """A new game from the setup screen at ``path`` (a saved game there is moved aside
        once the rules accept the new table)."""
        rules = find_game(setup.variant)
        options = setup.table_options(rules)
        players = setup.players()
        seed = self.seed()
        Session.memory(setup.variant, players, seed, options)  # the rules' checks first
        if path.exists():
            self.kept.append(set_aside(path))
        session = Session.new(path, setup.variant, players, seed, options)
        if self.kept and path == self.active:
            session.log.append(f"The previous game is kept as {self.kept[-1].name}")
        return session

    def next_screen(self, current: Any) -> Any:
        """The screen to switch to after this frame, or None to stay."""
        if isinstance(current, ResumeScreen) and current.chosen is not None:
            if current.chosen == "resume":
                return self.game(current.session)
            current.session.close()
            return self.setup(cancel=True)
        if isinstance(current, SetupScreen):
            if current.session is not None:
                return self.game(current.session)
            if current.chosen == "resume":
                current.chosen = None
                try:
                    return self.game(Session.resume(self.active))
                except SessionError as exc:
                    current.banner = (str(exc), (240, 92, 84))
            return None
        if isinstance(current, MessageScreen) and current.chosen == "new":
            return self.setup(target=fresh_path(self.path))
        if isinstance(current, GameScreen) and current.request == NEW_GAME_ROW[1]:
            current.request = None
            current.feed.close()
            current.session.close()
            return self.setup(cancel=True)
        return None


def _random_seed() -> int:
    import random

    return random.SystemRandom().randrange(1 << 30)
