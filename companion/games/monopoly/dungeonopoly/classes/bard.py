"""Bard (rule source: Dungeonopoly, "Bard abilities", levels 1-10).

Melodies are chosen at levels 2, 4, 6 and 8 (``choose melody dirge_of_doom``) and kept in
``Character.choices``; Jack-of-All-Trades' three borrowed abilities are choices of kind
``borrow`` (``choose borrow fighter:attack``) that ``known_abilities`` adds to the bard's own.
Suggestion's towing lives in the bard's turn flags ``tow:SEAT`` (``tow_hidden:SEAT`` for a
hidden character under Mass Suggestion) and lasts until the turn ends. Rulings:
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
    all_abilities,
    int_param,
    knows,
    opponents,
    param,
    register_class,
)
from companion.games.monopoly.dungeonopoly.character import Enchantment
from companion.games.monopoly.dungeonopoly.classes.paladin import end_turn_now
from companion.games.monopoly.dungeonopoly.effects import TableEffect, register_effect
from companion.games.monopoly.dungeonopoly.steps import Decision
from companion.games.monopoly.dungeonopoly.terms import (
    BOARD_SIZE,
    RING,
    Table,
    character,
    immune_to_mental,
    in_range,
    in_sanctuary,
    is_hidden,
    on_square,
    sheltered,
    square_in_range,
    target_problem,
    together,
    walk_to,
)
from companion.games.monopoly.engine import LandContext
from companion.games.monopoly.prompts import RollFor, Step
from companion.games.monopoly.state import BANK, GameState

if TYPE_CHECKING:
    from companion.games.monopoly.dungeonopoly.layer import Dungeonopoly
    from companion.games.monopoly.txn import Txn

MELODIES = ("inspire_courage", "cutting_words", "song_of_freedom", "inspire_greatness",
            "song_of_rest", "frightening_tune", "dirge_of_doom")
MELODIES_AT = (2, 4, 6, 8)
FREE_PARKING = 20
KNOWLEDGE_STEPS = 7
JACK_PICKS = 3
JACK_MAX_LEVEL = 5
SKILL_RANKS = 12
# abilities that come along with a borrowed one (parts of the same ability in the text)
PARTS = {"rogue:sneak": ("rogue:backstab", "rogue:come_out_of_sneak"),
         "druid:wild_shape": ("druid:maul", "druid:scent")}
NOT_BORROWABLE = frozenset({"rogue:backstab", "rogue:come_out_of_sneak", "druid:maul",
                            "druid:scent", "druid:primal_enchantment"})


def is_bard(p: Any) -> bool:
    return "bard" in getattr(p, "role", "").split("+")


def movable(layer: Dungeonopoly, table: Table, seat: int) -> bool:
    """Can a bard's pull or tow move ``seat``: in the game, not jailed and not pinned (the
    layer's one "cannot be moved" test, ``effects.pinned``: Bulwark of Defense)?"""
    p = table.players[seat]
    return not p.bankrupt and not p.in_jail and not effects.pinned(layer, table, seat)


# ============================================================================================
# Level 1: Fascinate
# ============================================================================================
@dataclass(frozen=True)
class Fascinate(Ability):
    """Pull every character within limited range onto your square (the short way round),
    passing and landing as usual; hidden ones move without passing or landing. Each character
    once per turn. A mental effect."""

    def pulled(self, layer: Dungeonopoly, table: Table, user: int) -> list[int]:
        p = character(table, user)
        out = []
        for seat, other in enumerate(table.players):
            if seat == user or other.bankrupt or together(table, user, seat):
                continue
            if not in_range(table, user, seat) or not movable(layer, table, seat):
                continue
            if immune_to_mental(other) or in_sanctuary(other) or p.has_flag(f"fascinated:{seat}"):
                continue
            out.append(seat)
        return out

    def affected(self, layer: Dungeonopoly, table: Table, user: int,
                 params: Params) -> list[int]:
        return self.pulled(layer, table, user)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if not self.pulled(layer, table, user):
            return "nobody within range to pull"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        seats = [s for s in self.pulled(layer, t, user) if not sheltered(params, s)]
        for seat in seats:
            layer.add_flag(t, user, f"fascinated:{seat}")
            hidden = is_hidden(t.players[seat])
            t.emit("fascinated", seat, other=user)
            steps = walk_to(t, seat, user)  # in the pulled character's world (D-58)
            layer.move(t, seat, steps, LandContext(), land=not hidden, count_passing=not hidden)
        return bool(seats)


# ============================================================================================
# Level 2, 4, 6, 8: Bardic Music
# ============================================================================================
@dataclass(frozen=True, slots=True)
class MelodyChoice(Decision):
    """Rent is owed on the lot where the bard stands: play a melody, or let it be."""

    payer: int = -1
    owner: int = -1
    square: int = -1
    amount: int = 0

    def use_params(self) -> Params:
        return (("payer", str(self.payer)), ("owner", str(self.owner)),
                ("square", str(self.square)), ("amount", str(self.amount)))

    def actions(self, layer: Dungeonopoly, state: GameState) -> list[Action]:
        p = character(state, self.player)
        out: list[Action] = [UseAbility(self.player, "bardic_music", None, (("melody", m),))
                             for m in p.chosen("melody")]
        out.append(Pass(self.player))
        return out

    def decline(self, layer: Dungeonopoly, t: Txn) -> None:
        if not t.players[self.payer].bankrupt and not t.players[self.owner].bankrupt:
            layer.collect_rent(t, self.payer, self.owner, self.square, self.amount,
                               intercept=False)


@dataclass(frozen=True)
class BardicMusic(Ability):
    """When anyone (you too) owes rent on the lot you stand on, play one of your melodies."""

    def choices_due(self, layer: Dungeonopoly, table: Table,
                    holder: int) -> Iterable[tuple[str, tuple[str, ...]]]:
        p = character(table, holder)
        have = p.chosen("melody")
        want = sum(1 for lvl in MELODIES_AT if p.level >= lvl) if is_bard(p) else 1
        if len(have) >= want:
            return ()
        return (("melody", tuple(m for m in MELODIES if m not in have)),)

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        head = table.pending[0] if table.pending else None
        if not isinstance(head, MelodyChoice) or head.player != user:
            return "only when rent is owed on the lot where you stand"
        return None

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        melody = param(params, "melody")
        if melody not in character(table, user).chosen("melody"):
            return f"play one of your melodies: {', '.join(character(table, user).chosen('melody'))}"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        melody = param(params, "melody")
        payer, owner, square, amount = (int_param(params, k) for k in
                                        ("payer", "owner", "square", "amount"))
        assert payer is not None and owner is not None and square is not None
        layer.add_flag(t, user, f"melody_at:{square}:{melody}")
        t.emit("melody", user, square=square, other=payer, detail=melody)
        play(layer, t, user, melody, payer, owner, square, amount or 0)
        return True


def play(layer: Dungeonopoly, t: Txn, bard: int, melody: str, payer: int, owner: int,
         square: int, amount: int) -> None:
    """Settle a rent under ``melody``, then queue its after-effect."""
    if t.players[payer].bankrupt or t.players[owner].bankrupt:
        return
    if melody == "dirge_of_doom":
        amount *= 2
    elif melody == "inspire_courage":
        half = amount // 2
        t.receive(owner, half, BANK, "inspire courage (the bank pays half)")
        amount -= half
    layer.collect_rent(t, payer, owner, square, amount, intercept=False)
    if melody in AFTER:
        t.push(AfterMelody(payer, melody, bard, owner))


AFTER = frozenset({"cutting_words", "song_of_freedom", "inspire_greatness", "song_of_rest",
                   "frightening_tune"})


@dataclass(frozen=True, slots=True)
class AfterMelody(Step["Dungeonopoly"]):
    """What a melody does once the rent is settled (``player`` is the one who owed it)."""

    melody: str = ""
    bard: int = -1
    owner: int = -1

    def run(self, layer: Dungeonopoly, t: Txn) -> None:
        who = self.player
        if t.players[who].bankrupt:
            return
        if self.melody == "cutting_words":
            if not t.allied(self.owner, self.bard) and not t.players[self.owner].bankrupt:
                layer.damage(t, self.bard, self.owner, "cutting_words")
        elif self.melody == "song_of_freedom":
            if not t.players[who].in_jail:
                steps = RING.forward(t.players[who].position, FREE_PARKING) or RING.size
                layer.move(t, who, steps, LandContext())
        elif self.melody == "inspire_greatness":
            t.push(MelodyRoll(who, (6, 6), self.melody))
        elif self.melody == "frightening_tune":
            t.push(MelodyRoll(who, (6,), self.melody))
        elif self.melody == "song_of_rest":
            p = character(t, who)
            if p.spent:
                t.set_player(who, spent=())
            t.emit("song_of_rest", who)
            if who == t.current:
                end_turn_now(layer, t, who)


@dataclass(frozen=True, slots=True)
class MelodyRoll(RollFor["Dungeonopoly"]):
    """Inspire Greatness (2d6 forward) or Frightening Tune (1d6 back)."""

    sides: tuple[int, ...] = (6, 6)
    melody: str = ""

    def rolled(self, layer: Dungeonopoly, t: Txn, dice: tuple[int, ...]) -> None:
        if t.players[self.player].bankrupt or t.players[self.player].in_jail:
            return
        n = sum(dice)
        steps = n if self.melody == "inspire_greatness" else -n
        layer.move(t, self.player, steps, LandContext(dice_total=n))


# ============================================================================================
# Level 3 and 9: Suggestion, Mass Suggestion
# ============================================================================================
@dataclass(frozen=True)
class Suggestion(Ability):
    """A character within limited range moves as far as you do each time you move this turn
    (passing and landing as usual). A mental effect."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        for seat in opponents(table, user):
            yield seat, ()

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if target is None:
            return "name the character"
        problem = target_problem(table, user, target, spell=True, mental=True)
        if problem:
            return problem
        if not in_range(table, user, target):
            return f"{table.players[target].name} is out of range"
        if character(table, user).has_flag(f"tow:{target}"):
            return "already under your suggestion"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        assert target is not None
        if not layer.spell_reaches(t, user, target, self.name):
            return False
        layer.add_flag(t, user, f"tow:{target}")
        t.emit("suggested", target, other=user)
        return True


@dataclass(frozen=True)
class MassSuggestion(Ability):
    """Suggestion on every character within limited range, hidden ones too (they move without
    passing or landing)."""

    def towed(self, table: Table, user: int) -> list[int]:
        return [s for s, o in enumerate(table.players)
                if s != user and not o.bankrupt and in_range(table, user, s)
                and not immune_to_mental(o) and not in_sanctuary(o)]

    def affected(self, layer: Dungeonopoly, table: Table, user: int,
                 params: Params) -> list[int]:
        return self.towed(table, user)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        if not self.towed(table, user):
            return "nobody within range"
        return None

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        seats = [s for s in self.towed(t, user) if not sheltered(params, s)]
        for seat in seats:
            hidden = is_hidden(t.players[seat])
            layer.add_flag(t, user, f"tow_hidden:{seat}" if hidden else f"tow:{seat}")
            t.emit("suggested", seat, other=user)
        return bool(seats)


@dataclass(frozen=True, slots=True)
class TowMove(Step["Dungeonopoly"]):
    """A character under the bard's suggestion moves as far as the bard just did."""

    steps: int = 0
    hidden: bool = False

    def run(self, layer: Dungeonopoly, t: Txn) -> None:
        if not movable(layer, t, self.player):
            return
        t.emit("towed", self.player, amount=self.steps)
        layer.move(t, self.player, self.steps, LandContext(dice_total=abs(self.steps)),
                   land=not self.hidden, count_passing=not self.hidden)


# ============================================================================================
# Level 5: Glitterdust
# ============================================================================================
@dataclass(frozen=True)
class Glitterdust(Ability):
    """Everyone on one square within limited range: hidden ones are revealed (without landing
    there) and the next time each would hide, the hiding fizzles instead."""

    def candidates(self, layer: Dungeonopoly, table: Table,
                   user: int) -> Iterable[tuple[int | None, Params]]:
        squares = {o.position for s, o in enumerate(table.players)
                   if s != user and not o.bankrupt and not o.in_jail and is_hidden(o)}
        for sq in sorted(squares):
            yield None, (("square", str(sq)),)

    def problem(self, layer: Dungeonopoly, table: Table, user: int, target: int | None,
                params: Params) -> str | None:
        sq = int_param(params, "square")
        if sq is None or not 0 <= sq < BOARD_SIZE:
            return "say which square: square=N"
        if not square_in_range(table, user, sq):
            return "that square is out of range"
        if not self.dusted(table, sq):
            return "nobody on that square"
        return None

    def affected(self, layer: Dungeonopoly, table: Table, user: int,
                 params: Params) -> list[int]:
        sq = int_param(params, "square")
        return [] if sq is None else self.dusted(table, sq)

    def dusted(self, table: Table, sq: int) -> list[int]:
        return [s for s in range(len(table.players)) if on_square(table, s, sq)]

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        sq = int_param(params, "square")
        assert sq is not None
        for seat in self.dusted(t, sq):
            if sheltered(params, seat):
                continue
            p = character(t, seat)
            if is_hidden(p):
                t.set_player(seat, hidden=False,
                             enchantments=p.without_enchantment("invisibility"))
                layer.drop_flag(t, seat, "invisible")
                t.emit("revealed", seat, square=sq, other=user)
            layer.enchant(t, seat, Enchantment("glitterdust", user, character(t, user).level))
        return True


# ============================================================================================
# Level 7: Bardic Knowledge
# ============================================================================================
@dataclass(frozen=True)
class BardicKnowledge(Ability):
    """Single use: instead of rolling, move seven squares forward (not a lucky seven)."""

    def timing_problem(self, layer: Dungeonopoly, table: Table, user: int) -> str | None:
        return layer.before_roll_problem(table, user)

    def resolve(self, layer: Dungeonopoly, t: Txn, user: int, target: int | None,
                params: Params) -> bool:
        t.rolled = True
        t.roll_again = False
        layer.add_flag(t, user, "moved", "walked")
        layer.move(t, user, KNOWLEDGE_STEPS, LandContext(dice_total=KNOWLEDGE_STEPS))
        return True


# ============================================================================================
# Level 10: Jack-of-All-Trades
# ============================================================================================
def borrowable(holder: Any) -> tuple[str, ...]:
    """``class:ability`` names the bard may still borrow: level 5 or less, other classes, not
    already known (a gestalt warlock+bard's Book of Shadows spells included). Psionic powers
    are not offered: they run on power points, which only a psion has (D-74)."""
    have = set(holder.chosen("borrow")) | set(holder.chosen("borrow_part")) | \
        set(holder.chosen("book"))
    own = set(getattr(holder, "role", "").split("+"))
    out = []
    for cls, ab in all_abilities():
        key = f"{cls}:{ab.name}"
        if cls in own or ab.level > JACK_MAX_LEVEL or key in have or \
                key in NOT_BORROWABLE or "power" in ab.flags:
            continue
        out.append(key)
    return tuple(sorted(out))


@dataclass(frozen=True)
class JackOfAllTrades(Ability):
    """Borrow three abilities of level 5 or less from other classes (rogue skills at 12
    ranks). Automatic; no EP."""

    awards_ep = False

    def choices_due(self, layer: Dungeonopoly, table: Table,
                    holder: int) -> Iterable[tuple[str, tuple[str, ...]]]:
        p = character(table, holder)
        if len(p.chosen("borrow")) >= JACK_PICKS:
            return ()
        return (("borrow", borrowable(p)),)

    def apply_choice(self, layer: Dungeonopoly, t: Txn, holder: int, kind: str,
                     option: str) -> None:
        p = character(t, holder)
        choices = p.with_choice(kind, option)
        for part in PARTS.get(option, ()):
            choices += (("borrow_part", part),)
        t.set_player(holder, choices=choices)
        cls, _, name = option.partition(":")
        from companion.games.monopoly.dungeonopoly.abilities import find_class

        ab = find_class(cls).ability(name)
        if cls == "rogue" and ab is not None and ab.kind == "skill":
            t.set_player(holder, skills=character(t, holder).with_skill(name, SKILL_RANKS))
        t.emit("chose", holder, detail=f"{kind}:{option}")


# ============================================================================================
# Table effect: melodies on rent, towing, Glitterdust's fizzle
# ============================================================================================
class BardEffect(TableEffect):
    roles = frozenset({"bard"})

    def intercept_rent(self, layer: Dungeonopoly, t: Txn, payer: int, owner: int, index: int,
                       amount: int) -> bool:
        for seat in range(len(t.players)):
            if not on_square(t, seat, index):  # present on the lot (not on a demiplane)
                continue
            c = character(t, seat)
            ab = knows(c, "bardic_music")
            if ab is None or not c.chosen("melody"):
                continue
            if layer.generic_problem(t, seat, ab, window=True):  # Insect Plague, Run ...
                continue
            for f in c.turn:
                if f.startswith(f"melody_at:{index}:"):  # one melody for everyone at once
                    play(layer, t, seat, f.rsplit(":", 1)[1], payer, owner, index, amount)
                    return True
            t.push(MelodyChoice(seat, payer, owner, index, amount))
            return True
        return False

    def after_move(self, layer: Dungeonopoly, t: Txn, mover: int, steps: int, land: bool,
                   count_passing: bool) -> None:
        if mover != t.current or not steps:
            return
        p = character(t, mover)
        tows = [(int(f.split(":")[1]), f.startswith("tow_hidden:")) for f in p.turn
                if f.startswith(("tow:", "tow_hidden:"))]
        moves = [TowMove(seat, steps, hidden or is_hidden(t.players[seat]))
                 for seat, hidden in tows if seat != mover]
        # tows still waiting for an earlier move of hers to settle go first: each towed
        # character copies the bard's moves in the order she made them (D-45)
        waiting = [i for i, x in enumerate(t.pending) if isinstance(x, TowMove)]
        if waiting:
            t.pending[waiting[-1] + 1:waiting[-1] + 1] = moves
        else:
            for move in moves:
                t.push(move)

    def may_hide(self, layer: Dungeonopoly, t: Txn, seat: int) -> bool:
        p = character(t, seat)
        if p.enchanted("glitterdust") is None:
            return True
        t.set_player(seat, enchantments=p.without_enchantment("glitterdust"))
        t.emit("hiding_fizzled", seat, detail="glitterdust")
        return False

    def may_enchant(self, layer: Dungeonopoly, t: Txn, seat: int, ench: Enchantment) -> bool:
        if ench.name == "invisibility":
            return self.may_hide(layer, t, seat)
        return True

    def sync(self, layer: Dungeonopoly, t: Txn) -> None:
        """A melody shared by everyone owing rent at once lasts only while towing resolves."""
        if any(isinstance(x, TowMove) for x in t.pending):
            return
        for seat in range(len(t.players)):
            c = character(t, seat)
            stale = [f for f in c.turn if f.startswith("melody_at:")]
            if stale:
                layer.drop_flag(t, seat, *stale)

    def player_json(self, layer: Dungeonopoly, state: GameState, seat: int) -> dict[str, Any]:
        p = character(state, seat)
        out: dict[str, Any] = {}
        if knows(p, "bardic_music") is not None:
            out["melodies"] = list(p.chosen("melody"))
        tows = [state.players[int(f.split(":")[1])].name for f in p.turn
                if f.startswith(("tow:", "tow_hidden:"))]
        if tows:
            out["towing"] = tows
        if p.chosen("borrow"):
            out["borrowed"] = list(p.chosen("borrow"))
        return out

    def bot_hint(self, state: GameState, actions: Sequence[Action]) -> Action | None:
        return bard_bot(state, actions)


GOOD_MELODIES = ("dirge_of_doom", "inspire_courage", "cutting_words", "song_of_freedom")
GOOD_BORROWS = ("fighter:attack", "wizard:magic_missile", "rogue:pick_pockets",
                "wizard:expeditious_retreat")


def bard_bot(state: GameState, actions: Sequence[Action]) -> Action | None:
    """Choose melodies and borrows from a short list; play Dirge of Doom on your own rent,
    Inspire Courage on rent you owe; Fascinate opponents onto your own lots."""
    head = state.pending[0] if state.pending else None
    if isinstance(head, MelodyChoice):
        plays = {param(a.params, "melody"): a for a in actions if isinstance(a, UseAbility)}
        if state.allied(head.owner, head.player) and "dirge_of_doom" in plays:
            return plays["dirge_of_doom"]
        if head.payer == head.player and "inspire_courage" in plays:
            return plays["inspire_courage"]
        if state.allied(head.owner, head.player) and "cutting_words" in plays:
            return None
        return next((a for a in actions if isinstance(a, Pass)), None)
    if isinstance(head, MelodyRoll):
        return None
    if head is not None:
        return None
    cur = state.current
    p = character(state, cur)
    if not is_bard(p):
        return None
    mine = [a for a in actions if a.player == cur]
    for kind, prefer in (("melody", GOOD_MELODIES), ("borrow", GOOD_BORROWS)):
        picks = [a for a in mine if isinstance(a, Choose) and a.what == kind]
        if picks:
            good = [a for a in picks if a.option in prefer]
            return min(good, key=lambda a: prefer.index(a.option)) if good else picks[0]
    uses = {a.ability: a for a in mine if isinstance(a, UseAbility)}
    if "fascinate" in uses and state.squares[p.position].owner == state.side(cur):
        return uses["fascinate"]
    return None


BARD = register_class(CharacterClass("bard", (
    Fascinate("fascinate", 1, "ability", frozenset({"mental", "limited_range", "movement"}),
              summary="pull everyone within range onto your square"),
    BardicMusic("bardic_music", 2, "ability", frozenset({"reaction_to_rent"}),
                summary="rent owed where you stand: play a melody (more at 4, 6 and 8)"),
    Suggestion("suggestion", 3, "spell", frozenset({"mental", "targeted", "limited_range",
                                                    "movement"}),
               summary="a character in range moves as far as you do this turn"),
    Glitterdust("glitterdust", 5, "spell", frozenset({"enchantment", "limited_range", "area"}),
                summary="reveal everyone on a square in range; their next hiding fizzles"),
    BardicKnowledge("bardic_knowledge", 7, "ability", frozenset({"single_use", "before_roll",
                                                                 "movement"}),
                    summary="instead of rolling, move seven squares"),
    MassSuggestion("mass_suggestion", 9, "spell", frozenset({"mental", "limited_range",
                                                             "area", "movement"}),
                   summary="everyone in range (hidden too) moves as far as you do this turn"),
    JackOfAllTrades("jack_of_all_trades", 10, "automatic", frozenset(),
                    summary="borrow three level-5-or-lower abilities of other classes"),
), "songs that lull opponents and tow them where she likes"))

BARD_EFFECT = register_effect(BardEffect())
