"""Ability and enchantment names as the rule book writes them."""

from __future__ import annotations

import pytest

from companion.games.monopoly.dungeonopoly.abilities import all_abilities
from companion.games.monopoly.dungeonopoly.names import title_of


@pytest.mark.parametrize(("name", "shown"), [
    ("magic_missile", "Magic Missile"),
    ("shield_of_faith", "Shield of Faith"),
    ("heart_of_the_titan", "Heart of the Titan"),
    ("dark_ones_own_luck", "Dark One's Own Luck"),
    ("knights_move", "Knight's Move"),
    ("jack_of_all_trades", "Jack-of-All-Trades"),
    ("of_mice", "Of Mice"),
    ("rob_bank", "Rob Bank"),
])
def test_title_of(name: str, shown: str) -> None:
    assert title_of(name) == shown


def test_every_ability_name_reads_without_underscores() -> None:
    for _cls, ability in all_abilities():
        shown = title_of(ability.name)
        assert "_" not in shown and shown[:1].isupper(), (ability.name, shown)
