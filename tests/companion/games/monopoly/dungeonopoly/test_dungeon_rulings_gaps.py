"""Rulings that had no test of their own (D-24, D-34, D-40, D-44, D-45, D-48 in
docs/dungeonopoly/rulings.md) and the demiplane movement cases of D-60
(docs/dungeonopoly/rulings.md). Each test names its ruling; the figures are
exact so a broken rule fails."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.core.errors import IllegalActionError
from companion.games.monopoly.actions import EndTurn
from companion.games.monopoly.dungeonopoly import Pass, UseAbility
from companion.games.monopoly.dungeonopoly.abilities import Choose
from companion.games.monopoly.dungeonopoly.character import Enchantment
from companion.games.monopoly.dungeonopoly.classes.bard import MelodyChoice
from companion.games.monopoly.dungeonopoly.classes.druid import ThornsChoice
from companion.games.monopoly.dungeonopoly.classes.paladin import CounterChoice
from companion.games.monopoly.dungeonopoly.genesis import restore_enchantment, stand
from companion.games.monopoly.dungeonopoly.table import Demiplane
from companion.games.monopoly.dungeonopoly.terms import dungeon, with_square_enchantment

BOARDWALK = 39


def use(g: Any, seat: int, name: str, target: int | None = None, **params: Any) -> Any:
    return g.act(UseAbility(seat, name, target, tuple((k, str(v)) for k, v in params.items())))


def turn(g: Any, seat: int) -> None:
    g.state = replace(g.state, current=seat, rolled=False, roll_again=False, doubles=0,
                      pending=())
    g.set(seat, turn=())


def setf(g: Any, seat: int, **fields: Any) -> None:
    """``g.set`` plus the choices/counters fields (parsed like a transcript's set line)."""
    for key in ("choices", "counters"):
        if key in fields:
            p = g.rules.set_player_field(g.state.players[seat], key, str(fields.pop(key)))
            players = list(g.state.players)
            players[seat] = p
            g.state = replace(g.state, players=tuple(players))
    if fields:
        g.set(seat, **fields)


def square_spell(g: Any, square: int, name: str, source: int, level: int) -> None:
    g.state = replace(g.state, table=with_square_enchantment(
        dungeon(g.state), square, Enchantment(name, source, level)))


def demiplane(g: Any, after: int, deck: str, card: str, psion: int = 0) -> None:
    """A demiplane made by ``psion`` (its card taken out of the deck, as Genesis does)."""
    d = Demiplane(after, deck, card, psion, 7)
    order = tuple(c for c in getattr(g.state, deck) if c != card)
    found = dungeon(g.state)
    found = replace(found, demiplanes=found.demiplanes + (d,))
    g.state = replace(g.state, table=restore_enchantment(found, d), **{deck: order})


def bulwark(g: Any, seat: int, position: int, level: int = 4) -> None:
    """The paladin in ``seat`` stands in Bulwark of Defense on ``position`` (her stance lasts
    until her next turn)."""
    setf(g, seat, level=level, choices="stance:bulwark_of_defense", position=position)
    g.state = replace(g.state, current=seat, rolled=True, roll_again=False, pending=())
    g.set(seat, turn=("moved", "walked"))
    use(g, seat, "fighting_stance", stance="bulwark_of_defense")


# --- D-24: Wall of Thorns asks on passing only; "stop" on a push does not land -----------------
def test_telekinesis_push_over_thorns_stops_without_landing(game: Any) -> None:
    g = game("wizard", "commoner", "druid")
    square_spell(g, 8, "wall_of_thorns", 2, 3)  # Vermont Avenue, owned by the druid
    g.own(8, 2)
    g.set(0, level=9, position=6)
    g.set(1, position=6)
    turn(g, 0)
    use(g, 0, "telekinesis", 1, steps=4)  # 6 -> 10 would cross Vermont (8)
    head = g.state.pending[0]
    assert isinstance(head, ThornsChoice) and head.player == 1 and g.p(1).position == 8
    g.act(Choose(1, "thorns", "stop"))
    # stopped on the druid's lot, but a push does not land: no rent ($6) is owed
    assert g.p(1).position == 8 and g.cash(1) == 1500 and g.cash(2) == 1500
    assert not g.state.pending


def test_thorns_not_asked_when_a_roll_ends_on_it_damage_at_casting_level(game: Any) -> None:
    g = game("commoner", "druid")
    square_spell(g, 8, "wall_of_thorns", 1, 5)  # cast at level 5; the druid is level 9 now
    g.set(1, level=9, position=30)
    g.set(0, position=6)
    turn(g, 0)
    g.roll(0, 1, 1)  # 6 -> 8: the move ends on the wall, nothing to choose
    assert g.p(0).position == 8
    assert not any(isinstance(p, ThornsChoice) for p in g.state.pending)
    g.state = replace(g.state, pending=())
    g.set(0, position=6)
    turn(g, 0)
    ep = g.p(1).ep
    g.roll(0, 2, 3)  # 6 -> 11 passes it: take the damage
    g.act(Choose(0, "thorns", "damage"))
    assert g.cash(0) == 1500 - 100 and g.cash(1) == 1500  # $20 x casting level 5, to the bank
    assert g.p(1).ep == ep  # the druid earns nothing for her wall's damage


# --- D-34: reach either way round; no counter against a hidden attacker -------------------
def test_counter_reaches_across_go_but_not_a_hidden_attacker(game: Any) -> None:
    g = game("wizard", "paladin")
    g.set(0, level=1, position=0)
    g.set(1, level=1, position=BOARDWALK)  # one square back from GO: adjacent
    turn(g, 0)
    use(g, 0, "magic_missile", 1)
    assert g.cash(1) == 1500 - 20 and isinstance(g.state.pending[0], CounterChoice)
    use(g, 1, "counter", 0)
    assert g.cash(0) == 1500 - 20  # $20 x the paladin's level 1
    g2 = game("wizard", "paladin")
    g2.set(0, level=1, position=0, hidden=True)
    g2.set(1, level=1, position=BOARDWALK)
    turn(g2, 0)
    use(g2, 0, "magic_missile", 1)
    assert g2.cash(1) == 1480
    assert not any(isinstance(p, CounterChoice) for p in g2.state.pending)
    with pytest.raises(IllegalActionError):
        use(g2, 1, "counter", 0)
    assert g2.cash(0) == 1500


# --- D-40: the paladin's blessings work by themselves and earn no EP ------------------------
def test_paladin_blessings_earn_no_ep(game: Any) -> None:
    g = game("paladin", "commoner", "fighter")
    g.set(0, level=10, ep=95, position=20)
    g.set(1, position=22)  # two squares away: within Holy Sword's reach
    g.set(2, level=3, position=20)
    g.state = replace(g.state, current=0, rolled=True, roll_again=False, pending=())
    g.set(0, turn=("moved",))
    g.act(EndTurn(0))  # Bob starts his turn in her reach: Holy Aura, $20 x 10
    assert g.cash(1) == 1500 - 200 and g.cash(0) == 1500 and g.p(0).ep == 95
    turn(g, 2)
    use(g, 2, "attack", 0)  # $60 from Heart of the Titan's reservoir
    assert g.cash(0) == 1500 and g.rules.player_json(g.state, 0)["reservoir"] == 440
    g.act(Pass(0))
    assert g.p(0).ep == 95
    g.set(0, position=2)
    turn(g, 0)
    g.roll(0, 1, 1)  # doubles onto Income Tax: Divine Grace waives the $200
    assert g.cash(0) == 1500 and g.state.pot == 0
    assert g.p(0).ep == 96  # the doubles earn their 1 EP; Divine Grace adds none


# --- D-44: one melody for rents owed at once; asked again afterwards ------------------------
def test_shared_melody_ends_with_the_towing(game: Any) -> None:
    g = game("bard", "commoner", "commoner")
    setf(g, 0, level=9, choices="melody:dirge_of_doom,melody:inspire_courage", position=36)
    g.own(BOARDWALK, 0)
    g.set(1, position=36)
    g.set(2, position=30)  # out of range: not towed
    turn(g, 0)
    use(g, 0, "mass_suggestion")
    g.roll(0, 1, 2)  # the bard lands on her own Boardwalk; Bob is towed there
    head = g.state.pending[0]
    assert isinstance(head, MelodyChoice) and head.payer == 1
    use(g, 0, "bardic_music", melody="dirge_of_doom")
    assert g.cash(1) == 1500 - 100 and not g.state.pending
    g.act(EndTurn(0))
    turn(g, 2)
    g.set(2, position=36)
    g.roll(2, 1, 2)  # Cat lands later: a new rent, so the bard is asked again
    head = g.state.pending[0]
    assert isinstance(head, MelodyChoice) and head.payer == 2
    use(g, 0, "bardic_music", melody="inspire_courage")
    assert g.cash(2) == 1500 - 25 and g.cash(0) == 1500 + 100 + 50


# --- D-45: towing copies each signed move in order, after the bard's landing; pinned and
# jailed characters stay ---------------------------------------------------------------------
def test_towing_follows_each_signed_move_in_order(game: Any) -> None:
    g = game("bard", "commoner", "commoner", "paladin")
    g.own(BOARDWALK, 1)
    g.own(35, 0)  # where her flight ends: her own railroad, nothing to decide
    g.own(37, 0)  # Park Place: Bob's first tow lands there and pays her $35
    bulwark(g, 3, 31)  # in the bard's range (5 squares) but pinned by her stance
    setf(g, 0, level=9, choices="melody:frightening_tune", position=36)
    g.set(1, position=34)
    g.set(2, position=33)
    chance = ("go_to_jail",) + tuple(c for c in g.state.chance if c != "go_to_jail")
    g.state = replace(g.state, chance=chance)
    turn(g, 0)
    use(g, 0, "mass_suggestion")
    g.roll(0, 1, 2)  # 36 -> 39, Bob's Boardwalk: she owes rent there, the bard is present
    assert isinstance(g.state.pending[0], MelodyChoice)
    assert (g.p(1).position, g.p(2).position) == (34, 33)  # her landing is settled first
    use(g, 0, "bardic_music", melody="frightening_tune")
    assert g.cash(0) == 1500 - 50
    g.roll(0, 4)  # she flees 4 back, 39 -> 35
    assert g.p(0).position == 35
    # Bob: +3 for the roll (34 -> 37), then -4 for the tune (37 -> 33); in the reverse order
    # he would have landed on Go To Jail (30)
    assert g.p(1).position == 33 and not g.p(1).in_jail and g.cash(0) == 1450 + 35
    # Cat: +3 onto Chance (36), Go to Jail; the -4 tow leaves her in her cell
    assert g.p(2).in_jail and g.p(2).position == 10
    assert g.p(3).position == 31  # pinned


# --- D-48: a borrowed ability brings its parts and its own levelling choice -----------------
def test_borrowed_wild_shape_brings_maul_and_scent_and_one_form(game: Any) -> None:
    g = game("bard", "commoner")
    g.set(0, level=10)
    g.act(Choose(0, "borrow", "druid:wild_shape"))
    due = {a.what for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)}
    assert "form" in due and "borrow" in due
    g.act(Choose(0, "form", "bear"))
    due = {a.what for a in g.rules.legal_actions(g.state) if isinstance(a, Choose)}
    assert "form" not in due  # one form, not three
    names = {a["name"] for a in g.rules.player_json(g.state, 0)["abilities"]}
    assert {"wild_shape", "maul", "scent"} <= names
    opts = {a.option for a in g.rules.legal_actions(g.state)
            if isinstance(a, Choose) and a.what == "borrow"}
    assert "druid:maul" not in opts and "druid:wild_shape" not in opts
    g.set(1, position=0)
    use(g, 0, "wild_shape", form="bear")
    use(g, 0, "maul", 1)
    assert g.cash(1) == 1500 - 400  # Maul: $40 x the bard's level 10


# --- D-60: movement costs and throws with demiplanes ---------------------------------------
def test_bulwark_charges_a_defended_demiplane_in_the_movers_world(game: Any) -> None:
    # a Chance demiplane after St. Charles (11) is a square for Bob and for the paladin
    g = game("psion", "commoner", "paladin")
    demiplane(g, 11, "chance", "bank_dividend")
    bulwark(g, 2, 11)
    g.set(1, position=10, in_jail=False)
    turn(g, 1)
    g.roll(1, 1, 3)  # 4: St. Charles 1+1, the demiplane 1+1 -> out of movement on it
    assert "onto a demiplane" in [e.detail for e in g.events if e.kind == "moved"]
    assert g.cash(1) == 1500 + 50  # landed: the demiplane's card (bank dividend) applies
    # a Community Chest demiplane exists only for its psion: the paladin cannot see it, but
    # the stance acts on the psion, whose world it is, so it costs her the extra step too
    g2 = game("psion", "commoner", "paladin")
    demiplane(g2, 11, "community_chest", "bank_error")
    bulwark(g2, 2, 11)
    g2.set(0, position=10)
    turn(g2, 0)
    g2.roll(0, 1, 3)
    assert g2.cash(0) == 1500 + 200  # stopped on her demiplane: bank error in her favour
    # without the stance she walks on: 11, the demiplane, 12, 13 (States Avenue)
    g3 = game("psion", "commoner", "paladin")
    demiplane(g3, 11, "community_chest", "bank_error")
    g3.set(0, position=10)
    turn(g3, 0)
    g3.roll(0, 1, 3)
    assert g3.p(0).position == 13 and g3.cash(0) == 1500


def test_entangle_costs_nothing_on_the_demiplane_beside_it(game: Any) -> None:
    g = game("psion", "druid")
    demiplane(g, 11, "community_chest", "bank_error")
    square_spell(g, 11, "entangle", 1, 1)  # St. Charles, just before the demiplane
    g.set(1, position=30)
    g.set(0, position=10)
    turn(g, 0)
    g.roll(0, 2, 3)  # 5: St. Charles 1+2, the demiplane 1, Electric Company (12) 1
    assert g.p(0).position == 12 and g.cash(0) == 1500
    # a druid standing on a demiplane has no board square to enchant (D-58)
    g2 = game("psion", "druid")
    demiplane(g2, 11, "chance", "bank_dividend")
    setf(g2, 1, level=1, choices="primal:entangle", position=11)
    g2.state = replace(g2.state, table=stand(dungeon(g2.state), 1, 11))
    turn(g2, 1)
    with pytest.raises(IllegalActionError, match="no board square"):
        use(g2, 1, "entangle")


def test_psionic_blast_throw_passes_a_demiplane_on_the_targets_path(game: Any) -> None:
    g = game("psion", "commoner", "commoner")
    demiplane(g, 23, "chance", "bank_dividend")  # for her opponents only
    g.set(0, level=8, position=20)  # range 4 (her world has no demiplane): up to 24
    g.set(1, position=22)
    g.set(2, position=19)
    turn(g, 0)
    use(g, 0, "psionic_blast")
    # Bob walks 23, the demiplane, 24, 25: the first square beyond her range is 25
    # (three steps, as if there were no demiplane, would leave him on 24, inside it)
    assert g.p(1).position == 25 and g.cash(1) == 1500
    assert g.p(2).position == 15  # backwards, no demiplane on his path: 18, 17, 16, 15


# --- D-64: a turn cut short still settles what is pending for her ------------------------------
def test_cut_short_bard_still_plays_a_melody_on_rent_already_owed(game: Any) -> None:
    # Fascinate pulled two opponents onto a lot; the first rent's Cutting Words hurt a warlock
    # whose Dark Delirium cut the bard's turn short. The second rent, already owed, is still
    # hers to sing over (it was listed but refused: "your turn is over")
    from companion.games.monopoly.dungeonopoly.classes.warlock import EndTurnNow

    g = game("bard", "commoner", "commoner")
    setf(g, 0, level=8, choices="melody:dirge_of_doom", position=BOARDWALK)
    g.own(BOARDWALK, 0)
    g.set(1, position=BOARDWALK)
    turn(g, 0)
    g.set(0, turn=("turn_over",))
    g.state = replace(g.state, rolled=True, pending=(
        MelodyChoice(0, payer=1, owner=0, square=BOARDWALK, amount=50), EndTurnNow(0)))
    play = UseAbility(0, "bardic_music", None, (("melody", "dirge_of_doom"),))
    assert play in g.rules.legal_actions(g.state)
    g.act(play)
    assert g.cash(1) == 1500 - 100 and g.state.current == 1  # doubled; then her turn ended
    assert g.money_ok()
    # with nothing pending for her, a cut-short turn allows no new ability
    turn(g, 0)
    g.set(0, turn=("turn_over",))
    with pytest.raises(IllegalActionError, match="turn is over"):
        use(g, 0, "fascinate")
