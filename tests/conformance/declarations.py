"""What the conformance kit plays of each game, and the invariants and refusals each declares.

A new game joins the kit by a ``declare(NAME, Conformance(...))`` line here (a registered game
with none still runs with ``harness.DEFAULT``: three plain players, no invariants). A Monopoly
variant reuses ``MONOPOLY_INVARIANTS`` and ``monopoly_refusals``: the bank's ledger is the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from conformance.harness import TEST_GAMES, Conformance, Table, declare

from companion.core.actions import Action
from companion.games.monopoly.engine import Rules
from companion.games.monopoly.state import Options

# ------------------------------------------------------------------------------------------
# The Monopoly family: the bank's ledger, the building stock, lots, jail cards, team pools
# ------------------------------------------------------------------------------------------


def money_conserved(game: Any, state: Any) -> None:
    """Every dollar in play came from the bank: cash in hand (a team's pool once) and the pot
    add up to what the bank paid out net."""
    held = state.money_in_hand + state.pot
    assert held == state.bank_net, f"money not conserved: {held} in play, bank paid {state.bank_net}"
    assert all(p.cash >= 0 for p in state.players), "a player holds negative cash"
    assert state.pot >= 0, "the pot is negative"


def buildings_within_stock(game: Any, state: Any) -> None:
    houses = sum(s.houses for s in state.squares if not s.hotel)
    hotels = sum(1 for s in state.squares if s.hotel)
    assert houses + state.bank_houses == state.options.bank_houses, "houses lost or made"
    assert hotels + state.bank_hotels == state.options.bank_hotels, "hotels lost or made"
    assert state.bank_houses >= 0 and state.bank_hotels >= 0
    assert all(s.houses <= state.options.max_houses for s in state.squares)


def lots_consistent(game: Any, state: Any) -> None:
    for i, s in enumerate(state.squares):
        assert not (s.mortgaged and s.level), f"buildings on mortgaged lot {i}"
        assert s.owner is None or not state.players[s.owner].bankrupt, f"lot {i}: owner is out"
        assert s.owner is None or s.owner == state.side(s.owner), f"lot {i}: not the side's"


def jail_cards_conserved(game: Any, state: Any) -> None:
    held = [d for p in state.players for d in p.jail_cards]
    for deck in ("chance", "community_chest"):
        in_deck = "get_out_of_jail_free" in state.deck(deck)
        assert held.count(deck) + in_deck == 1, f"the {deck} jail card is lost or doubled"


def teams_share(game: Any, state: Any) -> None:
    """A team's members show one pool of cash and go out together (nothing without teams)."""
    for i, p in enumerate(state.players):
        side = state.players[state.side(i)]
        assert p.cash == side.cash and p.bankrupt == side.bankrupt, f"{p.name} left the team"


MONOPOLY_INVARIANTS = (money_conserved, buildings_within_stock, lots_consistent,
                       jail_cards_conserved, teams_share)


def monopoly_refusals(game: Any, state: Any) -> Iterable[Action]:
    """Malformed Monopoly actions for the seats the game waits on: impossible dice, squares
    that are not lots or not on the board, a negative bid, a trade with oneself."""
    from companion.games.monopoly.actions import (
        Bid,
        Build,
        ClaimRent,
        Mortgage,
        Roll,
        Sell,
        Trade,
        TradeSide,
        Unmortgage,
        UseJailCard,
    )

    for p in game.deciders(state):
        # (21, 21): above every die the family asks for (d6, a paladin's mounted 2d8, the d20
        # of a check); 7 is a fair roll of a d8
        yield from (Roll(p, ()), Roll(p, (0, 0)), Roll(p, (21, 21)), Roll(p, (1, 2, 3, 4, 5)))
        yield Bid(p, -1)
        for square in (0, 10, 30):  # GO, Jail, Go To Jail: never lots
            yield from (Build(p, square), Sell(p, square), Mortgage(p, square),
                        Unmortgage(p, square), ClaimRent(p, square))
        yield Trade(p, p, TradeSide(cash=1), TradeSide())
        yield UseJailCard(p, "no_such_deck")


declare("monopoly", Conformance(
    tables=(
        Table("three", ("Ann", "Ben", "Cy"), seed=1),
        Table("teams", ("Ann", "Ben", "Cy", "Dee"), seed=2,
              options=(("teams", "Ann+Cy,Ben+Dee"),)),
        Table("house-rules-random", ("Ann", "Ben", "Cy"), seed=3, bot="random", max_steps=1200,
              options=(("free_parking_pot", True), ("rent_must_be_claimed", True),
                       ("auctions", False))),
    ),
    invariants=MONOPOLY_INVARIANTS,
    refusals=monopoly_refusals,
))

# ------------------------------------------------------------------------------------------
# Dungeonopoly: the Monopoly ledger, and levels that follow EP, known enchantments
# ------------------------------------------------------------------------------------------


def levels_follow_ep(game: Any, state: Any) -> None:
    per = state.options.ep_per_level
    blitz = getattr(state.options, "blitz", False)
    for p in state.players:
        expected = min(10, 1 + p.ep // per)
        assert p.level == expected or (blitz and p.level == 10), \
            f"{p.name} is level {p.level} with {p.ep} EP"


def enchantments_known(game: Any, state: Any) -> None:
    from companion.games.monopoly.dungeonopoly.character import SquareEnchantment
    from companion.games.monopoly.dungeonopoly.layer import (
        PLAYER_ENCHANTMENTS,
        SQUARE_ENCHANTMENTS,
    )
    from companion.games.monopoly.dungeonopoly.terms import dungeon

    for p in state.players:
        assert all(e.name in PLAYER_ENCHANTMENTS for e in p.enchantments), p.enchantments
    for e in dungeon(state).enchantments:
        if isinstance(e, SquareEnchantment):
            assert e.enchantment.name in SQUARE_ENCHANTMENTS, e
            if e.enchantment.name in ("bless", "curse", "glyph_of_warding"):
                assert game.board.squares[e.square].ownable, e  # they need a property


def dungeonopoly_refusals(game: Any, state: Any) -> Iterable[Action]:
    from companion.games.monopoly.dungeonopoly.abilities import Choose, TrainSkill, UseAbility

    yield from monopoly_refusals(game, state)
    for p in game.deciders(state):
        yield from (UseAbility(p, "no_such_ability"), TrainSkill(p, "no_such_skill"),
                    Choose(p, "no_such_choice", "x"))


declare("dungeonopoly", Conformance(
    tables=(
        Table("core-classes", (("Ann", "fighter"), ("Ben", "wizard"), ("Cy", "cleric"),
                               ("Dee", "rogue")), seed=1),
        Table("blitz-random", (("Ann", "bard"), ("Ben", "druid"), ("Cy", "paladin"),
                               ("Dee", "psion"), ("Eve", "warlock")),
              seed=4, bot="random", max_steps=1200,
              options=(("blitz", True), ("strict_politics", True))),
        Table("gestalt-teams", (("Ann", "warlock+bard"), ("Ben", "psion+fighter"),
                                ("Cy", "druid+cleric"), ("Dee", "paladin+wizard")),
              seed=5, options=(("gestalt", True), ("quicker_game", True),
                               ("teams", "Ann+Cy,Ben+Dee"))),
    ),
    invariants=(*MONOPOLY_INVARIANTS, levels_follow_ep, enchantments_known),
    refusals=dungeonopoly_refusals,
))


# ------------------------------------------------------------------------------------------
# MonopoZombie: the Monopoly ledger, no money in the apocalypse, no homeless zombie
# ------------------------------------------------------------------------------------------


def apocalypse_has_no_money(game: Any, state: Any) -> None:
    from companion.games.monopoly.monopozombie.layer import stage

    if stage(state) == "apocalypse":
        assert state.money_in_hand == 0 and state.pot == 0, "money left in the apocalypse"


def zombies_are_not_homeless(game: Any, state: Any) -> None:
    assert not any(p.zombie and p.homeless for p in state.players), "a homeless zombie"


def monopozombie_refusals(game: Any, state: Any) -> Iterable[Action]:
    from companion.games.monopoly.monopozombie import GoTo, HireBodyguards, Steer

    yield from monopoly_refusals(game, state)
    for p in game.deciders(state):
        yield from (Steer(p, (), "sideways"), Steer(p, (9, 9), "forward"), GoTo(p, 99),
                    HireBodyguards(p, 0))


declare("monopozombie", Conformance(
    tables=(
        Table("four", ("Ann", "Ben", "Cy", "Dee"), seed=1),
        Table("three-circuit", ("Ann", "Ben", "Cy"), seed=2),
        Table("six-one-away-random", ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay"), seed=3,
              bot="random", max_steps=1500, options=(("apocalypse_at", "one_away"),)),
    ),
    invariants=(*MONOPOLY_INVARIANTS, apocalypse_has_no_money, zombies_are_not_homeless),
    refusals=monopozombie_refusals,
))


# ------------------------------------------------------------------------------------------
# Illumonopoly: the Monopoly ledger, and treasuries that add up, held groups, the 52 cards
# ------------------------------------------------------------------------------------------


def treasuries_consistent(game: Any, state: Any) -> None:
    """``cash`` is every treasury together: the central part is never negative; a group
    treasury exists only while its group is held (I-21)."""
    for seat, p in enumerate(state.players):
        assert p.central >= 0, f"{p.name}'s central treasury is ${p.central}"
        held = {game.board.squares[i].group for i in game.lots_of(state, seat)}
        for group, amount in p.treasuries:
            assert amount > 0, f"{p.name}'s {group} treasury holds ${amount}"
            assert group in held, f"{p.name} keeps a {group} treasury without its lots"


def court_cards_counted(game: Any, state: Any) -> None:
    """At most the 52 Court Date cards are in hands, the discards and (virtual) the deck."""
    tb = game.table(state)
    held = sum(p.court_hand for p in state.players)
    assert held + len(tb.played) + len(tb.deck) <= 52, "more than 52 Court Date cards"
    assert all(p.court_hand >= len(p.court_cards) for p in state.players)


def illumonopoly_refusals(game: Any, state: Any) -> Iterable[Action]:
    from companion.games.monopoly.illumonopoly import PlayCard, Sue, Support, Transfer

    yield from monopoly_refusals(game, state)
    for p in game.deciders(state):
        yield from (Transfer(p, "central", "central", 10), Transfer(p, "nowhere", "central", 5),
                    Transfer(p, "central", "green", -5), Sue(p, p, "title", 39),
                    Sue(p, (p + 1) % len(state.players), "nonsense", 39),
                    PlayCard(p, "joker"), Support(p, "nobody", 10))


declare("illumonopoly", Conformance(
    tables=(
        Table("basic", ("Ann", "Ben", "Cy"), seed=1),
        Table("illuminati", (("Ann", "bavarian"), ("Ben", "gnomes"), ("Cy", "cthulhu"),
                             ("Dee", "bermuda"), ("Eve", "discordian")), seed=2),
        Table("virtual-deck-random", ("Ann", "Ben", "Cy"), seed=3, bot="random", max_steps=1200,
              options=(("court_deck", "virtual"), ("payment_source", "central_first"))),
    ),
    invariants=(*MONOPOLY_INVARIANTS, treasuries_consistent, court_cards_counted),
    refusals=illumonopoly_refusals,
))


# ------------------------------------------------------------------------------------------
# A test-only game: not in companion.games, registered only while a kit test uses it
# ------------------------------------------------------------------------------------------


class ShortMonopoly(Rules):
    """Monopoly with little money (games end sooner): shows that a game the product does not
    register joins the kit by one ``TEST_GAMES`` entry, and that nothing in the kit, the
    transcripts or the journal depends on a game's name."""

    name = "test-short-monopoly"

    def default_options(self) -> Options:
        return Options(starting_cash=600, go_salary=100)


TEST_GAMES[ShortMonopoly.name] = (ShortMonopoly, Conformance(
    tables=(Table("three", ("Ann", "Ben", "Cy"), seed=6),),
    invariants=MONOPOLY_INVARIANTS,
    refusals=monopoly_refusals,
))


# ------------------------------------------------------------------------------------------
# Dungeonbowl: one model per square, every ball somewhere, models on the squares they can be
# ------------------------------------------------------------------------------------------


def bowl_state_sound(game: Any, state: Any) -> None:
    problems = game.invariant_problems(state)
    assert not problems, problems


def balls_counted(game: Any, state: Any) -> None:
    """Balls found plus balls still hidden in the chests make the agreed number."""
    loose_at_start = len(state.dungeon.squares_where(ball=True))
    assert len(state.balls) + state.hidden_balls == max(state.options.balls, loose_at_start), \
        "a ball was lost or made"


def dungeonbowl_refusals(game: Any, state: Any) -> Iterable[Action]:
    """A model walking through a wall or off the map, a door that is not there, rolls with the
    wrong dice, an answer that is not one."""
    from companion.games.dungeonbowl.actions import Answer, Door, Roll, Step

    for p in game.deciders(state):
        yield from (Roll(p, ()), Roll(p, (0,)), Roll(p, (7,)), Roll(p, (1, 2, 3, 4)))
        yield Answer(p, "no_such_answer")
        for m in state.models:
            if m.team == p and m.at is not None:
                yield Step(p, m.id, (0, 0))  # the top-left corner: a wall in every bundled map
                yield Step(p, m.id, (-1, -1))
                yield Door(p, m.id, "D99")


declare("dungeonbowl", Conformance(
    tables=(
        Table("two-teams", ("Orcs", "Elves"), seed=1, max_steps=300),
        Table("every-feature-random", ("Orcs", "Elves"), seed=3, bot="random", max_steps=150,
              options=(("dungeon", "every_feature"), ("trap_tokens", "virtual"))),
        Table("four-teams-multiball", ("Ann", "Ben", "Cy", "Dee"), seed=2, max_steps=200,
              options=(("dungeon", "four_teams"), ("balls", 3), ("multiball", "illusionary"))),
    ),
    invariants=(bowl_state_sound, balls_counted),
    refusals=dungeonbowl_refusals,
))
