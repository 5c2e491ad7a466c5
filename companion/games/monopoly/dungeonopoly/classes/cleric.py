"""Cleric (rule source: Dungeonopoly, "Cleric abilities", levels 1-10)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    CharacterClass,
    Params,
    opponents,
    register_class,
)
from companion.games.monopoly.dungeonopoly.character import Enchantment
from companion.games.monopoly.dungeonopoly.classes.wizard import SelfWard
from companion.games.monopoly.dungeonopoly.terms import (
    Table,
    character,
    exists_for,
    sheltered,
    square_enchanted,
    standing_on,
    target_problem,
)
from companion.games.monopoly.state import POT

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.txn import Txn


@dataclass(frozen=True)
class Bless(Ability):
    """Bless (or, inverted, Curse) the current lot: rent +5% per level rounded down (Curse: -5%
    per level rounded up); on the opposite enchantment it only dispels that one. Bless and Curse
    share one use ($50)."""

    use_key: str = "bless"

    @property
    def opposite(self) -> str:
        return "curse" if self.name == "bless" else "bless"

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        sq = standing_on(table, user)
        if sq is None or not layer.board.squares[sq].ownable:
            return "only on a property"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        pos = t.players[user].position
        if square_enchanted(t, pos, self.opposite) is not None:
            layer.disenchant_square(t, pos, self.opposite)
            return True
        layer.enchant_square(t, pos, Enchantment(self.name, user, character(t, user).level))
        return True


@dataclass(frozen=True)
class Sanctuary(SelfWard):
    """Untargetable and undamageable until your next turn; cast before moving, it costs the
    movement roll."""

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        super().resolve(layer, t, user, target, params)
        if not t.rolled or t.roll_again:
            t.rolled = True
            t.roll_again = False
            t.emit("movement_forfeit", user, detail=self.name)
        return True


@dataclass(frozen=True)
class DivineFavor(Ability):
    """No Income or Luxury Tax; she chooses whether to accept each card (the jail fee stays).
    Automatic; no EP."""

    awards_ep = False

    def waives_fee(self, layer: Dungeonopoly, t: Txn, holder: int, reason: str) -> bool:
        return reason == "tax"


@dataclass(frozen=True)
class HolySmite(Ability):
    """Damage an opponent anywhere on the board (not in jail)."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if target is None:
            return "name the opponent"
        return target_problem(table, user, target, spell=True)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if not layer.spell_reaches(t, user, target, self.name):
            return False
        return layer.damage(t, user, target, self.name)


@dataclass(frozen=True)
class DivineIntervention(Ability):
    """When any dice are rolled: discard them and have them rolled again (a reaction)."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        return "only just after dice are rolled (the reroll window)"

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        from companion.games.monopoly.dungeonopoly.reactions import RollWindow
        from companion.games.monopoly.reactions import cancel_window

        window = cancel_window(t, RollWindow)
        if window is None:
            return False
        assert isinstance(window, RollWindow)
        t.emit("reroll", user, other=window.roller, detail=" ".join(map(str, window.dice)))
        return True


@dataclass(frozen=True)
class DivinePower(Ability):
    """Passing Chance or Community Chest draws the card (Divine Favor applies); passing Free
    Parking collects the pot. Automatic; no EP."""

    awards_ep = False

    def on_pass(self, layer: Dungeonopoly, t: Txn, holder: int, index: int,
                forward: bool) -> None:
        kind = layer.board.squares[index].kind
        if kind in ("chance", "community_chest"):
            t.emit("divine_power", holder, square=index)
            layer.draw_card(t, holder, kind)
        elif kind == "free_parking" and t.pot > 0:
            t.emit("pot", holder, amount=t.pot, detail="divine_power")
            t.receive(holder, t.pot, POT, "the pot")


@dataclass(frozen=True)
class GlyphOfWarding(Ability):
    """A glyph on the current lot: the next other character to pass over it stops there (as if
    landing, unless moved by a no-landing move) and takes damage ($150)."""

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        sq = standing_on(table, user)
        if sq is None or not layer.board.squares[sq].ownable:
            return "only on a property"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        pos = t.players[user].position
        layer.enchant_square(t, pos, Enchantment(self.name, user, character(t, user).level))
        return True


@dataclass(frozen=True)
class Ascended(Ability):
    """Immune to mental effects and to being sent to jail; a third doubles moves but ends the
    rolling. Automatic; no EP (the layer checks for it by name)."""

    awards_ep = False


@dataclass(frozen=True)
class WrathOfGod(Ability):
    """Damage every opponent (hidden ones too) and take one building level off every opponent
    lot: a hotel becomes the houses it stands for (four, three in the quicker game) as far as
    the bank has them; blessed lots are spared ($300)."""

    def affected(self, layer: Dungeonopoly, table: Table, user: int,
                 params: Params) -> list[int]:
        jailed = layer.opt(table, "wrath_hits_jailed", False)
        return [s for s in opponents(table, user) if exists_for(table, user, s)
                and (jailed or not table.players[s].in_jail)]

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        hit = False
        hits_jailed = layer.opt(t, "wrath_hits_jailed", False)
        for seat in list(opponents(t, user)):
            if t.players[seat].in_jail and not hits_jailed:
                continue
            if not exists_for(t, user, seat) or sheltered(params, seat):
                continue  # on a demiplane not there for her; inside an Intellect Fortress
            hit = layer.damage(t, user, seat, self.name) or hit
        for index, s in enumerate(t.squares):
            if s.owner is None or t.allied(s.owner, user) or not s.level:
                continue
            if square_enchanted(t, index, "bless") is not None:
                continue
            layer.remove_building(t, index)  # a hotel: as many houses as the bank has
            t.emit("wrath", user, square=index, other=s.owner)
            hit = True
        return hit


CLERIC = register_class(CharacterClass("cleric", (
    Bless("bless", 1, "spell", frozenset({"enchantment"}), 50,
          summary="the current lot's rent rises 5% per level (or dispels a curse)"),
    Bless("curse", 1, "spell", frozenset({"enchantment"}), 50,
          summary="the current lot's rent falls 5% per level (or dispels a blessing)"),
    SelfWard("shield_of_faith", 2, "spell", frozenset({"enchantment"}),
             summary="the next damage or spell at you has no effect"),
    Sanctuary("sanctuary", 3, "spell", frozenset({"enchantment"}),
              summary="untargetable and undamageable until your next turn"),
    DivineFavor("divine_favor", 4, "automatic", frozenset(),
                summary="no taxes; accept or refuse each card"),
    HolySmite("holy_smite", 5, "spell", frozenset({"damage", "targeted"}),
              summary="damage an opponent anywhere (not in jail)"),
    DivineIntervention("divine_intervention", 6, "spell", frozenset({"reaction"}),
                       summary="make any roll be rolled again"),
    DivinePower("divine_power", 7, "automatic", frozenset(),
                summary="draw cards and collect the pot while passing"),
    GlyphOfWarding("glyph_of_warding", 8, "spell", frozenset({"enchantment", "damage"}), 150,
                   summary="the next character to pass this lot stops and takes damage"),
    Ascended("ascended", 9, "automatic", frozenset(),
             summary="immune to mental effects and jail"),
    WrathOfGod("wrath_of_god", 10, "spell", frozenset({"damage", "area"}), 300,
               summary="damage all opponents and knock a building off each of their lots"),
), "holy powers and blessings"))
