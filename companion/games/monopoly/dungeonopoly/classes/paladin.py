"""Paladin (rule source: Dungeonopoly, "Paladin abilities", levels 1-10).

Reach: the paladin's own square and the adjacent ones; two squares each way with Holy Sword
(level 10). Stances are chosen at levels 4 and 8 (``choose stance thicket_of_blades``) and kept
in ``Character.choices``; the active stance is the paladin's turn flag ``stance:NAME`` (it lasts
until her next turn starts). The mount is the counter ``mounted`` with ``mount_moves`` rolls
made so far; Heart of the Titan's reservoir is $500 less the counter ``titan_spent``. Rulings:
docs/dungeonopoly/rulings.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.monopoly.actions import Action
from companion.games.monopoly.dungeonopoly import effects
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
from companion.games.monopoly.dungeonopoly.effects import TableEffect, register_effect
from companion.games.monopoly.dungeonopoly.steps import Decision
from companion.games.monopoly.dungeonopoly.terms import (
    Table,
    character,
    in_sight,
    seat_distance,
    square_distance,
    target_problem,
)
from companion.games.monopoly.engine import LandContext
from companion.games.monopoly.pending import Auction
from companion.games.monopoly.state import GameState

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.txn import Txn

STANCES = ("thicket_of_blades", "bulwark_of_defense")
STANCES_AT = (4, 8)
MOUNT_DICE = (8, 10, 12)  # trot, canter, gallop (third and later moves)
RESERVOIR = 500
KNIGHT_STEPS = 3
VOLUNTARY = ("auction", "bought", "building on", "unmortgaged", "casting cost")


def reach_of(level: int) -> int:
    """Reach: the adjacent squares; two squares each way with Holy Sword (level 10)."""
    return 2 if level >= 10 else 1


def in_reach(table: Table, paladin: int, square: int, viewer: int | None = None,
             gap: int | None = None) -> bool:
    """Is the real square ``square`` (with ``gap``: the demiplane after square ``gap``) within
    the paladin's reach? Demiplanes count as squares (D-58) in ``viewer``'s world: the
    paladin's own by default; for a stance acting on a mover, the mover's (D-60)."""
    p = character(table, paladin)
    if p.bankrupt:
        return False
    d = square_distance(table, paladin if viewer is None else viewer, paladin, square, gap)
    return d is not None and d <= reach_of(p.level)


def within_reach(table: Table, paladin: int, other: int) -> bool:
    p = character(table, paladin)
    if p.bankrupt:
        return False
    d = seat_distance(table, paladin, paladin, other)
    return d is not None and d <= reach_of(p.level)


def stance_of(table: Table, seat: int) -> str | None:
    for f in character(table, seat).turn:
        if f.startswith("stance:"):
            return f[len("stance:"):]
    return None


def mounted(table: Table, seat: int) -> bool:
    return character(table, seat).counter("mounted") > 0


def reservoir(table: Table, seat: int) -> int:
    p = character(table, seat)
    if knows(p, "heart_of_the_titan") is None:
        return 0
    return max(0, RESERVOIR - p.counter("titan_spent"))


def unimproved_lots(layer: Dungeonopoly, table: Table, seat: int) -> list[int]:
    """Lots that could change hands now: owned, and no building anywhere in their group."""
    out = []
    for i, s in enumerate(table.squares):
        if s.owner != table.side(seat):  # team play: the team's lots
            continue
        sq = layer.board.squares[i]
        if sq.is_street and any(table.squares[j].level for j in layer.board.groups[sq.group]):
            continue
        out.append(i)
    return out


# ============================================================================================
# Level 1: Counter
# ============================================================================================
@dataclass(frozen=True, slots=True)
class CounterChoice(Decision):
    """The paladin took damage from an opponent within reach: counter, or pass."""

    attacker: int = -1

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        out: list[Action] = []
        ab = knows(character(state, self.player), "counter")
        if ab is not None and layer.use_problem(state, self.player, ab, self.attacker, ()) is None:
            out.append(UseAbility(self.player, "counter", self.attacker))
        out.append(Pass(self.player))
        return out

    def decline(self, layer: Dungeonopoly, t: Txn) -> None:
        t.emit("passed", self.player, detail="counter")


@dataclass(frozen=True)
class Counter(Ability):
    """Damaged by an opponent within reach: damage her back (not in answer to a Counter)."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        head = table.pending[0] if table.pending else None
        if not isinstance(head, CounterChoice) or head.player != user:
            return "only just after an opponent within reach damages you"
        return None

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        head = table.pending[0] if table.pending else None
        if isinstance(head, CounterChoice) and target != head.attacker:
            return "counter the opponent who damaged you"
        if target is None:
            return "name the attacker"
        return target_problem(table, user, target, spell=False)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        return layer.damage(t, user, target, self.name)


# ============================================================================================
# Level 2: Challenge
# ============================================================================================
@dataclass(frozen=True, slots=True)
class ChallengeAnte(Decision):
    """The challenged opponent antes one of her unimproved lots (``choose ante N``)."""

    paladin: int = -1
    paladin_lot: int = -1

    def options(self, layer: Dungeonopoly, table: Table) -> list[int]:
        return unimproved_lots(layer, table, self.player)

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        return [Choose(self.player, "ante", str(i)) for i in self.options(layer, state)]

    def choose(self, layer: Dungeonopoly, t: Txn, what: str, option: str) -> None:
        from companion.core.errors import IllegalActionError

        lots = self.options(layer, t)
        if what != "ante" or not option.isdigit() or int(option) not in lots:
            raise IllegalActionError(f"ante one of your unimproved lots: choose ante "
                                     f"{'|'.join(map(str, lots)) or '(none)'}")
        lot = int(option)
        t.emit("ante", self.player, square=lot, other=self.paladin)
        bidders = tuple(sorted((self.paladin, self.player)))
        t.push(PairAuction(-1, self.paladin_lot, bidders, lots=(self.paladin_lot, lot),
                           owners=(self.paladin, self.player)))


@dataclass(frozen=True, slots=True)
class PairAuction(Auction):
    """Challenge's duel: the two antes sold as a pair between the paladin and the challenged
    opponent only; the winner pays the loser and takes the loser's lot."""

    lots: tuple[int, ...] = ()
    owners: tuple[int, ...] = ()

    def close(self, layer: Dungeonopoly, t: Txn) -> None:
        winner = self.high_bidder
        if winner is None or t.players[winner].bankrupt:
            t.emit("duel_unsold", None, square=self.square)
            return
        loser = self.owners[1] if winner == self.owners[0] else self.owners[0]
        lot = self.lots[self.owners.index(loser)]
        won = self.lots[self.owners.index(winner)]
        t.emit("auction_won", winner, amount=self.high_bid, square=lot, detail="challenge")
        if not t.players[loser].bankrupt:
            t.charge(winner, loser, self.high_bid, "challenge duel")
        if t.squares[lot].owner == t.side(loser):
            layer.give_lot(t, lot, winner)
        t.emit("duel_won", winner, other=loser, square=won)


@dataclass(frozen=True)
class Challenge(Ability):
    """Single use: duel an opponent in line of sight; each antes an unimproved lot and the pair
    goes to an auction between the two of you (winner pays loser). No lot to ante: wasted."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        lots = unimproved_lots(layer, table, user)
        if not lots:
            return
        cheapest = min(lots, key=lambda i: layer.board.squares[i].price)
        for seat in opponents(table, user):
            yield seat, (("ante", str(cheapest)),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if target is None:
            return "name the opponent"
        problem = target_problem(table, user, target, spell=False)
        if problem:
            return problem
        if not in_sight(table, user, target):
            return f"{table.players[target].name} is not in line of sight"
        lot = int_param(params, "ante")
        if lot is None or lot not in unimproved_lots(layer, table, user):
            return "ante one of your unimproved lots: ante=N"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        lot = int_param(params, "ante")
        assert lot is not None
        if not unimproved_lots(layer, t, target):
            t.emit("challenge_wasted", user, other=target)
            return False
        t.emit("ante", user, square=lot, other=target)
        t.push(ChallengeAnte(target, user, lot))
        return True


# ============================================================================================
# Level 3: Celestial Mount
# ============================================================================================
@dataclass(frozen=True)
class CelestialMount(Ability):
    """Once per turn: summon and mount, or dismount and dismiss (EP either way). Mounted
    movement rolls 2d8, then 2d10, then 2d12; dismounting resets to 2d6."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        yield None, (("do", "dismount" if mounted(table, user) else "mount"),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        if p.has_flag("mount_toggled"):
            return "mount or dismount once per turn"
        do = param(params, "do") or ("dismount" if mounted(table, user) else "mount")
        if do not in ("mount", "dismount"):
            return "do=mount or do=dismount"
        if (do == "mount") == mounted(table, user):
            return f"you are {'already' if do == 'mount' else 'not'} mounted"
        return None

    def on_start(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                 params: Params) -> None:
        layer.add_flag(t, user, "mount_toggled")

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        p = character(t, user)
        up = not mounted(t, user)
        counters = p.with_counter("mounted", 1 if up else 0)
        t.set_player(user, counters=counters)
        t.set_player(user, counters=character(t, user).with_counter("mount_moves", 0))
        t.emit("mounted" if up else "dismounted", user)
        return True


def mount_sides(moves: int) -> int:
    return MOUNT_DICE[min(moves, len(MOUNT_DICE) - 1)]


# ============================================================================================
# Level 4 and 8: Fighting Stances
# ============================================================================================
@dataclass(frozen=True)
class FightingStance(Ability):
    """After moving, enter a mastered stance (not while mounted): it ends your turn and lasts
    until your next turn starts. Thicket of Blades: opponents moving through your reach take
    damage (once each). Bulwark of Defense: you cannot be moved, and each square in your reach
    costs opponents an extra square of movement to pass."""

    def choices_due(self, layer: Dungeonopoly, table: Table,
                    holder: int) -> Iterable[tuple[str, tuple[str, ...]]]:
        p = character(table, holder)
        have = p.chosen("stance")
        want = sum(1 for lvl in STANCES_AT if p.level >= lvl) if "paladin" in p.role.split("+") else 1
        if len(have) >= want:
            return ()
        return (("stance", tuple(s for s in STANCES if s not in have)),)

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for name in character(table, user).chosen("stance"):
            yield None, (("stance", name),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        p = character(table, user)
        name = param(params, "stance")
        if name not in p.chosen("stance"):
            return f"stance is one you mastered: {', '.join(p.chosen('stance')) or 'none yet'}"
        if not p.has_flag("moved") or not table.rolled:
            return "only after moving"
        if mounted(table, user):
            return "no stances while mounted"
        if p.in_jail:
            return "not from jail"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        name = param(params, "stance")
        layer.drop_flag(t, user, *(f"stance:{s}" for s in STANCES))
        layer.add_flag(t, user, f"stance:{name}")
        t.emit("stance", user, detail=name)
        end_turn_now(layer, t, user)
        return True


def end_turn_now(layer: Dungeonopoly, t: Txn, player: int) -> None:
    """The player's turn ends at once (no more rolls after doubles)."""
    t.roll_again = False
    t.rolled = True
    if player == t.current and not t.pending and not t.front:
        layer._next_turn(t)
    else:
        layer.add_flag(t, player, "turn_over")


# ============================================================================================
# Level 5: Knight's Move
# ============================================================================================
@dataclass(frozen=True)
class KnightsMove(Ability):
    """Single use, before or after moving: move yourself or an opponent in line of sight three
    squares forward or back; no passing, but landing."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in (user, *opponents(table, user)):
            for n in (KNIGHT_STEPS, -KNIGHT_STEPS):
                yield seat, (("steps", str(n)),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        steps = int_param(params, "steps")
        if steps not in (KNIGHT_STEPS, -KNIGHT_STEPS):
            return "steps=3 or steps=-3"
        who = user if target is None else target
        if who != user:
            problem = target_problem(table, user, who, spell=False)
            if problem:
                return problem
            if not in_sight(table, user, who):
                return f"{table.players[who].name} is not in line of sight"
            if effects.pinned(layer, table, who):
                return f"{table.players[who].name} stands in Bulwark of Defense: cannot be moved"
        elif table.players[user].in_jail:
            return "not from jail"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        who = user if target is None else target
        steps = int_param(params, "steps") or KNIGHT_STEPS
        layer.move(t, who, steps, LandContext(), land=False, count_passing=False)
        layer.arrive(t, who, t.players[who].position, LandContext(), forward=True)
        return True


# ============================================================================================
# Automatic blessings: Divine Grace, Holy Aura, Heart of the Titan, Holy Sword
# ============================================================================================
@dataclass(frozen=True)
class Blessing(Ability):
    """A blessing that works by itself (no EP)."""

    awards_ep = False


@dataclass(frozen=True)
class HeartOfTheTitan(Blessing):
    """A $500 reservoir set aside from the bank pays damage before her own cash; refilled
    when she passes (or lands on) GO."""

    def modify_damage(self, layer: Dungeonopoly, t: Txn, holder: int, amount: int) -> int:
        left = reservoir(t, holder)
        used = min(left, amount)
        if used:
            p = character(t, holder)
            t.set_player(holder, counters=p.with_counter("titan_spent",
                                                         p.counter("titan_spent") + used))
            t.emit("reservoir", holder, amount=used)
        return amount - used


class PaladinEffect(TableEffect):
    roles = frozenset({"paladin"})

    def paladins(self, table: Table, ability: str) -> list[int]:
        return [s for s, p in enumerate(table.players)
                if not p.bankrupt and knows(character(table, s), ability) is not None]

    # --- Counter, Divine Grace -------------------------------------------------------------
    def after_damage(self, layer: Dungeonopoly, t: Txn, attacker: int, defender: int,
                     amount: int, source: str) -> None:
        if source == "counter" or attacker == defender or not 0 <= attacker < len(t.players):
            return
        p = character(t, defender)
        if knows(p, "counter") is None or p.bankrupt or t.players[attacker].bankrupt:
            return
        # Counter targets the attacker: a hidden one (or one out of her existence) cannot be
        # countered, so nothing is asked (D-34)
        if within_reach(t, defender, attacker) and \
                target_problem(t, defender, attacker, spell=False) is None:
            t.push(CounterChoice(defender, attacker))

    def damage_blocked(self, layer: Dungeonopoly, t: Txn, attacker: int,
                       defender: int) -> str | None:
        if character(t, defender).has_flag("divine_grace"):
            return "divine_grace"
        return None

    def adjust_charge(self, layer: Dungeonopoly, t: Txn, debtor: int, creditor: int,
                      amount: int, reason: str) -> int:
        if debtor >= 0 and amount > 0 and character(t, debtor).has_flag("divine_grace") and \
                not any(v in reason for v in VOLUNTARY):
            t.emit("fee_waived", debtor, amount=amount, detail="divine_grace")
            return 0
        return amount

    def adjust_rent(self, layer: Dungeonopoly, t: Txn, payer: int, index: int,
                    amount: int) -> int:
        if amount and character(t, payer).has_flag("divine_grace"):
            t.emit("rent_waived", payer, square=index, amount=amount, detail="divine_grace")
            return 0
        return amount

    def rolled_doubles(self, layer: Dungeonopoly, t: Txn, player: int) -> None:
        if knows(character(t, player), "divine_grace") is not None:
            layer.add_flag(t, player, "divine_grace")
            t.emit("divine_grace", player)

    # --- mount dice ---------------------------------------------------------------------------
    def movement_sides(self, layer: Dungeonopoly, state: Table, player: int,
                       sides: tuple[int, ...]) -> tuple[int, ...]:
        if not mounted(state, player):
            return sides
        die = mount_sides(character(state, player).counter("mount_moves"))
        return tuple(die if s == 6 else s for s in sides)

    def movement_dice(self, layer: Dungeonopoly, t: Txn, player: int,
                      dice: tuple[int, ...]) -> tuple[int, ...]:
        if mounted(t, player):
            p = character(t, player)
            t.set_player(player, counters=p.with_counter("mount_moves",
                                                         p.counter("mount_moves") + 1))
        return dice

    # --- stances -------------------------------------------------------------------------------
    def pinned(self, layer: Dungeonopoly, t: Table, player: int) -> bool:
        return stance_of(t, player) == "bulwark_of_defense"

    def moves_here(self, layer: Dungeonopoly, t: Txn, mover: int) -> bool:
        return any(s != mover and stance_of(t, s) is not None
                   for s in range(len(t.players)) if not t.players[s].bankrupt)

    def enter_square(self, layer: Dungeonopoly, t: Txn, mover: int, index: int, came_from: int,
                     remaining: int, land: bool) -> int:
        return self._step(layer, t, mover, index, None, came_from, remaining)

    def enter_demiplane(self, layer: Dungeonopoly, t: Txn, mover: int, gap: int,
                        came_from: int, remaining: int, land: bool) -> int:
        return self._step(layer, t, mover, gap, gap, came_from, remaining)

    def _step(self, layer: Dungeonopoly, t: Txn, mover: int, index: int, gap: int | None,
              came_from: int, remaining: int) -> int:
        """The mover steps onto square ``index`` (or the demiplane in ``gap``): reach is
        counted in her world, the polarity of the character affected (D-60)."""
        for seat in range(len(t.players)):
            if seat == mover or t.players[seat].bankrupt:
                continue
            stance = stance_of(t, seat)
            here = stance is not None and in_reach(t, seat, index, mover, gap)
            if stance == "bulwark_of_defense" and remaining > 0 and here:
                t.emit("bulwark", mover, square=index, other=seat)
                remaining -= 1
            elif stance == "thicket_of_blades" and \
                    (here or in_reach(t, seat, came_from, mover)) and \
                    not character(t, seat).has_flag(f"aoo:{mover}"):
                layer.add_flag(t, seat, f"aoo:{mover}")
                t.emit("attack_of_opportunity", seat, other=mover, square=index)
                layer.damage(t, seat, mover, "thicket_of_blades")
        return remaining

    # --- turns, GO ------------------------------------------------------------------------
    def turn_started(self, layer: Dungeonopoly, t: Txn, player: int) -> None:
        for seat in range(len(t.players)):
            if seat != player and character(t, seat).has_flag("divine_grace"):
                layer.drop_flag(t, seat, "divine_grace")
        if t.players[player].bankrupt:
            return
        for seat in self.paladins(t, "holy_aura"):
            if seat != player and within_reach(t, seat, player):
                t.emit("holy_aura", seat, other=player)
                layer.damage(t, seat, player, "holy_aura")

    def go_collected(self, layer: Dungeonopoly, t: Txn, player: int, landed: bool) -> None:
        p = character(t, player)
        if p.counter("titan_spent") and knows(p, "heart_of_the_titan") is not None:
            t.set_player(player, counters=p.with_counter("titan_spent", 0))
            t.emit("reservoir_refilled", player, amount=RESERVOIR)

    def player_json(self, layer: Dungeonopoly, state: GameState, seat: int) -> dict[str, Any]:
        p = character(state, seat)
        out: dict[str, Any] = {}
        if knows(p, "celestial_mount") is not None:
            out["mounted"] = mounted(state, seat)
            if mounted(state, seat):
                out["mount_dice"] = f"2d{mount_sides(p.counter('mount_moves'))}"
        if knows(p, "fighting_stance") is not None:
            out["stance"] = stance_of(state, seat)
        if knows(p, "heart_of_the_titan") is not None:
            out["reservoir"] = reservoir(state, seat)
        if knows(p, "counter") is not None:
            out["reach"] = reach_of(p.level)
        return out

    def bot_hint(self, state: GameState, actions: Sequence[Action]) -> Action | None:
        return paladin_bot(state, actions)


def paladin_bot(state: GameState, actions: Sequence[Action]) -> Action | None:
    """Counter whenever offered, choose Thicket of Blades first, ride before rolling, and take
    a stance after moving when not riding."""
    head = state.pending[0] if state.pending else None
    if isinstance(head, CounterChoice):
        return next((a for a in actions if isinstance(a, UseAbility)), None)
    if isinstance(head, ChallengeAnte):
        lots = [a for a in actions if isinstance(a, Choose) and a.player == head.player]
        return min(lots, key=lambda a: int(a.option), default=None)
    if head is not None:
        return None
    cur = state.current
    if "paladin" not in character(state, cur).role.split("+"):
        return None
    mine = [a for a in actions if a.player == cur]
    for a in mine:
        if isinstance(a, Choose) and a.what == "stance":
            return a
    uses = {a.ability: a for a in mine if isinstance(a, UseAbility)}
    if not state.rolled and "celestial_mount" in uses and not mounted(state, cur) and \
            state.turn_number % 4 < 2:
        return uses["celestial_mount"]
    if state.rolled and not state.roll_again:
        if "celestial_mount" in uses and mounted(state, cur) and state.turn_number % 4 >= 2:
            return uses["celestial_mount"]
        if "fighting_stance" in uses:
            return uses["fighting_stance"]
    return None


PALADIN = register_class(CharacterClass("paladin", (
    Counter("counter", 1, "ability", frozenset({"damage", "reaction_to_damage"}),
            summary="damaged by an opponent within reach: damage her back"),
    Challenge("challenge", 2, "ability", frozenset({"single_use", "line_of_sight", "targeted"}),
              summary="duel: both ante a lot, auctioned as a pair between you two"),
    CelestialMount("celestial_mount", 3, "ability", frozenset({"once_per_turn", "movement"}),
                   summary="mount or dismount once a turn; riding rolls 2d8, 2d10, then 2d12"),
    FightingStance("fighting_stance", 4, "ability", frozenset({"movement", "ends_turn"}),
                   summary="after moving, end your turn in a mastered stance until your next"),
    KnightsMove("knights_move", 5, "ability", frozenset({"single_use", "line_of_sight",
                                                          "movement"}),
                summary="move yourself or an opponent in sight 3 squares: lands, no passing"),
    Blessing("divine_grace", 6, "automatic", frozenset(),
             summary="after rolling doubles: no damage, fees or rent for the rest of the turn"),
    Blessing("holy_aura", 7, "automatic", frozenset({"damage"}),
             summary="opponents starting their turn within your reach take damage"),
    HeartOfTheTitan("heart_of_the_titan", 9, "automatic", frozenset(),
                    summary="a $500 reservoir pays damage first; refilled at GO"),
    Blessing("holy_sword", 10, "automatic", frozenset(),
             summary="your reach grows to two squares"),
), "a holy knight of chivalry and defence"))

PALADIN_EFFECT = register_effect(PaladinEffect())
