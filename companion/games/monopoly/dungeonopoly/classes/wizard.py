"""Wizard (rule source: Dungeonopoly, "Wizard abilities", levels 1-10)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.monopoly.dungeonopoly import effects
from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    CharacterClass,
    Params,
    all_abilities,
    everyone,
    find_ability,
    int_param,
    opponents,
    param,
    register_class,
)
from companion.games.monopoly.dungeonopoly.character import Enchantment
from companion.games.monopoly.dungeonopoly.terms import (
    BOARD_SIZE,
    RING,
    Table,
    character,
    in_range,
    place,
    range_for_level,
    sheltered,
    square_enchanted,
    square_enchantments,
    square_in_range,
    standing_on,
    target_problem,
    together,
)
from companion.games.monopoly.engine import LandContext

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.txn import Txn


def _ranged(table: Table, user: int, target: int | None, *, mental: bool = False,
            allow_self: bool = False) -> str | None:
    """A spell at a character within limited range."""
    if target is None:
        return "name the target"
    problem = target_problem(table, user, target, spell=True, mental=mental,
                             allow_self=allow_self, opponent=not allow_self)
    if problem:
        return problem
    if not in_range(table, user, target):
        return (f"{table.players[target].name} is out of range "
                f"({range_for_level(character(table, user).level)} squares at your level)")
    return None


@dataclass(frozen=True)
class MagicMissile(Ability):
    """Cantrip: damage an opponent within limited range."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        return _ranged(table, user, target)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if not layer.spell_reaches(t, user, target, self.name):
            return False
        return layer.damage(t, user, target, self.name)


@dataclass(frozen=True)
class ExpeditiousRetreat(Ability):
    """Before a movement roll: the next movement roll this turn counts double."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        return layer.before_roll_problem(table, user)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        layer.add_flag(t, user, "expeditious")
        return True


@dataclass(frozen=True)
class SelfWard(Ability):
    """A protective enchantment on yourself that does not stack (Mage Armor, Shield of Faith,
    Sanctuary)."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if character(table, user).enchanted(self.name) is not None:
            return f"{self.name.replace('_', ' ')} is already active (it does not stack)"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        layer.enchant(t, user, Enchantment(self.name, user, character(t, user).level))
        return True


@dataclass(frozen=True)
class Slow(Ability):
    """A character within limited range rolls one d6 fewer on her next movement roll."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in everyone(table):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        problem = _ranged(table, user, target, allow_self=True)
        if problem or target is None:
            return problem
        if character(table, target).enchanted("slow") is not None:
            return f"{table.players[target].name} is already slowed"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if not layer.spell_reaches(t, user, target, self.name):
            return False
        layer.enchant(t, target, Enchantment("slow", user, character(t, user).level))
        return True


@dataclass(frozen=True)
class Invisibility(Ability):
    """Hidden until your next turn; any movement later this turn neither passes nor lands."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if character(table, user).enchanted("invisibility") is not None:
            return "already invisible"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        layer.enchant(t, user, Enchantment("invisibility", user, character(t, user).level))
        if character(t, user).enchanted("invisibility") is None:
            return False  # fizzled (Glitterdust) or kept off: no unseen movement either (D-46)
        layer.add_flag(t, user, "invisible")
        return True


@dataclass(frozen=True)
class CharmPerson(Ability):
    """Mental enchantment on an opponent in range: she waives the wizard's next rent to her."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        problem = _ranged(table, user, target, mental=True)
        if problem or target is None:
            return problem
        charm = character(table, target).enchanted("charm_person")
        if charm is not None and charm.source == user:
            return f"{table.players[target].name} is already charmed by you"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if not layer.spell_reaches(t, user, target, self.name):
            return False
        layer.enchant(t, target, Enchantment("charm_person", user, character(t, user).level,
                                             mental=True))
        return True


@dataclass(frozen=True)
class Counterspell(Ability):
    """Dispel an enchantment on a character or a square within limited range; or, in answer to
    a spell being cast anywhere, cancel it (reaction window)."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        return layer.own_turn_problem(table, user)

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        p = character(table, user)
        for seat in everyone(table):
            for e in character(table, seat).enchantments:
                yield seat, (("enchantment", e.name),)
        reach = range_for_level(p.level)
        if not p.in_jail:
            for d in range(-reach, reach + 1):
                sq = RING.step(p.position, d)
                for e in square_enchantments(table, sq):
                    yield None, (("enchantment", e.name), ("square", str(sq)))

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if param(params, "react"):
            return "that Counterspell is only an answer to a spell being cast"
        name = param(params, "enchantment")
        if not name:
            return "name the enchantment: enchantment=NAME (and a target or square=N)"
        sq = int_param(params, "square")
        if sq is not None:
            if not 0 <= sq < BOARD_SIZE or not square_in_range(table, user, sq):
                return "that square is out of range"
            if square_enchanted(table, sq, name) is None:
                return f"no {name} on that square"
            return None
        if target is None:
            return "name a character or a square=N"
        if not 0 <= target < len(table.players) or table.players[target].bankrupt:
            return "no such character"
        other = character(table, target)
        if other.in_jail:
            return f"{other.name} is in jail: the cells block spells"
        if target != user and not in_range(table, user, target):
            return f"{other.name} is out of range"
        if other.enchanted(name) is None:
            return f"{other.name} has no {name}"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        from companion.games.monopoly.dungeonopoly.reactions import CounterWindow
        from companion.games.monopoly.reactions import cancel_window

        if param(params, "react"):
            countered = cancel_window(t, CounterWindow)
            if countered is None:
                return False
            assert isinstance(countered, CounterWindow)
            t.emit("countered", user, other=countered.caster, detail=countered.ability)
            return True
        name = param(params, "enchantment")
        sq = int_param(params, "square")
        if sq is not None:
            layer.disenchant_square(t, sq, name)
        elif target is not None:
            layer.disenchant(t, target, name)
        return True


@dataclass(frozen=True)
class Fireball(Ability):
    """Destroy every building on your square (unless blessed) and damage every opponent there,
    hidden or not."""

    def affected(self, layer: Dungeonopoly, table: Table, user: int,
                 params: Params) -> list[int]:
        return [s for s in opponents(table, user) if together(table, user, s)]

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        pos, gap = place(t, user)
        hit = False
        s = t.squares[pos]
        if s.level and gap is None:  # on a demiplane she stands on no property (D-58)
            if square_enchanted(t, pos, "bless") is not None:
                t.emit("immune", user, square=pos, detail="bless")
            else:
                t.bank_houses += 0 if s.hotel else s.houses
                t.bank_hotels += 1 if s.hotel else 0
                t.set_square(pos, houses=0, hotel=False)
                t.emit("burned", user, square=pos, amount=s.level, other=s.owner)
                hit = True
        for seat in list(opponents(t, user)):
            if together(t, user, seat) and not sheltered(params, seat):
                hit = layer.damage(t, user, seat, self.name) or hit
        return hit


@dataclass(frozen=True)
class Telekinesis(Ability):
    """Move any character (yourself too) 1-5 squares either way: passing counts, landing does
    not."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in everyone(table):
            for n in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5):
                yield seat, (("steps", str(n)),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if target is None:
            return "name the character to move"
        problem = target_problem(table, user, target, spell=True, opponent=False,
                                 allow_self=True)
        if problem:
            return problem
        steps = int_param(params, "steps")
        if steps is None or steps == 0 or abs(steps) > 5:
            return "say how far: steps=1..5 forward or steps=-1..-5 back"
        if effects.pinned(layer, table, target):
            return f"{table.players[target].name} cannot be moved (Bulwark of Defense)"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if not layer.spell_reaches(t, user, target, self.name) or \
                effects.pinned(layer, t, target):
            return False  # absorbed, or she cannot be moved: no effect, no EP
        steps = int_param(params, "steps") or 1
        layer.move(t, target, steps, LandContext(), land=False, count_passing=True)
        return True


WISH_MODES = {"unmortgage": 20, "own": 50, "hotel": 500}


@dataclass(frozen=True)
class Wish(Ability):
    """Duplicate any other spell (its casting cost or $10, whichever is more), or for the
    current lot: lift its mortgage ($20), take it from the bank ($50), or put a hotel on it
    ($500)."""

    def duplicated(self, params: Params) -> Ability | None:
        name = param(params, "spell")
        if not name or name == self.name:
            return None
        ab = find_ability(name)
        return ab if ab is not None and ab.is_spell else None

    def casting_cost(self, params: Params) -> int:
        mode = param(params, "mode")
        if mode in WISH_MODES:
            return WISH_MODES[mode]
        dup = self.duplicated(params)
        return max(dup.casting_cost(params) if dup else 0, 10)

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for mode in WISH_MODES:
            yield None, (("mode", mode),)
        for _cls, ab in all_abilities():
            if ab.is_spell and ab.name != self.name and not ab.reaction:
                # ``problem`` refuses every plain candidate while the duplicated spell's
                # timing is wrong: test that once per spell, not once per candidate
                dup = find_ability(ab.name)
                late = dup is not None and dup.is_spell and not dup.reaction and \
                    dup.timing_problem(layer, table, user) is not None
                for target, params in ab.candidates(layer, table, user):
                    if late and not param(params, "mode") and not param(params, "react"):
                        continue
                    yield target, (("spell", ab.name),) + params

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        cost = self.casting_cost(params)
        if cost > p.cash:
            return f"this Wish costs ${cost}; you have ${p.cash}"
        mode = param(params, "mode")
        pos = p.position
        sq = layer.board.squares[pos]
        s = table.squares[pos]
        if mode:
            if mode not in WISH_MODES:
                return f"mode is one of {', '.join(WISH_MODES)} (or spell=NAME)"
            if not sq.ownable or standing_on(table, user) is None:
                return "your square is not a property"
            if mode == "unmortgage" and not s.mortgaged:
                return "the property is not mortgaged"
            if mode == "own" and s.owner is not None:
                return "the property is already owned"
            if mode == "hotel":
                if not sq.is_street:
                    return "only streets take hotels"
                if s.owner is None or s.mortgaged:
                    return "the property must be owned and unmortgaged"
                if s.hotel:
                    return "it already has a hotel"
                if table.bank_hotels < 1:
                    return "the bank has no hotels left"
            return None
        dup = self.duplicated(params)
        if dup is None:
            return "say what to wish for: mode=unmortgage|own|hotel or spell=NAME"
        if param(params, "react"):
            # answers given in a window never come here (reactions.use_in_window checks them)
            return f"that Wish is only an answer to its trigger ({dup.name} window)"
        if dup.reaction:
            return f"{dup.name} can only be wished for in answer to its trigger"
        return dup.timing_problem(layer, table, user) or \
            dup.problem(layer, table, user, target, params)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        mode = param(params, "mode")
        pos = t.players[user].position
        if mode == "unmortgage":
            t.set_square(pos, mortgaged=False)
            t.emit("unmortgaged", user, square=pos, detail="wish")
            return True
        if mode == "own":
            t.set_square(pos, owner=user)
            t.emit("wished_lot", user, square=pos)
            return True
        if mode == "hotel":
            s = t.squares[pos]
            t.bank_houses += s.houses
            t.bank_hotels -= 1
            t.set_square(pos, houses=0, hotel=True)
            t.emit("wished_hotel", user, square=pos)
            return True
        dup = self.duplicated(params)
        assert dup is not None
        t.emit("wish", user, detail=dup.name)
        return dup.resolve(layer, t, user, target, params)


WIZARD = register_class(CharacterClass("wizard", (
    MagicMissile("magic_missile", 1, "cantrip",
                 frozenset({"damage", "targeted", "limited_range"}),
                 summary="damage an opponent within range (a cantrip: no single-use limit)"),
    ExpeditiousRetreat("expeditious_retreat", 2, "spell", frozenset({"before_roll", "movement"}),
                       summary="double your next movement roll this turn"),
    SelfWard("mage_armor", 3, "spell", frozenset({"enchantment"}),
             summary="the next damage to you is absorbed"),
    Slow("slow", 4, "spell", frozenset({"enchantment", "targeted", "limited_range"}),
         summary="a character in range rolls one d6 fewer on her next move"),
    Invisibility("invisibility", 5, "spell", frozenset({"enchantment", "movement"}),
                 summary="hidden until your next turn; moving this turn passes and lands nowhere"),
    CharmPerson("charm_person", 6, "spell",
                frozenset({"enchantment", "mental", "targeted", "limited_range"}),
                summary="an opponent in range waives your next rent to her"),
    Counterspell("counterspell", 7, "spell",
                 frozenset({"limited_range", "enchantment_dispel", "counters_spells"}),
                 summary="dispel an enchantment in range, or cancel a spell being cast"),
    Fireball("fireball", 8, "spell", frozenset({"damage", "area"}),
             summary="burn the buildings on your square and damage opponents there"),
    Telekinesis("telekinesis", 9, "spell", frozenset({"targeted", "movement"}),
                summary="move any character 1-5 squares: passing counts, landing does not"),
    Wish("wish", 10, "spell", frozenset(),
         summary="duplicate any spell, or unmortgage/claim/hotel the current lot"),
), "a spellcaster with a spell for every level"))
