"""Druid (rule source: Dungeonopoly, "Druid abilities", levels 1-10).

Levelling choices (``choose primal NAME`` at levels 1, 4 and 7; ``choose form NAME`` at 3, 6
and 9) are offered as legal actions when due and kept in ``Character.choices``. The current
Wild Shape form is the counter ``form`` (0 humanoid, 1 bear, 2 eagle, 3 wolf). The effects of
the enchanted squares live in ``primal.py`` and in ``DruidEffect`` below. Rulings:
docs/dungeonopoly/rulings.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from companion.games.monopoly.actions import Action
from companion.games.monopoly.dungeonopoly import primal
from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    CharacterClass,
    Choose,
    Params,
    Pass,
    UseAbility,
    int_param,
    knows,
    opponents,
    param,
    register_class,
)
from companion.games.monopoly.dungeonopoly.character import Enchantment, SquareEnchantment
from companion.games.monopoly.dungeonopoly.effects import TableEffect, register_effect
from companion.games.monopoly.dungeonopoly.steps import Decision
from companion.games.monopoly.dungeonopoly.table import DungeonTable
from companion.games.monopoly.dungeonopoly.terms import (
    BOARD_SIZE,
    RING,
    Table,
    character,
    dungeon,
    in_range,
    on_square,
    place,
    sheltered,
    square_enchanted,
    square_in_range,
    standing_on,
    target_problem,
    together,
    walk_to,
    with_square_enchantment,
)
from companion.games.monopoly.engine import LandContext, RollSpec
from companion.games.monopoly.state import BANK, GameState
from companion.games.monopoly.walk import ResumeMove

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.txn import Txn

FORMS = ("humanoid", "bear", "eagle", "wolf")
ANIMALS = FORMS[1:]
PRIMAL_AT = (1, 4, 7)  # levels at which a primal spell is learned
FORMS_AT = (3, 6, 9)
BARKSKIN_PER_LEVEL = 25
DOOM_HOUSE = 40
DOOM_HOTEL = 115
MAX_BOLTS = 7
BOLT_KINDS = ("damage", "house", "mortgage")


def form_of(table: Table, seat: int) -> str:
    n = character(table, seat).counter("form")
    return FORMS[n] if 0 <= n < len(FORMS) else "humanoid"


def _due(level: int, at: tuple[int, ...]) -> int:
    return sum(1 for lvl in at if level >= lvl)


# ============================================================================================
# Level 1: Primal Enchantment
# ============================================================================================
@dataclass(frozen=True)
class PrimalEnchantment(Ability):
    """Holds the choice of primal spells (one at level 1, a second at 4, a third at 7); the
    spells themselves are the six abilities below. Automatic; no EP."""

    awards_ep = False

    def choices_due(self, layer: Dungeonopoly, table: Table,
                    holder: int) -> Iterable[tuple[str, tuple[str, ...]]]:
        p = character(table, holder)
        if "druid" not in p.role.split("+"):
            return ()
        have = p.chosen("primal")
        if len(have) >= _due(p.level, PRIMAL_AT):
            return ()
        return (("primal", tuple(s for s in primal.PRIMAL_SPELLS if s not in have)),)


@dataclass(frozen=True)
class PrimalSpell(Ability):
    """Enchant your current square with this primal spell; it leaves any square it was on."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        if "druid" in p.role.split("+") and self.name not in p.chosen("primal"):
            return f"{self.name.replace('_', ' ')} is not one of your primal spells"
        pos = p.position
        if standing_on(table, user) is None:
            return "you stand on no board square (a demiplane or a jail cell)"
        if self.name != "antimagic_field" and \
                square_enchanted(table, pos, "antimagic_field") is not None:
            return "an Antimagic Field keeps enchantments off this square"
        mine = square_enchanted(table, pos, self.name)
        if mine is not None and mine.source == user:
            return f"this square already holds your {self.name.replace('_', ' ')}"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        pos = t.players[user].position
        for old in primal.primal_squares(dungeon(t), self.name):
            if old.enchantment.source == user and old.square != pos:
                t.emit("square_dispelled", user, square=old.square, detail=self.name)
        t.table = primal.moved_primal(dungeon(t), user, self.name)
        before = t.table
        layer.enchant_square(t, pos, Enchantment(self.name, user, character(t, user).level))
        return bool(t.table != before)


# ============================================================================================
# Level 2: Barkskin
# ============================================================================================
@dataclass(frozen=True)
class Barkskin(Ability):
    """The next sum she owes (not a voluntary purchase) is $25 per level smaller, to at least
    $1. Does not stack."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if character(table, user).enchanted("barkskin") is not None:
            return "Barkskin is already active (it does not stack)"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        before = character(t, user).enchantments
        layer.enchant(t, user, Enchantment("barkskin", user, character(t, user).level))
        return character(t, user).enchantments != before


VOLUNTARY = ("auction", "bought", "building on", "unmortgaged", "casting cost")


def barkskin_discount(amount: int, level: int) -> int:
    """What is still owed under Barkskin: $25 less per level, never below $1."""
    return max(1, amount - BARKSKIN_PER_LEVEL * level)


# ============================================================================================
# Level 3, 6, 9: Wild Shape, Maul, Scent
# ============================================================================================
@dataclass(frozen=True)
class WildShape(Ability):
    """Once per turn, before or after moving, shift into a mastered animal form or back to
    humanoid (no EP). Forms are chosen at levels 3, 6 and 9."""

    awards_ep = False

    def choices_due(self, layer: Dungeonopoly, table: Table,
                    holder: int) -> Iterable[tuple[str, tuple[str, ...]]]:
        p = character(table, holder)
        have = p.chosen("form")
        want = _due(p.level, FORMS_AT) if "druid" in p.role.split("+") else 1
        if len(have) >= want:
            return ()
        return (("form", tuple(f for f in ANIMALS if f not in have)),)

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for form in FORMS:
            yield None, (("form", form),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        if p.has_flag("shifted"):
            return "one shift per turn"
        form = param(params, "form")
        if form not in FORMS:
            return f"say which form: form={'|'.join(FORMS)}"
        if form != "humanoid" and form not in p.chosen("form"):
            return f"you have not mastered the {form} form"
        if form == form_of(table, user):
            return f"you are already in {form} form"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, "shifted")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        form = param(params, "form")
        p = character(t, user)
        t.set_player(user, counters=p.with_counter("form", FORMS.index(form)))
        t.emit("shifted", user, detail=form)
        return True


@dataclass(frozen=True)
class Maul(Ability):
    """Bear form: damage an opponent on your square at double rate ($40 per level), before or
    after moving; once per opponent per turn."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if form_of(table, user) != "bear":
            return "only in bear form"
        if target is None:
            return "name the opponent"
        problem = target_problem(table, user, target, spell=False)
        if problem:
            return problem
        if not together(table, user, target):
            return "the opponent must be on your square"
        if character(table, user).has_flag(f"mauled:{target}"):
            return "each opponent can be mauled once per turn"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, f"mauled:{target}")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        return layer.damage(t, user, target, self.name, level=2 * character(t, user).level)


@dataclass(frozen=True)
class Scent(Ability):
    """Wolf form: once per turn, before or after moving, run to the square of an opponent
    within limited range (the short way round), passing and landing as usual."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if form_of(table, user) != "wolf":
            return "only in wolf form"
        p = character(table, user)
        if p.has_flag("scent"):
            return "Scent is once per turn"
        if target is None:
            return "name the opponent"
        problem = target_problem(table, user, target, spell=False)
        if problem:
            return problem
        other = table.players[target]
        if not in_range(table, user, target):
            return f"{other.name} is out of range"
        if together(table, user, target):
            return f"{other.name} is already on your square"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, "scent")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        steps = walk_to(t, user, target)  # onto her demiplane too, in the druid's world
        layer.move(t, user, steps, LandContext())
        return True


# ============================================================================================
# Level 5: Tree Stride
# ============================================================================================
@dataclass(frozen=True, slots=True)
class TreeStrideChoice(Decision):
    """The druid rolled doubles: Tree Stride to one of her lots, or pass and move normally."""

    dice: tuple[int, ...] = ()

    def use_params(self) -> Params:
        return (("dice", " ".join(map(str, self.dice))),)

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        out: list[Action] = []
        ab = knows(character(state, self.player), "tree_stride")
        if ab is not None:
            for target, params in ab.candidates(layer, state, self.player):
                if layer.use_problem(state, self.player, ab, target, params) is None:
                    out.append(UseAbility(self.player, "tree_stride", target, params))
        out.append(Pass(self.player))
        return out

    def decline(self, layer: Dungeonopoly, t: Txn) -> None:
        layer.movement_roll(t, self.player, self.dice)
        if t.players[self.player].in_jail or t.players[self.player].bankrupt:
            t.roll_again = False


@dataclass(frozen=True)
class TreeStride(Ability):
    """On rolling doubles (not a third), discard the roll and step to one of your own lots:
    no passing, but landing; no doubles EP, no roll again."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        head = table.pending[0] if table.pending else None
        if not isinstance(head, TreeStrideChoice) or head.player != user:
            return "only just after rolling doubles for movement"
        return None

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for i, s in enumerate(table.squares):
            if s.owner == table.side(user):
                yield None, (("square", str(i)),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        sq = int_param(params, "square")
        if sq is None or not 0 <= sq < len(table.squares):
            return "say where: square=N (one of your lots)"
        if table.squares[sq].owner != table.side(user):
            return "only to one of your own lots"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        # the roll is discarded as soon as the druid chooses to stride (even if countered)
        t.rolled = True
        t.roll_again = False

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        sq = int_param(params, "square")
        assert sq is not None
        dice = tuple(int(d) for d in param(params, "dice").split() if d.isdigit())
        if dice:
            t.last_dice = dice
        start = t.players[user].position
        t.set_player(user, position=sq)
        t.emit("moved", user, square=sq, amount=0, detail=f"from {start} (tree stride)")
        layer.add_flag(t, user, "moved")
        layer.arrive(t, user, sq, LandContext(dice_total=sum(dice)), forward=True)
        return True


# ============================================================================================
# Level 8: Call Lightning
# ============================================================================================
def parse_bolts(table: Table, text: str) -> list[tuple[int, str, int | None]] | str:
    """``SQ:KIND[:SEAT or NAME],...`` -> [(square, kind, seat)], or a message."""
    out: list[tuple[int, str, int | None]] = []
    for item in filter(None, text.split(",")):
        parts = item.split(":")
        if len(parts) not in (2, 3) or not parts[0].lstrip("-").isdigit():
            return f"a bolt is SQUARE:KIND[:TARGET], not {item!r}"
        sq, kind = int(parts[0]), parts[1]
        if kind not in BOLT_KINDS:
            return f"a bolt does {'|'.join(BOLT_KINDS)}, not {kind!r}"
        who: int | None = None
        if len(parts) == 3:
            if parts[2].isdigit():
                who = int(parts[2])
            else:
                names = [p.name.lower() for p in table.players]
                if parts[2].lower() not in names:
                    return f"no player named {parts[2]!r}"
                who = names.index(parts[2].lower())
        out.append((sq, kind, who))
    return out


@dataclass(frozen=True)
class CallLightning(Ability):
    """Up to seven bolts, each on a different square within limited range, each doing one of:
    damage an opponent there, knock a building off the lot, or mortgage the unimproved lot
    (no loan). A bolt that finds nothing to do has no effect."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        bolts = self.useful_bolts(layer, table, user)
        if bolts:
            yield None, (("bolts", ",".join(bolts[:MAX_BOLTS])),)

    def useful_bolts(self, layer: Dungeonopoly, table: Table, user: int) -> list[str]:
        p = character(table, user)
        out: list[str] = []
        reach = (p.level + 1) // 2
        if p.in_jail:
            return out
        for d in range(-reach, reach + 1):
            sq = RING.step(p.position, d)
            foes = [s for s in opponents(table, user) if on_square(table, s, sq)]
            s = table.squares[sq]
            if foes:
                out.append(f"{sq}:damage:{foes[0]}")
            elif s.owner is not None and not table.allied(s.owner, user) and s.level:
                out.append(f"{sq}:house")
            elif s.owner is not None and not table.allied(s.owner, user) and not s.mortgaged:
                out.append(f"{sq}:mortgage")
        return out

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        bolts = parse_bolts(table, param(params, "bolts"))
        if isinstance(bolts, str):
            return bolts
        if not bolts:
            return "aim at least one bolt: bolts=SQUARE:damage|house|mortgage[:TARGET],..."
        if len(bolts) > MAX_BOLTS:
            return f"at most {MAX_BOLTS} bolts"
        squares = [b[0] for b in bolts]
        if len(set(squares)) != len(squares):
            return "each bolt strikes a different square"
        for sq, _kind, who in bolts:
            if not 0 <= sq < BOARD_SIZE or not square_in_range(table, user, sq):
                return f"square {sq} is out of range"
            if who is not None and (not 0 <= who < len(table.players) or who == user):
                return "a bolt's target must be an opponent"
        return None

    def affected(self, layer: Dungeonopoly, table: Table, user: int,
                 params: Params) -> list[int]:
        bolts = parse_bolts(table, param(params, "bolts"))
        if isinstance(bolts, str):
            return []
        out: list[int] = []
        for sq, kind, who in bolts:
            foes = [o for o in opponents(table, user) if on_square(table, o, sq)]
            victim = who if who in foes else (foes[0] if foes and who is None else None)
            if kind == "damage" and victim is not None and victim not in out:
                out.append(victim)
        return out

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        bolts = parse_bolts(t, param(params, "bolts"))
        assert not isinstance(bolts, str)
        hit = False
        for sq, kind, who in bolts:
            hit = self.bolt(layer, t, user, sq, kind, who, params) or hit
        return hit

    def bolt(self, layer: Dungeonopoly, t: Txn, user: int, sq: int, kind: str,
             who: int | None, params: Params = ()) -> bool:
        s = t.squares[sq]
        if kind == "damage":
            foes = [o for o in opponents(t, user) if on_square(t, o, sq)
                    and not sheltered(params, o)]
            victim = who if who in foes else (foes[0] if foes and who is None else None)
            if victim is None:
                t.emit("bolt_wasted", user, square=sq, detail=kind)
                return False
            t.emit("bolt", user, square=sq, other=victim, detail=kind)
            return layer.damage(t, user, victim, self.name)
        if kind == "house":
            if not s.level:
                t.emit("bolt_wasted", user, square=sq, detail=kind)
                return False
            if square_enchanted(t, sq, "bless") is not None:
                t.emit("immune", user, square=sq, detail="bless")
                return False
            layer.remove_building(t, sq)  # a hotel: as many houses as the bank has
            t.emit("bolt", user, square=sq, other=s.owner, detail=kind)
            return True
        if s.owner is None or s.mortgaged or s.level or not layer.board.squares[sq].ownable:
            t.emit("bolt_wasted", user, square=sq, detail=kind)
            return False
        t.set_square(sq, mortgaged=True)
        t.emit("bolt", user, square=sq, other=s.owner, detail=kind)
        return True


# ============================================================================================
# Level 10: Creeping Doom
# ============================================================================================
def doom_repairs(layer: Dungeonopoly, table: Table, group: Sequence[int]) -> dict[int, int]:
    """What each owner pays for the set's buildings: $40 a house, $115 a hotel."""
    owed: dict[int, int] = {}
    for i in group:
        s = table.squares[i]
        if s.owner is None or not s.level:
            continue
        cost = DOOM_HOTEL if s.hotel else DOOM_HOUSE * s.houses
        owed[s.owner] = owed.get(s.owner, 0) + cost
    return owed


@dataclass(frozen=True)
class CreepingDoom(Ability):
    """Your current lot's whole set is infested: every opponent standing on one of its lots
    takes damage, then each owner pays the bank $40 per house and $115 per hotel on the set."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        pos, gap = place(table, user)
        if gap is not None or not layer.board.squares[pos].ownable:
            return "only on a property"
        return None

    def affected(self, layer: Dungeonopoly, table: Table, user: int,
                 params: Params) -> list[int]:
        group = layer.board.groups[layer.board.squares[table.players[user].position].group]
        return [s for s in opponents(table, user) if any(on_square(table, s, i) for i in group)]

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        sq = layer.board.squares[t.players[user].position]
        group = layer.board.groups[sq.group]
        hit = False
        for seat in list(opponents(t, user)):
            if any(on_square(t, seat, i) for i in group) and not sheltered(params, seat):
                hit = layer.damage(t, user, seat, self.name) or hit
        for owner, amount in sorted(doom_repairs(layer, t, group).items()):
            if t.players[owner].bankrupt:
                continue
            t.emit("repairs", owner, amount=amount, detail=self.name)
            t.charge(owner, BANK, amount, "creeping doom repairs")
            hit = True
        return hit


# ============================================================================================
# Table effect: enchanted squares, Barkskin, forms, Eagle dice, Tree Stride's offer
# ============================================================================================
@dataclass(frozen=True, slots=True)
class ThornsChoice(Decision):
    """Passing a Wall of Thorns: stop on the square, or take the damage and go on."""

    square: int = 0
    source: int = -1
    level: int = 1

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        return [Choose(self.player, "thorns", "stop"), Choose(self.player, "thorns", "damage")]

    def choose(self, layer: Dungeonopoly, t: Txn, what: str, option: str) -> None:
        from companion.core.errors import IllegalActionError

        if what != "thorns" or option not in ("stop", "damage"):
            raise IllegalActionError("at a Wall of Thorns: choose thorns stop|damage")
        t.emit("thorns", self.player, square=self.square, detail=option)
        if option == "damage":
            layer.damage(t, self.source, self.player, "wall_of_thorns", level=self.level)
            return
        resume = _take_resume(t, self.player)
        if resume is not None and resume.land and not t.players[self.player].in_jail:
            layer.arrive(t, self.player, self.square, resume.ctx, forward=resume.steps > 0)


def _take_resume(t: Txn, player: int) -> ResumeMove | None:
    for queue in (t.front, t.pending):
        for i, item in enumerate(queue):
            if isinstance(item, ResumeMove) and item.player == player:
                del queue[i]
                return item
    return None


class DruidEffect(TableEffect):
    roles = frozenset({"druid"})

    # --- damage, money ---------------------------------------------------------------------
    def damage_blocked(self, layer: Dungeonopoly, t: Txn, attacker: int,
                       defender: int) -> str | None:
        if primal.on_square(t, defender, primal.squares_with(dungeon(t), "hallow")):
            return "hallow"
        return None

    def adjust_charge(self, layer: Dungeonopoly, t: Txn, debtor: int, creditor: int,
                      amount: int, reason: str) -> int:
        if amount <= 0 or debtor < 0 or any(v in reason for v in VOLUNTARY):
            return amount
        p = character(t, debtor)
        bark = p.enchanted("barkskin")
        if bark is None:
            return amount
        t.set_player(debtor, enchantments=p.without_enchantment("barkskin"))
        left = barkskin_discount(amount, layer.ench_level(t, bark))
        t.emit("barkskin", debtor, amount=amount - left, detail=reason)
        return left

    # --- enchantments and abilities ----------------------------------------------------------
    def may_enchant(self, layer: Dungeonopoly, t: Txn, seat: int, ench: Enchantment) -> bool:
        if primal.on_square(t, seat, primal.squares_with(dungeon(t), "antimagic_field")):
            t.emit("suppressed", seat, detail=f"antimagic_field:{ench.name}")
            return False
        return True

    def may_enchant_square(self, layer: Dungeonopoly, t: Txn, square: int,
                           ench: Enchantment) -> bool:
        if ench.name != "antimagic_field" and \
                square_enchanted(t, square, "antimagic_field") is not None:
            t.emit("suppressed", ench.source, square=square, detail=f"antimagic_field:{ench.name}")
            return False
        return True

    def use_problem(self, layer: Dungeonopoly, table: Table, user: int,
                    ab: Ability) -> str | None:
        found = dungeon(table)
        if primal.has_primal(found):
            if primal.on_square(table, user, primal.squares_with(found, "insect_plague")):
                return "an Insect Plague on this square stops all abilities"
            if ab.is_spell and primal.on_square(table, user,
                                                primal.squares_with(found, "antimagic_field")):
                return "no spells inside an Antimagic Field"
        if ab.is_spell and character(table, user).counter("form"):
            return "no spells in animal form: shift back to humanoid first"
        return None

    # --- dice ------------------------------------------------------------------------------
    def movement_sides(self, layer: Dungeonopoly, state: Table, player: int,
                       sides: tuple[int, ...]) -> tuple[int, ...]:
        if form_of(state, player) == "eagle" and not character(state, player).has_flag("sneak"):
            return sides + (6,)
        return sides

    def movement_dice(self, layer: Dungeonopoly, t: Txn, player: int,
                      dice: tuple[int, ...]) -> tuple[int, ...]:
        if form_of(t, player) == "eagle" and len(dice) >= 2 and \
                not character(t, player).has_flag("sneak"):
            return eagle_keep(dice)
        return dice

    def intercept_movement_roll(self, layer: Dungeonopoly, t: Txn, spec: RollSpec,
                                dice: tuple[int, ...]) -> bool:
        p = character(t, spec.player)
        ab = knows(p, "tree_stride")
        if ab is None or "tree_stride" in p.spent or p.has_flag("spell") or p.counter("form"):
            return False
        kept = eagle_keep(dice) if form_of(t, spec.player) == "eagle" else dice
        if p.enchanted("slow") is not None or len(kept) < 2 or kept[0] != kept[1]:
            return False
        if t.doubles >= 2 or not any(s.owner == t.side(spec.player) for s in t.squares):
            return False  # never on the way to jail (third doubles)
        t.push(TreeStrideChoice(spec.player, dice))
        return True

    # --- movement ----------------------------------------------------------------------------
    def moves_here(self, layer: Dungeonopoly, t: Txn, mover: int) -> bool:
        for e in dungeon(t).enchantments:
            if e.enchantment.source != mover and \
                    e.enchantment.name in ("entangle", "wall_of_thorns"):
                return True
        return False

    def enter_square(self, layer: Dungeonopoly, t: Txn, mover: int, index: int, came_from: int,
                     remaining: int, land: bool) -> int:
        for e in primal_at(dungeon(t), index):
            if e.source == mover:
                continue
            if e.name == "entangle" and remaining > 0:
                t.emit("entangled", mover, square=index, amount=min(primal.ENTANGLE_COST,
                                                                    remaining))
                remaining = max(0, remaining - primal.ENTANGLE_COST)
            elif e.name == "wall_of_thorns" and (remaining > 0 or not land):
                t.push(ThornsChoice(mover, index, e.source, layer.ench_level(t, e)))
        return remaining

    # --- bookkeeping -------------------------------------------------------------------------
    def sync(self, layer: Dungeonopoly, t: Txn) -> None:
        """Obscuring Mist hides whoever stands in it (not under Glitterdust); an Antimagic
        Field sets aside the enchantments of its square and of the characters on it."""
        mist = primal.squares_with(dungeon(t), "obscuring_mist")
        for seat in range(len(t.players)):
            c = character(t, seat)
            want = 1 if primal.on_square(t, seat, mist) and c.enchanted("glitterdust") is None \
                else 0
            if c.counter("obscured") != want:
                t.set_player(seat, counters=c.with_counter("obscured", want))
        found = dungeon(t)
        field = primal.squares_with(found, "antimagic_field")
        if not field and not found.suppressed:
            return
        kept: list[primal.Suppressed] = []
        back: list[primal.Suppressed] = []
        for e in found.suppressed:
            inside = e.square in field if e.seat < 0 else primal.on_square(t, e.seat, field)
            (kept if inside else back).append(e)
        squares: list[SquareEnchantment] = []
        for se in found.enchantments:
            if se.square in field and se.enchantment.name != "antimagic_field":
                kept.append(primal.Suppressed(-1, se.square, se.enchantment))
            else:
                squares.append(se)
        for seat in range(len(t.players)):
            c = character(t, seat)
            if c.enchantments and primal.on_square(t, seat, field):
                kept += [primal.Suppressed(seat, c.position, e) for e in c.enchantments]
                t.set_player(seat, enchantments=())
        new = replace(found, enchantments=tuple(squares), suppressed=tuple(kept))
        for s in back:
            if s.seat < 0:
                new = with_square_enchantment(new, s.square, s.enchantment)
            elif not t.players[s.seat].bankrupt:
                c = character(t, s.seat)
                t.set_player(s.seat, enchantments=c.with_enchantment(s.enchantment))
        if new != found:
            t.table = new

    def player_json(self, layer: Dungeonopoly, state: GameState, seat: int) -> dict[str, Any]:
        p = character(state, seat)
        out: dict[str, Any] = {}
        if knows(p, "wild_shape") is not None:
            out["form"] = form_of(state, seat)
        held = [e.enchantment.label() for e in dungeon(state).suppressed if e.seat == seat]
        if held:
            out["suppressed"] = held
        return out

    def bot_hint(self, state: GameState, actions: Sequence[Action]) -> Action | None:
        return druid_bot(state, actions)


def eagle_keep(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Eagle form: drop the lowest die (the first lowest), keep the others in order."""
    low = dice.index(min(dice))
    return dice[:low] + dice[low + 1:]


def primal_at(found: DungeonTable, index: int) -> list[Enchantment]:
    return [e.enchantment for e in found.enchantments
            if e.square == index and e.enchantment.name in primal.PRIMAL_SPELLS]


def druid_bot(state: GameState, actions: Sequence[Action]) -> Action | None:
    """A simple druid policy: make due choices, keep Barkskin up, Maul, Creeping Doom on
    others' built sets, Mist on herself after moving, lightning at opponents."""
    head = state.pending[0] if state.pending else None
    if isinstance(head, ThornsChoice):
        p = character(state, head.player)
        want = "damage" if p.cash > 20 * 10 + 100 else "stop"
        return next((a for a in actions if isinstance(a, Choose) and a.option == want), None)
    if isinstance(head, TreeStrideChoice):
        return next((a for a in actions if isinstance(a, Pass)), None)
    if head is not None:
        return None
    cur = state.current
    p = character(state, cur)
    if "druid" not in p.role.split("+"):
        return None
    mine = [a for a in actions if a.player == cur]
    for a in mine:
        if isinstance(a, Choose) and a.what in ("primal", "form"):
            prefer = ("obscuring_mist", "entangle", "hallow", "eagle", "bear")
            best = [b for b in mine if isinstance(b, Choose) and b.what == a.what
                    and b.option in prefer]
            return min(best, key=lambda b: prefer.index(b.option)) if best else a
    uses = [a for a in mine if isinstance(a, UseAbility)]
    by = {a.ability: a for a in uses}
    for name in ("maul", "barkskin", "call_lightning"):
        if name in by:
            return by[name]
    if "creeping_doom" in by:
        sq = state.squares[p.position]
        if sq.owner is not None and not state.allied(sq.owner, cur):
            return by["creeping_doom"]
    if state.rolled and not state.roll_again:
        for name in ("obscuring_mist", "hallow"):
            if name in by:
                return by[name]
        if "entangle" in by and state.squares[p.position].owner == state.side(cur):
            return by["entangle"]
    if not state.rolled and not p.has_flag("acted"):
        for a in uses:  # fly to the next roll in eagle form, if mastered
            if a.ability == "wild_shape" and param(a.params, "form") == "eagle":
                return a
    return None


DRUID = register_class(CharacterClass("druid", (
    PrimalEnchantment("primal_enchantment", 1, "automatic", frozenset({"enchantment"}),
                      summary="learn primal spells that enchant squares (1 at level 1, 2 at 4, "
                              "3 at 7)"),
    PrimalSpell("entangle", 1, "spell", frozenset({"enchantment", "movement"}),
                summary="your square costs others two extra squares of movement to pass"),
    PrimalSpell("obscuring_mist", 1, "spell", frozenset({"enchantment"}),
                summary="characters on your square are hidden"),
    PrimalSpell("hallow", 1, "spell", frozenset({"enchantment"}),
                summary="characters on your square take no damage"),
    PrimalSpell("insect_plague", 1, "spell", frozenset({"enchantment"}),
                summary="characters on your square cannot use abilities"),
    PrimalSpell("wall_of_thorns", 1, "spell", frozenset({"enchantment", "damage"}),
                summary="others passing your square stop there or take damage"),
    PrimalSpell("antimagic_field", 1, "spell", frozenset({"enchantment"}),
                summary="no enchantments or spells on your square; active ones are suppressed"),
    Barkskin("barkskin", 2, "spell", frozenset({"enchantment"}),
             summary="the next sum you owe is $25 per level smaller (at least $1)"),
    WildShape("wild_shape", 3, "ability", frozenset({"once_per_turn"}),
              summary="shift into a mastered animal form or back (once a turn, no EP)"),
    Maul("maul", 3, "ability", frozenset({"damage", "targeted"}),
         summary="bear form: double damage to an opponent on your square"),
    Scent("scent", 3, "ability", frozenset({"targeted", "limited_range", "movement"}),
          summary="wolf form: run to an opponent's square within range"),
    TreeStride("tree_stride", 5, "spell", frozenset({"movement"}),
               summary="on doubles: discard the roll and step onto one of your lots"),
    CallLightning("call_lightning", 8, "spell", frozenset({"damage", "limited_range", "area"}),
                  summary="up to 7 bolts on squares in range: damage, a house, or a mortgage"),
    CreepingDoom("creeping_doom", 10, "spell", frozenset({"damage", "area"}),
                 summary="damage opponents on your set; owners pay $40/house, $115/hotel"),
), "a primal avatar: enchanted squares, animal forms, storms and swarms"))

DRUID_EFFECT = register_effect(DruidEffect())

__all__ = ["DRUID", "DRUID_EFFECT", "barkskin_discount", "doom_repairs", "eagle_keep"]
