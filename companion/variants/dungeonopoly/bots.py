"""A simple policy for class abilities, offered to the heuristic bot as ``rules.bot_hint``.

It never invents actions: it only picks one of the legal actions it is given (or None to let
the bot's Monopoly logic decide)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.actions import Action, Roll
from companion.rules.cards import card_by_id
from companion.rules.state import GameState
from companion.variants.dungeonopoly import effects
from companion.variants.dungeonopoly.abilities import Accept, Pass, TrainSkill, UseAbility
from companion.variants.dungeonopoly.reactions import Window
from companion.variants.dungeonopoly.steps import CardChoice, Check, RentChoice, RobBankChoice
from companion.variants.dungeonopoly.terms import character

BAD_CARDS = frozenset({"pay", "go_to_jail", "repairs", "pay_each_player", "move_back"})
SKILL_ORDER = ("rob_bank", "pick_pockets", "open_locks", "sneak", "steal")
# abilities worth using whenever they are legal, best first
EAGER = ("run", "attack", "combat_reflexes", "backstab", "holy_smite", "magic_missile",
         "far_shot", "fortify", "conquer", "expeditious_retreat", "mage_armor",
         "shield_of_faith", "wrath_of_god", "pick_pockets")


def bot_hint(state: GameState, actions: Sequence[Action]) -> Action | None:
    head = state.pending[0] if state.pending else None
    if isinstance(head, Window):
        return next((a for a in actions if isinstance(a, Pass)), None)
    if isinstance(head, Check):
        return next((a for a in actions if isinstance(a, Roll)), None)
    if isinstance(head, RentChoice):
        return next((a for a in actions if isinstance(a, UseAbility)), None) or \
            next((a for a in actions if isinstance(a, Pass)), None)
    if isinstance(head, CardChoice):
        bad = card_by_id(head.deck, head.card).effect in BAD_CARDS
        want = Pass if bad else Accept
        return next((a for a in actions if isinstance(a, want)), None)
    if isinstance(head, RobBankChoice):
        good = character(state, head.player).ranks("rob_bank") >= 12
        kind: type[Action] = UseAbility if good else Pass
        return next((a for a in actions if isinstance(a, kind)), None)
    if head is not None:
        return effects.bot_hint(state, actions)
    extra = effects.bot_hint(state, actions)  # the additional classes' policies
    if extra is not None:
        return extra
    train = [a for a in actions if isinstance(a, TrainSkill)]
    if train:
        return min(train, key=lambda a: SKILL_ORDER.index(a.skill))
    uses = [a for a in actions if isinstance(a, UseAbility) and a.player == state.current]
    for name in EAGER:
        for a in uses:
            if a.ability == name:
                if name == "run" and state.rolled:
                    continue
                return a
    for a in uses:
        if a.ability == "bless" and state.squares[state.players[a.player].position].owner == a.player:
            return a
        if a.ability == "curse":
            owner = state.squares[state.players[a.player].position].owner
            if owner is not None and owner != a.player:
                return a
    return None
