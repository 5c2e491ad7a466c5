"""A new game with the buttons alone: the rule set, the players, their names and classes, the
table options, then start. And the screen that offers to resume a saved game or start anew.

:class:`SetupScreen` is a stack of pages like the game's decision menus (PREV/NEXT move,
CONFIRM chooses, BACK goes up): the top page lists the rule set, the number of players (2-8),
one row per seat (name and class), the variant's table options (on/off), and "Start the game".
A seat's page picks a name from a short list (or spells one letter by letter), the character
class (the game's roles, from its presenter; a second class when the gestalt option is on).
Nothing is started until "Start the game" passes the checks (names filled in and different, every
character with a class) and the rules accept the table; a refusal is shown on the screen.

:class:`ResumeScreen` is shown when a saved game exists: "Resume" (chosen by itself after
``auto_after`` seconds, so after a power cut the table comes back without a press) or "New
game" (the saved game is kept in a file beside it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pygame

from companion.config import TableConfig
from companion.kiosk import theme
from companion.kiosk.inputs import Command, Menu, Option, Outcome, Pop, Row
from companion.kiosk.painter import Painter
from companion.kiosk.presenter import Presenter, TableOption, game_title, presenter_of
from companion.kiosk.teams import (
    TEAM_LETTERS,
    presets,
    team_colour,
    team_problem,
    teams_spec,
)
from companion.session import Session, SessionError
from companion.words import plural
from hardware.buttons import Input, InputKind

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_NAME = 12
NAME_CHOICES = ("Ann", "Ben", "Cai", "Dee", "Eve", "Fin", "Gus", "Ivy", "Mum", "Dad", "Gran",
                "Grandad")
SPELL_TOKENS: tuple[str, ...] = (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "space", "delete", "done")
HINT = "PREV/NEXT: choose  -  CONFIRM: OK  -  BACK: back"

def variant_roles(variant: str) -> tuple[str, ...]:
    """The roles (e.g. character classes) a variant's players choose from, in menu order."""
    return _presenter(variant).roles()


def variant_options(rules: Any) -> tuple[TableOption, ...]:
    """The on/off table options the setup screen offers for this game."""
    return presenter_of(rules).table_options()


def _presenter(variant: str) -> Presenter:
    from companion.core.registry import find_game

    return presenter_of(find_game(variant))


def _open(*key: object) -> str:
    """The command that opens a page (rows that open a page end with " >")."""
    return "open:" + ":".join(str(k) for k in key)


def role_title(role: str, word: str = "role") -> str:
    """A role for the screen ("fighter+wizard" -> "Fighter + Wizard"); "no role" for none."""
    return " + ".join(p.replace("_", " ").title() for p in role.split("+") if p) or f"no {word}"


@dataclass
class Seat:
    name: str
    role: str = ""
    role2: str = ""  # the second class of a gestalt character
    team: str = ""  # team letter A-D, "" = plays alone


@dataclass
class GameSetup:
    """What the setup screen has chosen so far."""

    variant: str
    seats: list[Seat]
    options: dict[str, bool | str] = field(default_factory=dict)  # on/off, or a choice's word
    roles: tuple[str, ...] = ()
    team_play: bool = True  # the variant's options have ``teams``
    role_word: str = "role"  # what the game calls a role
    second_role_option: str = ""  # the option that gives everyone two roles ("": none)
    seat_word: str = "player"  # what the game calls a seat ("team" for Dungeonbowl)

    @property
    def letters(self) -> list[str]:
        return [s.team for s in self.seats]

    def teams(self) -> str:
        """The ``teams`` option built from the chosen names ("" = no teams)."""
        if not self.team_play:
            return ""
        return teams_spec([s.name for s in self.seats], self.letters)

    def teams_summary(self) -> str:
        """"Ann+Cai vs Ben+Dee" (players alone listed too), or "none"."""
        spec = self.teams()
        if not spec:
            return "none"
        alone = [s.name.strip() for s in self.seats if s.name.strip() not in
                 {m for t in spec.split(",") for m in t.split("+")}]
        return " vs ".join([*spec.split(","), *alone])

    @property
    def gestalt(self) -> bool:
        """Every player picks a second role (the game's option for it is on)."""
        return bool(self.second_role_option and self.options.get(self.second_role_option))

    def role_of(self, seat: Seat) -> str:
        if self.gestalt and seat.role2 and seat.role2 != seat.role:
            return f"{seat.role}+{seat.role2}"
        return seat.role

    def players(self) -> list[tuple[str, str]]:
        return [(s.name.strip(), self.role_of(s)) for s in self.seats]

    def problem(self) -> str | None:
        """What stops the game from starting, in words for the screen (None: ready)."""
        seen: set[str] = set()
        for i, s in enumerate(self.seats):
            name = s.name.strip()
            if not name:
                return f"{self.seat_word.title()} {i + 1} has no name: choose one"
            if name.lower() in seen:
                return f"Two {plural(self.seat_word)} are called {name}: give one another name"
            seen.add(name.lower())
            if self.roles and not s.role:
                return f"{name} has no {self.role_word}: choose one"
            if self.roles and self.gestalt and (not s.role2 or s.role2 == s.role):
                return (f"{name} needs a second, different {self.role_word} "
                        f"({self.second_role_option} {plural(self.role_word)} are on)")
        if self.team_play:
            return team_problem([s.name for s in self.seats], self.letters)
        return None

    def table_options(self, rules: Any) -> Any:
        """The game's default options (a frozen dataclass) with the choices made here."""
        defaults = rules.default_options()
        values: dict[str, object] = {}
        for k, v in self.options.items():
            typed = rules.parse_option(k, v)[1] if isinstance(v, str) else v
            if getattr(defaults, k, None) != typed:
                values[k] = typed
        if self.teams():
            values["teams"] = self.teams()
        return replace(defaults, **values)


def default_name(i: int, seat_word: str = "player") -> str:
    """The name a seat starts with ("Player 1", "Team 2")."""
    return f"{seat_word.title()} {i + 1}"


def default_setup(variant: str, players: int = 4) -> GameSetup:
    from companion.core.registry import find_game

    rules = find_game(variant)
    presenter = presenter_of(rules)
    defaults = rules.default_options()
    chosen: dict[str, bool | str] = {
        o.name: (str(getattr(defaults, o.name)) if o.values else bool(getattr(defaults, o.name)))
        for o in presenter.table_options()}
    setup = GameSetup(variant, [], chosen, presenter.roles(),
                      isinstance(getattr(defaults, "teams", None), str), presenter.role_word,
                      presenter.second_role_option, presenter.seat_word)
    set_player_count(setup, players)
    return setup


def set_player_count(setup: GameSetup, n: int) -> None:
    n = max(MIN_PLAYERS, min(MAX_PLAYERS, n))
    del setup.seats[n:]
    while len(setup.seats) < n:
        used = {s.role for s in setup.seats}
        role = next((r for r in setup.roles if r not in used), setup.roles[0] if setup.roles
                    else "")
        setup.seats.append(Seat(default_name(len(setup.seats), setup.seat_word), role))


# ----------------------------------------------------------------------------------------------
# Spelling a name with four buttons
# ----------------------------------------------------------------------------------------------
@dataclass
class Speller:
    """PREV/NEXT turn a wheel of letters (and space, delete, done); CONFIRM takes the letter
    under the cursor; BACK deletes the last letter (leaves when the name is empty)."""

    title: str
    text: str = ""
    cursor: int = 0
    on_done: Callable[[str], Outcome | None] | None = None

    @property
    def token(self) -> str:
        return SPELL_TOKENS[self.cursor]

    def rows(self) -> list[Row]:
        return [Row(t, i == self.cursor) for i, t in enumerate(SPELL_TOKENS)]

    def handle(self, inp: Input) -> Outcome | None:
        n = len(SPELL_TOKENS)
        if inp.kind is InputKind.NEXT:
            self.cursor = (self.cursor + 1) % n
        elif inp.kind is InputKind.PREV:
            self.cursor = (self.cursor - 1) % n
        elif inp.kind is InputKind.BACK:
            if self.text and not inp.held:
                self.text = self.text[:-1]
            else:
                return Pop()
        elif inp.kind is InputKind.CONFIRM:
            token = self.token
            if token == "done":
                if self.text.strip() and self.on_done is not None:
                    return self.on_done(self.text.strip())
            elif token == "delete":
                self.text = self.text[:-1]
            elif len(self.text) < MAX_NAME:
                if token == "space":
                    if self.text and not self.text.endswith(" "):
                        self.text += " "
                else:
                    first = not self.text or self.text.endswith(" ")
                    self.text += token if first else token.lower()
        return None

    def plan(self, text: str) -> list[Input]:
        """The presses that spell ``text`` (letters and spaces) and finish, from here."""
        from hardware.buttons import CONFIRM, NEXT, PREV

        out: list[Input] = []
        cursor = self.cursor
        for ch in [*(c.upper() if c != " " else "space" for c in text), "done"]:
            goal = SPELL_TOKENS.index(ch)
            n = len(SPELL_TOKENS)
            fwd, back = (goal - cursor) % n, (cursor - goal) % n
            out += [NEXT] * fwd if fwd <= back else [PREV] * back
            out.append(CONFIRM)
            cursor = goal
        return out


# ----------------------------------------------------------------------------------------------
# The setup screen
# ----------------------------------------------------------------------------------------------
Page = Menu | Speller


class SetupScreen:
    """See the module docstring. ``start(setup)`` makes the session (new journal); when it
    succeeds, ``session`` is set and the caller switches to the game screen."""

    def __init__(self, size: tuple[int, int], start: Callable[[GameSetup], Session],
                 variants: Sequence[str] | None = None, preferred: str = TableConfig.game,
                 players: int = 4, note: str = "",
                 cancel: tuple[str, str] | None = None) -> None:
        from companion.core.registry import game_names

        self.size = size
        self.start = start
        self.variants = list(variants or game_names())
        variant = preferred if preferred in self.variants else self.variants[0]
        self.setup = default_setup(variant, players)
        self.cancel = cancel  # (label, command): e.g. back to the saved game
        self.chosen: str | None = None  # a cancel command, for the caller
        self.session: Session | None = None
        self.banner = (note, theme.WARN) if note else ("", theme.TEXT)
        self.pages: list[tuple[tuple[Any, ...], Page]] = [(("root",), self._build(("root",)))]
        self.clock = 0.0

    # -- pages -------------------------------------------------------------------------------
    @property
    def top(self) -> Page:
        return self.pages[-1][1]

    def _rules(self) -> Any:
        from companion.core.registry import find_game

        return find_game(self.setup.variant)

    def _fit_count(self) -> None:
        """The player count the game says its chosen options seat (its ``default_players``,
        e.g. one team per end zone of the chosen map), for a game that says so."""
        rules = self._rules()
        ask = getattr(rules, "default_players", None)
        if not callable(ask):
            return
        chosen = {k: rules.parse_option(k, v)[1] if isinstance(v, str) else v
                  for k, v in self.setup.options.items()}
        set_player_count(self.setup, int(ask(chosen)))

    def _build(self, key: tuple[Any, ...]) -> Page:
        page = self._make(key)
        if isinstance(page, Menu):
            for o in page.options:
                if o.command and o.command.startswith("open:"):
                    o.label += " >"
        return page

    def _make(self, key: tuple[Any, ...]) -> Page:
        st = self.setup
        kind = key[0]
        if kind == "root":
            opts = [Option(f"Rules: {game_title(st.variant)}", command=_open("variant")),
                    Option(f"{plural(st.seat_word).title()}: {len(st.seats)}",
                           command=_open("count"))]
            for i, s in enumerate(st.seats):
                label = f"{i + 1}. {s.name}"
                if st.roles:
                    label += f" - {role_title(st.role_of(s), st.role_word)}"
                opts.append(Option(label, command=_open("seat", i), seat=i))
            if st.team_play:
                opts.append(Option(f"Teams: {st.teams_summary()}", command=_open("teams"),
                                   note="Play in teams: teammates share one pool of cash and "
                                        "one set of lots, and win or go bankrupt together"))
            for o in variant_options(self._rules()):
                on = st.options.get(o.name, False)
                if o.values:  # a choice: CONFIRM moves to the next value
                    opts.append(Option(f"{o.label}: {on}", command=f"cycle:{o.name}",
                                       note=o.help))
                    continue
                opts.append(Option(f"{o.label}: {'on' if on else 'off'}",
                                   command=f"toggle:{o.name}", note=o.help))
            opts.append(Option("Start the game", command="start"))
            if self.cancel is not None:
                opts.append(Option(self.cancel[0], command=f"cancel:{self.cancel[1]}"))
            return Menu("New game", opts, top=True)
        if kind == "variant":
            return Menu("Which rules?", [Option(game_title(v), command=f"variant:{v}",
                                                note=_presenter(v).description)
                                         for v in self.variants],
                        index=self.variants.index(st.variant))
        if kind == "count":
            many = plural(st.seat_word)
            return Menu(f"How many {many}?", [Option(f"{n} {many}", command=f"count:{n}")
                                              for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
                        index=len(st.seats) - MIN_PLAYERS)
        if kind == "seat":
            i = key[1]
            s = st.seats[i]
            opts = [Option(f"Name: {s.name}", command=_open("name", i), seat=i)]
            if st.roles:
                word = st.role_word
                opts.append(Option(f"{word.title()}: {role_title(s.role, word)}",
                                   command=_open("role", i, 1), seat=i))
                if st.gestalt:
                    opts.append(Option(f"Second {word}: {role_title(s.role2, word)}",
                                       command=_open("role", i, 2), seat=i))
            opts.append(Option("Done", command="up"))
            return Menu(f"{st.seat_word.title()} {i + 1}: {s.name}", opts)
        if kind == "name":
            i = key[1]
            taken = {s.name.strip().lower() for j, s in enumerate(st.seats) if j != i}
            names = [default_name(i, st.seat_word), *NAME_CHOICES]
            current = st.seats[i].name
            if current not in names:
                names.insert(0, current)
            opts = [Option(n, command=f"name:{i}:{n}", enabled=n.lower() not in taken,
                           note="taken" if n.lower() in taken else "") for n in names]
            opts.append(Option("Spell a name", command=_open("spell", i)))
            index = names.index(current) if current in names else 0
            return Menu(f"{st.seat_word.title()} {i + 1}: name", opts, index=index)
        if kind == "role":
            i, slot = key[1], key[2]
            s = st.seats[i]
            others = {x.role for j, x in enumerate(st.seats) if j != i}
            also = "  (also taken)"
            presenter = _presenter(st.variant)
            opts = [Option(role_title(r, st.role_word) + (also if r in others else ""),
                           command=f"role:{i}:{slot}:{r}",
                           enabled=not (slot == 2 and r == s.role), note=presenter.role_note(r))
                    for r in st.roles]
            cur = s.role if slot == 1 else s.role2
            return Menu(f"{s.name}: {'second ' if slot == 2 else ''}{st.role_word}", opts,
                        index=st.roles.index(cur) if cur in st.roles else 0)
        if kind == "teams":
            return self._teams_page()
        if kind == "spell":
            i = key[1]
            name = st.seats[i].name
            start = "" if name == default_name(i, st.seat_word) else name

            def done(text: str, i: int = i) -> Outcome:
                return Command(f"name:{i}:{text}")
            return Speller(f"{st.seat_word.title()} {i + 1}: spell the name", start, on_done=done)
        raise ValueError(f"unknown setup page {key!r}")

    def _teams_page(self) -> Menu:
        """Ready-made teams for the player count, then a letter per seat (CONFIRM turns it:
        no team, A, B ...)."""
        st = self.setup
        n = len(st.seats)
        names = [s.name.strip() for s in st.seats]
        opts: list[Option] = []
        index = -1
        for k, (seats_label, letters) in enumerate(presets(n)):
            spec = teams_spec(names, letters)
            if not spec:
                label = seats_label
            else:
                head = seats_label.split(":")[0]
                alone = [nm for nm, t in zip(names, letters, strict=True) if not t]
                label = f"{head}: " + " vs ".join([*spec.split(","), *alone])
            if list(letters) == st.letters:
                index = k
            opts.append(Option(label, command=f"preset:{k}", note=seats_label))
        most = min(len(TEAM_LETTERS), n // 2)
        for i, s in enumerate(st.seats):
            team = f"team {s.team}" if s.team else "no team"
            opts.append(Option(f"{i + 1}. {s.name}: {team}", command=f"team:{i}", seat=i,
                               note=f"CONFIRM changes {s.name}'s team: no team, then "
                                    f"{', '.join(TEAM_LETTERS[:most])}"))
        opts.append(Option("Done", command="up"))
        return Menu("Teams", opts, index=max(0, index))


    def _refresh(self) -> None:
        """Rebuild the menus on the stack after a change (keeping where the cursor is)."""
        out: list[tuple[tuple[Any, ...], Page]] = []
        for key, page in self.pages:
            if isinstance(page, Menu):
                try:
                    new = self._build(key)
                except (IndexError, ValueError):
                    break  # the seat is gone (fewer players)
                assert isinstance(new, Menu)
                new.index = min(page.index, len(new.options) - 1)
                out.append((key, new))
            else:
                out.append((key, page))
        self.pages = out or [(("root",), self._build(("root",)))]

    def _up(self, levels: int = 1, advance: int = 0) -> None:
        for _ in range(levels):
            if len(self.pages) > 1:
                self.pages.pop()
        self._refresh()
        top = self.top
        if isinstance(top, Menu) and advance:
            top.index = min(len(top.options) - 1, top.index + advance)

    # -- input -------------------------------------------------------------------------------
    def handle(self, inp: Input) -> None:
        if inp.held and inp.kind is InputKind.BACK and len(self.pages) > 1 \
                and not isinstance(self.top, Speller):
            self.pages = self.pages[:1]
            self._refresh()
            return
        out = self.top.handle(inp)
        if isinstance(out, Pop):
            self._up()
        elif isinstance(out, Command):
            self.command(out.name)

    def command(self, name: str) -> None:  # noqa: C901
        st = self.setup
        head, _, rest = name.partition(":")
        if head != "start":
            self.banner = ("", theme.TEXT)  # a change: the last problem may be solved
        if head == "open":
            key = tuple(int(v) if v.isdigit() else v for v in rest.split(":"))
            self.pages.append((key, self._build(key)))
        elif head == "up":
            self._up()
        elif head == "variant":
            if rest != st.variant:
                old = st.seats
                self.setup = default_setup(rest, len(old))
                self._fit_count()
                for i, (s, was) in enumerate(zip(self.setup.seats, old, strict=False)):
                    if was.name != default_name(i, st.seat_word):  # a name someone chose
                        s.name = was.name
                    s.team = was.team
            self._up()
        elif head == "count":
            set_player_count(st, int(rest))
            self._up()
        elif head == "preset":
            letters = presets(len(st.seats))[int(rest)][1]
            for s, letter in zip(st.seats, letters, strict=True):
                s.team = letter
            self._up()
        elif head == "team":
            i = int(rest)
            most = max(1, min(len(TEAM_LETTERS), len(st.seats) // 2))
            cycle = ["", *TEAM_LETTERS[:most]]
            now = st.seats[i].team
            st.seats[i].team = cycle[(cycle.index(now) + 1) % len(cycle)] \
                if now in cycle else ""
            self._refresh()
        elif head == "cycle":
            values = next(o.values for o in variant_options(self._rules()) if o.name == rest)
            now = str(st.options.get(rest, values[0]))
            st.options[rest] = values[(values.index(now) + 1) % len(values)] \
                if now in values else values[0]
            self._fit_count()
            self._refresh()
        elif head == "toggle":
            st.options[rest] = not st.options.get(rest, False)
            if rest == st.second_role_option and st.gestalt:
                for s in st.seats:
                    if not s.role2 or s.role2 == s.role:
                        s.role2 = next(r for r in st.roles if r != s.role)
            self._refresh()
        elif head == "name":
            i_text, _, text = rest.partition(":")
            i = int(i_text)
            st.seats[i].name = text[:MAX_NAME]
            while self.pages[-1][0][0] != "seat":
                self.pages.pop()
            self._up(0, advance=1)
        elif head == "role":
            i_text, slot_text, role = rest.split(":", 2)
            i, slot = int(i_text), int(slot_text)
            seat = st.seats[i]
            if slot == 1:
                seat.role = role
                if seat.role2 == role:
                    seat.role2 = next(r for r in st.roles if r != role)
            else:
                seat.role2 = role
            if slot == 1 and st.gestalt:
                self._up(1, advance=1)
            else:
                self._up(2, advance=1)  # back to the list of seats: the next seat
        elif head == "start":
            self.try_start()
        elif head == "cancel":
            self.chosen = rest

    def try_start(self) -> Session | None:
        problem = self.setup.problem()
        if problem is not None:
            self.banner = (problem, theme.WARN)
            return None
        try:
            self.session = self.start(self.setup)
        except SessionError as exc:
            self.banner = (f"The game could not start: {exc}", theme.BAD)
            return None
        return self.session

    def update(self, dt: float) -> None:
        self.clock += dt

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, painter: Painter) -> None:
        """Draw the pages and a summary of the table; changes nothing."""
        w, h = self.size
        lay = setup_layout(self.size)
        p = painter
        p.begin(surface)
        surface.fill(theme.BG)
        # title bar
        p.enter("header", lay.header)
        p.rect(lay.header, theme.PANEL, radius=6)
        p.text("New game", (lay.header.x + lay.pad * 2, lay.header.centery), lay.title,
               theme.ACCENT, anchor="midleft")
        p.text(f"{game_title(self.setup.variant)}, {len(self.setup.seats)} "
               f"{plural(self.setup.seat_word)}",
               (lay.header.right - lay.pad * 2, lay.header.centery), lay.small, theme.MUTED,
               anchor="midright", max_width=lay.header.w // 2)
        self._draw_page(p, lay)
        self._draw_summary(p, lay)
        del w, h

    def _draw_page(self, p: Painter, lay: SetupLayout) -> None:
        rect = lay.page
        p.enter("page", rect)
        p.rect(rect, theme.PANEL, radius=8)
        p.rect(rect, theme.ACCENT, width=2, radius=8)
        pad = lay.pad
        x = rect.x + 2 * pad
        inner = rect.w - 4 * pad
        y = rect.y + pad
        page = self.top
        p.text(page.title, (x, y), lay.body, theme.ACCENT, max_width=inner)
        y += lay.body + pad // 2
        text, colour = self.banner
        if text:
            lines = p.wrap(text, lay.small, inner - 2 * pad, max_lines=3)
            box = pygame.Rect(x - pad // 2, y, inner + pad, len(lines) * lay.small + pad)
            p.rect(box, (60, 30, 34) if colour == theme.BAD else (60, 48, 28), radius=5)
            p.rect(box, colour, width=2, radius=5)
            yy = box.y + pad // 2
            for line in lines:
                p.text(line, (x + pad // 2, yy), lay.small, colour)
                yy += lay.small
            y = box.bottom + pad // 2
        hint_y = rect.bottom - pad - lay.small
        area = pygame.Rect(x, y, inner, hint_y - y - pad // 2)
        if isinstance(page, Speller):
            draw_speller(p, area, lay, page)
            hint = "PREV/NEXT: letter  -  CONFIRM: take it  -  BACK: delete"
        else:
            draw_menu(p, area, lay, page)
            hint = HINT if len(self.pages) > 1 else "PREV/NEXT: choose  -  CONFIRM: OK"
        p.text(hint, (x, hint_y), lay.small, theme.MUTED, max_width=inner)

    def _draw_summary(self, p: Painter, lay: SetupLayout) -> None:
        rect = lay.summary
        p.enter("summary", rect)
        p.rect(rect, theme.PANEL, radius=8)
        pad = lay.pad
        x = rect.x + 2 * pad
        inner = rect.w - 4 * pad
        y = rect.y + pad
        st = self.setup
        note = ""
        page = self.top
        if isinstance(page, Menu) and page.options:
            note = page.options[page.index].note
        if note:
            for line in p.wrap(note, lay.small, inner, max_lines=3):
                p.text(line, (x, y), lay.small, theme.TEXT)
                y += lay.small
            y += pad
        defaults = self._rules().default_options()
        on = [f"{o.label} {st.options.get(o.name)}" if o.values else o.label
              for o in variant_options(self._rules()) if st.options.get(o.name)
              and (not o.values or str(getattr(defaults, o.name)) != st.options.get(o.name))]
        for line in p.lines("Options: " + (", ".join(on) if on else "standard"), lay.small,
                            inner):
            p.text(line, (x, y), lay.small, theme.MUTED)
            y += lay.small
        y += pad
        teams = any(s.team for s in st.seats)
        n = len(st.seats)
        row = max(lay.small + 4, min(lay.body + 8, (rect.bottom - pad - y) // max(1, n)))
        size = min(lay.body, row - 4)
        tok = max(5, size // 3)
        for i, s in enumerate(st.seats):
            cy = y + row // 2
            p.circle((x + tok, cy), tok, theme.seat_colour(i))
            p.circle((x + tok, cy), tok, theme.TEXT, width=1)
            tx = x + 2 * tok + pad
            if teams:  # a team letter in its colour (a gap for players alone)
                if s.team:
                    chip = pygame.Rect(tx, cy - size // 2, size, size)
                    p.rect(chip, team_colour(s.team), radius=4)
                    p.text(s.team, chip.center, max(18, size - 4), theme.BG, anchor="center")
                tx += size + pad
            role = f"  {role_title(st.role_of(s), st.role_word)}" if st.roles else ""
            label = s.name + role
            p.text(label, (tx, cy), size, theme.TEXT, anchor="midleft",
                   max_width=x + inner - tx)
            y += row


@dataclass(frozen=True)
class SetupLayout:
    header: pygame.Rect
    page: pygame.Rect
    summary: pygame.Rect
    pad: int
    title: int
    body: int
    small: int


def setup_layout(size: tuple[int, int]) -> SetupLayout:
    """Big type on both screens: the menu is read from the far side of the table."""
    w, h = size
    k = min(w / 1280, h / 720)
    pad = max(4, round(8 * k))
    title = max(24, round(44 * k))
    body = max(24, round(34 * k))
    small = max(18, round(24 * k))
    header = pygame.Rect(pad, pad, w - 2 * pad, title + 2 * pad)
    top = header.bottom + pad
    page_w = round(w * 0.58)
    page = pygame.Rect(pad, top, page_w, h - top - pad)
    summary = pygame.Rect(page.right + pad, top, w - page.right - 2 * pad, h - top - pad)
    return SetupLayout(header, page, summary, pad, title, body, small)


def draw_menu(p: Painter, area: pygame.Rect, lay: SetupLayout, menu: Menu) -> None:
    size = lay.body
    row_h = size + max(6, lay.pad)
    rows = menu.rows()
    visible = max(1, area.h // row_h)
    if len(rows) > visible:
        visible = max(1, (area.h - lay.small) // row_h)  # a line for "more above/below"
    sel = menu.index
    start = max(0, min(len(rows) - visible, sel - visible // 2))
    y = area.y
    for i in range(start, min(len(rows), start + visible)):
        r = rows[i]
        box = pygame.Rect(area.x - 4, y, area.w + 8, row_h - 2)
        if r.selected:
            p.rect(box, theme.SELECT, radius=5)
        colour = theme.TEXT if r.enabled else theme.MUTED
        label = r.text + (f"  ({r.note})" if r.note and not r.enabled else "")
        p.text(label, (area.x + 4, box.centery), size, colour, anchor="midleft",
               max_width=area.w - 8)
        y += row_h
    above, below = start, len(rows) - start - visible
    if above > 0 or below > 0:
        bits = ([f"{above} more above"] if above > 0 else []) + \
            ([f"{below} more below"] if below > 0 else [])
        p.text(", ".join(bits), (area.right, area.bottom), lay.small, theme.MUTED,
               anchor="bottomright")


def draw_speller(p: Painter, area: pygame.Rect, lay: SetupLayout, sp: Speller) -> None:
    big = min(area.h // 3, lay.title + 12)
    shown = sp.text + "_" if len(sp.text) < MAX_NAME else sp.text
    p.text(shown, (area.x, area.y + 4), big, theme.TEXT, max_width=area.w)
    y = area.y + big + lay.pad * 2
    n = len(SPELL_TOKENS)
    cell = max(lay.body + 10, area.w // 9)
    count = max(3, (area.w // cell) | 1)  # odd: the cursor in the middle
    half = count // 2
    x0 = area.centerx - (count * cell) // 2
    for k in range(count):
        i = (sp.cursor - half + k) % n
        token = SPELL_TOKENS[i]
        box = pygame.Rect(x0 + k * cell + 2, y, cell - 4, cell - 4)
        here = k == half
        p.rect(box, theme.SELECT if here else theme.PANEL_HI, radius=6)
        label = {"space": "_", "delete": "<-", "done": "OK"}.get(token, token)
        p.text(label, box.center, lay.body + 6 if here else lay.body - 2,
               theme.TEXT if here else theme.MUTED, anchor="center")
    y += cell + lay.pad
    word = {"space": "a space", "delete": "delete the last letter",
            "done": "use this name"}.get(sp.token, f"the letter {sp.token}")
    p.text(f"CONFIRM: {word}", (area.x, y), lay.small, theme.ACCENT, max_width=area.w)


# ----------------------------------------------------------------------------------------------
# Resume or new game
# ----------------------------------------------------------------------------------------------
class ResumeScreen:
    """A saved game exists: resume it (also by itself after ``auto_after`` seconds, unless
    a button was pressed) or start a new game."""

    def __init__(self, session: Session, size: tuple[int, int], kept_as: str,
                 auto_after: float | None = 15.0) -> None:
        st = session.state
        self.session = session
        self.size = size
        self.finished = st.outcome is not None
        presenter = presenter_of(session.rules)
        who = presenter.players_summary(st)
        turn = presenter.header(st).turn
        self.summary = (f"{game_title(session.rules.name)}: {who}. Turn {turn}, "
                        f"{len(session.lines)} actions played"
                        + (" (the game is over)." if self.finished else "."))
        options = [Option("Resume the saved game", command="resume"),
                   Option(f"Start a new game (the saved one is kept as {kept_as})",
                          command="new")]
        self.menu = Menu("A saved game is here", options, index=1 if self.finished else 0,
                         top=True)
        self.auto_after = None if self.finished else auto_after
        self.clock = 0.0
        self.touched = False
        self.chosen: str | None = None

    def handle(self, inp: Input) -> None:
        self.touched = True
        out = self.menu.handle(inp)
        if isinstance(out, Command):
            self.chosen = out.name

    def update(self, dt: float) -> None:
        self.clock += dt
        if (self.auto_after is not None and not self.touched and self.chosen is None
                and self.clock >= self.auto_after):
            self.chosen = "resume"

    def draw(self, surface: pygame.Surface, painter: Painter) -> None:
        lay = setup_layout(self.size)
        p = painter
        p.begin(surface)
        surface.fill(theme.BG)
        w, h = self.size
        rect = pygame.Rect(lay.pad * 3, lay.pad * 3, w - lay.pad * 6, h - lay.pad * 6)
        p.enter("message", rect)
        p.rect(rect, theme.PANEL, radius=10)
        p.rect(rect, theme.ACCENT, width=3, radius=10)
        x = rect.x + lay.pad * 3
        inner = rect.w - 6 * lay.pad
        y = rect.y + lay.pad * 3
        p.text(self.menu.title, (x, y), lay.title, theme.ACCENT, max_width=inner)
        y += lay.title + lay.pad
        for line in p.wrap(self.summary, lay.small, inner, 3):
            p.text(line, (x, y), lay.small, theme.TEXT)
            y += lay.small + 2
        y += lay.pad * 2
        hint_y = rect.bottom - lay.pad * 2 - lay.small
        draw_menu(p, pygame.Rect(x, y, inner, hint_y - y - lay.pad), lay, self.menu)
        hint = "PREV/NEXT: choose  -  CONFIRM: OK"
        if self.auto_after is not None and not self.touched:
            left = max(0, int(self.auto_after - self.clock + 0.999))
            hint = f"Resuming by itself in {left} s  -  " + hint
        p.text(hint, (x, hint_y), lay.small, theme.MUTED, max_width=inner)
