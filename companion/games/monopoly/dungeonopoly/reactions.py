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
from companion.games.monopoly.dungeonopoly.abilities import Ability, Params, Pass, UseAbility, knows
from companion.games.monopoly.dungeonopoly.terms import Table, character
from companion.games.monopoly.engine import RollSpec
from companion.games.monopoly.pending import Pending
from companion.games.monopoly.state import GameState
from companion.games.monopoly.txn import Txn

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly


@dataclass(frozen=True, slots=True)
class Window(Pending):
    """Waiting for off-turn answers from ``eligible`` players (``player`` is -1)."""

    eligible: tuple[int, ...] = ()
    passed: tuple[int, ...] = ()

    @property
    def waiting(self) -> tuple[int, ...]:
        return tuple(p for p in self.eligible if p not in self.passed)

    @property
    def automatic(self) -> bool:  # type: ignore[override]
        """A window nobody is waiting on closes by itself."""
        return not self.waiting

    @property
    def answers(self) -> tuple[str, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class CounterWindow(Window):
    """A spell being cast: other wizards may Counterspell it."""

    caster: int = -1
    ability: str = ""
    target: int | None = None
    params: Params = ()

    @property
    def answers(self) -> tuple[str, ...]:
        return ("counterspell",)


@dataclass(frozen=True, slots=True)
class RollWindow(Window):
    """Dice just rolled: clerics may cast Divine Intervention to have them rerolled."""

    roller: int = -1
    sides: tuple[int, ...] = ()
    purpose: str = ""
    dice: tuple[int, ...] = ()

    @property
    def answers(self) -> tuple[str, ...]:
        return ("divine_intervention",)


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


def window_actions(layer: Dungeonopoly, state: GameState, head: Window) -> list[Action]:
    out: list[Action] = []
    for seat in head.waiting:
        for spell in head.answers:
            for name, params in _can_answer(layer, state, seat, spell):
                target = head.caster if isinstance(head, CounterWindow) else None
                out.append(UseAbility(seat, name, target, params))
        out.append(Pass(seat))
    return out


def use_in_window(layer: Dungeonopoly, t: Txn, action: UseAbility) -> None:
    head = t.pending[0]
    assert isinstance(head, Window)
    seat = action.player
    if seat not in head.waiting:
        raise IllegalActionError(f"{t.name(seat)} has no answer to give in this window")
    spell = head.answers[0]
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


def pass_window(layer: Dungeonopoly, t: Txn, seat: int) -> None:
    head = t.pending[0]
    assert isinstance(head, Window)
    if seat not in head.waiting:
        raise IllegalActionError(f"{t.name(seat)} is not being asked in this window")
    t.pending[0] = replace(head, passed=head.passed + (seat,))
    t.emit("passed", seat)


def run_step(layer: Dungeonopoly, t: Txn, step: Pending) -> bool:
    """Close a window nobody is waiting on: the spell or the roll goes ahead."""
    if isinstance(step, CounterWindow):
        ab = layer.ability_of(t, step.caster, step.ability)
        if t.players[step.caster].bankrupt:
            return True
        layer.proceed(t, step.caster, ab, step.target, step.params)
        return True
    if isinstance(step, RollWindow):
        layer.resolve_roll(t, RollSpec(step.roller, step.sides, step.purpose), step.dice)
        return True
    return False


def cancel_head(t: Txn, kind: type[Window]) -> Window | None:
    """Remove the first window of ``kind`` (a spell countered, a roll discarded)."""
    for i, item in enumerate(t.pending):
        if isinstance(item, kind):
            del t.pending[i]
            return item
    return None
