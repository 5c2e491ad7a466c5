"""Every registered game has a presenter with everything the kiosk asks of one, and it answers
for a new game of that game."""

from __future__ import annotations

import pytest

from companion.core.registry import find_game, game_names
from companion.kiosk.inputs import Menu
from companion.kiosk.presenter import Presenter, presenter_of
from tests.companion.testgame import NAME, Race

MEMBERS = sorted(n for n in vars(Presenter) if not n.startswith("_"))


def test_the_protocol_lists_what_the_screens_use() -> None:
    assert {"menu", "player_cards", "header", "dice_prompt", "roles", "place_of",
            "table_options", "game_over"} <= set(MEMBERS)


@pytest.mark.parametrize("name", [*game_names(), NAME])
def test_a_presenter_answers_for_a_new_game(race_game: Race, name: str) -> None:
    game = find_game(name)
    presenter = presenter_of(game)
    missing = [m for m in MEMBERS if not hasattr(presenter, m)]
    assert missing == [], f"{name}'s presenter lacks {missing}"
    assert presenter.description
    roles = presenter.roles()
    players = [(n, roles[i % len(roles)] if roles else "") for i, n in enumerate(["Ann", "Ben"])]
    state = game.new_game(players, seed=1)
    menu = presenter.menu(state)
    assert isinstance(menu, Menu) and menu.top
    assert menu.options[-1].label.startswith("Referee")
    prompt = presenter.dice_prompt(state)
    if prompt is not None:  # a game that starts with a roll: the dice entry answers it
        roll = presenter.roll_action(state, prompt, tuple(k.faces[0] for k in prompt.dice))
        assert presenter.is_roll(state, roll) and game.is_legal(state, roll)
    else:  # one that starts with a choice: the menu offers it
        assert len(menu.options) > 1 and all(
            game.is_legal(state, o.action) for o in menu.options if o.action is not None)
    cards = presenter.player_cards(state, {1: "move the piece"})
    assert [c.name for c in cards] == ["Ann", "Ben"] and cards[1].check == "move the piece"
    facts = presenter.header(state)
    assert facts.turn in (0, 1) and facts.current == 0  # 0: a game that starts with building
    assert presenter.game_over(state) is None
    place = presenter.place_of(state, 0)  # None: no piece on the board yet
    assert place is None or presenter.place_name(place)
    assert presenter.players_summary(state) == "Ann, Ben"
    for option in presenter.table_options():  # on/off, or a choice whose default is a value
        default = getattr(game.default_options(), option.name)
        assert str(default) in option.values if option.values else isinstance(default, bool)
