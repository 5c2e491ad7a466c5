"""Fighter (rule source: Dungeonopoly, "Fighter abilities", levels 1-10)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    CharacterClass,
    Params,
    int_param,
    opponents,
    register_class,
)
from companion.games.monopoly.dungeonopoly.terms import (
    Table,
    character,
    in_sight,
    square_enchanted,
    target_problem,
    together,
)
from companion.games.monopoly.engine import LandContext

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.txn import Txn


def _attack_problem(table: Table, user: int, target: int | None) -> str | None:
    if target is None:
        return "name the opponent"
    problem = target_problem(table, user, target, spell=False)
    if problem:
        return problem
    if character(table, user).has_flag(f"attacked:{target}"):
        return "each opponent can be attacked once per turn"
    return None


@dataclass(frozen=True)
class Attack(Ability):
    """Damage an opponent on your own square, before or after moving."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        problem = _attack_problem(table, user, target)
        if problem or target is None:
            return problem
        if not together(table, user, target):
            return "the opponent must be on your square"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, f"attacked:{target}")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        return layer.damage(t, user, target, self.name)


@dataclass(frozen=True)
class Run(Ability):
    """Before the first movement roll: an extra d6 on that roll; no other abilities this turn."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        problem = layer.before_roll_problem(table, user)
        if problem:
            return problem
        if table.rolled:
            return "only before the first movement roll of the turn"
        if character(table, user).has_flag("acted"):
            return "Run must be your only class ability this turn"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        layer.add_flag(t, user, "ran", "run_die")
        return True


@dataclass(frozen=True)
class FarShot(Ability):
    """Once per turn: damage an opponent at least one square away in line of sight; a d20 of
    2 x level or less hits (10% per level)."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        if p.has_flag("far_shot"):
            return "Far Shot is once per turn"
        if p.has_flag("abundant_step") and not p.has_flag("walked"):
            return "after Abundant Step, Far Shot needs a normal move earlier this turn"
        if p.in_jail:
            return "no Far Shot from jail"
        if target is None:
            return "name the opponent"
        problem = target_problem(table, user, target, spell=False)
        if problem:
            return problem
        other = table.players[target]
        if other.in_jail:
            return f"{other.name} is in jail"
        if together(table, user, target):
            return "Far Shot needs the opponent at least one square away"
        if not in_sight(table, user, target):
            return f"{other.name} is not in line of sight (same edge of the board)"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, "far_shot")

    def check_target(self, layer: Dungeonopoly, table: Table, user: int) -> int:
        return 2 * character(table, user).level

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if t.players[target].bankrupt or t.players[target].in_jail:
            return False
        return layer.damage(t, user, target, self.name)

    def on_fail(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> None:
        t.emit("missed", user, other=target, detail=self.name)


@dataclass(frozen=True)
class Intimidate(Ability):
    """When owing rent: a d20 of your level or less and the landlord waives it; otherwise pay."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        from companion.games.monopoly.dungeonopoly.steps import RentChoice

        head = table.pending[0] if table.pending else None
        if not isinstance(head, RentChoice) or head.player != user:
            return "only when you owe rent"
        return None

    def check_target(self, layer: Dungeonopoly, table: Table, user: int) -> int:
        return character(table, user).level

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        t.emit("rent_waived", user, square=int_param(params, "square"),
               other=int_param(params, "owner"), amount=int_param(params, "amount") or 0,
               detail=self.name)
        return True

    def on_fail(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> None:
        owner, square, amount = (int_param(params, k) for k in ("owner", "square", "amount"))
        if owner is None or square is None or amount is None:
            raise AssertionError("intimidate lost its rent")
        if not t.players[owner].bankrupt:
            layer.charge_rent(t, user, owner, square, amount)


@dataclass(frozen=True)
class CombatReflexes(Ability):
    """Attack an opponent passed while moving this turn (not one in jail)."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        p = character(table, user)
        for seat in opponents(table, user):
            if p.has_flag(f"passed:{seat}"):
                yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        problem = _attack_problem(table, user, target)
        if problem or target is None:
            return problem
        if not character(table, user).has_flag(f"passed:{target}"):
            return "you did not pass that opponent while moving this turn"
        if table.players[target].in_jail:
            return "someone in jail is safe from Combat Reflexes"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, f"attacked:{target}")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        return layer.damage(t, user, target, self.name)


@dataclass(frozen=True)
class Raze(Ability):
    """Landing on an opponent's street with houses knocks one house down (hotels and blessed
    lots are immune). Happens by itself, after the rent."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        return "Raze happens by itself when you land"

    def on_land(self, layer: Dungeonopoly, t: Txn, holder: int, index: int,
                ctx: LandContext) -> None:
        s = t.squares[index]
        p = character(t, holder)
        if s.owner is None or t.allied(s.owner, holder) or s.hotel or s.houses == 0 or \
                p.has_flag("ran"):
            return
        if square_enchanted(t, index, "bless") is not None:
            t.emit("immune", holder, square=index, detail="bless")
            return
        layer.remove_building(t, index)
        t.emit("razed", holder, square=index, other=s.owner)
        t.emit("ability_success", holder, detail=self.name)


@dataclass(frozen=True)
class Fortify(Ability):
    """Landing on your own unmortgaged street: add a free house (up to four, never a hotel). The
    lot must have been hers when she landed: not bought, won at auction, conquered or traded for
    after the landing (the layer's ``gained:`` turn flag, D-73)."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        pos = p.position
        if not p.has_flag(f"landed:{pos}"):
            return "only on the lot you landed on this turn"
        sq = layer.board.squares[pos]
        s = table.squares[pos]
        if not sq.is_street or s.owner != table.side(user):
            return "only on a street you own"
        if s.mortgaged:
            return "mortgaged lots cannot be fortified"
        if p.has_flag(f"bought:{pos}"):
            return "not on a lot bought this turn"
        if p.has_flag(f"gained:{pos}"):
            return "only on a lot that was yours when you landed (not one taken since)"
        if p.has_flag(f"fortified:{pos}"):
            return "one house per landing"
        if s.hotel or s.houses >= min(4, table.options.max_houses):
            return "Fortify stops at four houses"
        if table.bank_houses < 1:
            return "the bank has no houses left"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, f"fortified:{t.players[user].position}")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        pos = t.players[user].position
        layer.add_building(t, pos)
        t.emit("fortified", user, square=pos)
        return True


@dataclass(frozen=True)
class Conquer(Ability):
    """Landing on an opponent's mortgaged lot: take the title (then lift the mortgage at 110%
    or pay the 10% fee and keep it mortgaged)."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        pos = p.position
        if not p.has_flag(f"landed:{pos}"):
            return "only on the lot you landed on this turn"
        s = table.squares[pos]
        if s.owner is None or table.allied(s.owner, user):
            return "only an opponent's lot"
        if not s.mortgaged:
            return "only a mortgaged lot"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        pos = t.players[user].position
        old = t.squares[pos].owner
        t.emit("conquered", user, square=pos, other=old)
        layer.give_lot(t, pos, user)
        return True


@dataclass(frozen=True)
class Veteran(Ability):
    """Takes half damage. Automatic; no EP."""

    awards_ep = False

    def modify_damage(self, layer: Dungeonopoly, t: Txn, holder: int, amount: int) -> int:
        return amount // 2


@dataclass(frozen=True)
class AbundantStep(Ability):
    """Instead of a movement roll, step 1-4 squares forward: no passing, but landing. Single
    use."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        return layer.before_roll_problem(table, user)

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for n in range(1, 5):
            yield None, (("steps", str(n)),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        steps = int_param(params, "steps")
        if steps is None or not 1 <= steps <= 4:
            return "say how far: steps=1 to steps=4"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        steps = int_param(params, "steps") or 1
        t.rolled = True
        t.roll_again = False
        layer.drop_flag(t, user, "run_die")
        layer.add_flag(t, user, "abundant_step", "moved")
        layer.move(t, user, steps, LandContext(), land=True, count_passing=False)
        return True


FIGHTER = register_class(CharacterClass("fighter", (
    Attack("attack", 1, "ability", frozenset({"damage", "targeted"}),
           summary="damage an opponent on your square"),
    Run("run", 2, "ability", frozenset({"before_roll", "movement"}),
        summary="an extra d6 on the first movement roll; no other abilities this turn"),
    FarShot("far_shot", 3, "ability", frozenset({"damage", "targeted", "line_of_sight",
                                                 "check", "once_per_turn"}),
            summary="once a turn, a shot in line of sight; hits on 2 x level or less on a d20"),
    Intimidate("intimidate", 4, "ability", frozenset({"check", "reaction_to_rent"}),
               summary="owing rent: roll your level or less on a d20 and it is waived"),
    CombatReflexes("combat_reflexes", 5, "ability", frozenset({"damage", "targeted"}),
                   summary="attack an opponent you passed while moving"),
    Raze("raze", 6, "ability", frozenset({"triggered"}),
         summary="landing on an opponent's houses knocks one down"),
    Fortify("fortify", 7, "ability", frozenset(),
            summary="landing on your own street adds a free house (up to four)"),
    Conquer("conquer", 8, "ability", frozenset(),
            summary="landing on an opponent's mortgaged lot takes the title"),
    Veteran("veteran", 9, "automatic", frozenset(), summary="half damage"),
    AbundantStep("abundant_step", 10, "ability", frozenset({"single_use", "before_roll",
                                                            "movement"}),
                 summary="instead of rolling, step 1-4 squares without passing"),
), "deals damage, wrecks opponents' lots and strengthens her own"))
