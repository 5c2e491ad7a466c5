"""Standard US Monopoly: the whole turn flow, as one class whose small methods variants override.

``Rules.apply(state, action)`` returns ``(new_state, events)`` or raises ``IllegalActionError``;
``Rules.legal_actions(state)`` lists what every player may do now. Both are pure: no I/O, no
randomness (dice arrive in ``Roll`` actions; deck order is part of the state).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from math import ceil, floor
from typing import TYPE_CHECKING, Any, ClassVar

from companion.core.dice import DicePrompt, die_of_sides
from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.game import Outcome
from companion.games.monopoly import building, narration, transcript
from companion.games.monopoly.actions import (
    Action,
    Bid,
    BreakDown,
    Build,
    Buy,
    CallHouseAuction,
    Choose,
    ClaimRent,
    DeclareBankruptcy,
    Decline,
    DrawnCard,
    EndGame,
    EndTurn,
    KeepMortgaged,
    Mortgage,
    Pass,
    PassBid,
    PayJail,
    Roll,
    Sell,
    Trade,
    Unmortgage,
    UseJailCard,
)
from companion.games.monopoly.board import Board, load_board
from companion.games.monopoly.bots import HeuristicBot
from companion.games.monopoly.cards import DECKS, Card, card_by_id, load_deck
from companion.games.monopoly.pending import (
    Auction,
    BuyDecision,
    Debt,
    DrawCard,
    MortgagedTransfer,
    MoveBy,
    NeedRoll,
    Pending,
    PlaceHouse,
)
from companion.games.monopoly.prompts import Decision, RollFor, Step
from companion.games.monopoly.reactions import Window
from companion.games.monopoly.rent import base_rent
from companion.games.monopoly.state import (
    BANK,
    EMPTY_SQUARE,
    POT,
    GameState,
    Options,
    PlayerState,
    VariantTable,
    parse_option,
    team_sides,
)
from companion.games.monopoly.txn import Txn
from companion.games.monopoly.walk import (
    Between,
    MovementRoll,
    MovePlan,
    ResumeMove,
    Watcher,
    walk,
)

if TYPE_CHECKING:  # the presenter is imported when the kiosk asks for it
    from companion.games.monopoly.presenter import MonopolyPresenter


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}

@dataclass(frozen=True, slots=True)
class RollSpec:
    """The roll the engine is waiting for: whose, how many dice of how many sides, and why."""

    player: int
    sides: tuple[int, ...]
    purpose: str  # move | jail | utility_card | variant-defined


@dataclass(frozen=True, slots=True)
class LandContext:
    """How a player arrived on a square (for rent and card effects)."""

    dice_total: int = 0
    rent_multiplier: int = 1
    dice_multiplier: int = 0
    by_card: bool = False


def round_money(value: float, mode: str) -> int:
    if mode == "down":
        return floor(value)
    if mode == "nearest":
        return floor(value + 0.5)
    return ceil(value - 1e-9)


class Rules:
    """Standard Monopoly. Subclasses (variants) override the hook methods marked 'hook'."""

    name: ClassVar[str] = "monopoly"
    player_type: ClassVar[type[PlayerState]] = PlayerState
    roll_dice_count: ClassVar[int] = 2

    def __init__(self, board: Board | None = None) -> None:
        self.board = board or load_board()
        self._presenter: MonopolyPresenter | None = None
        self._groups = tuple((g, lots, self.board.squares[lots[0]].kind == "street")
                             for g, lots in self.board.groups.items())
        self._street_groups = tuple(lots for _g, lots, street in self._groups if street)
        self._group_of = {i: k for k, (_g, lots, _s) in enumerate(self._groups) for i in lots}
        self._handlers: dict[type[Action], Callable[[Txn, Any], None]] = {
            Roll: self._do_roll,
            Buy: self._do_buy,
            Decline: self._do_decline,
            Bid: self._do_bid,
            PassBid: self._do_pass_bid,
            Build: self._do_build,
            Sell: self._do_sell,
            BreakDown: self._do_breakdown,
            Mortgage: self._do_mortgage,
            Unmortgage: self._do_unmortgage,
            KeepMortgaged: self._do_keep_mortgaged,
            PayJail: self._do_pay_jail,
            UseJailCard: self._do_use_jail_card,
            DrawnCard: self._do_drawn_card,
            Trade: self._do_trade,
            EndTurn: self._do_end_turn,
            DeclareBankruptcy: self._do_bankruptcy,
            ClaimRent: self._do_claim_rent,
            CallHouseAuction: self._do_call_house_auction,
            EndGame: self._do_end_game,
            Pass: self._answer_pass,
            Choose: self._answer_choose,
        }

    def presenter(self) -> MonopolyPresenter:
        """What the kiosk shows of this game (``companion.kiosk.presenter.Presenter``)."""
        if self._presenter is None:
            from companion.games.monopoly.presenter import MonopolyPresenter

            self._presenter = MonopolyPresenter(self)
        return self._presenter

    # ======================================================================================
    # Setting up
    # ======================================================================================
    def default_options(self) -> Options:
        """hook: the options a table of this variant starts from."""
        return Options()

    def new_player(self, name: str, options: Options, role: str = "") -> PlayerState:
        """hook: a seated player at the start (variants add class, level, ...)."""
        if role:
            raise ValueError(f"the {self.name} variant has no character classes ({role!r})")
        return self.player_type(name=name, cash=options.starting_cash)

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Options | None = None,
                 seed: int = 0, decks: Mapping[str, Sequence[str]] | None = None,
                 table: VariantTable | None = None) -> GameState:
        """A new game. Virtual decks are shuffled from ``seed`` unless ``decks`` fixes an order."""
        options = options or self.default_options()
        if not 2 <= len(players) <= 8:
            raise ValueError("Monopoly needs 2 to 8 players")
        seated = []
        for entry in players:
            name, role = (entry, "") if isinstance(entry, str) else entry
            seated.append(self.new_player(name, options, role))
        names = [p.name.lower() for p in seated]
        if len(set(names)) != len(names):
            raise ValueError("two players have the same name; give each a different name")
        rng = random.Random(seed)
        orders: dict[str, tuple[str, ...]] = {}
        for deck in DECKS:
            ids = [c.id for c in load_deck(deck)]
            if decks and deck in decks:
                given = list(decks[deck])
                unknown = set(given) - set(ids)
                if unknown:
                    raise ValueError(f"unknown {deck} cards: {', '.join(sorted(unknown))}")
                rest = [c for c in ids if c not in given]
                orders[deck] = tuple(given + rest)
            else:
                rng.shuffle(ids)
                orders[deck] = tuple(ids)
        sides = team_sides(options.teams, [p.name for p in seated])
        if sides:  # a team's pool starts with every member's starting cash
            pools: dict[int, int] = {}
            for i, p in enumerate(seated):
                pools[sides[i]] = pools.get(sides[i], 0) + p.cash
            seated = [replace(p, cash=pools[sides[i]]) for i, p in enumerate(seated)]
        total = sum(p.cash for i, p in enumerate(seated) if not sides or sides[i] == i)
        return GameState(
            variant=self.name,
            options=options,
            players=tuple(seated),
            squares=tuple(EMPTY_SQUARE for _ in self.board.squares),
            bank_houses=options.bank_houses,
            bank_hotels=options.bank_hotels,
            bank_net=total,
            chance=orders["chance"],
            community_chest=orders["community_chest"],
            seed=seed,
            table=table,
            sides=sides,
        )

    # ======================================================================================
    # Hooks (variants override these)
    # ======================================================================================
    def go_pass_pay(self, t: Txn, player: int) -> int:
        """hook: GO pay for passing GO."""
        return t.options.go_salary

    def go_land_pay(self, t: Txn, player: int) -> int:
        """hook: GO pay for landing on GO (instead of the passing pay)."""
        return t.options.go_landing_pay

    def fee_destination(self, t: Txn, reason: str) -> int:
        """hook: where fees go (taxes, card penalties, the jail fee): the bank or the pot."""
        return POT if t.options.free_parking_pot else BANK

    def may_manage(self, state: GameState, player: int, what: str) -> bool:
        """hook: may ``player`` build/sell/mortgage/unmortgage/trade now? (standard: any time,
        building off-turn per the build_off_turn option)."""
        if what == "build" and not state.options.build_off_turn:
            return player == state.current
        return True

    def may_build_group(self, state: GameState, player: int, group: str) -> bool:
        """hook: may ``player`` build on this group at all (standard: they own all of it)."""
        return True

    def roll_spec(self, state: GameState) -> RollSpec | None:
        """hook: the roll the engine waits for now, if any."""
        if state.outcome is not None:
            return None
        if state.pending:
            head = state.pending[0]
            if isinstance(head, NeedRoll):
                return RollSpec(head.player, (6, 6), head.purpose)
            if isinstance(head, RollFor):
                return RollSpec(head.player, head.dice_sides, f"for:{type(head).__name__}")
            return None
        if not state.rolled or state.roll_again:
            purpose = "jail" if state.players[state.current].in_jail else "move"
            return RollSpec(state.current, (6,) * self.roll_dice_count, purpose)
        return None

    def credit(self, t: Txn, player: int, amount: int, reason: str) -> None:
        """hook: money arrives in a player's accounts (standard: one account, ``cash``).

        A variant with several accounts per player (Illumonopoly's treasuries) keeps them in its
        player state and decides here which one the money lands in; ``cash`` stays the total the
        rules check before a payment."""
        for m in t.members(player):  # a team's pool: every member's cash shows it
            t.set_player(m, cash=t.players[m].cash + amount)

    def debit(self, t: Txn, player: int, amount: int, reason: str) -> None:
        """hook: money leaves a player's accounts (the caller has checked the total)."""
        for m in t.members(player):
            t.set_player(m, cash=t.players[m].cash - amount)

    def can_pay(self, t: GameState | Txn, player: int, amount: int, reason: str) -> bool:
        """hook: can ``player`` pay ``amount`` now, for this reason? (standard: their cash
        covers it). Illumonopoly's treasuries answer by the treasuries the payment may use;
        a charge that cannot be paid becomes a ``Debt`` to raise."""
        return t.players[player].cash >= amount

    def adjust_charge(self, t: Txn, debtor: int, creditor: int, amount: int, reason: str) -> int:
        """hook: change a sum owed before it is charged (protections, discounts)."""
        return amount

    def redirect_income(self, t: Txn, recipient: int, amount: int, reason: str) -> int:
        """hook: who really receives money paid to player ``recipient`` (a seat, or POT/BANK);
        standard: the recipient."""
        return recipient

    def rent_due(self, t: Txn, payer: int, index: int, ctx: LandContext) -> int:
        """hook: rent owed for landing on a lot (variants adjust enchantments etc.)."""
        return base_rent(self.board, t.squares, index, ctx.dice_total, ctx.rent_multiplier,
                         ctx.dice_multiplier)

    def on_pass(self, t: Txn, player: int, index: int, forward: bool) -> bool:
        """hook: the player moves over ``index`` without stopping; return True to stop there."""
        if index == 0 and forward:
            self.collect_go(t, player, landed=False)
        return False

    def on_land(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        """hook: the player lands on ``index``; resolves the square."""
        self.resolve_square(t, player, index, ctx)

    def after_action(self, t: Txn, action: Action) -> None:
        """hook: runs after every applied action, before the state is frozen (e.g. award EP
        from the events of ``t.events``)."""

    def extra_legal_actions(self, state: GameState,
                            players: tuple[int, ...] | None = None) -> list[Action]:
        """hook: variant actions legal now (those of ``players`` at least, when given: the
        caller drops the others)."""
        return []

    def apply_extra(self, t: Txn, action: Action) -> None:
        """hook: apply a variant action (raise IllegalActionError for unknown ones)."""
        raise IllegalActionError(f"{type(action).__name__} is not an action of {self.name}")

    def check_winner(self, t: Txn) -> None:
        """hook: end the game when one player (or one team) is left standing."""
        active = t.active()
        if len({t.side(p) for p in active}) <= 1 and t.outcome is None:
            t.outcome = self.standings(t, "last_player_standing",
                                       winner=self.side_name(t, active[0]) if active else None)
            t.emit("game_over", active[0] if active else None,
                   detail=t.outcome.winner or "no one")

    # --- prompts, reaction windows and movement hooks (prompts.py, reactions.py, walk.py) ----
    def prompt_actions(self, state: GameState, head: Pending) -> list[Action]:
        """The answers to a variant's prompt at the head of the queue: a window's answers and
        passes, a decision's answers, the roll a ``RollFor`` waits for."""
        if isinstance(head, Window):
            out: list[Action] = []
            for seat in head.waiting:
                out += head.answer_actions(self, state, seat)
                out.append(Pass(seat))
            return out
        if isinstance(head, Decision):
            return head.actions(self, state)
        if isinstance(head, RollFor):
            return [Roll(head.player, ())]
        return []

    def react_to_roll(self, t: Txn, spec: RollSpec, dice: tuple[int, ...]) -> bool:
        """hook: dice were rolled and checked; True holds the roll back (a reaction window
        opened, which hands it to ``handle_roll`` when it closes)."""
        return False

    def read_movement_roll(self, t: Txn, player: int, dice: tuple[int, ...]) -> MovementRoll:
        """hook: the dice of a movement roll that count, and those that decide doubles."""
        return MovementRoll(dice, dice)

    def movement_roll_taken(self, t: Txn, player: int, roll: MovementRoll) -> None:
        """hook: a movement roll was taken (before doubles are counted)."""

    def rolled_doubles(self, t: Txn, player: int) -> None:
        """hook: a movement roll came up doubles (before the move)."""

    def plan_movement(self, t: Txn, player: int, roll: MovementRoll) -> MovePlan:
        """hook: how a movement roll moves the player (standard: ``movement_steps`` squares,
        landing and passing as usual)."""
        return MovePlan(self.movement_steps(t, player, roll.dice))

    def pinned(self, t: GameState | Txn, player: int) -> bool:
        """hook: True when the player cannot be moved now."""
        return False

    def step_watchers(self, t: Txn, player: int) -> Sequence[Watcher]:
        """hook: the rules on the table watching this mover's steps (an extra cost per square,
        a square that stops her, someone towed along)."""
        return []

    def walk_between(self, t: Txn, player: int) -> Between | None:
        """hook: squares between the squares for this mover's walk, if any."""
        return None

    def passing(self, t: Txn, player: int, index: int, forward: bool, land: bool) -> bool:
        """hook: the mover passes ``index`` (see ``on_pass``); True stops her there."""
        return self.on_pass(t, player, index, forward)

    def after_move(self, t: Txn, player: int, steps: int, land: bool,
                   count_passing: bool) -> None:
        """hook: a move (or the part of it made before a pause) finished."""

    # --- transcript, JSON and narration hooks (see transcript.py and narration.py) -----------
    def parse_variant_verb(self, state: GameState, player: int, verb: str,
                           args: list[str]) -> Action | None:
        """hook: parse a variant's transcript verb (``NAME VERB ARGS``); None if unknown."""
        return None

    def format_variant_action(self, state: GameState, action: Action) -> str | None:
        """hook: a variant action as transcript words after the player's name; None if unknown."""
        return None

    # a variant's own ``set player`` / ``set square`` fields (named in the error of an unknown one)
    player_fields: tuple[str, ...] = ()
    square_fields: tuple[str, ...] = ()

    def set_player_field(self, player: PlayerState, key: str, value: str) -> PlayerState:
        """hook: ``set player NAME key=value`` for a variant's own fields (raise ValueError)."""
        raise ValueError(f"unknown player field {key!r}")

    def set_square_field(self, state: GameState, index: int, key: str, value: str) -> GameState:
        """hook: ``set square "X" key=value`` for a variant's own fields (raise ValueError)."""
        raise ValueError(f"unknown square field {key!r}")

    def player_json(self, state: GameState, index: int) -> dict[str, Any]:
        """hook: extra JSON fields for a player (class, level, EP, ...)."""
        return {}

    def square_json(self, state: GameState, index: int) -> dict[str, Any]:
        """hook: extra JSON fields for a square (enchantments, ...)."""
        return {}

    def describe_event(self, state: GameState, event: Event) -> str | None:
        """hook: a sentence for a variant event; None to use the standard wording."""
        return None

    # ======================================================================================
    # The Game protocol (companion.core.game): records, words, dice and bots
    # ======================================================================================
    setup_words: frozenset[str] = frozenset({"deck"})

    def parse_option(self, name: str, text: str) -> tuple[str, Any]:
        """``option NAME=VALUE`` typed by the default of that setting of this variant (see
        ``parse_option``); a setting of another variant is refused by name."""
        return parse_option(name, text, type(self.default_options()), self.name)

    def new_game_from_header(self, players: Sequence[str | tuple[str, str]], options: Options,
                             seed: int, setup: Mapping[str, Any]) -> GameState:
        """``new_game`` with the deck orders of the ``deck`` lines (``setup["decks"]``)."""
        return self.new_game(players, options, seed=seed, decks=setup.get("decks"))

    def read_setup_line(self, words: list[str], setup: dict[str, Any]) -> None:
        """``deck chance|community_chest CARD_ID ...``: that deck's order, top card first."""
        transcript.read_deck_line(words, setup)

    def setup_lines(self, state: GameState) -> list[str]:
        """Both decks written out in full."""
        return transcript.deck_lines(state)

    def parse_action(self, state: GameState, words: list[str]) -> Action:
        return transcript.parse_action(self, state, words)

    def format_action(self, state: GameState, action: Action) -> str:
        return transcript.format_action(self, state, action)

    def apply_set(self, state: GameState, words: list[str]) -> GameState:
        return transcript.apply_set(self, state, words)

    def state_json(self, state: GameState, events: Sequence[Event] = ()) -> dict[str, Any]:
        return transcript.state_json(self, state, events)

    def describe(self, state: GameState, event: Event) -> str:
        """One sentence for an event: the variant's own (``describe_event``) or Monopoly's."""
        return narration.describe(self, state, event)

    def tells(self, event: Event) -> bool:
        return narration.tells(event)

    def result_lines(self, state: GameState) -> Iterator[str]:
        """The standings by net worth, each player's cash or bankruptcy, and the winner."""
        outcome = state.outcome or self.standings(state, "in_progress")
        title = "Final standings" if state.outcome else "Standings so far"
        yield f"{title} (net worth: cash + lots at price + buildings at cost):"
        for rank, (name, worth) in enumerate(outcome.standings, start=1):
            # a team plays as "Ann+Cai": its members share one pool of cash
            members = [state.players[state.player_index(n)] for n in name.split("+")]
            bankrupt = all(m.bankrupt for m in members)
            status = "bankrupt" if bankrupt else f"cash ${members[0].cash}"
            yield f"  {rank}. {name:<10} ${worth:>6}  ({status})"
        if state.outcome and state.outcome.winner:
            yield f"Winner: {state.outcome.winner}"

    def invariant_problems(self, state: GameState) -> list[str]:
        """The bank's books: money in play matches what the bank paid in, no negative cash,
        every house and hotel on the board or in the bank, no building on a mortgaged lot."""
        problems = []
        if state.money_in_hand + state.pot != state.bank_net:
            problems.append(f"money not conserved: ${state.money_in_hand} in hand and "
                            f"${state.pot} in the pot, but the bank paid in ${state.bank_net}")
        problems += [f"{p.name} has ${p.cash}" for p in state.players if p.cash < 0]
        houses = sum(s.houses for s in state.squares if not s.hotel)
        hotels = sum(1 for s in state.squares if s.hotel)
        if houses + state.bank_houses != state.options.bank_houses or state.bank_houses < 0:
            problems.append(f"{houses} houses on the board and {state.bank_houses} in the bank")
        if hotels + state.bank_hotels != state.options.bank_hotels or state.bank_hotels < 0:
            problems.append(f"{hotels} hotels on the board and {state.bank_hotels} in the bank")
        problems += [f"buildings on mortgaged {self.board.squares[i].name}"
                     for i, s in enumerate(state.squares) if s.mortgaged and s.level]
        return problems

    def end_game_action(self, state: GameState) -> Action:
        return EndGame(state.current)

    def dice_prompt(self, state: GameState) -> DicePrompt | None:
        """``roll_spec`` as numbered dice."""
        spec = self.roll_spec(state)
        if spec is None:
            return None
        return DicePrompt(spec.player, tuple(die_of_sides(s) for s in spec.sides), spec.purpose)

    def needs_dice(self, action: Action) -> bool:
        return isinstance(action, Roll) and not action.dice

    def roll_action(self, state: GameState, prompt: DicePrompt, values: tuple[int, ...]) -> Action:
        return Roll(prompt.player, tuple(values))

    def bots(self) -> Mapping[str, Callable[[int], Any]]:
        """``heuristic``: buys, bids, builds and raises money sensibly."""
        return {"heuristic": HeuristicBot}

    # ======================================================================================
    # Public API
    # ======================================================================================
    def apply(self, state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
        """Apply one action: the new state and the events, or IllegalActionError (no change)."""
        if state.outcome is not None and not isinstance(action, EndGame):
            raise IllegalActionError("the game is over; start a new game")
        if not 0 <= action.player < len(state.players):
            raise IllegalActionError(f"there is no player in seat {action.player}")
        if state.players[action.player].bankrupt:
            raise IllegalActionError(f"{state.players[action.player].name} is bankrupt and out")
        t = Txn(self, state)
        handler = self._handlers.get(type(action))
        if handler is None:
            self.apply_extra(t, action)
        else:
            handler(t, action)
        t.flush()
        self.settle(t)
        self.after_action(t, action)
        t.flush()
        self.settle(t)
        self.check_winner(t)
        return t.freeze(), tuple(t.events)

    def deciders(self, state: GameState) -> tuple[int, ...]:
        """The players the game is waiting on now (the rest may still act off-turn)."""
        if state.outcome is not None:
            return ()
        if state.pending:
            head = state.pending[0]
            if isinstance(head, Window):
                return head.waiting
            if isinstance(head, Auction):
                return head.bidders
            if head.player >= 0:
                return (head.player,)
        return (state.current,)

    def legal_actions(self, state: GameState, players: tuple[int, ...] | None = None) -> list[Action]:
        """Every action any player may take now (or only ``players``' actions, when given). A roll is listed once with empty dice: any
        values matching ``roll_spec`` are legal. Trades and bid amounts are open-ended: bids are
        listed at a ladder of amounts; trades are checked by ``trade_problem``."""
        if state.outcome is not None:
            return []
        out: list[Action] = []
        spec = self.roll_spec(state)
        if state.pending:
            head = state.pending[0]
            out.extend(self._pending_actions(state, head))
        else:
            cur = state.current
            player = state.players[cur]
            if spec is not None:
                out.append(Roll(cur, ()))
                if player.in_jail and not state.rolled:
                    if player.cash >= state.options.jail_fee:
                        out.append(PayJail(cur))
                    for deck in sorted(set(player.jail_cards)):
                        out.append(UseJailCard(cur, deck))
            else:
                out.append(EndTurn(cur))
        if spec is not None and state.pending and isinstance(state.pending[0], NeedRoll):
            out.append(Roll(spec.player, ()))
        shortage = self.house_shortage(state)
        owners = sorted({s.owner for s in state.squares if s.owner is not None})
        if state.sides:  # every member of a team manages the team's lots
            owners = [m for o in owners for m in state.members(o) if not state.players[m].bankrupt]
        for p in owners:
            if players is None or p in players:
                out.extend(self.management_actions(state, p, shortage))
        for owner, _payer, square, _amount in state.claimable:
            out.append(ClaimRent(owner, square))
        if shortage:
            for p in sorted(self.house_demand(state)):
                for m in state.members(p):
                    if not state.players[m].bankrupt:
                        out.append(CallHouseAuction(m))
        if state.pending:
            out.extend(self.prompt_actions(state, state.pending[0]))
        out.extend(self.extra_legal_actions(state, players))
        if players is not None:
            out = [a for a in out if a.player in players]
        return out

    def is_legal(self, state: GameState, action: Action) -> bool:
        try:
            self.apply(state, action)
        except IllegalActionError:
            return False
        return True

    # ======================================================================================
    # Legal action helpers
    # ======================================================================================
    def _pending_actions(self, state: GameState, head: Pending) -> list[Action]:
        out: list[Action] = []
        if isinstance(head, BuyDecision):
            if state.players[head.player].cash >= self.price(state, head.player, head.square):
                out.append(Buy(head.player))
            out.append(Decline(head.player))
        elif isinstance(head, Auction):
            minimum = max(head.high_bid + 1, state.options.minimum_bid)
            for p in head.bidders:
                if p == head.high_bidder:
                    continue
                if head.high_bidder is not None and state.allied(p, head.high_bidder):
                    out.append(PassBid(p))  # no raising a teammate's bid
                    continue
                cash = state.players[p].cash
                seen = set()
                for step in (0, 9, 49, 99):
                    amount = minimum + step
                    if amount <= cash and amount not in seen:
                        seen.add(amount)
                        out.append(Bid(p, amount))
                out.append(PassBid(p))
        elif isinstance(head, Debt):
            if self.insolvent(state, head.player, head.amount):
                out.append(DeclareBankruptcy(head.player))
        elif isinstance(head, DrawCard):
            held = {d for p in state.players for d in p.jail_cards}
            for card in load_deck(head.deck):
                if card.effect == "jail_free" and head.deck in held:
                    continue
                out.append(DrawnCard(head.player, card.id))
        elif isinstance(head, MortgagedTransfer):
            cost = self.unmortgage_cost(state, head.square)
            if state.players[head.player].cash >= cost:
                out.append(Unmortgage(head.player, head.square))
            out.append(KeepMortgaged(head.player, head.square))
        elif isinstance(head, PlaceHouse):
            for i in building.buildable_lots(self.board, state.squares, state.side(head.player)):
                if self._build_problem(state, head.player, i, free=True) is None:
                    out.append(Build(head.player, i))
            out.append(Decline(head.player))
        return out

    def management_actions(self, state: GameState, player: int,
                           shortage: bool | None = None) -> list[Action]:
        """Build, sell, mortgage and unmortgage actions open to ``player`` now.

        Works group by group so the per-lot checks run only on candidate lots (this runs on
        every step of every simulated game)."""
        out: list[Action] = []
        sqs = state.squares
        head = state.pending[0] if state.pending else None
        if isinstance(head, PlaceHouse):
            return out
        raising = isinstance(head, Debt) and head.player == player
        can_build = not raising and self.may_manage(state, player, "build")
        can_sell = raising or self.may_manage(state, player, "sell")
        can_mortgage = raising or self.may_manage(state, player, "mortgage")
        can_unmortgage = not raising and self.may_manage(state, player, "unmortgage")
        if not (can_build or can_sell or can_mortgage or can_unmortgage):
            return out  # e.g. off-turn under a variant that manages only on its own turn
        cash = state.players[player].cash
        if can_build and shortage is None:
            shortage = self.house_shortage(state)
        side = state.side(player)
        owned = [i for i, s in enumerate(sqs) if s.owner == side]
        if not owned:
            return out
        touched = sorted({self._group_of[i] for i in owned})
        for k in touched:
            group, lots, street = self._groups[k]
            mine = [i for i in lots if sqs[i].owner == side]
            levels = [sqs[i].level for i in lots] if street else [0]
            built = any(levels)
            full = len(mine) == len(lots)
            any_mortgaged = False
            for i in mine:
                s = sqs[i]
                if s.mortgaged:
                    any_mortgaged = True
                    if can_unmortgage and cash >= self.unmortgage_cost(state, i) and \
                            not self.transfer_pending(state, i):
                        out.append(Unmortgage(player, i))
                elif can_mortgage and not built:
                    out.append(Mortgage(player, i))
            if not street:
                continue
            if can_build and full and not any_mortgaged:
                low = min(levels)
                for i in mine:
                    if shortage and sqs[i].houses < state.options.max_houses:
                        continue
                    if (sqs[i].level == low or not state.options.even_building) and self._build_problem(state, player, i) is None:
                        out.append(Build(player, i))
            if can_sell and built:
                high = max(levels)
                sold_one = False
                for i in mine:
                    if (sqs[i].level == high or not state.options.even_building) and self._sell_problem(state, player, i) is None:
                        out.append(Sell(player, i))
                        sold_one = True
                if not sold_one and full:
                    breakdown = self.best_breakdown(state, player, group)
                    if breakdown is not None:
                        out.append(breakdown)
        return out

    def best_breakdown(self, state: GameState, player: int, group: str) -> BreakDown | None:
        """The smallest even sale of a whole group the bank's houses allow (for a hotel group
        when the bank is short of houses), or None."""
        lots = self.board.groups[group]
        n = len(lots)
        old = sum(state.squares[i].level for i in lots)
        for total in range(old - 1, -1, -1):
            base, extra = divmod(total, n)
            levels = tuple(base + 1 if k < extra else base for k in range(n))
            if building.breakdown_problem(self.board, state.squares, state.side(player), group,
                                          levels,
                                          state.bank_houses, state.options.max_houses) is None:
                return BreakDown(player, group, levels)
        return None

    # ======================================================================================
    # Settling the pending queue
    # ======================================================================================
    def settle(self, t: Txn) -> None:
        """Pay debts that the cash now covers and run automatic steps, in queue order."""
        while t.pending and t.outcome is None:
            head = t.pending[0]
            if isinstance(head, Debt):
                if self.can_pay(t, head.player, head.amount, head.reason):
                    t.pending.pop(0)
                    t.pay(head.player, head.creditor, head.amount, head.reason)
                    if head.then is not None:
                        t.push(head.then)
                    t.flush()
                    continue
                break
            if isinstance(head, Auction) and self._auction_finished(head):
                t.pending.pop(0)
                self._close_auction(t, head)
                t.flush()
                continue
            if head.automatic:
                t.pending.pop(0)
                self.run_step(t, head)
                t.flush()
                continue
            break
        if not t.pending and t.players[t.current].bankrupt and t.outcome is None:
            self.check_winner(t)
            if t.outcome is None:
                self._next_turn(t)

    def run_step(self, t: Txn, step: Pending) -> None:
        """Run an automatic pending step (variants add their own and call super)."""
        if isinstance(step, MoveBy):
            tries = t.options.max_jail_turns  # three in the standard game, fewer in some variants
            self.leave_jail(t, step.player, "paid the fee after one try" if tries == 1 else
                            f"paid the fee after {_NUMBER_WORDS.get(tries, str(tries))} tries")
            self.move(t, step.player, sum(step.dice), LandContext(dice_total=sum(step.dice)))
            return
        if isinstance(step, ResumeMove):
            p = t.players[step.player]
            if p.bankrupt or p.in_jail:
                return
            self.move(t, step.player, step.steps, step.ctx, land=step.land,
                      count_passing=step.count_passing)
            return
        if isinstance(step, Window):
            step.close(self, t)
            return
        if isinstance(step, Step):
            step.run(self, t)
            return
        raise AssertionError(f"no automatic step {type(step).__name__}")

    def _head(self, t: Txn, kind: type[Pending], player: int | None = None) -> Any:
        if not t.pending or not isinstance(t.pending[0], kind):
            raise IllegalActionError(self.waiting_for(t))
        head = t.pending[0]
        if player is not None and head.player != player:
            raise IllegalActionError(f"it is {t.name(head.player)}'s decision, not {t.name(player)}'s")
        return head

    def waiting_for(self, t: Txn | GameState) -> str:
        """A sentence saying what the game is waiting for (for error messages and the kiosk)."""
        pending = t.pending
        players = t.players
        if pending:
            head = pending[0]
            who = players[head.player].name if head.player >= 0 else "the table"
            if isinstance(head, BuyDecision):
                return f"waiting for {who} to buy or decline {self.board.squares[head.square].name}"
            if isinstance(head, Auction):
                what = (self.board.squares[head.square].name if head.square >= 0 else "a house")
                return f"waiting for bids on {what}"
            if isinstance(head, Debt):
                return f"waiting for {who} to raise ${head.amount} owed ({head.reason})"
            if isinstance(head, DrawCard):
                return f"waiting for {who} to say which {head.deck.replace('_', ' ')} card was drawn"
            if isinstance(head, NeedRoll):
                return f"waiting for {who} to roll the dice ({head.purpose.replace('_', ' ')})"
            if isinstance(head, MortgagedTransfer):
                return (f"waiting for {who} to unmortgage or keep mortgaged "
                        f"{self.board.squares[head.square].name}")
            if isinstance(head, PlaceHouse):
                return f"waiting for {who} to place the house bought at auction"
            prompt = getattr(head, "prompt", "")  # variants' decisions say what they wait for
            if not prompt:  # a readable fallback: "DraftPick" -> "draft pick"
                prompt = "".join(f" {c.lower()}" if c.isupper() else c
                                 for c in type(head).__name__).strip()
            return f"waiting for {who}: {prompt}"
        cur = players[t.current].name
        if not t.rolled or t.roll_again:
            return f"waiting for {cur} to roll"
        return f"waiting for {cur} to end the turn"

    # ======================================================================================
    # Answering prompts: decisions and reaction windows
    # ======================================================================================
    def _answer_pass(self, t: Txn, action: Pass) -> None:
        head = t.pending[0] if t.pending else None
        if isinstance(head, Window):
            self.pass_window(t, action.player)
        elif isinstance(head, Decision) and head.player == action.player:
            t.pending.pop(0)
            head.decline(self, t)
        else:
            self.apply_extra(t, action)  # a variant's own decisions

    def _answer_choose(self, t: Txn, action: Choose) -> None:
        head = t.pending[0] if t.pending else None
        if isinstance(head, Decision) and head.player == action.player:
            t.pending.pop(0)
            head.choose(self, t, action.what, action.option)
        else:
            self.apply_extra(t, action)  # a variant's own choices

    def pass_window(self, t: Txn, seat: int) -> None:
        """``seat`` gives no answer in the reaction window at the head of the queue."""
        head = t.pending[0]
        assert isinstance(head, Window)
        if seat not in head.waiting:
            raise IllegalActionError(f"{t.name(seat)} is not being asked in this window")
        t.pending[0] = replace(head, passed=head.passed + (seat,))
        t.emit("passed", seat)

    # ======================================================================================
    # Turn flow: rolling, moving, landing
    # ======================================================================================
    def check_dice(self, spec: RollSpec, dice: tuple[int, ...]) -> None:
        if len(dice) != len(spec.sides):
            raise IllegalActionError(
                f"this roll takes {len(spec.sides)} dice ({self.describe_dice(spec.sides)}), "
                f"got {len(dice)}: enter one value per die")
        for value, sides in zip(dice, spec.sides, strict=True):
            if not isinstance(value, int) or not 1 <= value <= sides:
                raise IllegalActionError(
                    f"a d{sides} shows 1 to {sides}, not {value!r}: check the die and enter it again")

    @staticmethod
    def describe_dice(sides: Sequence[int]) -> str:
        counts: dict[int, int] = {}
        for s in sides:
            counts[s] = counts.get(s, 0) + 1
        return " + ".join(f"{n}d{s}" for s, n in counts.items())

    def _do_roll(self, t: Txn, action: Roll) -> None:
        state = t.origin
        spec = self.roll_spec(state)
        if spec is None:
            raise IllegalActionError(f"no roll is due: {self.waiting_for(state)}")
        if spec.player != action.player:
            raise IllegalActionError(f"it is {t.name(spec.player)}'s roll, not {t.name(action.player)}'s")
        self.check_dice(spec, action.dice)
        t.claimable = []
        t.emit("rolled", action.player, amount=sum(action.dice),
               detail=" ".join(str(d) for d in action.dice))
        if self.react_to_roll(t, spec, action.dice):
            return
        self.handle_roll(t, spec, action.dice)

    def handle_roll(self, t: Txn, spec: RollSpec, dice: tuple[int, ...]) -> None:
        """Dispatch a roll that stands by its purpose (variants add purposes and call super)."""
        if spec.purpose.startswith("for:"):
            step = t.pending.pop(0)
            assert isinstance(step, RollFor)
            step.rolled(self, t, dice)
            return
        if spec.purpose == "utility_card":
            head = t.pending.pop(0)
            assert isinstance(head, NeedRoll)
            self._charge_rent(t, head.player, head.square,
                              LandContext(dice_total=sum(dice), dice_multiplier=head.multiplier,
                                          by_card=True))
            return
        if spec.purpose == "jail":
            self.jail_roll(t, spec.player, dice)
            return
        self.movement_roll(t, spec.player, dice)

    def is_doubles(self, dice: tuple[int, ...]) -> bool:
        return len(dice) >= 2 and dice[0] == dice[1]

    def movement_roll(self, t: Txn, player: int, dice: tuple[int, ...]) -> None:
        """A movement roll: doubles roll again; a third doubles goes to jail without moving.
        Variants read the dice (``read_movement_roll``), act on the roll once taken
        (``movement_roll_taken``, ``rolled_doubles``) and plan the move (``plan_movement``)."""
        roll = self.read_movement_roll(t, player, dice)
        t.last_dice = roll.dice
        t.rolled = True
        self.movement_roll_taken(t, player, roll)
        doubles = self.is_doubles(roll.pair)
        if doubles:
            t.doubles += 1
            t.emit("doubles", player, amount=t.doubles)
            self.rolled_doubles(t, player)
            if t.doubles >= 3:
                if self.third_doubles(t, player, roll.dice):
                    return
                doubles = False
        t.roll_again = doubles
        plan = self.plan_movement(t, player, roll)
        self.move(t, player, plan.steps, LandContext(dice_total=sum(roll.dice)), land=plan.land,
                  count_passing=plan.count_passing, watchers=plan.watchers)
        if t.players[player].in_jail or t.players[player].bankrupt:
            t.roll_again = False

    def third_doubles(self, t: Txn, player: int, dice: tuple[int, ...]) -> bool:
        """hook: the third doubles in a row (standard: straight to jail, no move). True when
        the roll ends there; False moves the player by it (no roll again)."""
        t.emit("speeding", player, detail="three doubles in a row")
        self.send_to_jail(t, player)
        return True

    def movement_steps(self, t: Txn, player: int, dice: tuple[int, ...]) -> int:
        """hook: how many squares a movement roll moves (standard: the total)."""
        return sum(dice)

    def move(self, t: Txn, player: int, steps: int, ctx: LandContext, *, land: bool = True,
             count_passing: bool = True, watchers: Sequence[Watcher] = ()) -> None:
        """Move a player square by square, forward (steps > 0) or back; passing and landing
        (walk.py; ``watchers``: rules the move brings along, seeing every square)."""
        walk(self, t, player, steps, ctx, land, count_passing, watchers)

    def arrive(self, t: Txn, player: int, index: int, ctx: LandContext, forward: bool = True) -> None:
        """Land on a square: GO pays the landing amount, then the square resolves."""
        if index == 0 and forward:
            self.collect_go(t, player, landed=True)
        self.on_land(t, player, index, ctx)

    def move_to(self, t: Txn, player: int, target: int, ctx: LandContext) -> None:
        """Advance forward to ``target`` (a card), collecting GO pay if passing it."""
        ring = self.board.topology
        steps = ring.forward(t.players[player].position, target) or ring.size
        self.move(t, player, steps, ctx)

    def collect_go(self, t: Txn, player: int, landed: bool) -> None:
        amount = self.go_land_pay(t, player) if landed else self.go_pass_pay(t, player)
        t.emit("go", player, amount=amount, detail="landed" if landed else "passed")
        t.receive(player, amount, BANK, "GO")

    def resolve_square(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        """What a square does to the player who lands on it (standard Monopoly)."""
        sq = self.board.squares[index]
        kind = sq.kind
        if sq.ownable:
            owner = t.squares[index].owner
            if owner is None:
                t.push(BuyDecision(player, index))
            elif owner != t.side(player):
                if kind == "utility" and ctx.dice_multiplier and not ctx.dice_total:
                    t.push(NeedRoll(player, "utility_card", index, ctx.dice_multiplier))
                else:
                    self._charge_rent(t, player, index, ctx)
        elif kind == "tax":
            amount = t.options.income_tax if sq.name == "Income Tax" else sq.amount
            t.charge(player, self.fee_destination(t, "tax"), amount, sq.name)
        elif kind in DECKS:
            self.draw_card(t, player, kind)
        elif kind == "go_to_jail":
            self.send_to_jail(t, player)
        elif kind == "free_parking":
            self.free_parking(t, player)

    def free_parking(self, t: Txn, player: int) -> None:
        """hook: landing on Free Parking (standard: nothing; pot option: collect the pot)."""
        if t.options.free_parking_pot and t.pot > 0:
            t.emit("pot", player, amount=t.pot)
            t.receive(player, t.pot, POT, "the pot")

    # ======================================================================================
    # Rent
    # ======================================================================================
    def _charge_rent(self, t: Txn, payer: int, index: int, ctx: LandContext) -> None:
        owner = t.squares[index].owner
        if owner is None or owner == t.side(payer):
            return
        amount = self.rent_due(t, payer, index, ctx)
        if amount <= 0:
            return
        if t.options.rent_must_be_claimed:
            t.claimable.append((owner, payer, index, amount))
            t.emit("rent_claimable", owner, amount=amount, square=index, other=payer)
            return
        self.collect_rent(t, payer, owner, index, amount)

    def collect_rent(self, t: Txn, payer: int, owner: int, index: int, amount: int) -> None:
        """hook: charge rent (variants award EP or let the payer react)."""
        t.emit("rent", payer, amount=amount, square=index, other=owner)
        t.charge(payer, owner, amount, f"rent for {self.board.squares[index].name}")

    def _do_claim_rent(self, t: Txn, action: ClaimRent) -> None:
        for claim in t.claimable:
            owner, payer, square, amount = claim
            if owner == t.side(action.player) and square == action.square:
                t.claimable.remove(claim)
                if t.players[payer].bankrupt:
                    raise IllegalActionError("that player is out of the game")
                self.collect_rent(t, payer, owner, square, amount)
                return
        raise IllegalActionError("no rent on that lot can be claimed now (claim it before the next roll)")

    # ======================================================================================
    # Cards
    # ======================================================================================
    def draw_card(self, t: Txn, player: int, deck: str) -> None:
        """Land on Chance or Community Chest: draw (virtual deck) or ask which card (physical)."""
        if t.options.deck_mode == "physical":
            t.push(DrawCard(player, deck))
            return
        order = t.chance if deck == "chance" else t.community_chest
        card = card_by_id(deck, order[0])
        rest = order[1:] if card.effect == "jail_free" else order[1:] + order[:1]
        self._set_deck(t, deck, rest)
        self.apply_card(t, player, card)

    def _set_deck(self, t: Txn, deck: str, order: tuple[str, ...]) -> None:
        if deck == "chance":
            t.chance = order
        else:
            t.community_chest = order

    def _do_drawn_card(self, t: Txn, action: DrawnCard) -> None:
        head = self._head(t, DrawCard, action.player)
        try:
            card = card_by_id(head.deck, action.card)
        except KeyError as exc:
            raise IllegalActionError(str(exc.args[0])) from None
        if card.effect == "jail_free" and any(head.deck in p.jail_cards for p in t.players):
            raise IllegalActionError(
                "that Get Out of Jail Free card is held by a player, so it cannot be drawn")
        t.pending.pop(0)
        order = t.chance if head.deck == "chance" else t.community_chest
        if card.effect == "jail_free":
            self._set_deck(t, head.deck, tuple(c for c in order if c != card.id))
        self.apply_card(t, action.player, card)

    def apply_card(self, t: Txn, player: int, card: Card) -> None:
        """Carry out a card (variants may intercept, e.g. to let the player refuse it)."""
        t.emit("card", player, detail=f"{card.deck}:{card.id}")
        self.card_effect(t, player, card)

    def card_effect(self, t: Txn, player: int, card: Card) -> None:
        effect = card.effect
        if effect == "advance_to":
            self.move_to(t, player, card.square, LandContext(by_card=True))
        elif effect == "advance_nearest":
            target = self.nearest(t.players[player].position, card.kind)
            self.move_to(t, player, target, LandContext(
                by_card=True, rent_multiplier=card.rent_multiplier,
                dice_multiplier=card.dice_multiplier))
        elif effect == "collect":
            t.receive(player, card.amount, BANK, card.id)
        elif effect == "pay":
            t.charge(player, self.fee_destination(t, "card"), card.amount, card.text)
        elif effect == "jail_free":
            t.set_player(player, jail_cards=t.players[player].jail_cards + (card.deck,))
        elif effect == "move_back":
            self.move(t, player, -card.steps, LandContext(by_card=True,
                                                           dice_total=sum(t.last_dice)))
        elif effect == "go_to_jail":
            self.send_to_jail(t, player)
        elif effect == "repairs":
            side = t.side(player)
            houses = sum(s.houses for s in t.squares if s.owner == side and not s.hotel)
            hotels = sum(1 for s in t.squares if s.owner == side and s.hotel)
            total = houses * card.house + hotels * card.hotel
            if total:
                t.charge(player, self.fee_destination(t, "card"), total, card.text)
        elif effect == "pay_each_player":  # teammates share a pool: they are skipped
            for other in t.active():
                if not t.allied(other, player):
                    t.charge(player, other, card.amount, card.text)
        elif effect == "collect_from_each_player":
            for other in t.active():
                if not t.allied(other, player):
                    t.charge(other, player, card.amount, card.text)
        else:
            raise AssertionError(f"unknown card effect {effect}")

    def nearest(self, position: int, kind: str) -> int:
        for index in self.board.topology.ahead(position):
            if self.board.squares[index].kind == kind:
                return index
        raise AssertionError(f"no {kind} on the board")

    # ======================================================================================
    # Jail
    # ======================================================================================
    def send_to_jail(self, t: Txn, player: int) -> None:
        """Go directly to jail: no GO pay; the turn's movement ends (no roll again)."""
        t.set_player(player, position=self.board.jail, in_jail=True, jail_turns=0)
        t.emit("jailed", player, square=self.board.jail)
        if player == t.current:
            t.roll_again = False
            t.rolled = True
            t.doubles = 0

    def leave_jail(self, t: Txn, player: int, how: str, by: int | None = None) -> None:
        """The player leaves jail ``how``; ``by`` is someone else who freed her."""
        t.set_player(player, in_jail=False, jail_turns=0)
        t.emit("left_jail", player, other=by, detail=how)

    def jail_roll(self, t: Txn, player: int, dice: tuple[int, ...]) -> None:
        """A roll from jail: doubles free the player and move them (no extra roll); the third
        failure makes them pay the fee and move by that roll."""
        t.rolled = True
        t.last_dice = dice
        if self.is_doubles(dice):
            self.leave_jail(t, player, "rolled doubles")
            self.move(t, player, sum(dice), LandContext(dice_total=sum(dice)))
            t.roll_again = False
            return
        tries = t.players[player].jail_turns + 1
        t.set_player(player, jail_turns=tries)
        t.emit("jail_try_failed", player, amount=tries)
        if tries >= t.options.max_jail_turns:
            t.charge(player, self.fee_destination(t, "jail"), t.options.jail_fee, "jail fee",
                     then=MoveBy(player, dice))

    def _check_before_jail_roll(self, t: Txn, player: int) -> None:
        if t.pending:
            raise IllegalActionError(self.waiting_for(t))
        if player != t.current:
            raise IllegalActionError("you can only leave jail on your own turn, before rolling")
        if not t.players[player].in_jail:
            raise IllegalActionError(f"{t.name(player)} is not in jail")
        if t.rolled:
            raise IllegalActionError("pay or use the card before rolling, not after")

    def _do_pay_jail(self, t: Txn, action: PayJail) -> None:
        self._check_before_jail_roll(t, action.player)
        fee = t.options.jail_fee
        if t.players[action.player].cash < fee:
            raise IllegalActionError(f"the jail fee is ${fee}; you have ${t.players[action.player].cash}")
        t.pay(action.player, self.fee_destination(t, "jail"), fee, "jail fee")
        self.leave_jail(t, action.player, "paid the fee")

    def _do_use_jail_card(self, t: Txn, action: UseJailCard) -> None:
        self._check_before_jail_roll(t, action.player)
        cards = list(t.players[action.player].jail_cards)
        if not cards:
            raise IllegalActionError("you hold no Get Out of Jail Free card")
        deck = action.deck or cards[0]
        if deck not in cards:
            raise IllegalActionError(f"you hold no {deck.replace('_', ' ')} Get Out of Jail Free card")
        cards.remove(deck)
        t.set_player(action.player, jail_cards=tuple(cards))
        self._return_jail_card(t, deck)
        self.leave_jail(t, action.player, "used a Get Out of Jail Free card")

    def _return_jail_card(self, t: Txn, deck: str) -> None:
        """A used or surrendered Get Out of Jail Free card goes to the bottom of its own deck."""
        card_id = next(c.id for c in load_deck(deck) if c.effect == "jail_free")
        order = t.chance if deck == "chance" else t.community_chest
        if card_id not in order:
            self._set_deck(t, deck, order + (card_id,))

    # ======================================================================================
    # Buying and auctions
    # ======================================================================================
    def price(self, state: GameState | Txn, player: int, index: int) -> int:
        """hook: the price of an unowned lot for this player."""
        return self.board.squares[index].price

    def _do_buy(self, t: Txn, action: Buy) -> None:
        head = self._head(t, BuyDecision, action.player)
        price = self.price(t, action.player, head.square)
        cash = t.players[action.player].cash
        if cash < price:
            raise IllegalActionError(
                f"{self.board.squares[head.square].name} costs ${price}; you have ${cash}: "
                "mortgage or sell to raise the money, or decline")
        t.pending.pop(0)
        t.pay(action.player, BANK, price, f"bought {self.board.squares[head.square].name}")
        t.set_square(head.square, owner=action.player)
        t.emit("bought", action.player, amount=price, square=head.square)

    def _do_decline(self, t: Txn, action: Decline) -> None:
        if t.pending and isinstance(t.pending[0], PlaceHouse):
            self._head(t, PlaceHouse, action.player)
            t.pending.pop(0)
            t.emit("house_forfeited", action.player)
            return
        head = self._head(t, BuyDecision, action.player)
        t.pending.pop(0)
        t.emit("declined", action.player, square=head.square)
        self.start_auction(t, head.square)

    def start_auction(self, t: Txn, index: int) -> None:
        """A lot the bank sells by auction: every player still in the game may bid (the one who
        declined and players in jail included)."""
        if not t.options.auctions:
            t.emit("no_auction", None, square=index)
            return
        bidders = tuple(t.active())
        t.emit("auction", None, square=index)
        t.push(Auction(-1, index, bidders))

    def _do_bid(self, t: Txn, action: Bid) -> None:
        head = self._head(t, Auction)
        if action.player not in head.bidders:
            raise IllegalActionError(f"{t.name(action.player)} has left this auction")
        minimum = max(head.high_bid + 1, t.options.minimum_bid)
        if action.amount < minimum:
            raise IllegalActionError(f"bid at least ${minimum}")
        if head.high_bidder is not None and action.player != head.high_bidder and \
                t.allied(action.player, head.high_bidder):
            raise IllegalActionError(
                f"{t.name(head.high_bidder)} is on your team and holds the bid: raising it would "
                "only cost your team more; pass instead")
        if action.amount > t.players[action.player].cash:
            raise IllegalActionError(
                f"you have ${t.players[action.player].cash}; a bid must be covered by cash on "
                "hand (mortgage first to bid more)")
        t.pending[0] = replace(head, high_bid=action.amount, high_bidder=action.player)
        t.emit("bid", action.player, amount=action.amount, square=head.square)

    def _do_pass_bid(self, t: Txn, action: PassBid) -> None:
        head = self._head(t, Auction)
        if action.player not in head.bidders:
            raise IllegalActionError(f"{t.name(action.player)} already left this auction")
        if action.player == head.high_bidder:
            raise IllegalActionError("the highest bidder cannot withdraw the bid")
        t.pending[0] = replace(head, bidders=tuple(b for b in head.bidders if b != action.player))
        t.emit("auction_pass", action.player, square=head.square)

    @staticmethod
    def _auction_finished(head: Auction) -> bool:
        if not head.bidders:
            return True
        return head.high_bidder is not None and head.bidders == (head.high_bidder,)

    def _close_auction(self, t: Txn, head: Auction) -> None:
        winner = head.high_bidder
        if winner is None or t.players[winner].bankrupt:
            t.emit("auction_unsold", None, square=head.square)
            return
        if head.square < 0:
            t.emit("house_auction_won", winner, amount=head.high_bid)
            t.charge(winner, BANK, head.high_bid, "house bought at auction",
                     then=PlaceHouse(winner, head.high_bid))
            return
        t.set_square(head.square, owner=winner)
        t.emit("auction_won", winner, amount=head.high_bid, square=head.square)
        t.charge(winner, BANK, head.high_bid, f"auction for {self.board.squares[head.square].name}")

    # ======================================================================================
    # Buildings
    # ======================================================================================
    def _build_problem(self, state: GameState | Txn, player: int, index: int,
                       free: bool = False) -> str | None:
        sq = self.board.squares[index]
        if sq.is_street and not self.may_build_group(
                state if isinstance(state, GameState) else state.origin, player, sq.group):
            return f"you may not build on the {sq.group.replace('_', ' ')} group"
        return building.build_problem(
            self.board, state.squares, self._side(state, player), index, state.players[player].cash,
            state.bank_houses, state.bank_hotels, state.options.max_houses,
            state.options.even_building, free)

    def _sell_problem(self, state: GameState | Txn, player: int, index: int) -> str | None:
        return building.sell_problem(self.board, state.squares, self._side(state, player), index,
                                     state.bank_houses,
                                     state.options.max_houses, state.options.even_building)

    def _manage_check(self, t: Txn, player: int, what: str) -> None:
        head = t.pending[0] if t.pending else None
        raising = isinstance(head, Debt) and head.player == player
        if raising and what in ("sell", "mortgage", "trade"):
            return
        if raising:
            raise IllegalActionError("raise the money you owe first (sell, mortgage or trade)")
        if not self.may_manage(t.origin, player, what):
            raise IllegalActionError(f"you may not {what} now: only on your own turn or to pay a debt")

    def house_demand(self, state: GameState) -> dict[int, int]:
        """Houses each player could still place on their full, unmortgaged colour groups."""
        demand: dict[int, int] = {}
        sqs = state.squares
        cap = state.options.max_houses
        for lots in self._street_groups:
            owner = sqs[lots[0]].owner
            if owner is None:
                continue
            want = 0
            for i in lots:
                s = sqs[i]
                if s.owner != owner or s.mortgaged:
                    break
                if not s.hotel:
                    want += cap - s.houses
            else:
                if want and self.may_build_group(state, owner, self.board.squares[lots[0]].group):
                    demand[owner] = demand.get(owner, 0) + want
        return demand

    def house_shortage(self, state: GameState) -> bool:
        """Houses are short when at least two players could build and together want more houses
        than the bank has (docs/rulings.md M-6)."""
        if not state.options.house_shortage_auctions or state.bank_houses == 0 or state.pending:
            return False
        demand = self.house_demand(state)
        return len(demand) >= 2 and sum(demand.values()) > state.bank_houses

    def _do_build(self, t: Txn, action: Build) -> None:
        placing = bool(t.pending) and isinstance(t.pending[0], PlaceHouse)
        if placing:
            self._head(t, PlaceHouse, action.player)
        else:
            self._manage_check(t, action.player, "build")
            if self.house_shortage(t.origin) and t.squares[action.square].houses < t.options.max_houses:
                raise IllegalActionError(
                    "the bank is short of houses and several players want them: call a house "
                    "auction instead")
        problem = self._build_problem(t, action.player, action.square, free=placing)
        if problem:
            raise IllegalActionError(problem)
        sq = self.board.squares[action.square]
        if placing:
            t.pending.pop(0)
        else:
            t.pay(action.player, BANK, sq.house_cost, f"building on {sq.name}")
        self.add_building(t, action.square)
        t.emit("built", action.player, square=action.square,
               amount=0 if placing else sq.house_cost)

    def add_building(self, t: Txn, index: int) -> None:
        """Put one more building on a lot from the bank's stock (a hotel returns four houses)."""
        s = t.squares[index]
        if s.houses >= t.options.max_houses:
            t.bank_houses += s.houses
            t.bank_hotels -= 1
            t.set_square(index, houses=0, hotel=True)
        else:
            t.bank_houses -= 1
            t.set_square(index, houses=s.houses + 1)

    def remove_building(self, t: Txn, index: int) -> None:
        """Take one building level off a lot back to the bank (a hotel becomes four houses when
        the bank has them; callers check)."""
        s = t.squares[index]
        if s.hotel:
            t.bank_hotels += 1
            t.bank_houses -= t.options.max_houses
            t.set_square(index, hotel=False, houses=t.options.max_houses)
        elif s.houses:
            t.bank_houses += 1
            t.set_square(index, houses=s.houses - 1)

    def _do_sell(self, t: Txn, action: Sell) -> None:
        self._manage_check(t, action.player, "sell")
        problem = self._sell_problem(t, action.player, action.square)
        if problem:
            raise IllegalActionError(problem)
        sq = self.board.squares[action.square]
        self.remove_building(t, action.square)
        t.receive(action.player, sq.house_cost // 2, BANK, f"sold a building on {sq.name}")
        t.emit("sold", action.player, square=action.square, amount=sq.house_cost // 2)

    def _do_breakdown(self, t: Txn, action: BreakDown) -> None:
        self._manage_check(t, action.player, "sell")
        problem = building.breakdown_problem(self.board, t.squares, t.side(action.player),
                                             action.group,
                                             action.levels, t.bank_houses, t.options.max_houses)
        if problem:
            raise IllegalActionError(problem)
        lots = self.board.groups[action.group]
        sold = 0
        for index, level in zip(lots, action.levels, strict=True):
            s = t.squares[index]
            sold += s.level - level
            if s.hotel and level <= t.options.max_houses:
                t.bank_hotels += 1
            old_houses = 0 if s.hotel else s.houses
            new_houses = level if level <= t.options.max_houses else 0
            t.bank_houses += old_houses - new_houses
            t.set_square(index, houses=new_houses, hotel=level > t.options.max_houses)
        cost = self.board.squares[lots[0]].house_cost
        t.receive(action.player, sold * cost // 2, BANK, f"broke down the {action.group} group")
        t.emit("sold", action.player, amount=sold * cost // 2, detail=action.group)

    def _do_call_house_auction(self, t: Txn, action: CallHouseAuction) -> None:
        if t.pending:
            raise IllegalActionError(self.waiting_for(t))
        if not self.house_shortage(t.origin):
            raise IllegalActionError("there is no house shortage: build the usual way")
        bidders = tuple(sorted(self.house_demand(t.origin)))
        if t.side(action.player) not in bidders:  # a team bids through its first seat
            raise IllegalActionError("only players who could build may call a house auction")
        t.emit("house_auction", action.player)
        t.push(Auction(-1, -1, bidders))

    # ======================================================================================
    # Mortgages
    # ======================================================================================
    def unmortgage_cost(self, state: GameState | Txn, index: int) -> int:
        """Lifting a mortgage costs the mortgage value plus 10% (rounding: option
        unmortgage_rounding, default up to the next dollar)."""
        return round_money(self.board.squares[index].mortgage * 1.1, state.options.unmortgage_rounding)

    def transfer_fee(self, state: GameState | Txn, index: int) -> int:
        """The 10% a new owner of a mortgaged lot pays at once (same rounding)."""
        return round_money(self.board.squares[index].mortgage * 0.1, state.options.unmortgage_rounding)

    def _mortgage_problem(self, state: GameState | Txn, player: int, index: int) -> str | None:
        sq = self.board.squares[index]
        s = state.squares[index]
        if not sq.ownable:
            return f"{sq.name} cannot be mortgaged"
        if s.owner != self._side(state, player):
            return f"you do not own {sq.name}"
        if s.mortgaged:
            return f"{sq.name} is already mortgaged"
        return self.mortgage_building_problem(state, player, index)

    def mortgage_building_problem(self, state: GameState | Txn, player: int,
                                  index: int) -> str | None:
        """Which buildings stop a lot from being mortgaged (standard: any in its colour group);
        None when none do. Variants that build without whole groups narrow it."""
        sq = self.board.squares[index]
        if sq.is_street and any(state.squares[i].level for i in self.board.groups[sq.group]):
            return f"sell the buildings in the {sq.group.replace('_', ' ')} group first"
        return None

    def _do_mortgage(self, t: Txn, action: Mortgage) -> None:
        self._manage_check(t, action.player, "mortgage")
        problem = self._mortgage_problem(t, action.player, action.square)
        if problem:
            raise IllegalActionError(problem)
        sq = self.board.squares[action.square]
        t.set_square(action.square, mortgaged=True)
        t.receive(action.player, sq.mortgage, BANK, f"mortgaged {sq.name}")
        t.emit("mortgaged", action.player, square=action.square, amount=sq.mortgage)

    def _do_unmortgage(self, t: Txn, action: Unmortgage) -> None:
        transfer = bool(t.pending) and isinstance(t.pending[0], MortgagedTransfer) and \
            t.pending[0].player == action.player and t.pending[0].square == action.square
        if not transfer:
            self._manage_check(t, action.player, "unmortgage")
            if self.transfer_pending(t, action.square):
                raise IllegalActionError("decide on this lot when the game asks (lift the mortgage "
                                         "or pay 10% and keep it)")
        s = t.squares[action.square]
        sq = self.board.squares[action.square]
        if s.owner != t.side(action.player) or not s.mortgaged:
            raise IllegalActionError(f"{sq.name} is not a mortgaged lot of yours")
        cost = self.unmortgage_cost(t, action.square)
        if t.players[action.player].cash < cost:
            raise IllegalActionError(f"lifting the mortgage on {sq.name} costs ${cost}; you have "
                                     f"${t.players[action.player].cash}")
        if transfer:
            t.pending.pop(0)
        t.pay(action.player, BANK, cost, f"unmortgaged {sq.name}")
        t.set_square(action.square, mortgaged=False)
        t.emit("unmortgaged", action.player, square=action.square, amount=cost)

    @staticmethod
    def transfer_pending(state: GameState | Txn, index: int) -> bool:
        """A mortgaged lot just received whose new owner has not yet chosen how to take it."""
        return any(isinstance(p, MortgagedTransfer) and p.square == index for p in state.pending)

    def _do_keep_mortgaged(self, t: Txn, action: KeepMortgaged) -> None:
        head = self._head(t, MortgagedTransfer, action.player)
        if head.square != action.square:
            raise IllegalActionError("decide on the lot the game is asking about first")
        t.pending.pop(0)
        fee = self.transfer_fee(t, action.square)
        t.emit("kept_mortgaged", action.player, square=action.square, amount=fee)
        t.charge(action.player, BANK, fee, f"10% on mortgaged {self.board.squares[action.square].name}")

    def give_lot(self, t: Txn, index: int, receiver: int) -> None:
        """A lot changes hands between players; a mortgaged one asks the receiver to lift the
        mortgage now (+10%) or pay 10% and keep it."""
        t.set_square(index, owner=receiver)
        if t.squares[index].mortgaged:
            t.push(MortgagedTransfer(receiver, index))

    # ======================================================================================
    # Trades
    # ======================================================================================
    def trade_problem(self, state: GameState | Txn, action: Trade) -> str | None:
        """Why this trade is not allowed (None when it is)."""
        a, b = action.player, action.partner
        if a == b:
            return "a trade needs two different players"
        if self._side(state, a) == self._side(state, b) and (
                action.give.cash or action.get.cash or action.give.squares or action.get.squares):
            return ("teammates already share cash and lots; only a Get Out of Jail Free card can "
                    "pass between them")
        if not 0 <= b < len(state.players) or state.players[b].bankrupt:
            return "the trade partner is not in the game"
        if action.give.empty and action.get.empty:
            return "the trade is empty"
        for who, side in ((a, action.give), (b, action.get)):
            p = state.players[who]
            if side.cash < 0:
                return "cash in a trade cannot be negative"
            if side.cash > p.cash:
                return f"{p.name} has only ${p.cash}"
            cards = list(p.jail_cards)
            for deck in side.jail_cards:
                if deck not in cards:
                    return f"{p.name} holds no {deck.replace('_', ' ')} Get Out of Jail Free card"
                cards.remove(deck)
            for index in side.squares:
                sq = self.board.squares[index]
                if state.squares[index].owner != self._side(state, who):
                    return f"{p.name} does not own {sq.name}"
                if self.transfer_pending(state, index):
                    return f"{p.name} must first decide how to take the mortgaged {sq.name}"
                if sq.is_street and any(state.squares[i].level for i in self.board.groups[sq.group]):
                    return (f"sell the buildings in the {sq.group.replace('_', ' ')} group before "
                            f"trading {sq.name}")
        return None

    def _do_trade(self, t: Txn, action: Trade) -> None:
        self._manage_check(t, action.player, "trade")
        if not (t.pending and isinstance(t.pending[0], Debt) and t.pending[0].player == action.partner):
            if not self.may_manage(t.origin, action.partner, "trade"):
                raise IllegalActionError(f"{t.name(action.partner)} may not trade now")
        problem = self.trade_problem(t, action)
        if problem:
            raise IllegalActionError(problem)
        self.exchange(t, action)

    def exchange(self, t: Txn, action: Trade) -> None:
        """Carry out a trade already found legal: cash, jail cards, then the lots."""
        a, b = action.player, action.partner
        for giver, taker, side in ((a, b, action.give), (b, a, action.get)):
            if side.cash:
                t.pay(giver, taker, side.cash, "trade")
            for deck in side.jail_cards:
                cards = list(t.players[giver].jail_cards)
                cards.remove(deck)
                t.set_player(giver, jail_cards=tuple(cards))
                t.set_player(taker, jail_cards=t.players[taker].jail_cards + (deck,))
        t.emit("traded", a, other=b)
        for taker, side in ((b, action.give), (a, action.get)):
            for index in side.squares:
                self.give_lot(t, index, taker)

    # ======================================================================================
    # Debts and bankruptcy
    # ======================================================================================
    def liquidation_value(self, state: GameState | Txn, player: int) -> int:
        """Cash the player could raise now: buildings sold at half, every bare lot mortgaged."""
        total = 0
        side = self._side(state, player)
        for i, s in enumerate(state.squares):
            if s.owner != side:
                continue
            sq = self.board.squares[i]
            total += s.level * (sq.house_cost // 2)
            if not s.mortgaged:
                total += sq.mortgage
        return total

    def insolvent(self, state: GameState | Txn, player: int, amount: int) -> bool:
        """Bankruptcy is allowed only when cash plus everything raisable falls short."""
        return state.players[player].cash + self.liquidation_value(state, player) < amount

    def _do_bankruptcy(self, t: Txn, action: DeclareBankruptcy) -> None:
        head = self._head(t, Debt, action.player)
        if not self.insolvent(t, action.player, head.amount):
            raise IllegalActionError(
                f"you can still raise ${head.amount} by selling buildings and mortgaging: do "
                "that first")
        t.pending.pop(0)
        self.bankrupt(t, action.player, head.creditor)

    def bankrupt(self, t: Txn, player: int, creditor: int) -> None:
        """The player is out. To a player: buildings go back to the bank at half price, then
        cash, lots and cards go to the creditor. To the bank (or pot): lots return unmortgaged
        and are auctioned; cards go back to their decks."""
        out = t.members(player)  # in team play the whole team is out together
        for m in out:
            t.emit("bankrupt", m, other=creditor)
        # drop whatever else these players still had to decide or owe
        t.pending = [p for p in t.pending if p.player not in out or isinstance(p, Auction)]
        t.pending = [replace(p, bidders=tuple(b for b in p.bidders if b not in out),
                             high_bidder=None if p.high_bidder in out else p.high_bidder,
                             high_bid=0 if p.high_bidder in out else p.high_bid)
                     if isinstance(p, Auction) else p for p in t.pending]
        lots = t.owned_by(player)
        for index in lots:
            s = t.squares[index]
            if s.level:
                half = self.board.squares[index].house_cost // 2
                t.bank_houses += 0 if s.hotel else s.houses
                t.bank_hotels += 1 if s.hotel else 0
                t.set_square(index, houses=0, hotel=False)
                if creditor >= 0:
                    t.receive(player, s.level * half, BANK, "buildings sold on bankruptcy")
        cash = t.players[player].cash
        if cash:
            t.pay(player, creditor, cash, "bankruptcy")
        cards: tuple[str, ...] = ()
        for m in out:
            cards += t.players[m].jail_cards
            t.set_player(m, bankrupt=True, jail_cards=(), in_jail=False)
        t.claimable = [c for c in t.claimable if c[0] not in out and c[1] not in out]
        if creditor >= 0:
            t.set_player(creditor, jail_cards=t.players[creditor].jail_cards + cards)
            for index in lots:
                self.give_lot(t, index, creditor)
        else:
            for deck in cards:
                self._return_jail_card(t, deck)
            for index in lots:
                t.set_square(index, owner=None, mortgaged=False)
            if len(t.active()) > 1:
                for index in lots:
                    self.start_auction(t, index)

    # ======================================================================================
    # Ending turns and games
    # ======================================================================================
    def _do_end_turn(self, t: Txn, action: EndTurn) -> None:
        if action.player != t.current:
            raise IllegalActionError(f"it is {t.name(t.current)}'s turn")
        if t.pending:
            raise IllegalActionError(self.waiting_for(t))
        if not t.rolled or t.roll_again:
            raise IllegalActionError("roll first" if not t.rolled else "you rolled doubles: roll again")
        self._next_turn(t)

    def _next_turn(self, t: Txn) -> None:
        t.emit("turn_ended", t.current)
        n = len(t.players)
        nxt = t.current
        for _ in range(n):
            nxt = (nxt + 1) % n
            if not t.players[nxt].bankrupt and self.takes_turn(t, nxt):
                break
        t.current = nxt
        t.rolled = False
        t.roll_again = False
        t.doubles = 0
        t.turn_number += 1
        self.start_turn(t, nxt)

    def takes_turn(self, t: Txn, seat: int) -> bool:
        """hook: whether a seat still in the game takes its turn in the rotation (standard:
        always; MonopoZombie's homeless players move only out of turn). When no seat does,
        the turn comes back round to the same player."""
        return True

    def start_turn(self, t: Txn, player: int) -> None:
        """hook: a player's turn begins."""
        t.emit("turn", player)

    def net_worth(self, state: GameState | Txn, player: int) -> int:
        """Cash plus lots at price (mortgaged at price less mortgage) plus buildings at cost."""
        p = state.players[player]
        if p.bankrupt:
            return 0
        total = p.cash
        side = self._side(state, player)
        for i, s in enumerate(state.squares):
            if s.owner != side:
                continue
            sq = self.board.squares[i]
            total += sq.price - (sq.mortgage if s.mortgaged else 0) + s.level * sq.house_cost
        return total

    def standings(self, t: GameState | Txn, reason: str, winner: str | None = None) -> Outcome:
        """Net worth per player, or per team in team play (a team's pool and lots once)."""
        seats = [i for i in range(len(t.players)) if self._side(t, i) == i]
        rows = sorted(((self.side_name(t, i), self.net_worth(t, i)) for i in seats),
                      key=lambda row: -row[1])
        if winner is None and reason != "last_player_standing" and rows:
            winner = rows[0][0] if len(rows) < 2 or rows[0][1] != rows[1][1] else None
        return Outcome(winner=winner, standings=tuple(rows), reason=reason)

    @staticmethod
    def _side(state: GameState | Txn, player: int) -> int:
        return state.sides[player] if state.sides and player >= 0 else player

    @staticmethod
    def side_name(state: GameState | Txn, player: int) -> str:
        """A player's name, or the team's names joined by "+" in team play."""
        if not state.sides:
            return state.players[player].name
        side = state.sides[player]
        return "+".join(p.name for i, p in enumerate(state.players) if state.sides[i] == side)

    def _do_end_game(self, t: Txn, action: EndGame) -> None:
        if t.outcome is not None:
            raise IllegalActionError("the game is already over")
        t.outcome = self.standings(t, "agreement")
        t.pending = []
        t.emit("game_over", None, detail=t.outcome.winner or "tie")
