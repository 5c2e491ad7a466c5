"""Psion (rule source: Dungeonopoly, "Psion abilities", levels 1-10).

Powers cost power points (PP): a psion has as many as her level, and passing (or landing on)
GO refills them. The engine keeps the PP *spent* since GO (``counters`` entry ``pp_spent``), so
the PP left are ``level - pp_spent`` and a level gained mid-lap adds a point at once (D-49).
Powers are manifested like spells (before or after moving, one per turn, ``power`` turn flag)
but are not spells: no single-use limit, no Counterspell; jail cells stop them as they stop
spells (D-50). Defensive powers (Empty Mind, Intellect Fortress) are answers to a trigger and
do not count toward the one power per turn. A ranged power may be augmented: ``augment=N``
spends N more PP to reach N squares further.

Rulings: docs/dungeonopoly/rulings.md (D-<n>). Genesis's demiplanes live in
``genesis.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from companion.core.errors import IllegalActionError
from companion.games.monopoly.dungeonopoly import genesis
from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    CharacterClass,
    Params,
    Pass,
    UseAbility,
    int_param,
    knows,
    opponents,
    param,
    register_class,
)
from companion.games.monopoly.dungeonopoly.character import Character, Enchantment
from companion.games.monopoly.dungeonopoly.effects import TableEffect, register_effect
from companion.games.monopoly.dungeonopoly.steps import Decision
from companion.games.monopoly.dungeonopoly.table import MemoryLoan
from companion.games.monopoly.dungeonopoly.terms import (
    RING,
    Table,
    character,
    dungeon,
    range_for_level,
    seat_distance,
    sheltered,
    target_problem,
)
from companion.games.monopoly.engine import LandContext, RollSpec
from companion.games.monopoly.pending import Debt
from companion.games.monopoly.prompts import RollFor
from companion.games.monopoly.state import BANK

if TYPE_CHECKING:
    from companion.games.monopoly.actions import Action
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.state import GameState
    from companion.games.monopoly.txn import Txn

# Mind Thrust's table (and Empty Mind's): PP spent -> dollars
PP_TABLE = (0, 10, 30, 60, 100, 150, 210, 280, 360, 450, 550)
MAX_PP = 10


def pp_left(p: Character) -> int:
    """Power points left: the level less what was spent since last passing GO."""
    if not is_psion(p):
        return 0
    return max(0, p.level - p.counter("pp_spent"))


def is_psion(p: Character) -> bool:
    return "psion" in p.role.split("+")


def spend_pp(layer: Dungeonopoly, t: Txn, seat: int, amount: int, why: str) -> None:
    p = character(t, seat)
    if amount > pp_left(p):
        raise IllegalActionError(f"{why} needs {amount} PP; {p.name} has {pp_left(p)}")
    t.set_player(seat, counters=p.with_counter("pp_spent", p.counter("pp_spent") + amount))
    t.emit("pp_spent", seat, amount=amount, detail=why)


def thrust_amount(pp: int) -> int:
    """Mind Thrust's (and Empty Mind's) figure for ``pp`` PP (the table stops at 10 PP)."""
    return PP_TABLE[max(0, min(pp, MAX_PP))]


def augment_of(params: Params) -> int:
    got = int_param(params, "augment")
    return got if got is not None and got > 0 else 0


def psi_reach(table: Table, user: int, params: Params) -> int:
    return range_for_level(character(table, user).level) + augment_of(params)


def in_reach(table: Table, user: int, target: int, reach: int) -> bool:
    """Limited range as the psion sees it, with her own demiplanes counted (Genesis)."""
    d = seat_distance(table, user, user, target)
    return d is not None and d <= reach


# --- the power base ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Power(Ability):
    """A psionic power: ``pp_cost`` PP (plus ``augment``), one power per turn, not in jail."""

    pp_cost: int = 1
    ranged: bool = False

    @property
    def defensive(self) -> bool:
        return "defensive" in self.flags

    def pp_needed(self, params: Params) -> int:
        return self.pp_cost + (augment_of(params) if self.ranged else 0)

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        problem = layer.own_turn_problem(table, user)
        if problem:
            return problem
        p = character(table, user)
        if p.in_jail:
            return "no powers in jail (the cells' antimagic stops them too)"
        if p.has_flag("power"):
            return "one power per turn"
        return None

    def pp_problem(self, table: Table, user: int, params: Params) -> str | None:
        if param(params, "augment") and not self.ranged:
            return f"{self.name.replace('_', ' ')} cannot be augmented"
        if param(params, "augment") and (int_param(params, "augment") or -1) < 0:
            return "augment=N takes a whole number of extra PP"
        need = self.pp_needed(params)
        p = character(table, user)
        left = pp_left(p)
        if need > left and not is_psion(p):
            return f"this needs {need} PP and only a psion has power points (D-74)"
        if need > left:
            return f"this needs {need} PP; you have {left} (passing GO refills them)"
        return None

    def target_in_reach(self, table: Table, user: int, target: int | None, params: Params, *,
                        mental: bool = False) -> str | None:
        if target is None:
            return "name the opponent"
        problem = target_problem(table, user, target, spell=True, mental=mental) or \
            genesis.target_problem(table, user, target)
        if problem:
            return problem
        reach = psi_reach(table, user, params)
        if not in_reach(table, user, target, reach):
            return (f"{table.players[target].name} is out of range ({reach} squares; "
                    "augment=N reaches N further for N PP)")
        return None

    def ranged_candidates(self, table: Table, user: int,
                          base: Params = ()) -> Iterator[tuple[int, Params]]:
        """Each opponent, with the least augment that reaches her (if the PP allow it)."""
        p = character(table, user)
        spare = pp_left(p) - self.pp_cost - sum(int(v) for k, v in base if k == "pp")
        for seat in opponents(table, user):
            for extra in range(0, max(0, spare) + 1):
                if in_reach(table, user, seat, range_for_level(p.level) + extra):
                    yield seat, base + ((("augment", str(extra)),) if extra else ())
                    break

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        spend_pp(layer, t, user, self.pp_needed(params), self.name)
        if not self.defensive and user == t.current:
            layer.add_flag(t, user, "power")


# --- level 1 -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MindThrust(Power):
    """Mental damage to an opponent within limited range: ``pp=N`` PP for the table's figure
    ($10 for 1 PP up to $550 for 10)."""

    def pp_needed(self, params: Params) -> int:
        return (int_param(params, "pp") or 0) + augment_of(params)

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        left = pp_left(character(table, user))
        for n in range(1, min(left, MAX_PP) + 1):
            for seat, prm in self.ranged_candidates(table, user, (("pp", str(n)),)):
                if self.pp_needed(prm) <= left:
                    yield seat, prm

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        n = int_param(params, "pp")
        if n is None or not 1 <= n <= MAX_PP:
            return f"say how many PP: pp=1 to pp={MAX_PP}"
        return self.pp_problem(table, user, params) or \
            self.target_in_reach(table, user, target, params, mental=True)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        amount = thrust_amount(int_param(params, "pp") or 0)
        return layer.damage(t, user, target, self.name, amount=amount)


# --- level 2 -----------------------------------------------------------------------------------
VOLUNTARY = ("auction for", "house bought at auction", "10% on mortgaged")


@dataclass(frozen=True, slots=True)
class OweChoice(Decision):
    """Empty Mind: the psion owes ``amount`` to ``creditor``: spend PP to owe less, or pass."""

    creditor: int = BANK
    amount: int = 0
    reason: str = ""

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        p = character(state, self.player)
        out: list[Action] = []
        ab = knows(p, "empty_mind")
        if ab is not None and layer.generic_problem(state, self.player, ab) is None:
            for n in range(1, min(pp_left(p), MAX_PP) + 1):
                out.append(UseAbility(self.player, "empty_mind", None, (("pp", str(n)),)))
                if thrust_amount(n) >= self.amount:
                    break
        out.append(Pass(self.player))
        return out

    def use_params(self) -> Params:
        return (("creditor", str(self.creditor)), ("amount", str(self.amount)),
                ("reason", self.reason))

    def decline(self, layer: Dungeonopoly, t: Txn) -> None:
        settle_charge(t, self.player, self.creditor, self.amount, self.reason)


def settle_charge(t: Txn, debtor: int, creditor: int, amount: int, reason: str) -> None:
    """What ``Txn.charge`` does after its adjustment: pay now, or queue a debt to raise."""
    if amount <= 0 or t.players[debtor].bankrupt:
        return
    if t.players[debtor].cash >= amount and not t.has_debt(debtor):
        t.pay(debtor, creditor, amount, reason)
        return
    t.emit("owes", debtor, amount=amount, other=creditor, detail=reason)
    t.push(Debt(debtor, creditor, amount, reason))


def _owe_head(table: Table, user: int) -> OweChoice | None:
    head = table.pending[0] if table.pending else None
    return head if isinstance(head, OweChoice) and head.player == user else None


@dataclass(frozen=True)
class EmptyMind(Power):
    """Defensive: when the psion owes money, ``pp=N`` PP take the table's figure off the sum."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        if _owe_head(table, user) is None:
            return "only in answer to owing money"
        return None

    def pp_needed(self, params: Params) -> int:
        return int_param(params, "pp") or 0

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        n = int_param(params, "pp")
        if n is None or not 1 <= n <= MAX_PP:
            return f"say how many PP: pp=1 to pp={MAX_PP}"
        return self.pp_problem(table, user, params)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        owed = int_param(params, "amount")
        creditor = int_param(params, "creditor")
        if owed is None or creditor is None:
            return False
        reason = param(params, "reason")
        cut = thrust_amount(int_param(params, "pp") or 0)
        left = max(0, owed - cut)
        t.emit("owed_less", user, amount=owed - left, other=creditor, detail=reason)
        settle_charge(t, user, creditor, left, reason)
        return True


# --- level 3 -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MentalEnchantment(Power):
    """A mental enchantment on an opponent within limited range (Ego Whip, Id Insinuation)."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat, prm in self.ranged_candidates(table, user):
            if character(table, seat).enchanted(self.name) is None:
                yield seat, prm

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        problem = self.pp_problem(table, user, params) or \
            self.target_in_reach(table, user, target, params, mental=True)
        if problem or target is None:
            return problem
        if character(table, target).enchanted(self.name) is not None:
            return f"{table.players[target].name} already has {self.name.replace('_', ' ')}"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        layer.enchant(t, target, Enchantment(self.name, user, character(t, user).level,
                                             mental=True))
        return character(t, target).enchanted(self.name) is not None


# --- level 4 -----------------------------------------------------------------------------------
def cheapest_lot(layer: Dungeonopoly, table: Table, seat: int) -> int | None:
    """The seat's least expensive property (printed price; the lower square on a tie)."""
    lots = [i for i, s in enumerate(table.squares) if s.owner == table.side(seat)]
    if not lots:
        return None
    return min(lots, key=lambda i: (layer.board.squares[i].price, i))


@dataclass(frozen=True)
class ModifyMemory(Power):
    """The opponent's least expensive property (with its buildings) passes to the psion while
    the enchantment lasts. Each time rent is owed on it the first owner rolls a d20: her level
    or less and she remembers, taking it back (that rent included). Does not stack on one
    opponent. A mental enchantment, 2 PP."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat, prm in self.ranged_candidates(table, user):
            if self.stack_problem(table, user, seat) is None and \
                    cheapest_lot(layer, table, seat) is not None:
                yield seat, prm

    @staticmethod
    def stack_problem(table: Table, user: int, target: int) -> str | None:
        e = character(table, target).enchanted("modify_memory")
        if e is not None and e.source == user:
            return f"{table.players[target].name}'s memory is already modified (no stacking)"
        return None

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        problem = self.pp_problem(table, user, params) or \
            self.target_in_reach(table, user, target, params, mental=True)
        if problem or target is None:
            return problem
        return self.stack_problem(table, user, target)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        lot = cheapest_lot(layer, t, target)
        if lot is None:
            t.emit("fizzled", user, other=target, detail=self.name)
            return False
        ench = Enchantment("modify_memory", user, character(t, user).level, mental=True)
        layer.enchant(t, target, ench)
        if character(t, target).enchanted("modify_memory") is None:
            return False
        t.set_square(lot, owner=user)
        found = dungeon(t)
        t.table = replace(found, loans=found.loans + (MemoryLoan(lot, target, user),))
        t.emit("memory_modified", user, square=lot, other=target)
        return True


def loans(table: Table) -> list[MemoryLoan]:
    return list(dungeon(table).loans)


@dataclass(frozen=True, slots=True)
class RecallRoll(RollFor["Dungeonopoly"]):
    """The first owner of a lot held through Modify Memory rolls a d20 when rent is owed on it:
    her level or less and she remembers."""

    sides: tuple[int, ...] = (20,)
    lot: int = -1
    payer: int = -1
    amount: int = 0
    psion: int = -1

    def rolled(self, layer: Dungeonopoly, t: Txn, dice: tuple[int, ...]) -> None:
        owner = self.player
        level = character(t, owner).level
        ok = dice[0] <= level and not t.players[owner].bankrupt
        t.emit("recall", owner, amount=dice[0], square=self.lot,
               detail="remembered" if ok else "forgot")
        if ok:
            end_loan(layer, t, self.lot, give_back=True)
            if not t.allied(self.payer, owner) and not t.players[self.payer].bankrupt:
                layer.collect_rent(t, self.payer, owner, self.lot, self.amount, intercept=False)
            return
        holder = t.squares[self.lot].owner
        if holder is not None and holder != self.payer and not t.players[self.payer].bankrupt:
            layer.collect_rent(t, self.payer, holder, self.lot, self.amount, intercept=False)


def end_loan(layer: Dungeonopoly, t: Txn, lot: int, *, give_back: bool) -> None:
    """Modify Memory ends on ``lot``: the lot goes back to its first owner (when the psion
    still holds it) and her enchantment ends."""
    for loan in loans(t):
        if loan.lot != lot:
            continue
        found = dungeon(t)
        t.table = replace(found, loans=tuple(e for e in found.loans if e != loan))
        victim = character(t, loan.owner)
        e = victim.enchanted("modify_memory")
        if e is not None and e.source == loan.psion:
            t.set_player(loan.owner,
                         enchantments=victim.without_enchantment("modify_memory", loan.psion))
        if give_back and t.squares[lot].owner == t.side(loan.psion) and not victim.bankrupt:
            t.set_square(lot, owner=loan.owner)
            t.emit("memory_restored", loan.owner, square=lot, other=loan.psion)


# --- level 5 -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ThoughtLeech(Power):
    """For every 3 PP, one enchantment on an opponent within limited range moves onto the psion
    (``take=NAME[,NAME]``)."""

    def pp_needed(self, params: Params) -> int:
        return 3 * len(self.taken(params)) + augment_of(params)

    @staticmethod
    def taken(params: Params) -> list[str]:
        return [x for x in param(params, "take").split(",") if x]

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        if pp_left(character(table, user)) < 3:
            return
        for seat, prm in self.ranged_candidates(table, user):
            for e in character(table, seat).enchantments:
                got = (("take", e.name),) + prm
                if self.problem(layer, table, user, seat, got) is None:
                    yield seat, got

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        names = self.taken(params)
        if not names:
            return "say which enchantments to take: take=NAME[,NAME...] (3 PP each)"
        if len(set(names)) != len(names):
            return "name each enchantment once"
        problem = self.pp_problem(table, user, params) or \
            self.target_in_reach(table, user, target, params)
        if problem or target is None:
            return problem
        other = character(table, target)
        for name in names:
            e = other.enchanted(name)
            if e is None:
                return f"{other.name} has no {name}"
            if e.source == user:
                return f"your own {name.replace('_', ' ')} cannot be drawn back onto you"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        moved = False
        for name in self.taken(params):
            other = character(t, target)
            e = other.enchanted(name)
            if e is None:
                continue
            t.set_player(target, enchantments=other.without_enchantment(name, e.source))
            t.emit("leeched", user, other=target, detail=name)
            layer.enchant(t, user, e)
            moved = True
        return moved


# --- level 7: Genesis (see genesis.py) ---------------------------------------------------------
@dataclass(frozen=True)
class Genesis(Power):
    """A demiplane between two adjacent squares within limited range: a card from the discard
    pile of Community Chest (a square for the psion only) or Chance (for opponents only),
    ``after=N deck=chance|community_chest card=ID``. An enchantment: 4 PP + $40."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        p = character(table, user)
        if p.in_jail or pp_left(p) < self.pp_cost:
            return
        reach = range_for_level(p.level)
        for deck in ("community_chest", "chance"):
            card = genesis.bot_card(table, deck)
            if card is None:
                continue
            for d in range(-reach, reach):
                after = RING.step(p.position, d)
                yield None, (("after", str(after)), ("deck", deck), ("card", card))

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        return self.pp_problem(table, user, params) or \
            genesis.create_problem(layer, table, user, params, psi_reach(table, user, params))

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        return genesis.create(layer, t, user, params)


# --- level 8 -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PsionicBlast(Power):
    """Every opponent within limited range is thrown to the first square beyond it, away from
    the psion (``same=back`` throws those on her own square backwards; D-56): passing counts,
    landing does not. 4 PP."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        if self.victims(table, user, ()):
            yield None, ()

    def victims(self, table: Table, user: int, params: Params) -> list[tuple[int, int]]:
        """(seat, signed squares to move) for each opponent caught."""
        me = table.players[user]
        if me.in_jail:
            return []
        reach = psi_reach(table, user, params)
        back = param(params, "same") == "back"
        out = []
        for seat in opponents(table, user):
            other = table.players[seat]
            dist = seat_distance(table, user, user, seat)  # demiplanes counted (D-58)
            if dist is None or dist > reach:
                continue
            offset = RING.signed(me.position, other.position)
            if dist == 0:
                direction = -1 if back else 1
            else:
                direction = (1 if offset > 0 else -1) if offset else \
                    (1 if genesis.demiplane_of(table, seat) is not None else -1)
            if genesis.demiplanes(table):  # her path may hold demiplanes
                out.append((seat, genesis.throw_steps(table, user, seat, direction, reach)))
            else:
                out.append((seat, direction * (reach + 1 - dist)))
        return out

    def affected(self, layer: Dungeonopoly, table: Table, user: int,
                 params: Params) -> list[int]:
        from companion.games.monopoly.dungeonopoly import effects

        return [s for s, _ in self.victims(table, user, params)
                if not effects.pinned(layer, table, s)]

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if param(params, "same") not in ("", "forward", "back"):
            return "same=forward or same=back: where those on your square are thrown"
        return self.pp_problem(table, user, params)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        from companion.games.monopoly.dungeonopoly import effects

        hit = False
        for seat, steps in self.victims(t, user, params):
            if t.players[seat].bankrupt or effects.pinned(layer, t, seat) or \
                    sheltered(params, seat):
                continue
            t.emit("blasted", seat, other=user, amount=steps)
            layer.move(t, seat, steps, LandContext(), land=False, count_passing=True)
            hit = True
        return hit


# --- level 9 -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FortressChance(Decision):
    """An ability is about to affect ``target``, within the psion's range: raise the Intellect
    Fortress (5 PP) to make it miss, or pass. ``area``: an area use about to affect characters
    in her range (``target`` is the first of them); the fortress then shelters everyone in her
    range and the use goes on for the others (D-57)."""

    user: int = -1
    ability: str = ""
    target: int = -1
    params: Params = ()
    area: bool = False

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        out: list[Action] = []
        p = character(state, self.player)
        ab = knows(p, "intellect_fortress")
        on = None if self.area else self.target
        if ab is not None and layer.use_problem(state, self.player, ab, on, ()) is None:
            out.append(UseAbility(self.player, "intellect_fortress", on))
        out.append(Pass(self.player))
        return out

    def asked(self) -> Params:
        asked = param(self.params, "fortress_asked")
        prm = tuple((k, v) for k, v in self.params if k != "fortress_asked")
        asked = f"{asked},{self.player}" if asked else str(self.player)
        return prm + (("fortress_asked", asked),)

    def use_params(self) -> Params:
        out: Params = (("user", str(self.user)), ("ability", self.ability))
        if not self.area:
            out += (("target", str(self.target)),)
        if self.area:
            out += (("area", json.dumps([list(kv) for kv in self.asked()])),)
        return out

    def decline(self, layer: Dungeonopoly, t: Txn) -> None:
        ab = layer.ability_of(t, self.user, self.ability)
        layer.proceed(t, self.user, ab, None if self.area else self.target, self.asked())


def area_victims(layer: Dungeonopoly, table: Table, user: int, ab: Ability,
                 params: Params) -> list[int]:
    """The characters an area use is about to affect (abilities with an ``affected`` method:
    Fireball, Wrath of God, Call Lightning, Creeping Doom, Psionic Blast, Fascinate, Mass
    Suggestion, Glitterdust), less those already sheltered."""
    affected = getattr(ab, "affected", None)
    if affected is None:
        return []
    return [s for s in affected(layer, table, user, params) if not sheltered(params, s)]


def fortress_holds(table: Table, psion: int) -> list[int]:
    """The characters inside a fortress the psion raises now: everyone within her base limited
    range, herself included (D-57)."""
    p = character(table, psion)
    return [s for s, o in enumerate(table.players) if not o.bankrupt and
            (s == psion or in_reach(table, psion, s, range_for_level(p.level)))]


def _fortress_head(table: Table, user: int) -> FortressChance | None:
    head = table.pending[0] if table.pending else None
    return head if isinstance(head, FortressChance) and head.player == user else None


@dataclass(frozen=True)
class IntellectFortress(Power):
    """Defensive, 5 PP: when an ability is about to affect a character within the psion's
    limited range (herself included), the fortress makes it miss (D-57: abilities aimed at a
    character; area effects are not caught)."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        if _fortress_head(table, user) is None:
            return "only in answer to an ability about to affect someone in range"
        return None

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        return self.pp_problem(table, user, params)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        caster = int_param(params, "user")
        area = param(params, "area")
        if not area or caster is None:
            # the one spared is the target of the ability answered (the decision's), whatever
            # target the answer itself named
            aimed = int_param(params, "target")
            t.emit("fortress", user, other=caster,
                   amount=aimed if aimed is not None else (target or 0),
                   detail=param(params, "ability"))
            return True
        # an area use: everyone inside the fortress is spared; the use goes on for the rest
        orig: Params = tuple((str(k), str(v)) for k, v in json.loads(area))
        inside = fortress_holds(t, user)
        before = param(orig, "sheltered")
        spared = sorted({int(x) for x in before.split(",") if x} | set(inside))
        t.emit("fortress", user, other=caster, amount=len(inside),
               detail=param(params, "ability"))
        orig = tuple((k, v) for k, v in orig if k != "sheltered") + \
            (("sheltered", ",".join(map(str, spared))),)
        layer.proceed(t, caster, layer.ability_of(t, caster, param(params, "ability")), None,
                      orig)
        return True


# --- level 10 ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PsychicCrush(Power):
    """An opponent anywhere on the board is sent back to GO: no GO money, no landing, no
    benefit of passing GO. Mental, 5 PP."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            if table.players[seat].position != 0:
                yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if target is None:
            return "name the opponent"
        from companion.games.monopoly.dungeonopoly import effects

        problem = self.pp_problem(table, user, params) or \
            target_problem(table, user, target, spell=True, mental=True) or \
            genesis.target_problem(table, user, target)
        if problem is None and effects.pinned(layer, table, target):
            return f"{table.players[target].name} cannot be moved (Bulwark of Defense)"
        return problem

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        start = t.players[target].position
        t.set_player(target, position=0)
        t.table = genesis.leave(dungeon(t), target)
        t.emit("moved", target, square=0, amount=-start, detail="psychic crush")
        return True


# --- table effects ------------------------------------------------------------------------------
class PsionEffects(TableEffect):
    roles = frozenset({"psion"})

    def go_collected(self, layer: Dungeonopoly, t: Txn, player: int, landed: bool) -> None:
        p = character(t, player)
        if is_psion(p) and p.counter("pp_spent"):
            t.set_player(player, counters=p.with_counter("pp_spent", 0))
            t.emit("pp_refilled", player, amount=p.level)

    def adjust_charge(self, layer: Dungeonopoly, t: Txn, debtor: int, creditor: int,
                      amount: int, reason: str) -> int:
        """Empty Mind: owing money, the psion may first answer with PP (a decision)."""
        if amount <= 0 or debtor < 0 or reason.startswith(VOLUNTARY):
            return amount
        p = character(t, debtor)
        if knows(p, "empty_mind") is None or pp_left(p) < 1 or p.bankrupt or \
                (debtor == t.current and p.has_flag("ran")):
            return amount
        t.push(OweChoice(debtor, creditor=creditor, amount=amount, reason=reason))
        return 0

    def intercept_movement_roll(self, layer: Dungeonopoly, t: Txn, spec: RollSpec,
                                dice: tuple[int, ...]) -> bool:
        """Ego Whip: the dazed character's movement roll is forfeit; she lands on her square
        again (D-51: the roll earns no doubles or lucky-seven EP and gives no extra roll)."""
        seat = spec.player
        p = character(t, seat)
        whip = p.enchanted("ego_whip")
        if whip is None:
            return False
        t.set_player(seat, enchantments=p.without_enchantment("ego_whip", whip.source))
        t.last_dice = dice
        t.rolled = True
        t.roll_again = False
        t.emit("dazed", seat, other=whip.source, detail=" ".join(map(str, dice)))
        layer.add_flag(t, seat, "moved")
        layer.arrive(t, seat, t.players[seat].position, LandContext(dice_total=sum(dice)))
        return True

    def movement_steps(self, layer: Dungeonopoly, t: Txn, player: int, steps: int) -> int:
        """Id Insinuation: the confused character's next movement roll takes her backwards."""
        p = character(t, player)
        conf = p.enchanted("id_insinuation")
        if conf is None:
            return steps
        t.set_player(player, enchantments=p.without_enchantment("id_insinuation", conf.source))
        t.emit("confused", player, other=conf.source, amount=steps)
        return -steps

    def intercept_rent(self, layer: Dungeonopoly, t: Txn, payer: int, owner: int, index: int,
                       amount: int) -> bool:
        """Modify Memory: rent owed on a held lot first gives its first owner a d20 recall."""
        for loan in loans(t):
            if loan.lot == index and t.side(loan.psion) == owner:
                t.push(RecallRoll(loan.owner, lot=index, payer=payer, amount=amount,
                                  psion=owner))
                t.emit("recall_due", loan.owner, square=index, other=payer)
                return True
        return False

    def intercept_use(self, layer: Dungeonopoly, t: Txn, user: int, ab: Ability,
                      target: int | None, params: Params) -> bool:
        """Intellect Fortress: psions who could raise it around the target (or around someone
        an area use is about to affect) are asked first."""
        if param(params, "react"):
            return False
        if target is None:
            victims = area_victims(layer, t, user, ab, params)
            if not victims:
                return False
        elif not 0 <= target < len(t.players):
            return False
        else:
            victims = [target]
        asked = {int(x) for x in param(params, "fortress_asked").split(",") if x}
        for seat in range(len(t.players)):
            if seat == user or seat in asked:
                continue
            p = character(t, seat)
            fort = knows(p, "intellect_fortress")
            if fort is None or p.bankrupt or p.in_jail or pp_left(p) < 5:
                continue
            inside = [v for v in victims
                      if v == seat or in_reach(t, seat, v, range_for_level(p.level))]
            if not inside:
                continue
            t.push(FortressChance(seat, user=user, ability=ab.name, target=inside[0],
                                  params=params, area=target is None))
            return True
        return False

    def sync(self, layer: Dungeonopoly, t: Txn) -> None:
        """Genesis: dispelled demiplanes collapse. Modify Memory ends when its enchantment is gone (dispelled, leeched) or the psion no
        longer holds the lot; the lot goes back to its first owner when she can take it."""
        if dungeon(t):
            genesis.sync(layer, t)
        for loan in loans(t):
            victim = character(t, loan.owner)
            e = victim.enchanted("modify_memory")
            held = t.squares[loan.lot].owner == t.side(loan.psion)
            if victim.bankrupt or t.players[loan.psion].bankrupt or not held:
                end_loan(layer, t, loan.lot, give_back=False)
            elif e is None or e.source != loan.psion:
                end_loan(layer, t, loan.lot, give_back=True)

    def player_json(self, layer: Dungeonopoly, state: GameState, seat: int) -> dict[str, Any]:
        p = character(state, seat)
        if not is_psion(p):
            return {}
        return {"pp": pp_left(p), "pp_max": p.level}

    def bot_hint(self, state: GameState, actions: Sequence[Action]) -> Action | None:
        return psion_bot_hint(state, actions)


def psion_bot_hint(state: GameState, actions: Sequence[Action]) -> Action | None:
    head = state.pending[0] if state.pending else None
    if isinstance(head, OweChoice):
        uses = [a for a in actions if isinstance(a, UseAbility) and a.player == head.player]
        if head.amount >= 60 and uses:
            return uses[-1]
        return next((a for a in actions if isinstance(a, Pass) and a.player == head.player),
                    None)
    if isinstance(head, FortressChance):
        mine = [a for a in actions if a.player == head.player]
        harmful = head.target == head.player or head.ability in (
            "magic_missile", "far_shot", "holy_smite", "eldritch_blast", "mind_thrust",
            "psychic_crush", "charm_person", "ego_whip", "modify_memory")
        if harmful and head.target == head.player:
            return next((a for a in mine if isinstance(a, UseAbility)), None)
        return next((a for a in mine if isinstance(a, Pass)), None)
    if isinstance(head, RecallRoll):
        return None
    if head is not None:
        return None
    uses = [a for a in actions if isinstance(a, UseAbility) and a.player == state.current]
    p = character(state, state.current) if uses else None
    if p is None or not is_psion(p):
        return None
    order = ("psychic_crush", "modify_memory", "id_insinuation", "ego_whip", "thought_leech",
             "mind_thrust")
    for name in order:
        cands = [a for a in uses if a.ability == name]
        if not cands:
            continue
        if name == "mind_thrust":
            keep = 2 if knows(p, "empty_mind") else 0
            cands = [a for a in cands if int(a.param("pp") or 0) + int(a.param("augment") or 0)
                     <= max(1, pp_left(p) - keep)]
            if not cands:
                continue
            return max(cands, key=lambda a: int(a.param("pp") or 0))
        return cands[0]
    return None


register_effect(PsionEffects())

PSION = register_class(CharacterClass("psion", (
    MindThrust("mind_thrust", 1, "ability",
               frozenset({"power", "damage", "mental", "targeted", "limited_range"}),
               summary="mental damage by PP spent: $10 for 1 PP ... $550 for 10", ranged=True),
    EmptyMind("empty_mind", 2, "ability", frozenset({"power", "defensive", "reaction"}),
              summary="owing money: spend PP to owe the table's figure less"),
    MentalEnchantment("ego_whip", 3, "ability",
                      frozenset({"power", "enchantment", "mental", "targeted",
                                 "limited_range"}),
                      summary="dazed: her next movement roll is forfeit (2 PP)", pp_cost=2,
                      ranged=True),
    ModifyMemory("modify_memory", 4, "ability",
                 frozenset({"power", "enchantment", "mental", "targeted", "limited_range"}),
                 summary="take an opponent's cheapest lot until she remembers (2 PP)",
                 pp_cost=2, ranged=True),
    ThoughtLeech("thought_leech", 5, "ability",
                 frozenset({"power", "targeted", "limited_range"}),
                 summary="move an opponent's enchantments onto yourself (3 PP each)",
                 pp_cost=0, ranged=True),
    MentalEnchantment("id_insinuation", 6, "ability",
                      frozenset({"power", "enchantment", "mental", "targeted",
                                 "limited_range"}),
                      summary="confused: her next movement roll goes backwards (3 PP)",
                      pp_cost=3, ranged=True),
    Genesis("genesis", 7, "ability", frozenset({"power", "enchantment", "limited_range"}), 40,
            summary="a demiplane card square between two squares (4 PP + $40)", pp_cost=4,
            ranged=True),
    PsionicBlast("psionic_blast", 8, "ability", frozenset({"power", "area", "movement",
                                                           "limited_range"}),
                 summary="throw every opponent in range just beyond it (4 PP)", pp_cost=4,
                 ranged=True),
    IntellectFortress("intellect_fortress", 9, "ability",
                      frozenset({"power", "defensive", "reaction", "limited_range"}),
                      summary="an ability about to hit someone in range misses (5 PP)",
                      pp_cost=5),
    PsychicCrush("psychic_crush", 10, "ability", frozenset({"power", "mental", "targeted"}),
                 summary="send an opponent anywhere back to GO, unpaid (5 PP)", pp_cost=5),
), "manipulates her enemies with mental energy paid for in power points"))
