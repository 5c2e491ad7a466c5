"""What the kiosk shows of Dungeonbowl: the dungeon as a ``MapView`` (features, door states,
revealed traps, balls and chests, every declared model), a card per team (score, balls held,
models off the pitch) and the pending roll in the decision's title and menu (dice, target,
modifiers, what each result does). The kiosk draws the map; this only fills it."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from companion.core.actions import Action
from companion.games.dungeonbowl import roster
from companion.games.dungeonbowl.actions import (
    AddModel,
    Answer,
    Leap,
    Passage,
    RuneJump,
    Step,
    Throw,
)
from companion.games.dungeonbowl.dungeon import bundled
from companion.games.dungeonbowl.state import BALL_KINDS, BowlState
from companion.games.dungeonbowl.transcript import xy
from companion.kiosk import theme
from companion.kiosk.inputs import MapPicker, Menu, Option
from companion.kiosk.map_view import MapCell, MapPiece, MapTarget, MapView, MapWall
from companion.kiosk.presenter import BasicPresenter, HeaderFacts, TableOption
from companion.kiosk.views import PlayerCard

FILL = {"floor": "#8a7f70", "wall": "#2b2622", "chasm": "#0b0b12", "obstacle": "#5d5a55",
        "lava": "#d2521e", "water": "#2f6fb0", "door": "#7a4a22", "gate": "#7a4a22"}
ZONE = ("#b03a3a", "#2f5fb8", "#3a9a48", "#c9b02c")
DOOR_COLOUR = {"closed": "#7a4a22", "open": "#d8c9a8", "locked": "#c22f2f", "smashed": "#9e9e9e"}
TRAP_MARK = {"": "T?", "pit": "Pt", "spiked_pit": "SP", "exploding": "Ex", "gas": "Gs",
             "teleporter": "Tp", "trampoline": "Tr"}
STATUS_MARK = {"prone": "_", "stunned": "*", "in_pit": "v"}
LEGEND = (("#d2521e", "lava"), ("#2f6fb0", "water"), ("#0b0b12", "chasm"),
          ("#5d5a55", "obstacle"), ("#7a4a22", "door: closed"), ("#c22f2f", "locked"),
          ("#d8c9a8", "open"), ("#9e9e9e", "smashed"))


def _squares_under_models(state: BowlState, menu: Menu) -> Menu:
    """A model set up before kick-off, or coming back on from the reserves, may go on any free
    square of its end zone: one row per model, opening a square picker on the map over those
    squares (PREV/NEXT between them, CONFIRM: there), rather than a row per model and square."""
    groups: dict[tuple[int, str], list[AddModel]] = {}
    for o in menu.options:
        if isinstance(o.action, AddModel):
            groups.setdefault((o.action.player, o.action.model), []).append(o.action)
    out: list[Option] = []
    for o in menu.options:
        a = o.action
        if not isinstance(a, AddModel):
            out.append(o)
            continue
        adds = groups.pop((a.player, a.model), [])
        if len(adds) == 1:
            out.append(o)
        elif adds:  # the group's first row stands for it
            who = state.players[a.player].name
            title = f"{who}: where does {a.model} set up? (end zone {a.player + 1})"
            targets = [MapTarget(add.at, f"at {xy(add.at)}", add) for add in adds]
            out.append(Option(f"{who}: add {a.model}{model_words(state, a)}",
                              open=_picker(title, targets), seat=o.seat))
    menu.options = out
    return menu


def _picker(title: str, targets: list[MapTarget]) -> Callable[[], MapPicker]:
    return lambda: MapPicker(title, list(targets))


def model_words(state: BowlState, a: AddModel) -> str:
    """A roster model's characteristics in words for its row (" - MA 4 ST 5 AG 1 - mighty
    blow, big guy"); "" for a standard team's model."""
    if not state.players[a.player].squad:
        return ""
    skills = ", ".join(s.replace("_", " ") for s in a.skills)
    college = f"{a.college} college" if a.college else ""
    return "".join(f" - {w}" for w in (f"MA {a.ma} ST {a.st} AG {a.ag}", college, skills) if w)


def piece_label(model_id: str, mark: str = "", prefix: str = "") -> str:
    """A model's label on the map, four characters at most with its status ``mark``: short ids
    as they are; a long one's first letters and its number ("longbeard3" -> "lon3"), so that
    the models of one roster stay told apart. The team's ``prefix`` (``team_prefix``: "o-",
    "t2-") of a long id is left to the colour."""
    room = 4 - len(mark)
    name = model_id if len(model_id) <= room else model_id.removeprefix(prefix)
    if len(name) > room:
        digits = re.search(r"\d*$", name).group()[-room:]  # type: ignore[union-attr]
        name = name[:room - len(digits)] + digits
    return name + mark


def short_labels(model_ids: list[str], prefix: str = "") -> dict[str, str]:
    """Each of one team's model ids as a label of a letter or two, for squares too small for
    ``piece_label``: the name's first letter and its number ("blitzer1" -> "b1", "shaman" ->
    "s"); a name that would look like another's keeps more letters, the same number for all
    its models ("brute1" to "brute3" -> "br1" to "br3" beside "blitzer1" and "blitzer2"). The
    team's ``prefix`` ("o-", "t2-") is left to the colour."""
    parts: dict[str, tuple[str, str]] = {}
    numbers: dict[str, set[str]] = {}
    for model_id in model_ids:
        found = re.match(r"^(.*?)(\d*)$", model_id.removeprefix(prefix))
        name, number = found.groups() if found else (model_id, "")
        parts[model_id] = (name, number)
        numbers.setdefault(name, set()).add(number)
    letters: dict[str, int] = {}
    for name, mine in numbers.items():
        k = 1
        while k < len(name) and any(other != name and other[:k] == name[:k] and mine & theirs
                                    for other, theirs in numbers.items()):
            k += 1
        letters[name] = k
    return {model_id: name[:letters[name]] + number
            for model_id, (name, number) in parts.items()}


def team_prefix(state: BowlState, team: int) -> str:
    """What a team's model ids may begin with: its short name and a dash ("o-blitzer1" when
    two teams' rosters share an id, ``roster.squads``; "t2-1" for a standard model when two
    teams' names start alike, ``choices.model_id``)."""
    return roster.team_stem([p.name for p in state.players], team) + "-"


def _roster_name(name: str) -> str:
    """A team card's roster line: the roster's own name ("Orc Raiders"), "" for standard."""
    return "" if roster.is_standard(name) else roster.load(name).name


def _hex(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


class BowlPresenter(BasicPresenter):
    description = "Dungeonbowl: the dungeon referee for doors, chasms, runes, traps and balls"
    role_word = "roster"
    seat_word = "team"  # each seat is a team's coach

    def roles(self) -> tuple[str, ...]:
        """A team's roster: the bundled ones, or standard models (a roster file is named on
        a transcript's ``player`` line or by ``companion play --players Orcs:FILE``)."""
        return (*roster.bundled(), roster.STANDARD)

    def role_note(self, role: str) -> str:
        """A roster's own name and size on the setup screen ("Orc Raiders, 12 models")."""
        if roster.is_standard(role):
            return "MA 6 ST 3 AG 3, as declared"
        r = roster.load(role)
        return f"{r.name}, {len(r.models)} models"

    def table_options(self) -> tuple[TableOption, ...]:
        """The agreed variables the setup screen offers (DB.1): the map, the ball, multiball,
        traps; the rest (sides, trap counts, a map file) by ``--option`` or a transcript."""
        return (TableOption("dungeon", "Dungeon", "the map: bundled dungeons for two teams, "
                            "four teams, or one with every feature", tuple(bundled())),
                TableOption("ball", "Ball", "the ball's kind, or rolled on a D6 when found "
                            "(DB.39)", ("rolled", *BALL_KINDS)),
                TableOption("balls", "Balls", "balls hidden in the chests (DB.45)",
                            ("1", "2", "3")),
                TableOption("multiball", "Multiball", "with more balls: play until every "
                            "ball scores, first touchdown wins, or one real ball among "
                            "illusions (DB.46-47)", ("standard", "first_score", "illusionary")),
                TableOption("traps", "Traps", "face-down trap tokens on the map's trap spots"),
                TableOption("door_gfi", "Go For It at doors",
                            "Go For It squares may pay for opening a door (B-4)"))

    def table_dice(self) -> tuple[str, ...]:
        """Block and scatter dice: after a block the block dice often stay in the tray while
        the next roll is thrown beside them."""
        return ("block", "scatter")

    def parse_option(self, word: str) -> tuple[str, Any]:
        """``NAME=VALUE`` as the game reads an ``option`` line (typed, checked)."""
        name, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"--option takes NAME=VALUE, not {word!r}")
        parsed: tuple[str, Any] = self.game.parse_option(name.strip(), value.strip())
        return parsed

    def header(self, state: BowlState) -> HeaderFacts:
        return HeaderFacts(state.turn, state.current)

    def action_label(self, state: Any, action: Action) -> str:
        """An answer's row says what it does ("held: armour holds"); a model set up from a
        roster shows its characteristics and skills in words."""
        if isinstance(action, Answer) and state.pending:
            for result in state.pending[0].results:
                if str(result).split(":")[0].replace(" ", "_") == action.value:
                    return str(result)
        if isinstance(action, AddModel) and state.players[action.player].squad:
            return f"add {action.model} at {xy(action.at)}{model_words(state, action)}"
        return super().action_label(state, action)

    def menu(self, state: Any, actions: Any = None, referee: Any = ()) -> Menu:
        menu = super().menu(state, actions, referee)
        if state.pending:  # the roll or question: why, target, modifiers; the results as notes
            p = state.pending[0]
            # a roll's purpose is on the dice pad already; a question's is the title's start
            parts = [] if p.kind == "roll" else [p.why]
            if p.kind == "roll" and p.target:
                parts.append(f"{p.target}+ needed")
            if p.modifiers:
                parts.append(", ".join(f"{w} {v:+d}" for w, v in p.modifiers))
            if p.kind == "roll":  # each result on a line of its own (an answer's row says its own)
                menu.notes = tuple(p.results)
            menu.title = " | ".join(parts)[:300]
        return _squares_under_models(state, menu)

    def player_cards(self, state: BowlState, checks: Mapping[int, str]) -> tuple[PlayerCard, ...]:
        deciders = set(self.game.deciders(state))
        cards = []
        for i, team in enumerate(state.players):
            mine = [m for m in state.models if m.team == i]
            held = sum(len(state.balls_held(m.id)) for m in mine)
            off = {k: sum(1 for m in mine if m.status == s)
                   for k, s in (("res", "reserves"), ("ko", "ko"), ("cas", "casualty"),
                                ("lost", "lost"), ("dead", "dead"))}
            gone = " ".join(f"{k} {v}" for k, v in off.items() if v)
            # what a coach looks for first comes first: a small card shows the first lines
            extras = (f"score {team.score}", f"balls {held}", f"off: {gone or 'none'}",
                      f"end zone {i + 1}")
            cards.append(PlayerCard(seat=i, name=team.name, colour=theme.seat_colour(i),
                                    cash=None, role=_roster_name(team.roster), extras=extras,
                                    current=i == state.current and state.outcome is None,
                                    deciding=i in deciders, check=checks.get(i, "")))
        return tuple(cards)

    def map_view(self, state: BowlState) -> MapView:
        d = state.dungeon
        cells = []
        for s, c in sorted(d.cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            marks: list[str] = []
            fill = FILL[c.terrain]
            edge = ZONE[c.endzone - 1] if c.endzone else ""
            text = str(c.height) if c.height else ""
            door = d.door_at(s)
            if door is not None:
                fill = DOOR_COLOUR[state.door_state(door.id)]
                text = door.id
            if c.rune:
                marks.append("R" + c.rune[:1].upper())
            if c.portal:
                marks.append("P" + c.portal[:1])
            if c.teleporter:
                marks.append(f"t{c.teleporter}")
            trap = next((t for t in state.traps if t.at == s), None)
            if trap is not None and not trap.removed:
                marks.append(TRAP_MARK[trap.kind])
            if c.step:
                marks.append("st")
            if s in state.chests:
                marks.append("C")
            if c.endzone and not text:
                text = f"EZ{c.endzone}"
            cells.append(MapCell(s, fill, text, tuple(marks[:4]), edge))
        walls: list[MapWall] = []
        for w in sorted(d.walls, key=sorted):
            a, b = sorted(w)
            walls.append(MapWall(a, "e" if b[0] > a[0] else "s", "#2b2622"))
        for door in d.doors:
            if door.edge is not None:
                a, b = sorted(door.edge)
                st = state.door_state(door.id)
                walls.append(MapWall(a, "e" if b[0] > a[0] else "s", DOOR_COLOUR[st],
                                     f"{door.id} {st}"))
        for ld in d.ladders:
            a, b = sorted(ld.edge)
            walls.append(MapWall(a, "e" if b[0] > a[0] else "s", "#e0c050",
                                 f"ladder {ld.rungs}"))
        pieces: list[MapPiece] = []
        shorts: dict[str, str] = {}
        prefixes = [team_prefix(state, team) for team in range(len(state.players))]
        for team, side in enumerate(state.players):  # the whole roster: labels that stay put
            ids = [m.id for m in side.squad] + [m.id for m in state.models if m.team == team]
            shorts.update(short_labels(list(dict.fromkeys(ids)), prefixes[team]))
        for m in state.models:
            if m.at is not None:
                mark = STATUS_MARK.get(m.status, "")
                pieces.append(MapPiece(m.at, _hex(theme.seat_colour(m.team)),
                                       piece_label(m.id, mark, prefixes[m.team]),
                                       short=shorts[m.id] + mark))
        for ball in state.balls:
            if ball.at is not None and not ball.gone:
                pieces.append(MapPiece(ball.at, "#f0e0a0", ball.kind[:1].upper() or "?",
                                       "ball"))
        targets = self._targets(state)
        banners = [f"{state.players[i].name} {t.score}" for i, t in enumerate(state.players)]
        passage = [f"{m.id} in passage {m.portal}" for m in state.models if m.status == "passage"]
        return MapView(d.width, d.height, tuple(cells), tuple(walls), tuple(pieces),
                       targets, d.name, LEGEND,
                       ("score: " + ", ".join(banners), *passage,
                        *self.game.pending_text(state)[:3]))

    def _targets(self, state: BowlState) -> tuple[MapTarget, ...]:
        out = []
        if state.pending or state.phase != "play":
            return ()
        for a in self.game.legal_actions(state):
            to = None
            if isinstance(a, Step | Leap | RuneJump | Throw):
                to = a.to
            elif isinstance(a, Passage) and a.to is not None:
                to = a.to
            if to is not None:
                out.append(MapTarget(to, self.action_label(state, a), a))
        return tuple(out)
