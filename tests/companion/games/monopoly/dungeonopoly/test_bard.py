"""Bard (Dungeonopoly, "Bard abilities"): Fascinate, Bardic Music and its seven melodies,
Suggestion and Mass Suggestion (towing), Glitterdust, Bardic Knowledge, Jack-of-All-Trades."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import EndTurn
from companion.games.monopoly.dungeonopoly import Pass, UseAbility
from companion.games.monopoly.dungeonopoly.abilities import Choose
from companion.games.monopoly.dungeonopoly.classes.bard import MelodyChoice, MelodyRoll

BOARDWALK = 39


def use(g: Any, seat: int, ability: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, ability, target, tuple((k, str(v)) for k, v in params.items())))


def setf(g: Any, seat: int, **fields: Any) -> None:
    for key in ("choices", "counters"):
        if key in fields:
            p = g.rules.set_player_field(g.state.players[seat], key, str(fields.pop(key)))
            players = list(g.state.players)
            players[seat] = p
            g.state = replace(g.state, players=tuple(players))
    if fields:
        g.set(seat, **fields)


def turn_of(g: Any, seat: int) -> None:
    g.state = replace(g.state, current=seat, rolled=False, roll_again=False, doubles=0,
                      pending=())


def bard(g: Any, seat: int, level: int, *melodies: str, **fields: Any) -> None:
    setf(g, seat, level=level, choices=",".join(f"melody:{m}" for m in melodies), **fields)


def play_on(g: Any, melody: str | None) -> None:
    head = g.state.pending[0]
    assert isinstance(head, MelodyChoice)
    if melody is None:
        g.act(Pass(head.player))
    else:
        use(g, head.player, "bardic_music", melody=melody)


# --- Fascinate -----------------------------------------------------------------------------------
def test_fascinate_pulls_characters_in_range_who_pass_and_land(game: Any) -> None:
    g = game("bard", "commoner", "commoner")
    g.set(0, level=3, position=6)
    g.own(6, 0)
    g.set(1, position=4)  # two squares back: passes 5, lands on 6
    g.set(2, position=9)  # three away: out of range at level 3
    use(g, 0, "fascinate")
    assert g.p(1).position == 6 and g.cash(1) == 1494 and g.p(2).position == 9
    assert g.p(0).ep == 20 + 1 + 0  # the ability (rent EP goes to the payer)
    with pytest.raises(IllegalActionError, match="nobody"):
        use(g, 0, "fascinate")  # Bob is on her square; Cat out of range


def test_fascinate_hidden_move_without_landing_once_per_turn(game: Any) -> None:
    g = game("bard", "rogue")
    g.set(0, position=6)
    g.own(6, 0)
    g.set(1, position=7, hidden=True)
    use(g, 0, "fascinate")
    assert g.p(1).position == 6 and g.cash(1) == 1500  # no landing, no rent
    g.set(1, position=7)
    with pytest.raises(IllegalActionError, match="nobody"):
        use(g, 0, "fascinate")  # each character once per turn


def test_fascinate_spares_ascended_clerics_and_bulwark(game: Any) -> None:
    g = game("bard", "cleric")
    g.set(0, position=6)
    g.set(1, level=9, position=7)
    with pytest.raises(IllegalActionError, match="nobody"):
        use(g, 0, "fascinate")


# --- Bardic Music -----------------------------------------------------------------------------
def test_melodies_chosen_at_2_4_6_8(game: Any) -> None:
    g = game("bard", "commoner")
    assert not [a for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)]
    g.set(0, level=2)
    opts = {a.option for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)}
    assert len(opts) == 7
    g.act(Choose(0, "melody", "dirge_of_doom"))
    for level, melody in ((4, "cutting_words"), (6, "song_of_rest"), (8, "inspire_courage")):
        g.set(0, level=level)
        g.act(Choose(0, "melody", melody))
    assert g.p(0).chosen("melody") == ("dirge_of_doom", "cutting_words", "song_of_rest",
                                       "inspire_courage")
    assert g.rules.player_json(g.state, 0)["melodies"][0] == "dirge_of_doom"


def rent_scene(game: Any, melody: str, *extra: str, bless: str = "") -> Any:
    """Ann the bard stands on her own Boardwalk; Bob lands there from Chance (36)."""
    g = game("bard", "commoner", "commoner")
    bard(g, 0, 8, melody, *extra, position=BOARDWALK)
    g.own(BOARDWALK, 0)
    if bless:
        g.state = g.rules.set_square_field(g.state, BOARDWALK, "enchantments", bless)
    turn_of(g, 1)
    g.set(1, position=36)
    g.roll(1, 1, 2)
    return g


def test_dirge_of_doom_doubles_after_blessing(game: Any) -> None:
    g = rent_scene(game, "dirge_of_doom", bless="bless:3")
    assert g.state.pending[0].amount == 57  # $50 blessed at level 3: +15% rounded down
    play_on(g, "dirge_of_doom")
    assert g.cash(1) == 1500 - 114 and g.cash(0) == 1614
    assert g.money_ok()


def test_pass_leaves_the_rent_alone(game: Any) -> None:
    g = rent_scene(game, "dirge_of_doom")
    play_on(g, None)
    assert g.cash(1) == 1450


def test_inspire_courage_bank_pays_half(game: Any) -> None:
    g = game("bard", "commoner")
    bard(g, 0, 2, "inspire_courage", position=36)
    g.own(BOARDWALK, 1)
    g.roll(0, 1, 2)
    play_on(g, "inspire_courage")
    assert g.cash(0) == 1475 and g.cash(1) == 1550 and g.money_ok()


def test_cutting_words_damages_the_owner(game: Any) -> None:
    g = game("bard", "commoner", "commoner")
    bard(g, 0, 4, "cutting_words", position=BOARDWALK)
    g.own(BOARDWALK, 2)
    turn_of(g, 1)
    g.set(1, position=36)
    g.roll(1, 1, 2)
    play_on(g, "cutting_words")
    assert g.cash(1) == 1450 and g.cash(2) == 1550 - 80  # $20 x the bard's level 4


def test_song_of_freedom_to_free_parking_via_go(game: Any) -> None:
    g = rent_scene(game, "song_of_freedom")
    play_on(g, "song_of_freedom")
    assert g.p(1).position == 20 and g.cash(1) == 1500 - 50 + 200


def test_inspire_greatness_rolls_2d6_forward(game: Any) -> None:
    g = rent_scene(game, "inspire_greatness")
    play_on(g, "inspire_greatness")
    assert isinstance(g.state.pending[0], MelodyRoll)
    assert g.rules.roll_spec(g.state).sides == (6, 6)
    g.roll(1, 2, 3)
    assert g.p(1).position == 4 and g.cash(1) == 1500 - 50 + 200 - 200  # GO, Income Tax


def test_frightening_tune_rolls_1d6_back(game: Any) -> None:
    g = rent_scene(game, "frightening_tune")
    play_on(g, "frightening_tune")
    assert g.rules.roll_spec(g.state).sides == (6,)
    g.roll(1, 4)
    assert g.p(1).position == 35 and g.cash(1) == 1450


def test_song_of_rest_ends_the_turn_and_refreshes(game: Any) -> None:
    g = game("bard", "fighter", "commoner")
    bard(g, 0, 6, "song_of_rest", position=BOARDWALK)
    g.own(BOARDWALK, 0)
    turn_of(g, 1)
    g.set(1, position=37, level=10, spent="abundant_step")
    g.roll(1, 1, 1)  # doubles, but the song ends her turn
    play_on(g, "song_of_rest")
    g.act(Pass(1))  # a level-10 fighter may Intimidate first; she pays
    assert g.state.current == 2 and g.p(1).spent == () and g.cash(1) == 1450


def test_one_melody_for_everyone_owing_at_once(game: Any) -> None:
    g = game("bard", "commoner", "commoner")
    bard(g, 0, 9, "dirge_of_doom", position=36)
    g.own(BOARDWALK, 0)
    g.set(1, position=36)
    g.set(2, position=36)
    use(g, 0, "mass_suggestion")
    g.roll(0, 1, 2)  # the bard lands on her own Boardwalk; both are towed there
    play_on(g, "dirge_of_doom")
    assert not g.state.pending  # the second rent took the same melody, unasked
    assert g.cash(1) == 1400 and g.cash(2) == 1400 and g.cash(0) == 1700


# --- Suggestion and Mass Suggestion ------------------------------------------------------------
def test_suggestion_tows_a_character_the_same_distance(game: Any) -> None:
    g = game("bard", "commoner", "commoner")
    g.set(0, level=3, position=10)
    g.set(1, position=11)
    g.own(15, 2)
    g.own(16, 2)
    use(g, 0, "suggestion", 1)
    g.roll(0, 2, 3)  # Ann 10 -> 15; then Bob 11 -> 16, landing (rent $14 to Cat)
    assert g.p(0).position == 15 and g.p(1).position == 16
    assert g.cash(1) == 1500 - 14 and "towed" in g.kinds()


def test_suggestion_limits(game: Any) -> None:
    g = game("bard", "cleric", "commoner")
    g.set(0, level=3, position=10)
    g.set(1, level=9, position=11)
    g.set(2, position=13)
    with pytest.raises(IllegalActionError, match="Ascended"):
        use(g, 0, "suggestion", 1)
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g, 0, "suggestion", 2)


def test_suggestion_lasts_only_this_turn(game: Any) -> None:
    g = game("bard", "commoner")
    g.set(0, level=3, position=10)
    g.set(1, position=12)
    for sq in (13, 15, 18):
        g.own(sq, 0)
    use(g, 0, "suggestion", 1)
    g.roll(0, 1, 2)  # Ann 10 -> 13, Bob 12 -> 15
    assert g.p(1).position == 15
    g.act(EndTurn(0))
    g.state = replace(g.state, rolled=True)
    g.act(EndTurn(1))  # Ann's next turn: the suggestion is over
    g.roll(0, 2, 3)
    assert g.p(0).position == 18 and g.p(1).position == 15


def test_mass_suggestion_tows_hidden_without_landing(game: Any) -> None:
    g = game("bard", "rogue")
    g.set(0, level=9, position=1)
    g.set(1, position=3, hidden=True)
    g.own(6, 0)
    use(g, 0, "mass_suggestion")
    g.roll(0, 1, 2)
    assert g.p(1).position == 6 and g.cash(1) == 1500


# --- Glitterdust ----------------------------------------------------------------------------------
def test_glitterdust_reveals_and_next_hiding_fizzles(game: Any) -> None:
    g = game("bard", "rogue")
    g.set(0, level=5, position=10)
    g.set(1, position=12, hidden=True, skills="sneak:15")
    g.own(12, 0)
    use(g, 0, "glitterdust", square=12)
    assert not g.p(1).hidden and g.cash(1) == 1500  # revealed, not landing
    assert g.p(1).enchanted("glitterdust") is not None
    turn_of(g, 1)
    use(g, 1, "sneak")
    g.roll(1, 5)
    g.roll(1, 2)
    assert not g.p(1).hidden and g.p(1).enchanted("glitterdust") is None


def test_glitterdust_makes_invisibility_fizzle(game: Any) -> None:
    g = game("wizard", "bard")
    g.set(0, level=5, enchantments="glitterdust")
    use(g, 0, "invisibility")
    assert g.p(0).enchanted("invisibility") is None
    assert "hiding_fizzled" in g.kinds()


def test_glitterdust_range(game: Any) -> None:
    g = game("bard", "commoner")
    g.set(0, level=5, position=10)
    g.set(1, position=14)
    with pytest.raises(IllegalActionError, match="out of range"):
        use(g, 0, "glitterdust", square=14)


# --- Bardic Knowledge ---------------------------------------------------------------------------
def test_bardic_knowledge_seven_squares_no_lucky_seven(game: Any) -> None:
    g = game("bard", "commoner")
    g.set(0, level=7, ep=60, position=1)
    use(g, 0, "bardic_knowledge")
    assert g.p(0).position == 8 and g.p(0).ep == 61  # the ability only, no lucky seven
    assert not g.state.roll_again and g.rules.roll_spec(g.state) is None
    g.state = replace(g.state, pending=())
    turn_of(g, 0)
    with pytest.raises(IllegalActionError, match="used up"):
        use(g, 0, "bardic_knowledge")


# --- Jack-of-All-Trades -------------------------------------------------------------------------
def test_jack_of_all_trades_three_borrowed_abilities(game: Any) -> None:
    g = game("bard", "commoner")
    g.set(0, level=10)
    opts = {a.option for a in g.rules.legal_actions(g.state)
            if isinstance(a, Choose) and a.what == "borrow"}
    assert "fighter:attack" in opts and "rogue:sneak" in opts and "cleric:holy_smite" in opts
    assert "fighter:raze" not in opts and not any(o.startswith("bard:") for o in opts)
    g.act(Choose(0, "borrow", "fighter:attack"))
    g.act(Choose(0, "borrow", "rogue:sneak"))
    g.act(Choose(0, "borrow", "wizard:magic_missile"))
    assert not [a for a in g.rules.legal_actions(g.state)
                if isinstance(a, Choose) and a.what == "borrow"]
    assert g.p(0).ranks("sneak") == 12 and g.rules.skill_points_left(g.p(0)) == 0
    g.set(1, position=0)
    use(g, 0, "attack", 1)
    assert g.cash(1) == 1500 - 200
    names = {a["name"] for a in g.rules.player_json(g.state, 0)["abilities"]}
    assert {"attack", "sneak", "backstab", "magic_missile"} <= names


def test_jack_of_all_trades_offers_no_psionic_power_d74(game: Any) -> None:
    g = game("bard", "commoner")
    g.set(0, level=10)
    opts = {a.option for a in g.rules.legal_actions(g.state)
            if isinstance(a, Choose) and a.what == "borrow"}
    assert "wizard:magic_missile" in opts
    assert not any(o.startswith("psion:") for o in opts)
    with pytest.raises(IllegalActionError, match="choose borrow from"):
        g.act(Choose(0, "borrow", "psion:mind_thrust"))


def test_borrowed_sneak_checks_against_12(game: Any) -> None:
    g = game("bard", "commoner")
    setf(g, 0, level=10, choices="borrow:rogue:sneak,borrow_part:rogue:backstab")
    g.set(0, skills="sneak:12")
    use(g, 0, "sneak")
    assert g.state.pending[0].target == 12


# --- random bot games with the bard, the druid and the paladin -----------------------------------
def _bot_game(seed: int, classes: tuple[str, ...], level: int, bot: str,
              steps: int) -> set[str]:
    from conformance.harness import assert_replays, bot_game, header_lines

    from companion.core.registry import find_game
    from companion.games.monopoly.dungeonopoly.layer import PLAYER_ENCHANTMENTS

    rules = find_game("dungeonopoly")
    names = [f"{c.title()}{i}" for i, c in enumerate(classes)]
    state = rules.new_game(list(zip(names, classes, strict=True)), seed=seed)
    lines = header_lines(rules, state, list(classes))
    for name in names:
        lines.append(f"set player {name} level={level}")
        state = replace(state, players=tuple(
            rules.set_player_field(p, "level", str(level)) if p.name == name else p
            for p in state.players))
    played = bot_game(rules, state, bot=bot, seed=seed, dice_seed=seed + 1, steps=steps,
                      header=lines)
    used: set[str] = set()
    for step in played.steps:
        state = step.after
        used.update(e.detail for e in step.events if e.kind == "ability")
        assert sum(p.cash for p in state.players) + state.pot == state.bank_net
        for p in state.players:
            assert p.cash >= 0 and p.level == min(10, 1 + p.ep // 10)
            assert all(e.name in PLAYER_ENCHANTMENTS for e in p.enchantments), p.enchantments
    assert_replays(played)
    return used


@pytest.mark.parametrize("seed,level,bot", [(3, 1, "random"), (5, 5, "random"),
                                            (8, 10, "random"), (11, 10, "heuristic"),
                                            (13, 4, "heuristic")])
def test_bot_games_with_bard_druid_paladin(seed: int, level: int, bot: str) -> None:
    used = _bot_game(seed, ("bard", "druid", "paladin", "fighter"), level, bot, 700)
    assert used  # the bots do use class abilities


def test_bot_games_with_the_new_classes_and_core(game: Any) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 10_000), level=st.sampled_from([1, 6, 10]))
    def run(seed: int, level: int) -> None:
        _bot_game(seed, ("druid", "paladin", "bard", "cleric", "rogue", "wizard"), level,
                  "random", 500)

    run()
