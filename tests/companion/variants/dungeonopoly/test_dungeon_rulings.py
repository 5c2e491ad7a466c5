"""Rulings and rule gaps with a test of their own (docs/dungeonopoly-*.md, rulings-dungeonopoly.md):
each test names the ruling it pins down."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.rules.errors import IllegalActionError
from companion.variants.dungeonopoly import Pass, UseAbility


def use(g: Any, seat: int, name: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, name, target, tuple((k, str(v)) for k, v in params.items())))


def turn(g: Any, seat: int) -> None:
    g.state = replace(g.state, current=seat, rolled=False, roll_again=False, doubles=0)
    g.set(seat, turn=())


# --- quicker game: 5 EP per level everywhere a level comes from EP (A-R2) ----------------------
def test_quicker_game_referee_correction_uses_5_ep_per_level() -> None:
    from companion.transcript import header_lines, replay
    from companion.variants import find_variant

    rules = find_variant("dungeonopoly")
    state = rules.new_game([("Ann", "warlock"), ("Bob", "psion")],
                           replace(rules.default_options(), quicker_game=True), seed=1)
    lines = header_lines(rules, state, ["warlock", "psion"])
    after = replay("\n".join(lines + ["set player Ann ep=12", "set player Bob level=4"])).state
    assert [(p.ep, p.level) for p in after.players] == [(12, 3), (15, 4)]
    plain = rules.new_game([("Ann", "warlock"), ("Bob", "psion")], seed=1)
    lines = header_lines(rules, plain, ["warlock", "psion"])
    after = replay("\n".join(lines + ["set player Ann ep=12", "set player Bob level=4"])).state
    assert [(p.ep, p.level) for p in after.players] == [(12, 2), (30, 4)]


def test_quicker_game_set_ep_caps_at_level_10(rules: Any) -> None:
    state = rules.new_game([("Ann", "fighter"), ("Bob", "wizard")],
                           replace(rules.default_options(), quicker_game=True), seed=1)
    p = rules.set_player_field(state.players[0], "ep", "47")
    assert (p.ep, p.level) == (47, 10)
    p = rules.set_player_field(state.players[0], "ep", "44")
    assert p.level == 9


# --- R-D5: Insect Plague blocks abilities used by choice, Rob Bank's offer too ----------------
def test_rob_bank_is_not_offered_on_an_insect_plague(game: Any) -> None:
    from companion.variants.dungeonopoly.character import Enchantment
    from companion.variants.dungeonopoly.steps import RobBankChoice
    from companion.variants.dungeonopoly.terms import with_square_enchantment

    g = game("rogue", "druid")
    g.set(0, skills="rob_bank:10", position=38)
    g.state = replace(g.state, extra=with_square_enchantment(
        g.state.extra, 0, Enchantment("insect_plague", 1, 7)))
    turn(g, 0)
    g.roll(0, 1, 1)  # 38 -> GO: landing pays $400 unless she robs the bank
    assert isinstance(g.state.pending[0], RobBankChoice)
    legal = g.rules.legal_actions(g.state)
    assert not any(isinstance(a, UseAbility) for a in legal)
    with pytest.raises(IllegalActionError, match="Insect Plague"):
        use(g, 0, "rob_bank")
    g.act(Pass(0))
    assert g.cash(0) == 1500 + 400
