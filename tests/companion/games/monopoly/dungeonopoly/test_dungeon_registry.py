"""The class registry does not change with the games a process has played: a gestalt pair made
for one game must not show up in class lists (Jack-of-All-Trades' borrow offers, the setup
screen) of later games. A random-bot test once failed only when a gestalt game ran before it."""

from __future__ import annotations

from typing import Any

from companion.games.monopoly.dungeonopoly.abilities import Choose, class_names, find_class


def test_gestalt_pairs_stay_out_of_the_class_list(game: Any) -> None:
    before = class_names()
    pair = find_class("warlock+cleric")
    assert pair.ability("hex") is not None and pair.ability("bless") is not None
    assert class_names() == before
    assert not any("+" in name for name in class_names())


def test_borrow_offers_do_not_depend_on_earlier_gestalt_games(game: Any) -> None:
    def offers() -> list[str]:
        g = game("bard", "fighter")
        g.set(0, level=10)
        return sorted(a.option for a in g.rules.legal_actions(g.state, (0,))
                      if isinstance(a, Choose) and a.what == "borrow")

    first = offers()
    game("psion+fighter", "wizard+rogue", gestalt=True)  # a gestalt game in between
    find_class("warlock+cleric")
    assert offers() == first
    assert first and not any("+" in o.split(":", 1)[0] for o in first)
