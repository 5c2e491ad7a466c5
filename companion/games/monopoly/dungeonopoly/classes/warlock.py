"""Warlock (rule source: Dungeonopoly, "Warlock abilities", levels 1-10).

The warlock's pact (Infernal, Fey or Dark), her Eldritch Blast enhancements (at 4, 6 and 8) and
the three spells of her Book of Shadows (at 9) are levelling choices (``choose pact fey``,
``choose eldritch_blast agonizing_blast``, ``choose book wizard:slow``), offered as legal
actions when they fall due and kept in ``Character.choices``. Rulings: docs/dungeonopoly/
rulings.md (cited as D-<n>).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.core.errors import IllegalActionError
from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    CharacterClass,
    Choose,
    Params,
    Pass,
    UseAbility,
    all_abilities,
    int_param,
    knows,
    opponents,
    param,
    register_class,
)
from companion.games.monopoly.dungeonopoly.character import Character, Enchantment
from companion.games.monopoly.dungeonopoly.effects import TableEffect, register_effect
from companion.games.monopoly.dungeonopoly.steps import Decision
from companion.games.monopoly.dungeonopoly.terms import (
    Table,
    character,
    in_range,
    in_sight,
    range_for_level,
    target_problem,
)
from companion.games.monopoly.engine import LandContext, RollSpec
from companion.games.monopoly.prompts import RollFor, Step
from companion.games.monopoly.state import BANK, POT

if TYPE_CHECKING:
    from companion.games.monopoly.actions import Action
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.state import GameState
    from companion.games.monopoly.txn import Txn

PACTS = ("infernal", "fey", "dark")
ENHANCEMENTS = ("agonizing_blast", "eldritch_spear", "repelling_blast", "vampiric_blast")
ENHANCEMENT_LEVELS = (4, 6, 8)
PACT_SPELLS = {"infernal": "hellish_rebuke", "fey": "misty_escape", "dark": "dark_delirium"}
PACT_TRAITS = {"infernal": "fiendish_resilience", "fey": "beguiling_defenses",
               "dark": "entropic_ward"}
BOOK_KIND = "book"  # Book of Shadows picks are borrowed spells ("class:spell"); a kind of its
# own, apart from Jack-of-All-Trades' "borrow", so a gestalt warlock+bard keeps both (D-67)
BOOK_SIZE = 3
BOOK_MAX_LEVEL = 4
CROWN_BARRED_FLAGS = frozenset({"before_roll", "reaction", "reaction_to_rent", "triggered",
                                "defensive", "ends_turn"})


# --- reading a warlock's choices ------------------------------------------------------------
def pact_of(p: Character) -> str:
    got = p.chosen("pact")
    return got[0] if got else ""


def enhancements_of(p: Character) -> tuple[str, ...]:
    return p.chosen("eldritch_blast")


def enhancement_slots(level: int) -> int:
    """Eldritch Blast enhancements known at a level: one each at 4, 6 and 8."""
    return sum(1 for lvl in ENHANCEMENT_LEVELS if level >= lvl)


def book_options(role: str) -> list[str]:
    """Spells of level 4 or less from the other classes' lists, as ``class:spell``."""
    own = set(role.split("+"))
    return [f"{cls}:{ab.name}" for cls, ab in all_abilities()
            if cls not in own and ab.is_spell and ab.level <= BOOK_MAX_LEVEL]


def book_of(p: Character) -> tuple[str, ...]:
    """The Book of Shadows picks (book choices made by a warlock at level 9 or more)."""
    return p.chosen(BOOK_KIND) if "warlock" in p.role.split("+") else ()


def hexed(p: Character) -> bool:
    return p.enchanted("hex") is not None


def _ranged_target(table: Table, user: int, target: int | None, *, spell: bool = False,
                   mental: bool = False, sight: bool = False) -> str | None:
    """An opponent within limited range (or line of sight, when ``sight``)."""
    if target is None:
        return "name the opponent"
    problem = target_problem(table, user, target, spell=spell, mental=mental)
    if problem:
        return problem
    me, other = character(table, user), table.players[target]
    if in_range(table, user, target) or (sight and in_sight(table, user, target)):
        return None
    reach = range_for_level(me.level)
    return (f"{other.name} is out of range ({reach} square{'s' if reach > 1 else ''} at your "
            f"level{' or line of sight' if sight else ''})")


# --- level 1 -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pact(Ability):
    """The pact (chosen once, at the start): Infernal, Fey or Dark. Automatic; no EP."""

    awards_ep = False

    def choices_due(self, layer: Dungeonopoly, table: Table,
                    holder: int) -> Iterable[tuple[str, tuple[str, ...]]]:
        if not pact_of(character(table, holder)):
            yield "pact", PACTS


@dataclass(frozen=True)
class Hex(Ability):
    """Once per turn, curse an opponent within limited range: the next money she collects goes
    to the central pot instead (then the curse ends). An enchantment."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if character(table, user).has_flag("hex"):
            return "Hex is once per turn"
        problem = _ranged_target(table, user, target)
        if problem or target is None:
            return problem
        if hexed(character(table, target)):
            return f"{table.players[target].name} is already cursed"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, "hex")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        layer.enchant(t, target, Enchantment("hex", user, character(t, user).level))
        return character(t, target).enchanted("hex") is not None


# --- level 2 (and the enhancements at 4, 6, 8) ---------------------------------------------
@dataclass(frozen=True)
class EldritchBlast(Ability):
    """Once per turn, damage a cursed opponent within limited range. Enhancements: Agonizing
    ($30 per level), Eldritch Spear (line of sight too), Repelling (push her 1-2 squares, passing
    and landing as usual: ``push=N``, negative for backwards), Vampiric (the damage is paid to
    the warlock)."""

    def choices_due(self, layer: Dungeonopoly, table: Table,
                    holder: int) -> Iterable[tuple[str, tuple[str, ...]]]:
        p = character(table, holder)
        have = enhancements_of(p)
        if len(have) < enhancement_slots(p.level):
            yield "eldritch_blast", tuple(e for e in ENHANCEMENTS if e not in have)

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        repel = "repelling_blast" in enhancements_of(character(table, user))
        for seat in opponents(table, user):
            if hexed(character(table, seat)):
                yield seat, ()
                if repel:
                    for n in (-2, -1, 1, 2):
                        yield seat, (("push", str(n)),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        if p.has_flag("eldritch_blast"):
            return "Eldritch Blast is once per turn"
        enh = enhancements_of(p)
        problem = _ranged_target(table, user, target, sight="eldritch_spear" in enh)
        if problem or target is None:
            return problem
        if not hexed(character(table, target)):
            return f"{table.players[target].name} is not cursed (Hex her first)"
        push = param(params, "push")
        if push:
            steps = int_param(params, "push")
            if "repelling_blast" not in enh:
                return "pushing needs the Repelling Blast enhancement"
            if steps is None or not 1 <= abs(steps) <= 2:
                return "push=1 or 2 squares forward, push=-1 or -2 backward"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, "eldritch_blast")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        p = character(t, user)
        enh = enhancements_of(p)
        per_level = 30 if "agonizing_blast" in enh else 20
        to = user if "vampiric_blast" in enh else BANK
        hit = layer.damage(t, user, target, self.name, amount=per_level * p.level, to=to)
        steps = int_param(params, "push") or 0
        if steps and not t.players[target].bankrupt and not t.players[target].in_jail:
            t.emit("repelled", target, other=user, amount=steps)
            layer.move(t, target, steps, LandContext(dice_total=sum(t.last_dice)))
            hit = True
        return hit


# --- level 3: the pact spell, cast in answer to taking damage ------------------------------
@dataclass(frozen=True, slots=True)
class PactAnswer(Decision):
    """The warlock just took damage from ``attacker``: cast her pact spell, or pass."""

    attacker: int = -1
    spell: str = ""

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        out: list[Action] = []
        ab = knows(character(state, self.player), self.spell)
        if ab is not None:
            if self.spell == "misty_escape":
                tries = [UseAbility(self.player, self.spell, None, (("steps", str(n)),))
                         for n in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)]
            else:
                tries = [UseAbility(self.player, self.spell, self.attacker)]
            out += [a for a in tries
                    if layer.use_problem(state, self.player, ab, a.target, a.params) is None]
        out.append(Pass(self.player))
        return out

    def use_params(self) -> Params:
        return (("attacker", str(self.attacker)),)

    def decline(self, layer: Dungeonopoly, t: Txn) -> None:
        t.emit("passed", self.player, detail=self.spell)


def _answer_head(table: Table, user: int, spell: str) -> PactAnswer | None:
    head = table.pending[0] if table.pending else None
    if isinstance(head, PactAnswer) and head.player == user and head.spell == spell:
        return head
    return None


@dataclass(frozen=True)
class PactSpell(Ability):
    """A pact spell cast in answer to taking damage (single use, like every spell)."""

    pact: str = ""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        if _answer_head(table, user, self.name) is None:
            return "only in answer to taking damage"
        return None

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if pact_of(character(table, user)) != self.pact:
            return f"{self.name.replace('_', ' ')} belongs to the {self.pact} pact"
        return None



@dataclass(frozen=True)
class HellishRebuke(PactSpell):
    """[Infernal] Answer damage by damaging the attacker."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        head = _answer_head(table, user, self.name)
        if head is not None and target != head.attacker:
            return "Hellish Rebuke answers the attacker"
        return super().problem(layer, table, user, target, params) or (
            target_problem(table, user, target, spell=True) if target is not None else
            "name the attacker")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if t.players[target].bankrupt or not layer.spell_reaches(t, user, target, self.name):
            return False
        return layer.damage(t, user, target, self.name)


@dataclass(frozen=True)
class MistyEscape(PactSpell):
    """[Fey] Answer damage by teleporting 1-5 squares either way (``steps=N``): no passing, no
    landing; hidden until her next turn."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        steps = int_param(params, "steps")
        if steps is None or steps == 0 or abs(steps) > 5:
            return "say where to: steps=1..5 forward or steps=-1..-5 back"
        return super().problem(layer, table, user, target, params)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        steps = int_param(params, "steps") or 0
        _drop_resume(t, user)
        size = len(layer.board.squares)
        pos = (t.players[user].position + steps) % size
        t.set_player(user, position=pos)
        t.emit("moved", user, square=pos, amount=steps, detail="misty escape")
        if effects_may_hide(layer, t, user):
            t.set_player(user, hidden=True)
        return True


def _drop_resume(t: Txn, seat: int) -> None:
    """The rest of a movement interrupted for this decision is lost (D-63)."""
    from companion.games.monopoly.walk import ResumeMove

    t.pending = [p for p in t.pending if not (isinstance(p, ResumeMove) and p.player == seat)]
    t.front = [p for p in t.front if not (isinstance(p, ResumeMove) and p.player == seat)]


def effects_may_hide(layer: Dungeonopoly, t: Txn, seat: int) -> bool:
    from companion.games.monopoly.dungeonopoly import effects

    return effects.may_hide(layer, t, seat)


@dataclass(frozen=True)
class DarkDelirium(PactSpell):
    """[Dark] Answer damage by ending the attacker's turn at once: no more abilities and no
    roll again (D-64: only when the attacker is the player whose turn it is)."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        head = _answer_head(table, user, self.name)
        if head is not None and target != head.attacker:
            return "Dark Delirium answers the attacker"
        if target is None:
            return "name the attacker"
        if target != table.current:
            return "the attacker's turn must be under way"
        return super().problem(layer, table, user, target, params) or \
            target_problem(table, user, target, spell=True)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if t.current != target or not layer.spell_reaches(t, user, target, self.name):
            return False
        end_turn_now(layer, t, target, self.name)
        return True


@dataclass(frozen=True, slots=True)
class EndTurnNow(Step["Dungeonopoly"]):
    """Dark Delirium: the attacker's turn ends as soon as what is already pending settles."""

    def run(self, layer: Dungeonopoly, t: Txn) -> None:
        if t.current == self.player and not t.players[self.player].bankrupt and \
                t.outcome is None:
            layer._next_turn(t)


def end_turn_now(layer: Dungeonopoly, t: Txn, seat: int, why: str) -> None:
    """End ``seat``'s turn: no roll again, no further movement, no more abilities."""
    t.roll_again = False
    t.rolled = True
    _drop_resume(t, seat)
    layer.add_flag(t, seat, "turn_over")
    t.emit("turn_cut_short", seat, detail=why)
    t.pending.append(EndTurnNow(seat))


# --- level 5: the pact trait ----------------------------------------------------------------
@dataclass(frozen=True)
class PactTrait(Ability):
    """Automatic; no EP (the effect lives in ``WarlockEffects``)."""

    pact: str = ""
    awards_ep = False


# --- level 7 --------------------------------------------------------------------------------
@dataclass(frozen=True)
class DarkOnesOwnLuck(Ability):
    """Before a 2d6 movement roll: roll one die more and keep the usual number (D-66), chosen
    after seeing them (``choose keep 1,3``: die positions). Single use."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        problem = layer.before_roll_problem(table, user)
        if problem:
            return problem
        p = character(table, user)
        if p.has_flag("sneak") or p.has_flag("dark_luck"):
            return "only before an ordinary movement roll"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        layer.add_flag(t, user, "dark_luck")
        return True


@dataclass(frozen=True, slots=True)
class KeepDice(Decision):
    """Dark One's Own Luck: which dice of the roll to keep (``choose keep 1,3``)."""

    dice: tuple[int, ...] = ()
    keep: int = 2

    def options(self) -> list[str]:
        from itertools import combinations

        out = []
        seen = set()
        for combo in combinations(range(len(self.dice)), self.keep):
            values = tuple(self.dice[i] for i in combo)
            if values in seen:
                continue
            seen.add(values)
            out.append(",".join(str(i + 1) for i in combo))
        return out

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        return [Choose(self.player, "keep", o) for o in self.options()]

    def choose(self, layer: Dungeonopoly, t: Txn, what: str, option: str) -> None:
        if what != "keep":
            raise IllegalActionError("choose keep N,M: the positions of the dice to keep")
        try:
            picks = [int(x) - 1 for x in option.split(",")]
        except ValueError:
            raise IllegalActionError("choose keep N,M: die positions such as 1,3") from None
        if len(picks) != self.keep or len(set(picks)) != self.keep or \
                not all(0 <= i < len(self.dice) for i in picks):
            raise IllegalActionError(f"keep {self.keep} different dice of "
                                     f"{len(self.dice)} (positions 1 to {len(self.dice)})")
        kept = tuple(self.dice[i] for i in sorted(picks))
        t.emit("kept_dice", self.player, detail=" ".join(map(str, kept)))
        layer.movement_roll(t, self.player, kept)


# --- level 9 --------------------------------------------------------------------------------
@dataclass(frozen=True)
class BookOfShadows(Ability):
    """Three spells of level 4 or less from other classes' lists (``choose book
    wizard:slow``), usable as her own at her level. Automatic; no EP."""

    awards_ep = False

    def choices_due(self, layer: Dungeonopoly, table: Table,
                    holder: int) -> Iterable[tuple[str, tuple[str, ...]]]:
        p = character(table, holder)
        have = book_of(p)
        if len(have) < BOOK_SIZE:  # (a gestalt warlock+bard's borrowed ones are known)
            known = set(have) | set(p.chosen("borrow")) | set(p.chosen("borrow_part"))
            yield BOOK_KIND, tuple(o for o in book_options(p.role) if o not in known)

    def apply_choice(self, layer: Dungeonopoly, t: Txn, holder: int, kind: str,
                     option: str) -> None:
        p = character(t, holder)
        if kind != BOOK_KIND or option not in book_options(p.role) or option in book_of(p) or \
                option in p.chosen("borrow") or option in p.chosen("borrow_part"):
            raise IllegalActionError(
                f"the Book of Shadows takes spells of level {BOOK_MAX_LEVEL} or less from other "
                f"classes, as class:spell (e.g. wizard:slow), each once and not one already "
                f"known")
        super().apply_choice(layer, t, holder, kind, option)


# --- level 10 -------------------------------------------------------------------------------
def _forced_target(table: Table, params: Params) -> int | None:
    name = param(params, "at")
    if not name:
        return None
    for i, p in enumerate(table.players):
        if p.name.lower() == name.lower() or str(i) == name:
            return i
    return -1


def _forced_params(params: Params) -> Params:
    return tuple((k[5:], v) for k, v in params if k.startswith("with_"))


@dataclass(frozen=True)
class CrownOfMadness(Ability):
    """A mental spell ($200) at an opponent within limited range: she at once uses an ability
    of the warlock's choosing (``ability=NAME at=TARGET with_KEY=VALUE ...``), never a spell
    with a casting cost (D-68)."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        from companion.games.monopoly.dungeonopoly.abilities import known_abilities

        for seat in opponents(table, user):
            if _ranged_target(table, user, seat, spell=True, mental=True):
                continue
            victim = character(table, seat)
            for ab in known_abilities(victim):
                if not self.forceable(ab):
                    continue
                for tgt, prm in ab.candidates(layer, table, seat):
                    if tgt == seat or ab.problem(layer, table, seat, tgt, prm):
                        continue
                    extra: tuple[tuple[str, str], ...] = (("ability", ab.name),)
                    if tgt is not None:
                        extra += (("at", table.players[tgt].name),)
                    yield seat, extra + tuple((f"with_{k}", v) for k, v in prm)

    @staticmethod
    def forceable(ab: Ability) -> bool:
        """Abilities used by choice (not automatic or triggered ones, reactions, or those taken
        before a roll), without a casting cost (D-68: PP-costing powers neither). An ability
        with a timing of its own (collecting GO, rolling doubles, owing rent, being hit) belongs
        to that moment, and one that ends its user's own turn (a stance) to her turn: neither
        can be forced (D-69). Wish always has a casting cost ($10 at least), so it is never
        forced (and a Wish of Crown of Madness never lists another wizard's Wishes)."""
        return ab.kind != "automatic" and not (ab.flags & CROWN_BARRED_FLAGS) and \
            type(ab).resolve is not Ability.resolve and \
            type(ab).timing_problem is Ability.timing_problem and not ab.casting_cost(()) and \
            not getattr(ab, "pp_cost", 0) and ab.name != "crown_of_madness"

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        problem = _ranged_target(table, user, target, spell=True, mental=True)
        if problem or target is None:
            return problem
        victim = character(table, target)
        name = param(params, "ability")
        if not name:
            return "say which ability she must use: ability=NAME"
        ab = knows(victim, name)
        if ab is None:
            return f"{victim.name} has no ability {name!r} at her level"
        if not self.forceable(ab):
            return (f"{name} cannot be forced: not a spell with a casting cost, a reaction, "
                    "or one used before rolling")
        forced_at = _forced_target(table, params)
        if forced_at == -1:
            return f"no player named {param(params, 'at')!r}"
        why = _forced_problem(layer, table, target, ab, forced_at, _forced_params(params))
        return f"{victim.name} cannot use {name} now: {why}" if why else None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if not layer.spell_reaches(t, user, target, self.name):
            return False
        victim = character(t, target)
        ab = knows(victim, param(params, "ability"))
        forced_at = _forced_target(t, params)
        prm = _forced_params(params)
        if ab is None or _forced_problem(layer, t, target, ab, forced_at, prm):
            t.emit("fizzled", user, other=target, detail=self.name)
            return False
        t.emit("crowned", target, other=user, detail=ab.name)
        layer.start_use(t, target, ab, forced_at, prm)
        return True


def _forced_problem(layer: Dungeonopoly, table: Table, seat: int, ab: Ability,
                    target: int | None, params: Params) -> str | None:
    """Why ``seat`` cannot be made to use ``ab`` now: the ability's own limits apart from whose
    turn it is (single use, jail for spells, its targets and range)."""
    p = character(table, seat)
    if p.bankrupt:
        return "out of the game"
    if ab.single_use and layer.use_key(ab) in p.spent:
        return "it is used up until she passes GO"
    if ab.is_spell and p.in_jail:
        return "no spells in jail"
    if ab.kind == "skill" and p.ranks(ab.name) == 0:
        return "she has no ranks in it"
    return ab.problem(layer, table, seat, target, params)


# --- table effects: Hex's redirected income, the pact traits, the luck roll ----------------
NOT_INCOME = ("sold a building", "broke down", "mortgaged ", "buildings sold on bankruptcy")


@dataclass(frozen=True, slots=True)
class WardRoll(RollFor["Dungeonopoly"]):
    """Entropic Ward: the dark warlock rolls a d6 before damage or an enchantment reaches her;
    a 1 wards it off."""

    sides: tuple[int, ...] = (6,)
    what: str = ""  # damage | enchant
    attacker: int = -1
    source: str = ""
    amount: int = 0
    to: int = BANK
    enchantment: Enchantment | None = None

    def rolled(self, layer: Dungeonopoly, t: Txn, dice: tuple[int, ...]) -> None:
        seat = self.player
        if t.players[seat].bankrupt:
            return
        if dice[0] == 1:
            t.emit("warded", seat, other=self.attacker, detail=f"entropic_ward:{self.what}")
            return
        layer.add_flag(t, seat, "ward_rolled")
        try:
            if self.what == "damage":
                layer.damage(t, self.attacker, seat, self.source, amount=self.amount, to=self.to)
            elif self.enchantment is not None:
                layer.enchant(t, seat, self.enchantment)
        finally:
            layer.drop_flag(t, seat, "ward_rolled")


def trait_of(p: Character) -> str:
    """The warlock's pact trait when she has it (level 5+), else ''."""
    if "warlock" not in p.role.split("+") or p.level < 5:
        return ""
    return PACT_TRAITS.get(pact_of(p), "")


class WarlockEffects(TableEffect):
    roles = frozenset({"warlock"})

    # Hex: the next money the cursed character collects goes to the pot (D-61)
    def redirect_income(self, layer: Dungeonopoly, t: Txn, recipient: int, amount: int,
                        reason: str) -> int:
        if recipient < 0 or recipient >= len(t.players):
            return recipient
        p = t.players[recipient]
        if not isinstance(p, Character) or p.enchanted("hex") is None:
            return recipient
        if reason.startswith(NOT_INCOME):
            return recipient
        t.set_player(recipient, enchantments=p.without_enchantment("hex"))
        t.emit("hexed_income", recipient, amount=amount, detail=reason)
        return POT

    # Fiendish Resilience: half of every fee, rounded up
    def adjust_charge(self, layer: Dungeonopoly, t: Txn, debtor: int, creditor: int,
                      amount: int, reason: str) -> int:
        if creditor == POT and debtor >= 0 and \
                trait_of(character(t, debtor)) == "fiendish_resilience":
            half = (amount + 1) // 2
            t.emit("fee_halved", debtor, amount=amount - half, detail=reason)
            return half
        return amount

    def sync(self, layer: Dungeonopoly, t: Txn) -> None:
        """Fiendish Resilience also halves the jail fee paid before rolling: half comes back
        from the pot (D-62)."""
        for e in t.events:
            if e.kind == "left_jail" and e.detail == "paid the fee" and e.player is not None \
                    and trait_of(character(t, e.player)) == "fiendish_resilience":
                fee = t.options.jail_fee
                back = fee - (fee + 1) // 2
                if back and t.pot >= back:
                    t.receive(e.player, back, POT, "fiendish resilience (jail fee halved)")
                    t.emit("fee_halved", e.player, amount=back, detail="jail fee")

    # Entropic Ward: a d6 before damage; a 1 wards it off
    def intercept_damage(self, layer: Dungeonopoly, t: Txn, attacker: int, defender: int,
                         amount: int, source: str, to: int) -> bool:
        d = character(t, defender)
        if trait_of(d) != "entropic_ward" or d.has_flag("ward_rolled"):
            return False
        t.emit("ward_roll", defender, other=attacker, detail=f"damage:{source}")
        t.push(WardRoll(defender, what="damage", attacker=attacker, source=source,
                        amount=amount, to=to))
        return True

    def may_enchant(self, layer: Dungeonopoly, t: Txn, seat: int, ench: Enchantment) -> bool:
        p = character(t, seat)
        trait = trait_of(p)
        if ench.source == seat or ench.source < 0:
            return True
        if trait == "beguiling_defenses":
            _retort(t, seat, ench.source)
        if trait == "entropic_ward" and not p.has_flag("ward_rolled"):
            t.emit("ward_roll", seat, other=ench.source, detail=f"enchant:{ench.name}")
            t.push(WardRoll(seat, what="enchant", attacker=ench.source, enchantment=ench))
            return False
        return True

    # Dark One's Own Luck: one die more on the movement roll, then keep the usual number
    def movement_sides(self, layer: Dungeonopoly, state: Table, player: int,
                       sides: tuple[int, ...]) -> tuple[int, ...]:
        if character(state, player).has_flag("dark_luck"):
            return sides + (6,)
        return sides

    def intercept_movement_roll(self, layer: Dungeonopoly, t: Txn, spec: RollSpec,
                                dice: tuple[int, ...]) -> bool:
        p = character(t, spec.player)
        if not p.has_flag("dark_luck") or len(dice) < 2:
            return False
        layer.drop_flag(t, spec.player, "dark_luck")
        t.push(KeepDice(spec.player, dice=dice, keep=len(dice) - 1))
        t.emit("luck_rolled", spec.player, detail=" ".join(map(str, dice)))
        return True

    # the pact spell's answer to damage
    def after_damage(self, layer: Dungeonopoly, t: Txn, attacker: int, defender: int,
                     amount: int, source: str) -> None:
        d = character(t, defender)
        spell = PACT_SPELLS.get(pact_of(d), "")
        if not spell or attacker < 0 or attacker == defender:
            return
        ab = knows(d, spell)
        if ab is None or layer.use_key(ab) in d.spent or d.in_jail or d.bankrupt:
            return
        if defender == t.current and d.has_flag("spell"):
            return
        t.push(PactAnswer(defender, attacker=attacker, spell=spell))

    def player_json(self, layer: Dungeonopoly, state: GameState, seat: int) -> dict[str, Any]:
        p = character(state, seat)
        if "warlock" not in p.role.split("+"):
            return {}
        return {"pact": pact_of(p) or None, "eldritch_blast": list(enhancements_of(p)),
                "book_of_shadows": list(book_of(p)) if p.level >= 9 else []}

    def bot_hint(self, state: GameState, actions: Sequence[Action]) -> Action | None:
        return warlock_bot_hint(state, actions)


def _retort(t: Txn, warlock: int, aggressor: int) -> None:
    """Beguiling Defenses: the aggressor is cursed as by Hex (this curse does not itself count
    as targeting her with an enchantment, so two fey warlocks do not loop)."""
    if not 0 <= aggressor < len(t.players):
        return
    a = t.players[aggressor]
    if not isinstance(a, Character) or a.bankrupt:
        return
    ench = Enchantment("hex", warlock, character(t, warlock).level)
    t.set_player(aggressor, enchantments=a.with_enchantment(ench))
    t.emit("enchanted", aggressor, other=warlock, detail="hex", amount=ench.level)
    t.emit("beguiled", warlock, other=aggressor)


# --- bot policy -------------------------------------------------------------------------------
PACT_PREFERENCE = ("infernal", "dark", "fey")
ENH_PREFERENCE = ("agonizing_blast", "vampiric_blast", "eldritch_spear", "repelling_blast")
BOOK_PREFERENCE = ("wizard:mage_armor", "cleric:shield_of_faith", "wizard:magic_missile",
                   "wizard:expeditious_retreat", "wizard:slow")


def warlock_bot_hint(state: GameState, actions: Sequence[Action]) -> Action | None:
    head = state.pending[0] if state.pending else None
    if isinstance(head, KeepDice):
        best = max((a for a in actions if isinstance(a, Choose) and a.player == head.player),
                   key=lambda a: sum(head.dice[int(i) - 1] for i in a.option.split(",")),
                   default=None)
        return best
    if isinstance(head, PactAnswer):
        uses = [a for a in actions if isinstance(a, UseAbility) and a.player == head.player]
        if head.spell == "misty_escape":
            return next((a for a in uses if a.param("steps") == "5"), None)
        return uses[0] if uses else None
    chooses = [a for a in actions if isinstance(a, Choose)]
    for a in chooses:
        if a.what == "pact":
            return min((c for c in chooses if c.what == "pact" and c.player == a.player),
                       key=lambda c: PACT_PREFERENCE.index(c.option)
                       if c.option in PACT_PREFERENCE else 9)
        if a.what == "eldritch_blast":
            return min((c for c in chooses if c.what == "eldritch_blast"
                        and c.player == a.player),
                       key=lambda c: ENH_PREFERENCE.index(c.option)
                       if c.option in ENH_PREFERENCE else 9)
        if a.what == BOOK_KIND and "warlock" in character(state, a.player).role:
            mine = [c for c in chooses if c.what == BOOK_KIND and c.player == a.player]
            return min(mine, key=lambda c: BOOK_PREFERENCE.index(c.option)
                       if c.option in BOOK_PREFERENCE else 9)
    if head is not None:
        return None
    uses = [a for a in actions if isinstance(a, UseAbility) and a.player == state.current]
    for name in ("eldritch_blast", "hex", "dark_ones_own_luck"):
        for u in uses:
            if u.ability == name:
                if name == "dark_ones_own_luck" and state.rolled and not state.roll_again:
                    continue
                return u
    return None


register_effect(WarlockEffects())

WARLOCK = register_class(CharacterClass("warlock", (
    Pact("pact", 1, "automatic", frozenset({"choice"}),
         summary="a pact with Infernal, Fey or Dark powers shapes her spells and traits"),
    Hex("hex", 1, "ability", frozenset({"enchantment", "targeted", "limited_range",
                                        "once_per_turn"}),
        summary="curse an opponent in range: her next income goes to the central pot"),
    EldritchBlast("eldritch_blast", 2, "ability",
                  frozenset({"damage", "targeted", "limited_range", "once_per_turn"}),
                  summary="damage a cursed opponent in range (enhancements at 4, 6 and 8)"),
    HellishRebuke("hellish_rebuke", 3, "spell", frozenset({"reaction", "damage", "targeted"}),
                  pact="infernal", summary="[Infernal] damaged: damage the attacker back"),
    MistyEscape("misty_escape", 3, "spell", frozenset({"reaction", "movement"}), pact="fey",
                summary="[Fey] damaged: vanish up to 5 squares either way, hidden"),
    DarkDelirium("dark_delirium", 3, "spell", frozenset({"reaction", "mental"}), pact="dark",
                 summary="[Dark] damaged: the attacker's turn ends at once"),
    PactTrait("fiendish_resilience", 5, "automatic", frozenset(), pact="infernal",
              summary="[Infernal] pays half of every fee, rounded up"),
    PactTrait("beguiling_defenses", 5, "automatic", frozenset(), pact="fey",
              summary="[Fey] whoever enchants her is cursed as by Hex"),
    PactTrait("entropic_ward", 5, "automatic", frozenset(), pact="dark",
              summary="[Dark] a d6 before damage or an enchantment: on a 1 it misses her"),
    DarkOnesOwnLuck("dark_ones_own_luck", 7, "ability",
                    frozenset({"single_use", "before_roll", "movement"}),
                    summary="roll a die more for movement and keep the best two"),
    BookOfShadows("book_of_shadows", 9, "automatic", frozenset({"choice"}),
                  summary="three spells of level 4 or less from other classes"),
    CrownOfMadness("crown_of_madness", 10, "spell",
                   frozenset({"mental", "targeted", "limited_range"}), 200,
                   summary="an opponent in range must use an ability you choose"),
), "draws power from a sinister pact"))

