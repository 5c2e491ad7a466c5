"""The ability base and the class registry (rule source: Dungeonopoly, "Core classes").

Each ability is a small object named as the rule text names it (in snake_case), with its
level, its kind and its effect flags as data the kiosk can show. A character class is a tuple
of abilities; a new class is one new module in ``classes/`` that calls ``register_class``.

Kinds: ``spell`` (single use unless noted), ``cantrip`` (a spell without the single-use limit),
``ability`` (a class ability used by choice, no dice check), ``skill`` (a rogue skill: a d20
check against ranks) and ``automatic`` (always on; never awards EP).

Flags (free-form strings; the kiosk shows them): ``single_use``, ``limited_range``,
``line_of_sight``, ``enchantment``, ``mental``, ``damage``, ``targeted``, ``area``,
``reaction``, ``check``, ``before_roll``, ``movement``, ``once_per_turn``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from companion.games.monopoly.actions import Action
from companion.games.monopoly.actions import Choose as Choose  # (answers the engine routes)
from companion.games.monopoly.actions import Pass as Pass

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.character import Character
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.dungeonopoly.terms import Table
    from companion.games.monopoly.engine import LandContext
    from companion.games.monopoly.txn import Txn

Params = tuple[tuple[str, str], ...]
KINDS = ("spell", "cantrip", "ability", "skill", "automatic")


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    """Use a class ability: ``NAME use ABILITY [TARGET] [key=value ...]`` in a transcript."""

    ability: str
    target: int | None = None
    params: Params = ()

    def param(self, key: str, default: str = "") -> str:
        for k, v in self.params:
            if k == key:
                return v
        return default


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Accept the card on offer (Divine Favor)."""


@dataclass(frozen=True, slots=True)
class TrainSkill(Action):
    """Put unspent rogue skill points into a skill: ``NAME train SKILL N``."""

    skill: str
    ranks: int = 1


def param(params: Params, key: str, default: str = "") -> str:
    for k, v in params:
        if k == key:
            return v
    return default


@dataclass(frozen=True)
class Ability:
    """One class ability. Subclasses override the methods they need.

    ``problem`` says why a use is not allowed (after the layer's common checks: level,
    timing, single use, one spell per turn, jail, casting cost); ``candidates`` lists the
    (target, params) pairs worth offering in ``legal_actions``; ``resolve`` applies the effect
    (it runs after a successful check for abilities with one). Passive hooks let automatic
    abilities change the flow without the layer naming them."""

    name: str
    level: int
    kind: str
    flags: frozenset[str] = field(default_factory=frozenset)
    cost: int = 0  # casting cost in dollars, paid to the bank
    summary: str = ""  # our own words, for the kiosk
    awards_ep: ClassVar[bool] = True

    # --- data -------------------------------------------------------------------------------
    @property
    def is_spell(self) -> bool:
        return self.kind in ("spell", "cantrip")

    @property
    def single_use(self) -> bool:
        return self.kind == "spell" or "single_use" in self.flags

    @property
    def needs_check(self) -> bool:
        return "check" in self.flags

    @property
    def reaction(self) -> bool:
        return "reaction" in self.flags

    def as_json(self, holder: Character | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "level": self.level, "kind": self.kind,
                               "flags": sorted(self.flags), "cost": self.cost,
                               "summary": self.summary}
        if holder is not None:
            out["known"] = holder.level >= self.level
            out["uses_left"] = (0 if self.name in holder.spent else 1) if self.single_use else None
        return out

    # --- use --------------------------------------------------------------------------------
    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        """Default timing: on your own turn, before or after moving, with nothing pending."""
        return layer.own_turn_problem(table, user)

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        yield None, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        return None

    def casting_cost(self, params: Params) -> int:
        return self.cost

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        """The use is declared (before any check or Counterspell): note per-turn limits."""

    def check_target(self, layer: Dungeonopoly, table: Table, user: int) -> int:
        """The highest d20 roll that succeeds (abilities with the ``check`` flag)."""
        return 0

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        """Apply the effect; True when it took effect (and so earns EP)."""
        raise NotImplementedError(self.name)

    def on_fail(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> None:
        """A failed check (no EP)."""

    # --- passive hooks (automatic abilities) ------------------------------------------------
    def modify_damage(self, layer: Dungeonopoly, t: Txn, holder: int, amount: int) -> int:
        return amount

    def waives_fee(self, layer: Dungeonopoly, t: Txn, holder: int, reason: str) -> bool:
        return False

    def on_land(self, layer: Dungeonopoly, t: Txn, holder: int, index: int,
                ctx: LandContext) -> None:
        """After the square has resolved for the holder who landed on it."""

    def on_pass(self, layer: Dungeonopoly, t: Txn, holder: int, index: int,
                forward: bool) -> None:
        """The holder passes over ``index`` (counting as passing)."""

    # --- levelling choices (melodies, primal spells, forms, stances, borrowed abilities) ----
    def choices_due(self, layer: Dungeonopoly, table: Table,
                    holder: int) -> Iterable[tuple[str, tuple[str, ...]]]:
        """(kind, options) for each choice the holder still has to make at her level."""
        return ()

    def apply_choice(self, layer: Dungeonopoly, t: Txn, holder: int, kind: str,
                     option: str) -> None:
        """Record a choice (default: add it to the character's ``choices``)."""
        from companion.games.monopoly.dungeonopoly.terms import character

        p = character(t, holder)
        t.set_player(holder, choices=p.with_choice(kind, option))
        t.emit("chose", holder, detail=f"{kind}:{option}")


@dataclass(frozen=True)
class CharacterClass:
    name: str
    abilities: tuple[Ability, ...]
    summary: str = ""

    def ability(self, name: str) -> Ability | None:
        for a in self.abilities:
            if a.name == name:
                return a
        return None

    def known(self, level: int) -> tuple[Ability, ...]:
        return _known(self.name, level)


_CLASSES: dict[str, CharacterClass] = {}
# gestalt pairs ("fighter+wizard"), made on demand; kept apart from the real classes so that
# lists of classes (borrowing, the setup screen) never depend on which games ran before
_GESTALT: dict[str, CharacterClass] = {}
_KNOWN: dict[tuple[str, int], tuple[Ability, ...]] = {}
_BY_NAME: dict[str, Ability] = {}


def register_class(cls: CharacterClass) -> CharacterClass:
    """Add a character class (each module in ``classes/`` calls this once)."""
    names = [a.name for a in cls.abilities]
    if len(set(names)) != len(names):
        raise ValueError(f"class {cls.name} names an ability twice")
    for a in cls.abilities:
        if a.kind not in KINDS:
            raise ValueError(f"ability {a.name}: kind must be one of {', '.join(KINDS)}")
    _CLASSES[cls.name] = cls
    _GESTALT.clear()
    _KNOWN.clear()
    _BY_NAME.clear()
    _REPERTOIRES.clear()
    return cls


def _load() -> None:
    if not _CLASSES:
        from companion.games.monopoly.dungeonopoly import classes  # noqa: F401  (registers)


def find_class(name: str) -> CharacterClass:
    _load()
    name = name.lower()
    if "+" in name:  # gestalt (advanced rules): two classes as one
        got = _GESTALT.get(name)
        if got is None:
            parts = [find_class(part) for part in name.split("+")]
            seen: set[str] = set()
            abilities = tuple(a for c in parts for a in c.abilities
                              if not (a.name in seen or seen.add(a.name)))  # type: ignore[func-returns-value]
            got = CharacterClass(name, abilities, " and ".join(c.summary for c in parts))
            _GESTALT[name] = got
        return got
    try:
        return _CLASSES[name]
    except KeyError:
        raise ValueError(f"unknown character class {name!r}; choose one of "
                         f"{', '.join(sorted(_CLASSES))}") from None


def class_names() -> list[str]:
    _load()
    return sorted(_CLASSES)


def _known(role: str, level: int) -> tuple[Ability, ...]:
    key = (role, level)
    got = _KNOWN.get(key)
    if got is None:
        cls = _CLASSES.get(role) or (find_class(role) if "+" in role else None)
        got = tuple(a for a in cls.abilities if a.level <= level) if cls else ()
        _KNOWN[key] = got
    return got


class Repertoire:
    """What a character knows at her level (her class's abilities plus any borrowed ones), with
    the views the layer reads on every step worked out once: by name, the abilities used by
    choice, and the abilities that override a given hook (the rest keep ``Ability``'s neutral
    default, so callers may skip them)."""

    __slots__ = ("abilities", "by_name", "usable", "_hooked")

    def __init__(self, abilities: tuple[Ability, ...]) -> None:
        self.abilities = abilities
        self.by_name: dict[str, Ability] = {}
        for a in abilities:
            self.by_name.setdefault(a.name, a)  # the first of a name, as a search finds it
        self.usable = tuple(a for a in abilities if a.kind != "automatic" and not a.reaction)
        self._hooked: dict[str, tuple[Ability, ...]] = {}

    def overriding(self, hook: str) -> tuple[Ability, ...]:
        """The abilities whose class overrides method ``hook`` (e.g. ``on_pass``), in order."""
        got = self._hooked.get(hook)
        if got is None:
            default = getattr(Ability, hook)
            got = tuple(a for a in self.abilities if getattr(type(a), hook) is not default)
            self._hooked[hook] = got
        return got


# choice kinds that add another class's ability to the repertoire ("class:ability"): the
# bard's Jack-of-All-Trades (and the parts that come with a pick), the warlock's Book of Shadows
BORROW_KINDS = ("borrow", "borrow_part", "book")
_REPERTOIRES: dict[tuple[str, int, tuple[tuple[str, str], ...]], Repertoire] = {}


def repertoire(p: Character) -> Repertoire:
    """The character's ``Repertoire`` (cached by class, level and levelling choices, the only
    things it depends on)."""
    key = (p.role, p.level, p.choices)
    got = _REPERTOIRES.get(key)
    if got is None:
        _load()
        own = _known(p.role, p.level)
        extra: list[Ability] = []
        for kind, value in p.choices:
            if kind in BORROW_KINDS:
                cls_name, _, ab_name = value.partition(":")
                cls = _CLASSES.get(cls_name)
                ab = cls.ability(ab_name) if cls else None
                if ab is not None and all(a.name != ab.name for a in own + tuple(extra)):
                    extra.append(ab)
        got = Repertoire(own + tuple(extra))
        if len(_REPERTOIRES) > 4096:
            _REPERTOIRES.clear()
        _REPERTOIRES[key] = got
    return got


def known_abilities(p: Character) -> tuple[Ability, ...]:
    """Abilities a character has at her level, plus any borrowed from other classes (choices
    of a kind in ``BORROW_KINDS`` naming ``class:ability``: Jack-of-All-Trades, Book of
    Shadows)."""
    return repertoire(p).abilities


def knows(p: Character, name: str) -> Ability | None:
    return repertoire(p).by_name.get(name)


def all_abilities() -> Iterator[tuple[str, Ability]]:
    _load()
    for cls in _CLASSES.values():
        for a in cls.abilities:
            yield cls.name, a


def find_ability(name: str) -> Ability | None:
    """Any class's ability by name (cached: Wish looks spells up on every step)."""
    if not _BY_NAME:
        for _cls, a in all_abilities():
            _BY_NAME.setdefault(a.name, a)
    return _BY_NAME.get(name)


# --- helpers shared by class modules --------------------------------------------------------
def opponents(table: Table, user: int) -> Iterator[int]:
    for seat, p in enumerate(table.players):  # team play: teammates are not opponents
        if seat != user and not p.bankrupt and not table.allied(seat, user):
            yield seat


def everyone(table: Table) -> Iterator[int]:
    for seat, p in enumerate(table.players):
        if not p.bankrupt:
            yield seat


def int_param(params: Params, key: str) -> int | None:
    text = param(params, key)
    try:
        return int(text)
    except ValueError:
        return None
