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
