"""Dungeonopoly as a layer over standard Monopoly (rule source: Dungeonopoly, "Introduction and
basic rules", the technical terms, spellcasting, "In jail", and the core classes).

The layer overrides the engine's hook methods; class abilities live in ``classes/`` and are
reached through ``abilities.py``. Rulings where the text is open are in
docs/dungeonopoly/rulings.md (cited below as D-<n>).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.games.monopoly import building
from companion.games.monopoly.actions import Action, Mortgage, Roll, Sell, Trade
from companion.games.monopoly.cards import Card, card_by_id
from companion.games.monopoly.dungeonopoly import advanced, bots, effects, genesis, reactions
from companion.games.monopoly.dungeonopoly.abilities import (
    Ability,
    Accept,
    Choose,
    Params,
    Pass,
    TrainSkill,
    UseAbility,
    class_names,
    find_class,
    known_abilities,
    knows,
    repertoire,
)
from companion.games.monopoly.dungeonopoly.character import (
    MAX_SKILL_RANKS,
    Character,
    Enchantment,
    level_for,
    skill_points_total,
)
from companion.games.monopoly.dungeonopoly.steps import (
    CardChoice,
    Check,
    Decision,
    RentChoice,
    RobBankChoice,
)
from companion.games.monopoly.dungeonopoly.table import DungeonTable
from companion.games.monopoly.dungeonopoly.terms import (
    Table,
    character,
    dungeon,
    in_sanctuary,
    is_hidden,
    plain_geometry,
    square_enchanted,
    square_enchantments,
    with_square_enchantment,
    without_square_enchantment,
)
from companion.games.monopoly.engine import LandContext, RollSpec, Rules
from companion.games.monopoly.pending import Debt, MortgagedTransfer, PlaceHouse
from companion.games.monopoly.reactions import Window
from companion.games.monopoly.rent import base_rent
from companion.games.monopoly.state import (
    BANK,
    GameState,
    Options,
    PlayerState,
    SquareState,
    VariantTable,
    variant_table,
)
from companion.games.monopoly.txn import Txn
from companion.games.monopoly.walk import Between, MovementRoll, MovePlan, ResumeMove, Watcher

ROGUE_SKILLS = ("open_locks", "pick_pockets", "rob_bank", "sneak", "steal")
MANAGING = ("build", "sell", "mortgage", "unmortgage")  # what only the current player may do
# the events that can earn EP (after_action)
EP_EVENTS = frozenset({"bought", "auction_won", "rent", "doubles", "lucky_seven", "go",
                       "ability_success"})
MOVEMENT_CARDS = frozenset({"advance_to", "advance_nearest", "move_back", "go_to_jail"})


@dataclass(frozen=True, slots=True)
class DungeonOptions(Options):
    """Dungeonopoly table settings (docs/dungeonopoly/). Defaults follow the rule text."""

    ep_per_level: int = 10  # the "quicker game" uses 5
    enchantment_level: str = "cast"  # cast | current: which caster level Bless/Curse/Glyph use
    wrath_hits_jailed: bool = False  # D-R: Wrath of God's damage does not reach jail cells
    reroll_jail_rolls: bool = False  # D-R: Divine Intervention cannot reroll a roll from jail
    # advanced and alternative rules (advanced.py)
    strict_politics: bool = False  # rent always charged; trades only at listed value
    quicker_game: bool = False  # 3 dealt lots, 1 turn in jail, 3 houses, 5 EP per level
    blitz: bool = False  # draft every lot before play; characters start at level 10
    gestalt: bool = False  # two classes per character (player Ann fighter+wizard)


def _go_hexed(events: Sequence[Event], i: int) -> bool:
    """Whether the GO money of ``events[i]`` (a ``go`` event) went to the pot under a Hex: the
    receipt that follows it was redirected (``hexed_income`` for GO) before the next GO."""
    who = events[i].player
    for e in events[i + 1:]:
        if e.kind == "go":
            return False
        if e.kind == "hexed_income" and e.player == who and e.detail == "GO":
            return True
    return False


class Dungeonopoly(Rules):
    """Monopoly plus character classes, EP and levels, damage, enchantments and abilities."""

    name = "dungeonopoly"
    player_type = Character

    def presenter(self) -> Any:
        """What the kiosk shows of Dungeonopoly (characters, abilities, EP and levels)."""
        if self._presenter is None:
            from companion.games.monopoly.dungeonopoly.presenter import DungeonopolyPresenter

            self._presenter = DungeonopolyPresenter(self)
        return self._presenter

    # ======================================================================================
    # Setting up
    # ======================================================================================
    def default_options(self) -> Options:
        """GO pays $400 for landing and $200 for passing; fees go to the central pot; building
        only on your own turn."""
        return DungeonOptions(go_salary=200, go_landing_pay=400, free_parking_pot=True,
                              build_off_turn=False)

    def new_player(self, name: str, options: Options, role: str = "") -> PlayerState:
        """Every character picks one class (no multiclassing) and starts at level 1."""
        if not role:
            raise ValueError(f"{name} needs a character class in dungeonopoly: one of "
                             f"{', '.join(class_names())}")
        advanced.check_role(role, options)
        cls = find_class(role)
        return Character(name=name, cash=options.starting_cash, role=cls.name,
                         ep_per_level=getattr(options, "ep_per_level", 10))

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Options | None = None,
                 seed: int = 0, decks: Any = None,
                 table: VariantTable | None = None) -> GameState:
        """The advanced options' set-up (advanced.py): quicker game's figures and dealt lots,
        blitz's starting level and draft. The table starts empty (a ``DungeonTable``)."""
        options = advanced.prepare_options(options or self.default_options())
        state = super().new_game(players, options, seed, decks,
                                 variant_table(table, DungeonTable))
        return advanced.setup(self, state)

    def trade_problem(self, state: GameState | Txn, action: Trade) -> str | None:
        """Strict politics: trades only at listed value."""
        return super().trade_problem(state, action) or \
            advanced.trade_problem(self, state, action)

    def opt(self, table: Table | GameState, name: str, default: Any) -> Any:
        return getattr(table.options, name, default)

    # ======================================================================================
    # EP, levels, damage
    # ======================================================================================
    def gain_ep(self, t: Txn, seat: int, amount: int, why: str) -> None:
        """1 EP per source; a level for every 10 EP (option ep_per_level), levels 1-10."""
        p = character(t, seat)
        if amount <= 0 or p.bankrupt:
            return
        ep = p.ep + amount
        level = level_for(ep, self.opt(t, "ep_per_level", 10))
        t.set_player(seat, ep=ep, level=level)
        t.emit("ep", seat, amount=amount, detail=why)
        if level > p.level:
            t.emit("level_up", seat, amount=level)

    def after_action(self, t: Txn, action: Action) -> None:
        """EP sources (basic rules): buying from the bank, paying rent to an opponent, a
        successful class ability, doubles, a lucky seven, collecting GO money (not when a Hex
        sends it to the pot: D-3, D-75)."""
        effects.sync(self, t)
        awards: dict[int, list[str]] = {}
        events = list(t.events)
        for i, e in enumerate(events):
            kind = e.kind
            if kind not in EP_EVENTS:
                continue  # (hot: most events are payments, moves and rolls)
            who = e.player
            if who is None or who < 0:
                continue
            if kind in ("bought", "auction_won"):
                why = "bought"
                if who == t.current and e.square is not None:
                    self.add_flag(t, who, f"bought:{e.square}")
            elif kind == "rent" and e.amount > 0 and e.other != who:
                why = "rent"
            elif kind in ("doubles", "lucky_seven"):
                why = kind
            elif kind == "go" and e.amount > 0 and not _go_hexed(events, i):
                why = "go"
            elif kind == "ability_success":
                why = e.detail
            else:
                continue
            awards.setdefault(who, []).append(why)
        for seat, whys in awards.items():
            self.gain_ep(t, seat, len(whys), ",".join(whys))

    def damage(self, t: Txn, attacker: int, defender: int, source: str,
               level: int | None = None, *, amount: int | None = None, to: int = BANK) -> bool:
        """Damage: the defender pays the bank $20 x the attacker's level (usual debt and
        bankruptcy flow). Sanctuary prevents it; Mage Armor or Shield of Faith absorbs it once.
        ``amount`` replaces the $20 x level figure (Mind Thrust's table, Agonizing Blast) and
        ``to`` the bank as payee (Vampiric Blast). Returns True when damage was paid or owed."""
        d = character(t, defender)
        if d.bankrupt:
            return False
        if in_sanctuary(d):
            t.emit("protected", defender, other=attacker, detail="sanctuary")
            return False
        blocked = effects.damage_blocked(self, t, attacker, defender)
        if blocked:
            t.emit("protected", defender, other=attacker, detail=blocked)
            return False
        for shield in ("mage_armor", "shield_of_faith"):
            if d.enchanted(shield) is not None:
                t.set_player(defender, enchantments=d.without_enchantment(shield))
                t.emit("absorbed", defender, other=attacker, detail=shield)
                return False
        if amount is None:
            amount = 20 * (level if level is not None else character(t, attacker).level)
        if effects.intercept_damage(self, t, attacker, defender, amount, source, to):
            return True
        for ab in repertoire(d).overriding("modify_damage"):
            amount = ab.modify_damage(self, t, defender, amount)
        t.emit("damaged", defender, amount=amount, other=attacker, detail=source)
        t.charge(defender, to, amount, f"damage ({source.replace('_', ' ')})")
        effects.after_damage(self, t, attacker, defender, amount, source)
        return True

    def spell_reaches(self, t: Txn, caster: int, target: int, spell: str) -> bool:
        """Shield of Faith: the next spell cast at its holder has no effect (and ends it)."""
        if target == caster:
            return True
        p = character(t, target)
        if p.enchanted("shield_of_faith") is not None:
            t.set_player(target, enchantments=p.without_enchantment("shield_of_faith"))
            t.emit("absorbed", target, other=caster, detail=f"shield_of_faith:{spell}")
            return False
        return True

    def enchant(self, t: Txn, seat: int, ench: Enchantment) -> None:
        if not effects.may_enchant(self, t, seat, ench):
            return
        p = character(t, seat)
        t.set_player(seat, enchantments=p.with_enchantment(ench))
        t.emit("enchanted", seat, other=ench.source, detail=ench.name, amount=ench.level)

    def disenchant(self, t: Txn, seat: int, name: str, source: int | None = None) -> None:
        p = character(t, seat)
        t.set_player(seat, enchantments=p.without_enchantment(name, source))
        t.emit("dispelled", seat, detail=name)

    def enchant_square(self, t: Txn, square: int, ench: Enchantment) -> None:
        if not effects.may_enchant_square(self, t, square, ench):
            return
        t.table = with_square_enchantment(dungeon(t), square, ench)
        t.emit("square_enchanted", ench.source, square=square, detail=ench.name,
               amount=ench.level)

    def disenchant_square(self, t: Txn, square: int, name: str) -> None:
        t.table = without_square_enchantment(dungeon(t), square, name)
        t.emit("square_dispelled", None, square=square, detail=name)

    def ench_level(self, table: Table, ench: Enchantment) -> int:
        """The caster level an enchantment works at (option enchantment_level)."""
        if self.opt(table, "enchantment_level", "cast") == "current" and \
                0 <= ench.source < len(table.players):
            p = table.players[ench.source]
            if isinstance(p, Character) and not p.bankrupt:
                return p.level
        return ench.level

    def add_flag(self, t: Txn, seat: int, *flags: str) -> None:
        p = character(t, seat)
        new = tuple(f for f in flags if f not in p.turn)
        if new:
            t.set_player(seat, turn=p.turn + new)

    def drop_flag(self, t: Txn, seat: int, *flags: str) -> None:
        p = character(t, seat)
        if any(f in p.turn for f in flags):
            t.set_player(seat, turn=tuple(f for f in p.turn if f not in flags))

    # ======================================================================================
    # Basic rules: GO, fees, the pot, managing property
    # ======================================================================================
    def _sell_problem(self, state: GameState | Txn, player: int, index: int) -> str | None:
        """Selling evenly counts only the seller's own lots of the group: Modify Memory (psion)
        can split a built group between owners, and each must still be able to sell."""
        group = self.board.groups.get(self.board.squares[index].group, ())
        squares = state.squares
        bank_houses = state.bank_houses
        side = state.side(player)  # team play: the team's lots
        # (hot: a state's split lots are remembered; a lot of hers outside them is in a group
        # she owns whole or without buildings, and one not hers cannot be sold either way)
        maybe_split = not isinstance(state, GameState) or \
            index in self._split_built_lots(state, player)
        if maybe_split and any(squares[i].owner != side and squares[i].level for i in group):
            squares = [s if s.owner == side else replace(s, houses=0, hotel=False)
                       for s in squares]
            bank_houses = max(bank_houses, state.options.max_houses)  # see remove_building
        return building.sell_problem(self.board, squares, side, index, bank_houses,
                                     state.options.max_houses, state.options.even_building)

    def remove_building(self, t: Txn, index: int) -> None:
        """A hotel sold back when the bank lacks the houses to replace it (possible only on a
        group split between owners, where no break-down of the whole group is open) becomes
        as many houses as the bank has."""
        s = t.squares[index]
        if s.hotel and t.bank_houses < t.options.max_houses:
            houses = t.bank_houses
            t.bank_hotels += 1
            t.bank_houses = 0
            t.set_square(index, hotel=False, houses=houses)
            return
        super().remove_building(t, index)

    def _mortgage_problem(self, state: GameState | Txn, player: int, index: int) -> str | None:
        """As for selling: only the owner's own lots of a split built group must be bare."""
        group = self.board.groups.get(self.board.squares[index].group, ())
        squares = state.squares
        side = state.side(player)
        if any(squares[i].owner != side and squares[i].level for i in group):
            sq, s = self.board.squares[index], squares[index]
            if not sq.ownable or s.owner != side or s.mortgaged:
                return super()._mortgage_problem(state, player, index)
            if any(squares[i].owner == side and squares[i].level for i in group):
                return f"sell your buildings in the {sq.group.replace('_', ' ')} group first"
            return None
        return super()._mortgage_problem(state, player, index)

    # the last management question (its key) and the answer (see management_actions)
    _management_memo: tuple[tuple[Any, ...], tuple[Action, ...]] = ((), ())

    def management_actions(self, state: GameState, player: int,
                           shortage: bool | None = None) -> list[Action]:
        """The engine's list, plus sales and mortgages on built groups split between owners
        (see above).

        The answer is remembered for the last question: it depends only on what the key below
        holds (the lots, the player's cash, the bank's buildings, the options and teams, the
        pending items that matter and the ``may_manage`` answers), and through an auction,
        a run of bids, none of that changes (hot: the current player on every step). A rule
        that makes the listing read anything more must add it to the key."""
        head = state.pending[0] if state.pending else None
        raising = isinstance(head, Debt) and head.player == player
        may = (self.may_manage(state, player, "build"), self.may_manage(state, player, "sell"),
               self.may_manage(state, player, "mortgage"),
               self.may_manage(state, player, "unmortgage"))
        if not raising and not any(may):
            return []  # (hot: every decider off-turn) neither list below could hold anything
        if shortage is None:
            shortage = self.house_shortage(state)
        key = (player, raising, may, shortage, isinstance(head, PlaceHouse), state.squares,
               state.players[player].cash, state.bank_houses, state.bank_hotels, state.options,
               state.sides, tuple([p.square for p in state.pending
                                   if isinstance(p, MortgagedTransfer)]))
        last, listed = self._management_memo
        if key == last:
            return list(listed)
        out = super().management_actions(state, player, shortage)
        if raising or may[1] or may[2]:
            sqs = state.squares
            for i in self._split_built_lots(state, player):
                if sqs[i].level and (raising or may[1]) and \
                        self._sell_problem(state, player, i) is None and \
                        Sell(player, i) not in out:
                    out.append(Sell(player, i))
                if (raising or may[2]) and self._mortgage_problem(state, player, i) is None and \
                        Mortgage(player, i) not in out:
                    out.append(Mortgage(player, i))
        self._management_memo = (key, tuple(out))
        return out

    # the last squares tuple asked about, and its split lots by side
    _split_memo: tuple[tuple[SquareState, ...], dict[int, tuple[int, ...]]] = ((), {})

    def _split_built_lots(self, state: GameState, player: int) -> tuple[int, ...]:
        """The player's lots in built groups she shares with other owners, in board order.
        They depend on the squares alone: remembered for the last squares tuple (held, so
        ``is`` is a safe test), which states share until a square changes (hot: the current
        player on every step)."""
        squares = state.squares
        side = state.side(player)
        last, by_side = self._split_memo
        if last is not squares:
            by_side = {}
            self._split_memo = (squares, by_side)
        split = by_side.get(side)
        if split is None:
            split = by_side[side] = self._find_split_lots(squares, side)
        return split

    def _find_split_lots(self, squares: tuple[SquareState, ...], side: int) -> tuple[int, ...]:
        group_of = self._group_of
        built = {group_of[i] for i, s in enumerate(squares)
                 if (s.houses or s.hotel) and i in group_of}
        split: list[int] = []
        for k in built:
            lots = self._groups[k][1]
            owners = [squares[j].owner for j in lots]
            if 0 < owners.count(side) < len(lots):
                split += [j for j, o in zip(lots, owners, strict=True) if o == side]
        return tuple(sorted(split))

    def may_manage(self, state: GameState, player: int, what: str) -> bool:
        """Build, sell and mortgage only on your own turn (or when raising money owed, which
        the engine allows separately); unmortgaging too (D-2); trades any time."""
        if player != state.current and what in MANAGING:
            return False  # (first: most players asked about are off-turn)
        # D-R: no other deals while a window is open or a transferred mortgage is decided
        # (the engine would otherwise list an Unmortgage for a lot already unmortgaged)
        return not (state.pending and
                    isinstance(state.pending[0], (Window, MortgagedTransfer)))

    def collect_go(self, t: Txn, player: int, landed: bool) -> None:
        """GO money ($400 landing, $200 passing). Passing (or landing on) GO also refreshes
        single-use abilities. A rogue with Rob Bank ranks may first choose to try her luck."""
        p = character(t, player)
        if p.spent:
            t.set_player(player, spent=())
            t.emit("refreshed", player)
        effects.go_collected(self, t, player, landed)
        rob = knows(p, "rob_bank")
        if rob is not None and p.ranks("rob_bank") > 0 and not p.has_flag("ran"):
            t.push(RobBankChoice(player, landed))
            return
        super().collect_go(t, player, landed)

    def pay_go(self, t: Txn, player: int, landed: bool) -> None:
        super().collect_go(t, player, landed)

    def resolve_square(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        """Taxes may be waived (Divine Favor); otherwise standard, fees to the pot."""
        sq = self.board.squares[index]
        if sq.kind == "tax":
            p = character(t, player)
            for ab in repertoire(p).overriding("waives_fee"):
                if ab.waives_fee(self, t, player, "tax"):
                    t.emit("fee_waived", player, square=index, detail=ab.name)
                    return
        super().resolve_square(t, player, index, ctx)

    def apply_card(self, t: Txn, player: int, card: Card) -> None:
        """Divine Favor lets a cleric choose whether to accept a card."""
        p = character(t, player)
        if knows(p, "divine_favor") is not None:
            t.emit("card_offered", player, detail=f"{card.deck}:{card.id}")
            t.push(CardChoice(player, card.deck, card.id))
            return
        super().apply_card(t, player, card)

    def accept_card(self, t: Txn, head: CardChoice) -> None:
        card = card_by_id(head.deck, head.card)
        if card.effect in MOVEMENT_CARDS:
            # Divine Power: a movement card moves her from the card square; the rest of the
            # roll is discarded.
            self._drop_resume(t, head.player)
        super().apply_card(t, head.player, card)

    def refuse_card(self, t: Txn, head: CardChoice) -> None:
        card = card_by_id(head.deck, head.card)
        t.emit("card_refused", head.player, detail=f"{card.deck}:{card.id}")
        if card.effect == "jail_free":
            self._return_jail_card(t, card.deck)

    def _drop_resume(self, t: Txn, player: int) -> None:
        for queue in (t.front, t.pending):
            for i, item in enumerate(queue):
                if isinstance(item, ResumeMove) and item.player == player:
                    del queue[i]
                    return

    # ======================================================================================
    # Jail
    # ======================================================================================
    def send_to_jail(self, t: Txn, player: int) -> None:
        """Ascended clerics cannot be sent to jail; others go as usual (and may try Open Locks
        the same turn)."""
        p = character(t, player)
        if knows(p, "ascended") is not None:
            t.emit("jail_immune", player, detail="ascended")
            return
        self._drop_resume(t, player)
        super().send_to_jail(t, player)
        t.set_player(player, hidden=False)
        self.add_flag(t, player, "jailed")

    # ======================================================================================
    # Rent
    # ======================================================================================
    def rent_due(self, t: Txn, payer: int, index: int, ctx: LandContext) -> int:
        """No rent for an owner in jail (a team: while every member is in jail); Bless/Curse
        adjust it (5% per caster level)."""
        owner = t.squares[index].owner
        if owner is None or all(t.players[m].in_jail for m in t.members(owner)):
            return 0
        rent = base_rent(self.board, t.squares, index, ctx.dice_total, ctx.rent_multiplier,
                         ctx.dice_multiplier)
        return effects.adjust_rent(self, t, payer, index, self.enchanted_rent(t, index, rent))

    def redirect_income(self, t: Txn, recipient: int, amount: int, reason: str) -> int:
        """Hex: the next money a cursed character collects goes to the central pot."""
        return effects.redirect_income(self, t, recipient, amount, reason)

    def adjust_charge(self, t: Txn, debtor: int, creditor: int, amount: int, reason: str) -> int:
        """Protections and discounts of the additional classes (Barkskin, Divine Grace)."""
        return effects.adjust_charge(self, t, debtor, creditor, amount, reason)

    def enchanted_rent(self, table: Table, index: int, rent: int) -> int:
        """Bless: +5% per level, rounded down; Curse: -5% per level, rounded up."""
        for e in square_enchantments(table, index):
            lvl = self.ench_level(table, e)
            if e.name == "bless":
                return rent * (100 + 5 * lvl) // 100
            if e.name == "curse":
                return -(-rent * (100 - 5 * lvl) // 100)
        return rent

    def collect_rent(self, t: Txn, payer: int, owner: int, index: int, amount: int, *,
                     intercept: bool = True) -> None:
        """Charm Person waives the charming wizard's next rent to the charmed owner; a fighter
        with Intimidate may first try to scare the landlord off. A table effect (a bard's
        melody) may take the rent over first; it settles it later with ``intercept=False``."""
        if intercept and effects.intercept_rent(self, t, payer, owner, index, amount):
            return
        o = character(t, owner)
        charm = o.enchanted("charm_person")
        if charm is not None and charm.source == payer:
            t.set_player(owner, enchantments=o.without_enchantment("charm_person", payer))
            t.emit("rent_waived", payer, square=index, other=owner, amount=amount,
                   detail="charm_person")
            return
        p = character(t, payer)
        if knows(p, "intimidate") is not None and not p.has_flag("ran"):
            t.push(RentChoice(payer, owner, index, amount))
            return
        self.charge_rent(t, payer, owner, index, amount)

    def charge_rent_for_landing(self, t: Txn, payer: int, index: int) -> None:
        """The rent the payer would owe for landing on ``index`` now (Steal's failure)."""
        self._charge_rent(t, payer, index, LandContext(dice_total=sum(t.last_dice)))

    def charge_rent(self, t: Txn, payer: int, owner: int, index: int, amount: int) -> None:
        t.emit("rent", payer, amount=amount, square=index, other=owner)
        if payer == t.current:
            self.add_flag(t, payer, f"rent:{index}")
        t.charge(payer, owner, amount, f"rent for {self.board.squares[index].name}")

    # ======================================================================================
    # Rolls and movement
    # ======================================================================================
    # the last state asked about and its answer (held, so ``is`` is a safe test): a state's
    # roll is asked for by legal_actions, by the dice roller and by the Roll it receives
    _spec_memo: tuple[GameState | None, RollSpec | None] = (None, None)

    def roll_spec(self, state: GameState) -> RollSpec | None:
        """Movement dice: 2d6, 1d6 when slowed, an extra d6 when running (after the usual
        dice), 1d6 when sneaking; a d20 for checks."""
        last, spec = self._spec_memo
        if last is state:
            return spec
        spec = self._roll_spec(state)
        if isinstance(state, GameState):  # (immutable: safe to remember)
            self._spec_memo = (state, spec)
        return spec

    def _roll_spec(self, state: GameState) -> RollSpec | None:
        if state.outcome is not None:
            return None
        if state.pending:
            head = state.pending[0]
            if isinstance(head, Check):
                return RollSpec(head.player, (20,), f"check:{head.ability}")
            return super().roll_spec(state)
        if not state.rolled or state.roll_again:
            p = character(state, state.current)
            if p.in_jail:
                return RollSpec(state.current, (6, 6), "jail")
            if p.has_flag("sneak"):
                return RollSpec(state.current, (6,), "sneak")
            std = 1 if p.enchanted("slow") is not None else 2
            extra = 1 if p.has_flag("run_die") else 0
            sides = effects.movement_sides(self, state, state.current, (6,) * (std + extra))
            return RollSpec(state.current, sides, "move")
        return None

    def react_to_roll(self, t: Txn, spec: RollSpec, dice: tuple[int, ...]) -> bool:
        """Divine Intervention: clerics may have the dice rerolled (a reaction window)."""
        return reactions.open_roll_window(self, t, spec, dice)

    def handle_roll(self, t: Txn, spec: RollSpec, dice: tuple[int, ...]) -> None:
        """A roll that stands (no Divine Intervention): checks; a table effect may hold a
        movement roll back; a roll from jail earns EP for doubles and a lucky seven."""
        if spec.purpose.startswith("check:"):
            head = t.pending.pop(0)
            assert isinstance(head, Check)
            self.finish_check(t, head, dice[0])
            return
        if spec.purpose == "move" and effects.intercept_movement_roll(self, t, spec, dice):
            return
        if spec.purpose == "jail":
            if len(dice) >= 2 and dice[0] + dice[1] == 7:
                t.emit("lucky_seven", spec.player)
            if self.is_doubles(dice):
                t.emit("doubles", spec.player, amount=1)
        super().handle_roll(t, spec, dice)

    def read_movement_roll(self, t: Txn, player: int, dice: tuple[int, ...]) -> MovementRoll:
        """Slow (one standard die), Run (an extra die that never makes doubles or a seven),
        Sneak (1d6): the standard dice decide doubles; table effects may keep fewer dice."""
        dice = effects.movement_dice(self, t, player, dice)
        p = character(t, player)
        slowed = p.enchanted("slow") is not None
        sneak = p.has_flag("sneak")
        return DungeonRoll(dice, dice[:1] if (slowed or sneak) else dice[:2], slowed, sneak)

    def movement_roll_taken(self, t: Txn, player: int, roll: MovementRoll) -> None:
        """Slow is spent; Run's and Sneak's flags drop; a seven on the standard dice is lucky."""
        assert isinstance(roll, DungeonRoll)
        if roll.slowed:
            p = character(t, player)
            t.set_player(player, enchantments=p.without_enchantment("slow"))
            t.emit("slow_used", player)
        self.drop_flag(t, player, "run_die", "sneak")
        std = roll.pair
        if len(std) == 2 and std[0] + std[1] == 7:
            t.emit("lucky_seven", player)

    def rolled_doubles(self, t: Txn, player: int) -> None:
        effects.rolled_doubles(self, t, player)

    def third_doubles(self, t: Txn, player: int, dice: tuple[int, ...]) -> bool:
        """Ascended clerics are not sent to jail for a third doubles: they move, no fourth
        roll."""
        if knows(character(t, player), "ascended") is None:
            return super().third_doubles(t, player, dice)
        t.emit("speeding", player, detail="ascended: moves, no fourth roll")
        return False

    def plan_movement(self, t: Txn, player: int, roll: MovementRoll) -> MovePlan:
        """Sneak (halved when slowed; no passing or landing; she hides), Expeditious Retreat
        (doubled), table effects (Id Insinuation: backwards), Invisibility (no passing or
        landing)."""
        assert isinstance(roll, DungeonRoll)
        sneak = roll.sneak
        steps = sum(roll.dice)
        if sneak and roll.slowed:
            steps = (steps + 1) // 2
        if character(t, player).has_flag("expeditious"):
            self.drop_flag(t, player, "expeditious")
            steps *= 2
        steps = effects.movement_steps(self, t, player, steps)
        ghost = sneak or character(t, player).has_flag("invisible")
        self.add_flag(t, player, "moved", "sneaking" if sneak else "walked")
        if sneak and effects.may_hide(self, t, player):
            t.set_player(player, hidden=True)
        return MovePlan(steps, land=not ghost, count_passing=not ghost,
                        watchers=(SNEAKING,) if sneak else ())

    def pinned(self, t: GameState | Txn, player: int) -> bool:
        return effects.pinned(self, t, player)

    def step_watchers(self, t: Txn, player: int) -> Sequence[Watcher]:
        """Table effects watching this mover's steps (Entangle, Bulwark, Thicket, Thorns)."""
        return effects.movers(self, t, player)

    def walk_between(self, t: Txn, player: int) -> Between | None:
        """Genesis demiplanes that exist for this mover sit in the gaps between squares."""
        return None if plain_geometry(t) else genesis.DemiplaneWalk(t, player)

    def after_move(self, t: Txn, player: int, steps: int, land: bool,
                   count_passing: bool) -> None:
        effects.after_move(self, t, player, steps, land, count_passing)

    def passing(self, t: Txn, player: int, index: int, forward: bool, land: bool) -> bool:
        """The mover passes ``index``: a glyph stops her there (damage; she lands unless the
        move does not land); Combat Reflexes notes opponents passed; then ``on_pass``."""
        glyph = square_enchanted(t, index, "glyph_of_warding")
        if glyph is not None and glyph.source != player:
            self.disenchant_square(t, index, "glyph_of_warding")
            t.set_player(player, position=index)
            t.emit("glyph", player, square=index, other=glyph.source)
            if 0 <= glyph.source < len(t.players):
                self.damage(t, glyph.source, player, "glyph_of_warding",
                            level=self.ench_level(t, glyph))
            return True
        if player == t.current:
            for seat, other in enumerate(t.players):
                if seat != player and not other.bankrupt and not other.in_jail and \
                        other.position == index:
                    self.add_flag(t, player, f"passed:{seat}")
        return self.on_pass(t, player, index, forward)

    def sneak_past(self, t: Txn, player: int, index: int) -> None:
        for seat, other in enumerate(t.players):
            if seat != player and not other.bankrupt and not other.in_jail and \
                    other.position == index:
                self.add_flag(t, player, f"snuck:{seat}")

    def on_pass(self, t: Txn, player: int, index: int, forward: bool) -> bool:
        if index == 0 and forward:
            self.collect_go(t, player, landed=False)
        p = character(t, player)
        for ab in repertoire(p).overriding("on_pass"):
            ab.on_pass(self, t, player, index, forward)
        return False

    def give_lot(self, t: Txn, index: int, receiver: int) -> None:
        """A lot changing hands in its new owner's turn (Conquer, a trade, a bankruptcy ...) is
        marked ``gained:`` for that turn: it was not hers when she landed, so Fortify refuses it
        (D-73). Landing on it afterwards clears the mark."""
        super().give_lot(t, index, receiver)
        cur = t.current
        if 0 <= cur < len(t.players) and t.side(receiver) == t.side(cur):
            self.add_flag(t, cur, f"gained:{index}")

    def on_land(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        if player == t.current:
            p = character(t, player)
            t.set_player(player, turn=tuple(f for f in p.turn
                                            if not f.startswith("landed:") and
                                            f != f"gained:{index}")
                         + (f"landed:{index}",))
        self.resolve_square(t, player, index, ctx)
        p = character(t, player)
        for ab in repertoire(p).overriding("on_land"):
            ab.on_land(self, t, player, index, ctx)

    def start_turn(self, t: Txn, player: int) -> None:
        """A new turn: the player's turn flags reset; hidden, Invisibility and Sanctuary
        (which last "until her next turn") end."""
        p = character(t, player)
        enchantments = tuple(e for e in p.enchantments
                             if e.name not in ("invisibility", "sanctuary"))
        if p.turn or p.hidden or enchantments != p.enchantments:
            t.set_player(player, turn=(), hidden=False, enchantments=enchantments)
        super().start_turn(t, player)
        effects.turn_started(self, t, player)

    # ======================================================================================
    # Abilities: checks shared by every ability
    # ======================================================================================
    def own_turn_problem(self, table: Table, user: int) -> str | None:
        if user != table.current:
            return "only on your own turn"
        if table.pending:
            return "finish what the game is waiting for first"
        return None

    def before_roll_problem(self, table: Table, user: int) -> str | None:
        """Before a movement roll of your own turn (the first, or again after doubles)."""
        problem = self.own_turn_problem(table, user)
        if problem:
            return problem
        if table.rolled and not table.roll_again:
            return "only before a movement roll"
        if table.players[user].in_jail:
            return "not while in jail"
        return None

    def ability_of(self, table: Table, user: int, name: str) -> Ability:
        p = character(table, user)
        cls = find_class(p.role) if p.role else None
        ab = cls.ability(name) if cls else None
        if ab is None:
            ab = knows(p, name)  # borrowed from another class (Jack-of-All-Trades ...)
        if ab is None:
            raise IllegalActionError(f"{p.name} ({p.role or 'no class'}) has no ability {name!r}")
        if p.level < ab.level:
            raise IllegalActionError(f"{ab.name} needs level {ab.level}; {p.name} is level {p.level}")
        return ab

    def use_problem(self, table: Table, user: int, ab: Ability, target: int | None,
                    params: Params, *, window: bool = False) -> str | None:
        """Why ``user`` may not use ``ab`` now (None when she may)."""
        return self.generic_problem(table, user, ab, window=window) or \
            ab.problem(self, table, user, target, params)

    @staticmethod
    def answering(table: Table, user: int) -> bool:
        """Is the first pending decision ``user``'s own (rent, GO money, a class's choice)?"""
        head = table.pending[0] if table.pending else None
        return isinstance(head, (Decision, RentChoice, RobBankChoice)) and head.player == user

    def generic_problem(self, table: Table, user: int, ab: Ability, *,
                        window: bool = False) -> str | None:
        """The checks every ability shares: timing, single use, Run's lock-out, no spells in
        jail, one spell per turn, the casting cost in cash."""
        p = character(table, user)
        if p.bankrupt:
            return f"{p.name} is out of the game"
        if ab.kind == "automatic":
            return f"{ab.name} works by itself"
        if not window:
            problem = ab.timing_problem(self, table, user)
            if problem:
                return problem
        if ab.single_use and self.use_key(ab) in p.spent:
            return f"{ab.name} is used up until you pass GO"
        if p.has_flag("ran") and ab.name != "run":
            return "you ran this turn: no other class abilities"
        if p.turn and user == table.current and p.has_flag("turn_over") and not window and \
                not self.answering(table, user):
            # cut short (Dark Delirium, a paladin's stance): nothing new on her turn, but what
            # is already pending for her (a melody on rent owed, Intimidate) still settles
            return "your turn is over (cut short): no more abilities"
        if ab.kind == "skill" and p.ranks(ab.name) == 0:
            return f"no ranks in {ab.name.replace('_', ' ')}: train it first"
        if ab.is_spell:
            if p.in_jail:
                return "no spells in jail"
            if user == table.current and p.has_flag("spell"):
                return "one spell per turn"
        if ab.cost > p.cash:
            return f"{ab.name} costs ${ab.cost}; you have ${p.cash}"
        return effects.use_problem(self, table, user, ab)

    @staticmethod
    def use_key(ab: Ability) -> str:
        return getattr(ab, "use_key", "") or ab.name

    def start_use(self, t: Txn, user: int, ab: Ability, target: int | None,
                  params: Params) -> None:
        """Spend the use, pay the casting cost, then check dice, open the Counterspell window,
        or resolve at once."""
        p = character(t, user)
        if ab.single_use:
            t.set_player(user, spent=p.spent + (self.use_key(ab),))
        if user == t.current:
            self.add_flag(t, user, "acted", *(("spell",) if ab.is_spell else ()))
        cost = ab.casting_cost(params)
        if cost:
            t.pay(user, BANK, cost, f"casting cost of {ab.name.replace('_', ' ')}")
        t.emit("ability", user, detail=ab.name, other=target)
        ab.on_start(self, t, user, target, params)
        if ab.is_spell and reactions.open_counter_window(self, t, user, ab, target, params):
            return
        self.proceed(t, user, ab, target, params)

    def proceed(self, t: Txn, user: int, ab: Ability, target: int | None,
                params: Params) -> None:
        if effects.intercept_use(self, t, user, ab, target, params):
            return  # someone answers first (Intellect Fortress); the effect resumes it
        if ab.needs_check:
            t.push(Check(user, ab.name, ab.check_target(self, t, user), target, params))
            return
        self.finish_use(t, user, ab, target, params)

    def finish_use(self, t: Txn, user: int, ab: Ability, target: int | None,
                   params: Params) -> None:
        succeeded = ab.resolve(self, t, user, target, params)
        if succeeded and ab.awards_ep:
            t.emit("ability_success", user, detail=ab.name)

    def finish_check(self, t: Txn, head: Check, roll: int) -> None:
        ab = self.ability_of(t, head.player, head.ability)
        ok = roll <= head.target
        t.emit("check", head.player, amount=roll, detail=f"{head.ability}:{'pass' if ok else 'fail'}")
        if ok:
            self.finish_use(t, head.player, ab, head.on, head.params)
        else:
            ab.on_fail(self, t, head.player, head.on, head.params)

    # ======================================================================================
    # Variant actions
    # ======================================================================================
    def apply_extra(self, t: Txn, action: Action) -> None:
        if isinstance(action, UseAbility):
            self._do_use(t, action)
        elif isinstance(action, Pass):
            self._do_pass(t, action)
        elif isinstance(action, Accept):
            head = t.pending[0] if t.pending else None
            if not isinstance(head, CardChoice) or head.player != action.player:
                raise IllegalActionError("there is no card on offer to you")
            t.pending.pop(0)
            self.accept_card(t, head)
        elif isinstance(action, TrainSkill):
            self._do_train(t, action)
        elif isinstance(action, Choose):
            self._do_choose(t, action)
        else:
            super().apply_extra(t, action)

    def _do_choose(self, t: Txn, action: Choose) -> None:
        """A levelling choice that is due (the engine routes answers to decisions)."""
        head = t.pending[0] if t.pending else None
        p = character(t, action.player)
        for ab in known_abilities(p):
            for kind, options in ab.choices_due(self, t, action.player):
                if kind == action.what:
                    if action.option not in options:
                        raise IllegalActionError(f"choose {kind} from: {', '.join(options)}")
                    if t.pending and not isinstance(head, Decision):
                        raise IllegalActionError(self.waiting_for(t))
                    ab.apply_choice(self, t, action.player, kind, action.option)
                    return
        raise IllegalActionError(f"{p.name} has no {action.what!r} choice to make now")

    def due_choices(self, table: Table, seat: int) -> list[tuple[str, tuple[str, ...]]]:
        """Levelling choices ``seat`` still has to make (melodies, forms, stances ...)."""
        p = character(table, seat)
        if p.bankrupt:
            return []
        return [c for ab in repertoire(p).overriding("choices_due")
                for c in ab.choices_due(self, table, seat)]

    def _do_use(self, t: Txn, action: UseAbility) -> None:
        user = action.player
        head = t.pending[0] if t.pending else None
        if isinstance(head, Window):
            reactions.use_in_window(self, t, action)
            return
        ab = self.ability_of(t, user, action.ability)
        problem = self.use_problem(t, user, ab, action.target, action.params)
        if problem:
            raise IllegalActionError(f"{ab.name}: {problem}")
        params = action.params
        if isinstance(head, RentChoice) and head.player == user:
            t.pending.pop(0)
            params = (("owner", str(head.owner)), ("square", str(head.square)),
                      ("amount", str(head.amount)))
        elif isinstance(head, RobBankChoice) and head.player == user:
            t.pending.pop(0)
            params = (("landed", "1" if head.landed else "0"),)
        elif isinstance(head, Decision) and head.player == user:
            t.pending.pop(0)
            params = head.use_params() + params
        self.start_use(t, user, ab, action.target, params)

    def _do_pass(self, t: Txn, action: Pass) -> None:
        head = t.pending[0] if t.pending else None  # (windows and decisions: the engine)
        if head is None or head.player != action.player:
            raise IllegalActionError("there is nothing to pass on")
        if isinstance(head, RentChoice):
            t.pending.pop(0)
            self.charge_rent(t, head.player, head.owner, head.square, head.amount)
        elif isinstance(head, CardChoice):
            t.pending.pop(0)
            self.refuse_card(t, head)
        elif isinstance(head, RobBankChoice):
            t.pending.pop(0)
            self.pay_go(t, head.player, head.landed)
        else:
            raise IllegalActionError("there is nothing to pass on")

    def skill_points_left(self, p: Character) -> int:
        if "rogue" not in p.role.split("+") or knows(p, "open_locks") is None:
            return 0  # skills borrowed by other classes have fixed ranks
        return skill_points_total(p.level) - p.skill_points_spent

    def _do_train(self, t: Txn, action: TrainSkill) -> None:
        p = character(t, action.player)
        if action.skill not in ROGUE_SKILLS or knows(p, action.skill) is None:
            raise IllegalActionError(f"{p.name} has no skill {action.skill!r}; rogue skills are "
                                     f"{', '.join(ROGUE_SKILLS)}")
        if action.player != t.current or t.pending:
            raise IllegalActionError("put skill points into skills on your own turn, with "
                                     "nothing else pending")
        left = self.skill_points_left(p)
        if action.ranks < 1 or action.ranks > left:
            raise IllegalActionError(f"you have {left} skill points to spend, not {action.ranks}")
        ranks = p.ranks(action.skill) + action.ranks
        if ranks > MAX_SKILL_RANKS:
            raise IllegalActionError(f"a skill holds at most {MAX_SKILL_RANKS} ranks")
        t.set_player(action.player, skills=p.with_skill(action.skill, ranks))
        t.emit("trained", action.player, amount=action.ranks, detail=action.skill)

    # ======================================================================================
    # Legal actions
    # ======================================================================================
    def _close_auction(self, t: Txn, head: Any) -> None:
        """An auction a class module opened (a paladin's Challenge) closes by its own rule."""
        close = getattr(head, "close", None)
        if close is not None:
            close(self, t)
            return
        super()._close_auction(t, head)

    def extra_legal_actions(self, state: GameState,
                            players: tuple[int, ...] | None = None) -> list[Action]:
        out: list[Action] = []
        if state.pending:
            head = state.pending[0]  # (windows, decisions, RollFor: the engine's prompts)
            if isinstance(head, Check):
                out.append(Roll(head.player, ()))
            elif isinstance(head, RentChoice):
                ab = knows(character(state, head.player), "intimidate")
                if ab and self.use_problem(state, head.player, ab, None, ()) is None:
                    out.append(UseAbility(head.player, "intimidate"))
                out.append(Pass(head.player))
            elif isinstance(head, CardChoice):
                out += [Accept(head.player), Pass(head.player)]
            elif isinstance(head, RobBankChoice):
                rob = knows(character(state, head.player), "rob_bank")
                if rob and self.use_problem(state, head.player, rob, None, ()) is None:
                    out.append(UseAbility(head.player, "rob_bank"))  # not under Insect Plague
                out.append(Pass(head.player))
            return out
        for seat in range(len(state.players)):
            if players is not None and seat not in players:
                continue  # the caller drops them
            for kind, options in self.due_choices(state, seat):
                out += [Choose(seat, kind, option) for option in options]
        cur = state.current
        if players is not None and cur not in players:
            return out
        p = character(state, cur)
        for ab in repertoire(p).usable:
            if self.generic_problem(state, cur, ab) is not None:
                continue
            for target, params in ab.candidates(self, state, cur):
                if ab.problem(self, state, cur, target, params) is None:
                    out.append(UseAbility(cur, ab.name, target, params))
        left = self.skill_points_left(p)
        if left > 0 and cur == state.current:
            for skill in ROGUE_SKILLS:
                if p.ranks(skill) < MAX_SKILL_RANKS:
                    out.append(TrainSkill(cur, skill, 1))
        return out

    def bot_hint(self, state: GameState, actions: Sequence[Action]) -> Action | None:
        """A simple ability policy for the heuristic bot (see bots.py)."""
        return bots.bot_hint(state, actions)

    # ======================================================================================
    # Transcript, JSON and narration
    # ======================================================================================
    def parse_variant_verb(self, state: GameState, player: int, verb: str,
                           args: list[str]) -> Action | None:
        """``use ABILITY [TARGET] [key=value ...]``, ``pass``, ``accept``, ``train SKILL [N]``."""
        if verb == "use":
            if not args:
                raise ValueError("use ABILITY [TARGET] [key=value ...]")
            target: int | None = None
            params: list[tuple[str, str]] = []
            for word in args[1:]:
                if "=" in word:
                    k, v = word.split("=", 1)
                    params.append((k, v))
                elif target is None:
                    target = state.player_index(word)
                else:
                    raise ValueError(f"unexpected word {word!r}: use ABILITY [TARGET] [key=value ...]")
            return UseAbility(player, args[0].lower(), target, tuple(params))
        if verb == "pass" and not args:
            return Pass(player)
        if verb == "accept" and not args:
            return Accept(player)
        if verb == "choose":
            if len(args) != 2:
                raise ValueError("choose WHAT OPTION (e.g. choose melody dirge_of_doom)")
            return Choose(player, args[0].lower(), args[1])
        if verb == "train":
            if len(args) not in (1, 2):
                raise ValueError("train SKILL [RANKS]")
            try:
                ranks = int(args[1]) if len(args) == 2 else 1
            except ValueError:
                raise ValueError(f"ranks must be a whole number, not {args[1]!r}") from None
            return TrainSkill(player, args[0].lower(), ranks)
        return None

    def format_variant_action(self, state: GameState, action: Action) -> str | None:
        if isinstance(action, UseAbility):
            words = ["use", action.ability]
            if action.target is not None:
                name = state.players[action.target].name
                words.append(f'"{name}"' if " " in name else name)
            words += [f"{k}={v}" for k, v in action.params]
            return " ".join(words)
        if isinstance(action, Pass):
            return "pass"
        if isinstance(action, Accept):
            return "accept"
        if isinstance(action, Choose):
            option = f'"{action.option}"' if " " in action.option else action.option
            return f"choose {action.what} {option}"
        if isinstance(action, TrainSkill):
            return f"train {action.skill} {action.ranks}"
        return None

    player_fields = ("class", "level", "ep", "skills", "enchantments", "spent", "hidden",
                     "choices", "counters")
    square_fields = ("enchantments",)

    def set_player_field(self, player: PlayerState, key: str, value: str) -> PlayerState:
        """``set player NAME class=wizard level=N ep=N skills=open_locks:5,... enchantments=
        mage_armor,slow:3 spent=wish hidden=true``."""
        if not isinstance(player, Character):
            raise ValueError("not a dungeonopoly character")
        if key in ("class", "role"):
            return replace(player, role=find_class(value).name)
        if key == "ep":
            ep = _int(value, "ep")
            if ep < 0:
                raise ValueError("ep cannot be negative")
            return replace(player, ep=ep, level=level_for(ep, player.ep_per_level))
        if key == "level":
            level = _int(value, "level")
            if not 1 <= level <= 10:
                raise ValueError("level is 1 to 10")
            per = player.ep_per_level
            ep = player.ep if level_for(player.ep, per) == level else (level - 1) * per
            return replace(player, level=level, ep=ep)
        if key == "skills":
            table: dict[str, int] = {}
            for item in filter(None, value.split(",")):
                name, _, ranks = item.partition(":")
                if name not in ROGUE_SKILLS:
                    raise ValueError(f"unknown skill {name!r}; skills are {', '.join(ROGUE_SKILLS)}")
                r = _int(ranks, f"ranks of {name}")
                if not 0 <= r <= MAX_SKILL_RANKS:
                    raise ValueError(f"a skill holds 0 to {MAX_SKILL_RANKS} ranks")
                table[name] = r
            return replace(player, skills=tuple(sorted((k, v) for k, v in table.items() if v)))
        if key == "enchantments":
            return replace(player, enchantments=tuple(
                _parse_enchantment(item, player.level, PLAYER_ENCHANTMENTS)
                for item in filter(None, value.split(","))))
        if key == "spent":
            return replace(player, spent=tuple(filter(None, value.split(","))))
        if key == "hidden":
            return replace(player, hidden=value.lower() in ("true", "yes", "1", "on"))
        if key == "choices":  # kind:value,... e.g. melody:dirge_of_doom,borrow:fighter:attack
            pairs = []
            for item in filter(None, value.split(",")):
                kind, _, val = item.partition(":")
                if not val:
                    raise ValueError(f"a choice is kind:value, not {item!r}")
                pairs.append((kind, val))
            return replace(player, choices=tuple(pairs))
        if key == "counters":  # name:number,...
            counts: dict[str, int] = {}
            for item in filter(None, value.split(",")):
                name, _, num = item.partition(":")
                counts[name] = _int(num, f"counter {name}")
            return replace(player, counters=tuple(sorted((k, v) for k, v in counts.items() if v)))
        raise ValueError(f"unknown player field {key!r}; dungeonopoly adds class, level, ep, "
                         "skills, enchantments, spent, hidden, choices, counters")

    def set_square_field(self, state: GameState, index: int, key: str, value: str) -> GameState:
        """``set square "X" enchantments=bless:3`` (name:caster level, comma separated)."""
        if key != "enchantments":
            raise ValueError(f"unknown square field {key!r}; dungeonopoly adds enchantments")
        found = dungeon(state)  # what was on the square (set aside or not) goes
        found = replace(found,
                        enchantments=tuple(e for e in found.enchantments if e.square != index),
                        suppressed=tuple(e for e in found.suppressed if e.square != index))
        for item in filter(None, value.split(",")):
            ench = _parse_enchantment(item, 1, SQUARE_ENCHANTMENTS)
            found = with_square_enchantment(found, index, ench)
        return replace(state, table=found)

    def player_json(self, state: GameState, index: int) -> dict[str, Any]:
        p = character(state, index)
        out: dict[str, Any] = {
            "class": p.role, "level": p.level, "ep": p.ep,
            "enchantments": [e.label() for e in p.enchantments],
            "hidden": is_hidden(p),
            "abilities": [a.as_json(p) for a in find_class(p.role).abilities] if p.role else [],
        }
        own = {a["name"] for a in out["abilities"]}
        out["abilities"] += [a.as_json(p) for a in known_abilities(p) if a.name not in own]
        if p.choices or self.due_choices(state, index):
            out["choices"] = [f"{k}:{v}" for k, v in p.choices]
            out["choices_due"] = {k: list(opts) for k, opts in self.due_choices(state, index)}
        if p.counters:
            out["counters"] = dict(p.counters)
        if knows(p, "open_locks") is not None:
            out["skills"] = dict(p.skills)
            out["skill_points"] = self.skill_points_left(p)
        out.update(effects.player_json(self, state, index))
        return out

    def square_json(self, state: GameState, index: int) -> dict[str, Any]:
        return {"enchantments": [e.label() for e in square_enchantments(state, index)]}

    def describe_event(self, state: GameState, event: Event) -> str | None:
        """Dungeonopoly's events in plain words (``narration.py``); None: the engine's own."""
        from companion.games.monopoly.dungeonopoly import narration

        return narration.describe_event(self, state, event)


@dataclass(frozen=True, slots=True)
class DungeonRoll(MovementRoll):
    """A movement roll as Dungeonopoly reads it: under Slow, or sneaking."""

    slowed: bool = False
    sneak: bool = False


class Sneaking(effects.TableEffect):
    """Sneak (rogue): the move notes every character the sneaking rogue passes."""

    def enter_square(self, layer: Dungeonopoly, t: Txn, mover: int, index: int,
                     came_from: int, remaining: int, land: bool) -> int:
        layer.sneak_past(t, mover, index)
        return remaining


SNEAKING = Sneaking()

PLAYER_ENCHANTMENTS = frozenset({"mage_armor", "slow", "invisibility", "charm_person",
                                 "shield_of_faith", "sanctuary",
                                 "barkskin", "glitterdust",  # druid, bard
                                 "hex", "ego_whip", "modify_memory", "id_insinuation"})
SQUARE_ENCHANTMENTS = frozenset({"bless", "curse", "glyph_of_warding",
                                 # the druid's primal spells
                                 "entangle", "obscuring_mist", "hallow", "insect_plague",
                                 "wall_of_thorns", "antimagic_field",
                                 "genesis"})  # a psion's demiplane (in the gap after it)
MENTAL_ENCHANTMENTS = frozenset({"charm_person", "ego_whip", "modify_memory", "id_insinuation"})


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{what} must be a whole number, not {text!r}") from None


def _parse_enchantment(item: str, level: int, allowed: frozenset[str]) -> Enchantment:
    """``name[:level[:source seat]]``."""
    parts = item.split(":")
    name = parts[0]
    if name not in allowed:
        raise ValueError(f"unknown enchantment {name!r} here; allowed: {', '.join(sorted(allowed))}")
    lvl = _int(parts[1], "enchantment level") if len(parts) > 1 else level
    source = _int(parts[2], "enchantment source seat") if len(parts) > 2 else -1
    return Enchantment(name, source, lvl, name in MENTAL_ENCHANTMENTS)
