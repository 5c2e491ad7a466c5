"""Rogue (rule source: Dungeonopoly, "Rogue abilities"): skills checked on a d20 against ranks.

Skill points: 30 at level 1 and 5 more per level gained, at most 15 ranks in a skill, spent
with ``TrainSkill`` actions (see the layer). EP only for a passed check.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    CharacterClass,
    Params,
    opponents,
    param,
    register_class,
)
from companion.games.monopoly.dungeonopoly.terms import Table, character, target_problem, together
from companion.games.monopoly.engine import LandContext
from companion.games.monopoly.state import BANK

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.txn import Txn


@dataclass(frozen=True)
class Skill(Ability):
    """A rogue skill: succeeds on a d20 roll of her ranks or less."""

    def check_target(self, layer: Dungeonopoly, table: Table, user: int) -> int:
        return character(table, user).ranks(self.name)


@dataclass(frozen=True)
class OpenLocks(Skill):
    """Leave jail without the fee (the turn she is jailed or at the start of a later turn), or,
    from Just Visiting, free someone else; one attempt per prisoner per turn."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat, p in enumerate(table.players):
            if p.in_jail and not p.bankrupt:
                yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        who = user if target is None else target
        if not 0 <= who < len(table.players) or table.players[who].bankrupt:
            return "no such prisoner"
        if p.has_flag(f"open_locks:{who}"):
            return "one attempt per prisoner each turn"
        if not table.players[who].in_jail:
            return f"{table.players[who].name} is not in jail"
        if who == user:
            if table.rolled and not p.has_flag("jailed"):
                return "only at the start of your turn or the turn you were jailed"
            return None
        if p.in_jail or p.position != layer.board.jail:
            return "free others only from the Just Visiting square"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, f"open_locks:{user if target is None else target}")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        who = user if target is None else target
        if not t.players[who].in_jail:
            return False
        layer.leave_jail(t, who, "open_locks", by=None if who == user else user)
        return True


@dataclass(frozen=True)
class PickPockets(Skill):
    """Take $20 per level (as much as she has) from a character on her square or one she snuck
    past this turn; a failed check sends the rogue to jail. One attempt per character a turn."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if target is None:
            return "name the opponent"
        problem = target_problem(table, user, target, spell=False)
        if problem:
            return problem
        p = character(table, user)
        if p.has_flag(f"pick_pockets:{target}"):
            return "one attempt per character each turn"
        if not (together(table, user, target) or p.has_flag(f"snuck:{target}")):
            return "only on the same square, or sneaking past"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, f"pick_pockets:{target}")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        amount = min(20 * character(t, user).level, t.players[target].cash)
        t.receive(user, amount, target, "pick pockets")
        return True

    def on_fail(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> None:
        layer.send_to_jail(t, user)


@dataclass(frozen=True)
class RobBank(Skill):
    """Collecting GO money: on a pass, $50 x level more ($100 x level when landing on GO); on a
    failure, no GO money at all and straight to jail."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        from companion.games.monopoly.dungeonopoly.steps import RobBankChoice

        head = table.pending[0] if table.pending else None
        if not isinstance(head, RobBankChoice) or head.player != user:
            return "only when collecting GO money"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        landed = param(params, "landed") == "1"
        layer.pay_go(t, user, landed)
        extra = (100 if landed else 50) * character(t, user).level
        t.receive(user, extra, BANK, "rob bank")
        return True

    def on_fail(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> None:
        t.emit("go_forfeit", user, detail=self.name)
        layer.send_to_jail(t, user)


@dataclass(frozen=True)
class Sneak(Skill):
    """Instead of a normal movement roll: on a passed check, move 1d6 (halved when slowed)
    without passing or landing, hidden until her next turn. A failed check: roll normally."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        problem = layer.before_roll_problem(table, user)
        if problem:
            return problem
        if character(table, user).has_flag("sneak"):
            return "already sneaking"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        layer.add_flag(t, user, "sneak")
        return True


@dataclass(frozen=True)
class Backstab(Ability):
    """Part of Sneak: damage an opponent snuck past this turn (one more EP)."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        p = character(table, user)
        for seat in opponents(table, user):
            if p.has_flag(f"snuck:{seat}"):
                yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if target is None:
            return "name the opponent"
        problem = target_problem(table, user, target, spell=False)
        if problem:
            return problem
        p = character(table, user)
        if not p.has_flag(f"snuck:{target}"):
            return "only an opponent you snuck past this turn"
        if p.has_flag(f"backstab:{target}"):
            return "once per opponent"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, f"backstab:{target}")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        return layer.damage(t, user, target, self.name)


@dataclass(frozen=True)
class ComeOutOfSneak(Ability):
    """After a sneaking move: stop hiding and land on the square with all its consequences."""

    awards_ep = False

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        if not p.has_flag("sneaking") or not p.hidden:
            return "only after sneaking, while still hidden"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        t.set_player(user, hidden=False)
        layer.drop_flag(t, user, "sneaking")
        pos = t.players[user].position
        layer.arrive(t, user, pos, LandContext(dice_total=sum(t.last_dice)))
        return False


@dataclass(frozen=True)
class Steal(Skill):
    """On an opponent's lot with a building: take 5% of its rent per level (rounded down) from
    the owner; on a failure, pay the rent if not paid yet, then go to jail."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        s = table.squares[p.position]
        if p.in_jail or s.owner is None or table.allied(s.owner, user) or not s.level:
            return "only on an opponent's lot with at least one house"
        if p.has_flag("steal"):
            return "one Steal per turn"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, "steal")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        from companion.games.monopoly.rent import base_rent

        pos = t.players[user].position
        owner = t.squares[pos].owner
        if owner is None or t.allied(owner, user) or t.players[owner].bankrupt:
            return False
        rent = layer.enchanted_rent(t, pos, base_rent(layer.board, t.squares, pos, 0))
        amount = rent * 5 * character(t, user).level // 100
        t.emit("stole", user, square=pos, other=owner, amount=amount)
        t.charge(owner, user, amount, "stolen by a rogue")
        return True

    def on_fail(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> None:
        pos = t.players[user].position
        if not character(t, user).has_flag(f"rent:{pos}"):
            layer.charge_rent_for_landing(t, user, pos)
        layer.send_to_jail(t, user)


ROGUE = register_class(CharacterClass("rogue", (
    OpenLocks("open_locks", 1, "skill", frozenset({"check"}),
              summary="leave jail free, or free a prisoner from Just Visiting"),
    PickPockets("pick_pockets", 1, "skill", frozenset({"check", "targeted"}),
                summary="take $20 per level from a character on your square; fail: jail"),
    RobBank("rob_bank", 1, "skill", frozenset({"check"}),
            summary="extra GO money ($50/level passing, $100/level landing); fail: jail"),
    Sneak("sneak", 1, "skill", frozenset({"check", "before_roll", "movement"}),
          summary="move 1d6 unseen (no passing or landing), hidden until your next turn"),
    Backstab("backstab", 1, "ability", frozenset({"damage", "targeted"}),
             summary="while sneaking, damage an opponent you pass"),
    ComeOutOfSneak("come_out_of_sneak", 1, "ability", frozenset(),
                   summary="stop hiding and land where you stand"),
    Steal("steal", 1, "skill", frozenset({"check"}),
          summary="take 5% of a built lot's rent per level from its owner; fail: rent, jail"),
), "steals what she needs to survive"))
