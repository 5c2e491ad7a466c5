"""A team's roster: the models a coach may field, each with its characteristics, college and
skills, from a plain-text file (docs/dungeonbowl.md, "Rosters").

A roster file has an optional ``name`` line, then one line per model: its id and, as on a
transcript's ``add`` line, ``ma=N st=N ag=N college=C skills=a+b`` (missing ones are the
standard model's: MA 6, ST 3, AG 3, no college, no skills). ``xN`` after the id lists N models
numbered from 1 (``lineman x4`` is lineman1 to lineman4). Lines starting ``;`` are comments.

A team without a roster (``standard``) fields standard models, or whatever a transcript's
``add`` lines declare. A team with one fields only its roster's models, as the roster says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from companion.games.dungeonbowl.dungeon import ASSETS as MAPS
from companion.games.dungeonbowl.dungeon import MapError

ASSETS = MAPS / "rosters"
STANDARD = "standard"  # no roster: standard models
MAX_MODELS = 16  # a base-rules team roster holds at most 16 players (ruling B-32)
SKILLS = ("stand_firm", "titchy", "mighty_blow", "acrobatics", "extra_arms", "tentacles",
          "block", "leap", "big_guy")  # the skills the referee knows (docs/dungeonbowl.md)
ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
KEYS = ("ma", "st", "ag", "college", "skills")
LIMITS = {"ma": (1, 12), "st": (1, 9), "ag": (1, 9)}


class RosterError(MapError):
    """A roster file that cannot be used: the message names the line and column (1-based)."""


@dataclass(frozen=True, slots=True)
class RosterModel:
    """One model a roster lists, with the characteristics it takes to the pitch."""

    id: str
    ma: int = 6
    st: int = 3
    ag: int = 3
    college: str = ""
    skills: tuple[str, ...] = ()

    def words(self) -> str:
        """Its characteristics as an ``add`` line writes them ("ma=6 st=3 ag=3 skills=block")."""
        out = [f"ma={self.ma}", f"st={self.st}", f"ag={self.ag}"]
        if self.college:
            out.append(f"college={self.college}")
        if self.skills:
            out.append("skills=" + "+".join(self.skills))
        return " ".join(out)


@dataclass(frozen=True, slots=True)
class Roster:
    name: str
    source: str
    models: tuple[RosterModel, ...]


def bundled() -> list[str]:
    """The rosters shipped in ``assets/dungeonbowl/rosters/`` by name."""
    return sorted(p.stem for p in ASSETS.glob("*.txt"))


def is_standard(name: str) -> bool:
    return name.strip().lower() in ("", STANDARD)


def load(name_or_path: str) -> Roster:
    """A bundled roster by name or a roster file (``.txt``); ValueError saying what is wrong.
    Read again when the file has changed (a coach may edit it between two games)."""
    path = Path(name_or_path)
    if not path.suffix:
        path = ASSETS / f"{name_or_path.lower()}.txt"
        if not path.exists():
            raise ValueError(f"no bundled roster called {name_or_path!r} (bundled: "
                             f"{', '.join(bundled())}, or {STANDARD} for standard models); "
                             "or give a roster file ending .txt")
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as exc:
        raise ValueError(f"cannot read the roster {name_or_path}: {exc.strerror or exc}: check "
                         f"the path, or name a bundled roster ({', '.join(bundled())})") from None
    source = path.stem if path.parent == ASSETS else str(name_or_path)
    return _read(str(path), stamp, source)


@lru_cache(maxsize=32)
def _read(path: str, stamp: int, source: str) -> Roster:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read the roster {source}: {exc}: check the file") from None
    try:
        return parse(text, source)
    except RosterError as exc:
        raise RosterError(exc.line, exc.column, f"{exc} (in the roster {source})") from None


def parse(text: str, source: str = "") -> Roster:
    """A roster in the plain-text format; ``RosterError`` naming the line and column."""
    name = source or "roster"
    models: list[RosterModel] = []
    seen: dict[str, int] = {}
    last = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        last = number
        stripped = raw.strip()
        if not stripped or stripped.startswith(";"):
            continue
        if stripped.lower().startswith("name "):
            if models:
                raise RosterError(number, 1, "the 'name' line comes before the models")
            name = stripped[5:].strip()
            continue
        for m in _model_line(number, raw):
            if m.id.lower() in seen:
                raise RosterError(number, raw.index(raw.strip()[0]) + 1,
                                  f"{m.id} is listed twice (first on line {seen[m.id.lower()]})"
                                  ": give each model its own id")
            seen[m.id.lower()] = number
            models.append(m)
            if len(models) > MAX_MODELS:
                raise RosterError(number, 1, f"a roster lists at most {MAX_MODELS} models")
    if not models:
        raise RosterError(last or 1, 0, "the roster lists no models: write one line per model, "
                          "e.g. 'blitzer ma=7 skills=block'")
    return Roster(name, source, tuple(models))


def _model_line(number: int, raw: str) -> list[RosterModel]:
    words = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", raw)]
    column, model_id = words[0]
    if not ID.match(model_id):
        raise RosterError(number, column, f"{model_id!r} is not a model id: start with a letter, "
                          "then letters, digits, '-' or '_'")
    count = 0
    rest = words[1:]
    if rest and re.fullmatch(r"x\d+", rest[0][1].lower()):
        count = int(rest[0][1][1:])
        if not 1 <= count <= MAX_MODELS:
            raise RosterError(number, rest[0][0], f"x{count}: a line lists 1 to {MAX_MODELS} "
                              "models")
        rest = rest[1:]
    values: dict[str, object] = {}
    for col, word in rest:
        key, eq, value = word.partition("=")
        key = key.lower()
        if not eq or key not in KEYS:
            raise RosterError(number, col, f"unexpected {word!r}: a model takes "
                              f"{', '.join(k + '=' for k in KEYS)}")
        if key in values:
            raise RosterError(number, col, f"{key}= is given twice")
        if key in LIMITS:
            low, high = LIMITS[key]
            if not value.isdigit() or not low <= int(value) <= high:
                raise RosterError(number, col, f"{key} takes a whole number from {low} to "
                                  f"{high}, not {value!r}")
            values[key] = int(value)
        elif key == "college":
            if not ID.match(value):
                raise RosterError(number, col, f"college takes one word (the rune's college in "
                                  f"the map's legend, e.g. fire), not {value!r}")
            values[key] = value.lower()
        else:
            skills = tuple(s.lower() for s in value.split("+") if s)
            for s in skills:
                if s not in SKILLS:
                    raise RosterError(number, col, f"unknown skill {s!r} (known: "
                                      f"{', '.join(SKILLS)})")
            values[key] = skills
    one = RosterModel(model_id, **values)  # type: ignore[arg-type]
    if not count:
        return [one]
    return [replace(one, id=f"{model_id}{i}") for i in range(1, count + 1)]


def team_stem(names: list[str], seat: int) -> str:
    """A team's short name for its models: its first letter, or ``tN`` (its seat number) when
    another team's name starts with the same letter or it starts with none."""
    letters = [n[:1].lower() for n in names]
    mine = letters[seat]
    return mine if letters.count(mine) == 1 and mine.isalpha() else f"t{seat + 1}"


def squads(rosters: list[Roster | None], stems: list[str]) -> list[tuple[RosterModel, ...]]:
    """Each team's models with the ids they take to the pitch: a roster's own ids, or, where
    two teams' rosters share an id, the team's stem before it (``o-blitzer1``), so that every
    model of the game has its own name."""
    counts: dict[str, int] = {}
    for r in rosters:
        for m in r.models if r else ():
            counts[m.id.lower()] = counts.get(m.id.lower(), 0) + 1
    out = []
    for r, stem in zip(rosters, stems, strict=True):
        out.append(tuple(m if counts[m.id.lower()] == 1 else replace(m, id=f"{stem}-{m.id}")
                         for m in (r.models if r else ())))
    return out
