"""Table-wide rule effects: hooks for abilities whose reach goes beyond their holder's own turn
(rule source: Dungeonopoly, "Additional classes" — the druid's enchanted squares, the
paladin's stances, blessings and mount, the bard's towing and melodies).

Most abilities only act when used, and passive ones change their holder's own figures through
the ``Ability`` hooks. Some change everyone's movement, rent, damage or dice instead: an
Entangled square slows every mover, a paladin in a stance pins herself and taxes opponents'
steps, a bard's melody rewrites a rent owed by someone else. Each such rule is a
``TableEffect`` (the engine's, companion/games/monopoly/effects.py, with Dungeonopoly's own
hooks added) registered by its class module; the layer calls the dispatch functions below
at fixed points (damage, charges, rent, dice, movement steps, turn starts, the end of each
action). An effect names the class roles it belongs to, so a table without those classes pays
almost nothing for it.

Every method has a neutral default; an effect overrides only what it needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from companion.games.monopoly import effects as table_effects

if TYPE_CHECKING:
    from companion.games.monopoly.actions import Action
    from companion.games.monopoly.dungeonopoly.abilities import Ability, Params
    from companion.games.monopoly.dungeonopoly.character import Enchantment
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.dungeonopoly.terms import Table
    from companion.games.monopoly.engine import RollSpec
    from companion.games.monopoly.state import GameState, PlayerState
    from companion.games.monopoly.txn import Txn


class TableEffect(table_effects.TableEffect["Dungeonopoly"]):
    """One rule that acts on the table (the engine's hooks: money, rent, dice, movement,
    turns), plus Dungeonopoly's own: damage, enchantments, hiding, ability uses and the
    Genesis demiplanes. ``roles``: the classes whose presence (as a seat's class, or an
    ability borrowed from that class) switches it on."""

    # --- damage --------------------------------------------------------------------------------
    def damage_blocked(self, layer: Dungeonopoly, t: Txn, attacker: int,
                       defender: int) -> str | None:
        """A reason the damage does not happen at all (e.g. ``hallow``), or None."""
        return None

    def after_damage(self, layer: Dungeonopoly, t: Txn, attacker: int, defender: int,
                     amount: int, source: str) -> None:
        """Damage was dealt (paid or owed)."""

    def intercept_damage(self, layer: Dungeonopoly, t: Txn, attacker: int, defender: int,
                         amount: int, source: str, to: int) -> bool:
        """True when the effect holds damage back for a decision or a roll (it deals it later
        itself, e.g. Entropic Ward's d6). ``amount`` is before the defender's reductions."""
        return False

    # --- enchantments, hiding, abilities ----------------------------------------------------
    def may_enchant(self, layer: Dungeonopoly, t: Txn, seat: int, ench: Enchantment) -> bool:
        return True

    def may_enchant_square(self, layer: Dungeonopoly, t: Txn, square: int,
                           ench: Enchantment) -> bool:
        return True

    def may_hide(self, layer: Dungeonopoly, t: Txn, seat: int) -> bool:
        return True

    def use_problem(self, layer: Dungeonopoly, table: Table, user: int,
                    ab: Ability) -> str | None:
        return None

    def intercept_use(self, layer: Dungeonopoly, t: Txn, user: int, ab: Ability,
                      target: int | None, params: Params) -> bool:
        """True when an ability use waits for someone's answer first (Intellect Fortress);
        the effect resumes it with ``layer.proceed``."""
        return False

    # --- movement (any table view: a state, a working copy) --------------------------------------
    def movement_sides(self, layer: Dungeonopoly, state: Table, player: int,
                       sides: tuple[int, ...]) -> tuple[int, ...]:
        return sides

    def pinned(self, layer: Dungeonopoly, t: Table, player: int) -> bool:
        """True when the player cannot be moved now."""
        return False

    def enter_demiplane(self, layer: Dungeonopoly, t: Txn, mover: int, gap: int,
                        came_from: int, remaining: int, land: bool) -> int:
        """Like ``enter_square`` for a Genesis demiplane of the mover's world (the one after
        square ``gap``); ``came_from`` is the real square she stepped off (D-60)."""
        return remaining


def roles_in_play(table: table_effects.Seated) -> set[str]:
    """Class roles at the table, counting abilities borrowed from other classes."""
    out: set[str] = set()
    for p in table.players:
        role = getattr(p, "role", "")
        if role:
            out.update(role.split("+"))  # gestalt characters hold two classes
        for kind, value in getattr(p, "choices", ()):
            if kind in ("borrow", "borrow_part", "book"):  # abilities.BORROW_KINDS
                out.add(value.split(":", 1)[0])
    return out


class ClassEffects(table_effects.EffectRegistry[TableEffect]):
    """The class modules' effects: those of the classes at the table are in play."""

    def roles_in_play(self, table: table_effects.Seated) -> set[str]:
        return roles_in_play(table)

    def key(self, players: Sequence[PlayerState]) -> tuple[Any, ...]:
        """Each seat's class and choices (what ``roles_in_play`` reads)."""
        return tuple([(getattr(p, "role", ""), getattr(p, "choices", ())) for p in players])


REGISTRY = ClassEffects()
register_effect = REGISTRY.register
active = REGISTRY.active


# --- dispatch (called by the layer) ----------------------------------------------------------
def damage_blocked(layer: Dungeonopoly, t: Txn, attacker: int, defender: int) -> str | None:
    for e in active(t):
        why = e.damage_blocked(layer, t, attacker, defender)
        if why:
            return why
    return None


def after_damage(layer: Dungeonopoly, t: Txn, attacker: int, defender: int, amount: int,
                 source: str) -> None:
    for e in active(t):
        e.after_damage(layer, t, attacker, defender, amount, source)


def intercept_damage(layer: Dungeonopoly, t: Txn, attacker: int, defender: int, amount: int,
                     source: str, to: int) -> bool:
    return any(e.intercept_damage(layer, t, attacker, defender, amount, source, to)
               for e in active(t))


def redirect_income(layer: Dungeonopoly, t: Txn, recipient: int, amount: int,
                    reason: str) -> int:
    for e in active(t):
        recipient = e.redirect_income(layer, t, recipient, amount, reason)
    return recipient


def movement_steps(layer: Dungeonopoly, t: Txn, player: int, steps: int) -> int:
    for e in active(t):
        steps = e.movement_steps(layer, t, player, steps)
    return steps


def intercept_use(layer: Dungeonopoly, t: Txn, user: int, ab: Ability, target: int | None,
                  params: Params) -> bool:
    return any(e.intercept_use(layer, t, user, ab, target, params) for e in active(t))


def adjust_charge(layer: Dungeonopoly, t: Txn, debtor: int, creditor: int, amount: int,
                  reason: str) -> int:
    for e in active(t):
        amount = e.adjust_charge(layer, t, debtor, creditor, amount, reason)
    return amount


def adjust_rent(layer: Dungeonopoly, t: Txn, payer: int, index: int, amount: int) -> int:
    for e in active(t):
        amount = e.adjust_rent(layer, t, payer, index, amount)
    return amount


def intercept_rent(layer: Dungeonopoly, t: Txn, payer: int, owner: int, index: int,
                   amount: int) -> bool:
    return any(e.intercept_rent(layer, t, payer, owner, index, amount) for e in active(t))


def may_enchant(layer: Dungeonopoly, t: Txn, seat: int, ench: Enchantment) -> bool:
    return all(e.may_enchant(layer, t, seat, ench) for e in active(t))


def may_enchant_square(layer: Dungeonopoly, t: Txn, square: int, ench: Enchantment) -> bool:
    return all(e.may_enchant_square(layer, t, square, ench) for e in active(t))


def may_hide(layer: Dungeonopoly, t: Txn, seat: int) -> bool:
    return all(e.may_hide(layer, t, seat) for e in active(t))


def use_problem(layer: Dungeonopoly, table: Table, user: int, ab: Ability) -> str | None:
    for e in active(table):
        why = e.use_problem(layer, table, user, ab)
        if why:
            return why
    return None


def movement_sides(layer: Dungeonopoly, state: Table, player: int,
                   sides: tuple[int, ...]) -> tuple[int, ...]:
    for e in active(state):
        sides = e.movement_sides(layer, state, player, sides)
    return sides


def movement_dice(layer: Dungeonopoly, t: Txn, player: int,
                  dice: tuple[int, ...]) -> tuple[int, ...]:
    for e in active(t):
        dice = e.movement_dice(layer, t, player, dice)
    return dice


def intercept_movement_roll(layer: Dungeonopoly, t: Txn, spec: RollSpec,
                            dice: tuple[int, ...]) -> bool:
    return any(e.intercept_movement_roll(layer, t, spec, dice) for e in active(t))


def rolled_doubles(layer: Dungeonopoly, t: Txn, player: int) -> None:
    for e in active(t):
        e.rolled_doubles(layer, t, player)


def pinned(layer: Dungeonopoly, t: Table, player: int) -> bool:
    return any(e.pinned(layer, t, player) for e in active(t))


def movers(layer: Dungeonopoly, t: Txn, mover: int) -> list[TableEffect]:
    """The effects that watch this mover's steps (computed once per move)."""
    return [e for e in active(t) if e.moves_here(layer, t, mover)]


def enter_square(effects: Iterable[TableEffect], layer: Dungeonopoly, t: Txn, mover: int,
                 index: int, came_from: int, remaining: int, land: bool) -> int:
    for e in effects:
        remaining = e.enter_square(layer, t, mover, index, came_from, remaining, land)
    return remaining


def enter_demiplane(effects: Iterable[TableEffect], layer: Dungeonopoly, t: Txn, mover: int,
                    gap: int, came_from: int, remaining: int, land: bool) -> int:
    for e in effects:
        remaining = e.enter_demiplane(layer, t, mover, gap, came_from, remaining, land)
    return remaining


def after_move(layer: Dungeonopoly, t: Txn, mover: int, steps: int, land: bool,
               count_passing: bool) -> None:
    for e in active(t):
        e.after_move(layer, t, mover, steps, land, count_passing)


def turn_started(layer: Dungeonopoly, t: Txn, player: int) -> None:
    for e in active(t):
        e.turn_started(layer, t, player)


def go_collected(layer: Dungeonopoly, t: Txn, player: int, landed: bool) -> None:
    for e in active(t):
        e.go_collected(layer, t, player, landed)


def sync(layer: Dungeonopoly, t: Txn) -> None:
    for e in active(t):
        e.sync(layer, t)


def player_json(layer: Dungeonopoly, state: GameState, seat: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for e in active(state):
        out.update(e.player_json(layer, state, seat))
    return out


def bot_hint(state: GameState, actions: Sequence[Action]) -> Action | None:
    for e in active(state):
        got = e.bot_hint(state, actions)
        if got is not None:
            return got
    return None

