"""Off-turn reaction windows (rule source: Dungeonopoly, spellcasting: castings allowed during
another character's turn; Wizard "Counterspell"; Cleric "Divine Intervention").

When a spell is cast, every other character who could Counterspell it gets a window; when dice
are rolled, every character who could cast Divine Intervention gets one. The window is the head
of ``GameState.pending``; its players' answers (use or ``Pass``) are in ``legal_actions``; it
closes when each eligible player has passed (or one has answered), and the spell or the roll
then goes ahead. A Wish may stand in for either spell (Wish duplicates any spell).

Rulings (docs/dungeonopoly/rulings.md): a Counterspell cast in answer to a spell cannot itself
be countered; a countered spell is still spent and its casting cost is not refunded.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import Action
from companion.games.monopoly.dungeonopoly.abilities import Ability, Params, UseAbility, knows
from companion.games.monopoly.dungeonopoly.terms import Table, character
from companion.games.monopoly.engine import RollSpec
from companion.games.monopoly.reactions import Window
from companion.games.monopoly.state import GameState
from companion.games.monopoly.txn import Txn

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly


@dataclass(frozen=True, slots=True)
class SpellWindow(Window["Dungeonopoly"]):
    """A window answered by casting a spell (``spells``), or by a Wish duplicating it."""

    @property
    def spells(self) -> tuple[str, ...]:
        return ()

    @property
    def answer_target(self) -> int | None:
        return None

    def answer_actions(self, rules: Dungeonopoly, state: GameState, seat: int) -> list[Action]:
        return [UseAbility(seat, name, self.answer_target, params)
                for spell in self.spells for name, params in _can_answer(rules, state, seat, spell)]


@dataclass(frozen=True, slots=True)
class CounterWindow(SpellWindow):
    """A spell being cast: other wizards may Counterspell it."""

    caster: int = -1
    ability: str = ""
    target: int | None = None
    params: Params = ()

    @property
    def spells(self) -> tuple[str, ...]:
        return ("counterspell",)

    @property
    def answer_target(self) -> int | None:
        return self.caster

    def close(self, rules: Dungeonopoly, t: Txn) -> None:
        """Nobody countered: the spell goes ahead."""
        ab = rules.ability_of(t, self.caster, self.ability)
        if t.players[self.caster].bankrupt:
            return
        rules.proceed(t, self.caster, ab, self.target, self.params)


@dataclass(frozen=True, slots=True)
class RollWindow(SpellWindow):
    """Dice just rolled: clerics may cast Divine Intervention to have them rerolled."""

    roller: int = -1
    sides: tuple[int, ...] = ()
    purpose: str = ""
    dice: tuple[int, ...] = ()

    @property
    def spells(self) -> tuple[str, ...]:
        return ("divine_intervention",)

    def close(self, rules: Dungeonopoly, t: Txn) -> None:
        """Nobody intervened: the roll stands."""
        rules.handle_roll(t, RollSpec(self.roller, self.sides, self.purpose), self.dice)


def _can_answer(layer: Dungeonopoly, table: Table, seat: int, spell: str) -> list[tuple[str, Params]]:
    """The ways ``seat`` could cast ``spell`` now: the spell itself or a Wish duplicating it."""
    p = character(table, seat)
    if p.bankrupt or p.in_jail:
        return []
    if seat == table.current and p.has_flag("spell"):
        return []
    out: list[tuple[str, Params]] = []
    own = knows(p, spell)
    if own is not None and spell not in p.spent:
        out.append((spell, (("react", "1"),)))
    wish = knows(p, "wish")
    if wish is not None and "wish" not in p.spent and p.cash >= 10:
        out.append(("wish", (("spell", spell), ("react", "1"))))
    return out


def open_counter_window(layer: Dungeonopoly, t: Txn, caster: int, ab: Ability,
                        target: int | None, params: Params) -> bool:
    """A spell is being cast: open a Counterspell window if anyone could answer."""
    if dict(params).get("react") and ab.name in ("counterspell", "wish") and \
            (ab.name == "counterspell" or dict(params).get("spell") == "counterspell"):
        return False  # a reaction Counterspell cannot itself be countered
    eligible = tuple(seat for seat in range(len(t.players))
                     if seat != caster and _can_answer(layer, t, seat, "counterspell"))
    if not eligible:
        return False
    t.emit("window", None, detail=f"counterspell:{ab.name}", other=caster)
    t.push(CounterWindow(-1, eligible, (), caster, ab.name, target, params))
    return True


def open_roll_window(layer: Dungeonopoly, t: Txn, spec: RollSpec, dice: tuple[int, ...]) -> bool:
    """Dice were rolled: open a Divine Intervention window if anyone could answer."""
    if spec.purpose == "jail" and not layer.opt(t, "reroll_jail_rolls", False):
        return False
    eligible = tuple(seat for seat in range(len(t.players))
                     if _can_answer(layer, t, seat, "divine_intervention"))
    if not eligible:
        return False
    t.emit("window", None, detail="divine_intervention", other=spec.player)
    t.push(RollWindow(-1, eligible, (), spec.player, spec.sides, spec.purpose, dice))
    return True


def use_in_window(layer: Dungeonopoly, t: Txn, action: UseAbility) -> None:
    head = t.pending[0]
    assert isinstance(head, SpellWindow)
    seat = action.player
    if seat not in head.waiting:
        raise IllegalActionError(f"{t.name(seat)} has no answer to give in this window")
    spell = head.spells[0]
    ways = dict(_can_answer(layer, t, seat, spell))
    if action.ability not in ways:
        raise IllegalActionError(f"{t.name(seat)} can answer only with "
                                 f"{' or '.join(ways) or 'nothing'} now: use it or pass")
    ab = layer.ability_of(t, seat, action.ability)
    params = ways[action.ability]
    t.pending[0] = replace(head, passed=head.passed + (seat,))
    target = head.caster if isinstance(head, CounterWindow) else head.roller \
        if isinstance(head, RollWindow) else None
    layer.start_use(t, seat, ab, target, params)
