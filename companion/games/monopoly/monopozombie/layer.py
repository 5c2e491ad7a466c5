"""MonopoZombie: Monopoly overrun by zombies in three stages (rule text:
shared/rules/monopozombie.txt, "MonopoZombie"; rule numbers MZ.n and rulings Z-n in
docs/monopozombie/).

The layer overrides the Monopoly engine's hooks: building (MZ.3), bankruptcy into
homelessness (MZ.4-MZ.10), conversions (MZ.11-MZ.15, MZ.21, MZ.28), zombie and apocalypse
movement with a chosen target (MZ.18, MZ.34), demolition (MZ.22, MZ.25-MZ.27), the stages
(MZ.30-MZ.32) and the ends of the game (MZ.43-MZ.45).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.games.monopoly.actions import Action, Build, EndTurn, Mortgage, Sell, Trade
from companion.games.monopoly.cards import Card, card_by_id
from companion.games.monopoly.engine import LandContext, RollSpec, Rules
from companion.games.monopoly.monopozombie import narration
from companion.games.monopoly.monopozombie.model import (
    APOCALYPSE,
    CAPITALISM,
    CHOICES,
    DIRECTIONS,
    GROUP_TURNS,
    OUTBREAK,
    STAGES,
    Allocate,
    AnswerImmunity,
    ChooseMove,
    FormGroup,
    GoTo,
    Group,
    GroupMove,
    GroupMoved,
    HireBodyguards,
    HomelessRoll,
    ImmunityChoice,
    Impasse,
    LeaveGroup,
    Steer,
    ZombieOptions,
    ZombiePlayer,
    ZombieReroll,
    ZombieTable,
    is_kept,
    keep_options,
)
from companion.games.monopoly.pending import (
    Auction,
    BuyDecision,
    Debt,
    DrawCard,
    MortgagedTransfer,
    NeedRoll,
    PlaceHouse,
)
from companion.games.monopoly.state import (
    BANK,
    GameState,
    Options,
    PlayerState,
    VariantTable,
    variant_table,
)
from companion.games.monopoly.txn import Txn

COMMERCE = (BuyDecision, Auction, Debt, MortgagedTransfer, PlaceHouse, DrawCard, NeedRoll)
TRUE_WORDS = ("true", "yes", "1", "on")
FALSE_WORDS = ("false", "no", "0", "off")


def zp(state: GameState | Txn, seat: int) -> ZombiePlayer:
    p = state.players[seat]
    assert isinstance(p, ZombiePlayer)
    return p


def table(state: GameState | Txn) -> ZombieTable:
    return variant_table(state.table, ZombieTable)


def stage(state: GameState | Txn) -> str:
    return table(state).stage


class MonopoZombie(Rules):
    """Capitalism (Monopoly with MZ.3-MZ.10), Outbreak (zombies) and Apocalypse (survival)."""

    name = "monopozombie"
    player_fields = ("zombie", "homeless", "lap", "immunity", "bodyguards",
                     "homeless_at_apocalypse", "circuit")
    player_type = ZombiePlayer

    def presenter(self) -> Any:
        if self._presenter is None:
            from companion.games.monopoly.monopozombie.presenter import ZombiePresenter

            self._presenter = ZombiePresenter(self)
        return self._presenter

    # ======================================================================================
    # Setting up
    # ======================================================================================
    def default_options(self) -> Options:
        """Genuine Monopoly figures (MZ.2): no pot, auctions on, building off-turn allowed."""
        return ZombieOptions()

    def new_game(self, players: Sequence[str | tuple[str, str]], options: Options | None = None,
                 seed: int = 0, decks: Any = None,
                 table: VariantTable | None = None) -> GameState:
        options = options or self.default_options()
        if options.teams:
            raise ValueError("MonopoZombie has no team play: leave the teams option empty")
        for name, allowed in CHOICES.items():
            value = getattr(options, name, allowed[0])
            if value not in allowed:
                raise ValueError(f"option {name} takes {' or '.join(allowed)}, not {value!r}")
        colours = seat_colours(options)
        if len(colours) > len(players) or any(not c.isalpha() for c in colours):
            raise ValueError("option die_colours takes one colour name per seat, in seat order, "
                             f"comma-separated (e.g. red,white,blue), not "
                             f"{getattr(options, 'die_colours', '')!r}")
        return super().new_game(players, options, seed, decks, variant_table(table, ZombieTable))

    def parse_option(self, name: str, text: str) -> tuple[str, Any]:
        """The word options take one of their listed values (``model.CHOICES``)."""
        if name in CHOICES and text not in CHOICES[name]:
            raise ValueError(f"option {name} takes {' or '.join(CHOICES[name])}, not {text!r}")
        return super().parse_option(name, text)

    def opt(self, state: GameState | Txn, name: str) -> Any:
        return getattr(state.options, name, getattr(ZombieOptions(), name))

    # ======================================================================================
    # Who is where
    # ======================================================================================
    def humans(self, state: GameState | Txn) -> list[int]:
        return [i for i, p in enumerate(state.players) if not zp(state, i).zombie]

    def zombies(self, state: GameState | Txn) -> list[int]:
        return [i for i, p in enumerate(state.players) if zp(state, i).zombie]

    def on_square(self, state: GameState | Txn, index: int) -> list[int]:
        """Seats standing on ``index`` (players in the jail cell are not on square 10)."""
        return [i for i, p in enumerate(state.players)
                if p.position == index and not p.in_jail and not p.bankrupt]

    def owner_is_zombie(self, state: GameState | Txn, index: int) -> bool:
        owner = state.squares[index].owner
        return owner is not None and zp(state, owner).zombie

    # ======================================================================================
    # Turn order: homeless seats move only when pushed on (MZ.7, MZ.8)
    # ======================================================================================
    def takes_turn(self, t: Txn, seat: int) -> bool:
        """Homeless players skip their seat's turn (they move out of turn, Z-4)."""
        p = zp(t, seat)
        group = table(t).group_of(seat)
        return not p.homeless and (group is None or group.anchor == seat)

    def start_turn(self, t: Txn, player: int) -> None:
        """Homeless players standing on this player's lots move first (MZ.7, Z-4a)."""
        super().start_turn(t, player)
        t.set_player(player, extra_roll=False)
        for h in range(len(t.players)):
            p = zp(t, h)
            if h == player or not p.homeless or p.zombie:
                continue
            sq = t.squares[p.position]
            if self.board.squares[p.position].ownable and sq.owner == player:
                self._push_homeless(t, h, owner=player)

    def _push_homeless(self, t: Txn, h: int, owner: int) -> None:
        if any(isinstance(x, HomelessRoll) and x.player == h for x in t.pending + t.front):
            return
        sides = (6, 6) if stage(t) == APOCALYPSE else (6,)
        t.emit("homeless_moves", h, other=owner if owner >= 0 else None)
        t.push(HomelessRoll(h, sides, owner))

    def homeless_rolled(self, t: Txn, head: HomelessRoll, dice: tuple[int, ...]) -> None:
        if stage(t) == APOCALYPSE:
            t.push(ChooseMove(head.player, dice, 1, head.owner))
            return
        self.move(t, head.player, sum(dice), LandContext(dice_total=sum(dice)))
        self._homeless_again(t, head.player, head.owner)

    def _homeless_again(self, t: Txn, h: int, owner: int) -> None:
        """Landing on another lot of the same owner: roll again at once (MZ.7)."""
        p = zp(t, h)
        if owner >= 0 and p.homeless and not p.zombie and \
                self.board.squares[p.position].ownable and t.squares[p.position].owner == owner:
            self._push_homeless(t, h, owner)

    def after_move(self, t: Txn, player: int, steps: int, land: bool,
                   count_passing: bool) -> None:
        """The 2-3 player circuit counts the squares walked in the outbreak (MZ.31, Z-18)."""
        if not steps:
            return
        mover = zp(t, player)
        if stage(t) == OUTBREAK and mover.human:
            t.set_player(player, circuit=mover.circuit + steps)
            self.update_stage(t)

    def push_on_homeless(self, t: Txn, player: int, start: int, steps: int) -> None:
        """Homeless players on the squares a mover passed or landed on move on (MZ.8)."""
        step = 1 if steps > 0 else -1
        size = len(self.board.squares)
        passed = {(start + k * step) % size for k in range(1, abs(steps) + 1)}
        for h in range(len(t.players)):
            p = zp(t, h)
            if h == player or not p.homeless or p.zombie or p.position not in passed:
                continue
            sq = self.board.squares[p.position]
            if sq.ownable and t.squares[p.position].owner is not None:
                continue  # waits for the owner's turn (MZ.7)
            self._push_homeless(t, h, owner=-1)

    # ======================================================================================
    # Rolls and movement
    # ======================================================================================
    def roll_spec(self, state: GameState) -> RollSpec | None:
        """Zombies roll 2d4 (MZ.18); apocalypse humans 3d6 (MZ.34); homeless 1d6 (MZ.5)."""
        if state.outcome is not None:
            return None
        if state.pending:
            return super().roll_spec(state)
        cur = state.current
        p = zp(state, cur)
        due = not state.rolled or state.roll_again or (p.extra_roll and p.human)
        if not due:
            return None
        if p.zombie:
            sides = (6, 6) if self.opt(state, "zombie_dice") == "d6" else (4, 4)
            return RollSpec(cur, sides, "move")
        if p.homeless:
            return RollSpec(cur, (6, 6) if stage(state) == APOCALYPSE else (6,), "move")
        if stage(state) == APOCALYPSE:
            group = table(state).group_of(cur)
            if group is not None and group.anchor == cur and not p.extra_roll:
                return RollSpec(cur, (6,) * (3 * len(group.members)), "group move")
            return RollSpec(cur, (6, 6, 6), "move")
        return super().roll_spec(state)

    def convertible(self, t: Txn | GameState, seat: int) -> bool:
        p = zp(t, seat)
        return p.human and p.lap_done

    def movement_roll(self, t: Txn, player: int, dice: tuple[int, ...]) -> None:
        p = zp(t, player)
        self._bodyguards_at_roll(t, player)
        if p.zombie or stage(t) == APOCALYPSE:
            t.last_dice = dice
            t.rolled = True
            t.roll_again = False
            t.set_player(player, extra_roll=False)
            if p.apart and p.human:
                t.set_player(player, apart=p.apart - 1)
            group = table(t).group_of(player)
            if group is not None and len(dice) == 3 * len(group.members) and p.human:
                t.push(GroupMove(player, group.members, dice))
                return
            if p.zombie and any(d > 4 for d in dice):
                self._zombie_reroll(t, player, dice)  # zombie_dice=d6 (Z-29)
                return
            keep = len(dice) if p.zombie else (1 if p.homeless else 2)
            t.push(ChooseMove(player, dice, keep))
            return
        if dice == (1, 1) and not p.homeless:
            # human while moving, zombie on arrival (MZ.11); a first lap ending on the way
            # (passing GO) makes the arrival count (Z-6), otherwise immunity holds (MZ.14)
            t.set_player(player, turning=True)
        super().movement_roll(t, player, dice)
        if zp(t, player).zombie:
            t.roll_again = False  # zombies get no extra roll (MZ.19, Z-6)

    def _zombie_reroll(self, t: Txn, player: int, dice: tuple[int, ...]) -> None:
        """Two d6 standing in for 2d4: every 5 or 6 is rolled again (Z-29)."""
        kept = tuple(d for d in dice if d <= 4)
        again = len(dice) - len(kept)
        t.emit("reroll", player, amount=again, detail=" ".join(map(str, dice)))
        t.push(ZombieReroll(player, (6,) * again, kept))

    def zombie_rerolled(self, t: Txn, head: ZombieReroll, dice: tuple[int, ...]) -> None:
        full = head.kept + dice
        if any(d > 4 for d in dice):
            self._zombie_reroll(t, head.player, full)
            return
        t.last_dice = full
        t.push(ChooseMove(head.player, full, len(full)))

    def jail_roll(self, t: Txn, player: int, dice: tuple[int, ...]) -> None:
        if dice == (1, 1) and zp(t, player).human:
            t.set_player(player, turning=True)
        super().jail_roll(t, player, dice)
        t.set_player(player, turning=False)  # (a failed try does not move)

    def handle_roll(self, t: Txn, spec: RollSpec, dice: tuple[int, ...]) -> None:
        if spec.purpose == "utility_card" and dice == (1, 1) and \
                self.convertible(t, spec.player):
            t.pending.pop(0)  # a card's roll of double-one: converted where they stand
            self.convert(t, spec.player, "double_one")
            return
        super().handle_roll(t, spec, dice)

    def third_doubles(self, t: Txn, player: int, dice: tuple[int, ...]) -> bool:
        """After the first lap a third doubles converts in place (Z-7)."""
        if self.convertible(t, player) and self.opt(t, "jail_square_converts"):
            t.emit("speeding", player, detail="three doubles in a row")
            self.convert(t, player, "third_doubles")
            t.roll_again = False
            return True
        return super().third_doubles(t, player, dice)

    def _bodyguards_at_roll(self, t: Txn, player: int) -> None:
        p = zp(t, player)
        if p.renewed:
            t.set_player(player, renewed=False)
        elif p.bodyguards:
            t.set_player(player, bodyguards=0)
            t.emit("bodyguards_gone", player)

    def steer(self, t: Txn, player: int, keep: tuple[int, ...], direction: str) -> None:
        head = t.pending[0] if t.pending else None
        if not isinstance(head, ChooseMove):
            raise IllegalActionError(f"no move to steer now: {self.waiting_for(t)}")
        if head.player != player:
            raise IllegalActionError(f"it is {t.name(head.player)}'s move, not {t.name(player)}'s")
        if direction not in DIRECTIONS:
            raise IllegalActionError(f"there is no direction {direction!r}: say forward "
                                     "(clockwise) or back")
        rolled = " ".join(map(str, head.dice))
        if not keep:
            keep = head.dice if head.keep >= len(head.dice) else ()
        if len(keep) != min(head.keep, len(head.dice)):
            raise IllegalActionError(f"keep {head.keep} of the dice rolled ({rolled}), not "
                                     f"{len(keep)}")
        if not is_kept(head.dice, keep):
            raise IllegalActionError(f"keep dice that were rolled ({rolled}): "
                                     f"{' '.join(map(str, keep))} were not all rolled")
        t.pending.pop(0)
        p = zp(t, player)
        total = sum(keep)
        steps = total if direction == "forward" else -total
        t.emit("steered", player, amount=total, detail=direction)
        double = len(keep) == 2 and keep[0] == keep[1]
        if double and keep == (1, 1) and p.human and self.convertible(t, player):
            t.set_player(player, turning=True)  # a chosen double-one (MZ.35)
        self.move(t, player, steps, LandContext(dice_total=total))
        after = zp(t, player)
        if double and after.human and not after.homeless and player == t.current and \
                head.owner < 0 and not head.grouped and stage(t) == APOCALYPSE:
            t.set_player(player, extra_roll=True)  # optional (MZ.35, Z-21)
        self._homeless_again(t, player, head.owner)

    def go_to(self, t: Txn, player: int, square: int) -> None:
        head = t.pending[0] if t.pending else None
        if not isinstance(head, ChooseMove) or head.player != player:
            raise IllegalActionError(f"no move to steer now: {self.waiting_for(t)}")
        options = self.reachable(t, head)
        if square not in options:
            names = ", ".join(sorted({self.board.squares[s].name for s in options}))
            raise IllegalActionError(f"{self.board.squares[square].name} cannot be reached with "
                                     f"this roll; it reaches {names}")
        keep, direction = options[square]
        self.steer(t, player, keep, direction)

    def reachable(self, state: GameState | Txn, head: ChooseMove
                  ) -> dict[int, tuple[tuple[int, ...], str]]:
        """Target square -> (dice kept, direction); a non-double preferred, then forward."""
        size = len(self.board.squares)
        pos = state.players[head.player].position
        out: dict[int, tuple[tuple[int, ...], str]] = {}
        choices = sorted(head.choices(), key=lambda c: (c[0] == (1, 1),
                                                        len(c[0]) == 2 and c[0][0] == c[0][1],
                                                        c[1] != "forward"))
        for keep, direction in choices:
            total = sum(keep)
            target = (pos + (total if direction == "forward" else -total)) % size
            out.setdefault(target, (keep, direction))
        return out

    def move(self, t: Txn, player: int, steps: int, ctx: LandContext, *, land: bool = True,
             count_passing: bool = True, watchers: Sequence[Any] = ()) -> None:
        """Moving off a square may end a spell of human occupation (MZ.22, Z-15)."""
        start = t.players[player].position
        super().move(t, player, steps, ctx, land=land, count_passing=count_passing,
                     watchers=watchers)
        if steps and count_passing:
            self.push_on_homeless(t, player, start, steps)
        if t.players[player].position != start and zp(t, player).human:
            self.humans_left(t, start)

    # ======================================================================================
    # Passing and landing
    # ======================================================================================
    def collect_go(self, t: Txn, player: int, landed: bool) -> None:
        """The first arrival at GO ends first-lap immunity (MZ.14, Z-9); zombies and the
        apocalypse take no money (Z-10, MZ.32)."""
        p = zp(t, player)
        if p.human and not p.lap_done:
            t.set_player(player, lap_done=True)
            t.emit("immunity_over", player)
        if p.zombie or stage(t) == APOCALYPSE:
            return
        super().collect_go(t, player, landed)

    def on_land(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        p = zp(t, player)
        if p.turning:
            t.set_player(player, turning=False)
            if self.asks_immunity(t, player):
                # the arrival waits for the holder's answer (Z-8, option immunity_card=ask)
                t.emit("immunity_asked", player, detail="double_one")
                t.push(ImmunityChoice(player, "double_one", land=index,
                                      dice_total=ctx.dice_total))
                return
            self.convert(t, player, "double_one", share=False)
            p = zp(t, player)
        self.resolve_arrival(t, player, index, ctx)

    def resolve_arrival(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        """The arrival on ``index`` as the player now is (zombie or human), then the sharing
        check and the zombies' win."""
        p = zp(t, player)
        if p.zombie:
            self.zombie_arrives(t, player, index)
        else:
            self.human_arrives(t, player, index, ctx)
        if t.outcome is None:
            self.share_check(t, index)
            self.zombie_win(t, player, index)

    def zombie_arrives(self, t: Txn, player: int, index: int) -> None:
        sq = self.board.squares[index]
        s = t.squares[index]
        if sq.ownable:
            if s.owner is None:
                if stage(t) != APOCALYPSE:  # MZ.20
                    self.start_auction(t, index)
            elif not self.owner_is_zombie(t, index) and s.level and \
                    not any(zp(t, i).human for i in self.on_square(t, index)):
                self.demolish(t, index, player)  # MZ.25 (before the zombie arrives)
            return
        if sq.kind in ("chance", "community_chest") and self.opt(t, "zombies_draw_cards"):
            self.discard_card(t, player, sq.kind)

    def discard_card(self, t: Txn, player: int, deck: str) -> None:
        """A zombie looks at the top card and puts it at the bottom (MZ.19, Z-10)."""
        if t.options.deck_mode == "physical":
            t.emit("card_ignored", player, detail=deck)
            return
        order = t.chance if deck == "chance" else t.community_chest
        if not order:
            return
        card = card_by_id(deck, order[0])
        self._set_deck(t, deck, order[1:] + order[:1])
        t.emit("card_ignored", player, detail=f"{deck}:{card.id}")

    def human_arrives(self, t: Txn, player: int, index: int, ctx: LandContext) -> None:
        sq = self.board.squares[index]
        s = t.squares[index]
        p = zp(t, player)
        if sq.ownable and s.owner is not None and self.owner_is_zombie(t, index):
            if s.level == 0:  # an infection ground, mortgaged or not (MZ.21)
                self.convert(t, player, "infection_ground", share=False)
            return  # sheltered by the buildings (MZ.22); zombies collect no rent (Z-10)
        if stage(t) == APOCALYPSE:
            if sq.kind in ("chance", "community_chest"):
                if self.opt(t, "apocalypse_cards") == "none":
                    t.emit("no_card", player, detail=sq.kind)  # Z-20: no card is drawn
                    return
                self.draw_card(t, player, sq.kind)
            elif sq.kind == "go_to_jail":
                self.send_to_jail(t, player)
            return
        if p.homeless and sq.ownable:
            if s.owner is None:
                t.emit("homeless_auction", player, square=index)
                self.start_auction(t, index)  # MZ.6
            return  # no rent: they wait for the owner's turn (MZ.7)
        super().on_land(t, player, index, ctx)

    def apply_card(self, t: Txn, player: int, card: Card) -> None:
        """In the apocalypse only the zombie meanings of cards apply (Z-20)."""
        if stage(t) == APOCALYPSE and card.effect not in ("go_to_jail", "jail_free"):
            t.emit("card", player, detail=f"{card.deck}:{card.id}")
            t.emit("card_ignored", player, detail=f"{card.deck}:{card.id}")
            return
        super().apply_card(t, player, card)

    def send_to_jail(self, t: Txn, player: int) -> None:
        """After the first lap, jail means "stay and become a zombie" (MZ.12, Z-7); zombies
        never go in jail (MZ.24)."""
        p = zp(t, player)
        if p.zombie:
            t.emit("jail_ignored", player)
            if player == t.current:
                t.roll_again = False
            return
        if p.lap_done:
            if self.opt(t, "jail_square_converts"):
                self.convert(t, player, "jail")
            else:
                t.emit("jail_ignored", player)
            if player == t.current:
                t.roll_again = False
            return
        if stage(t) == APOCALYPSE:
            t.emit("jail_ignored", player)  # no teleporting in the apocalypse (MZ.36)
            return
        super().send_to_jail(t, player)

    def card_effect(self, t: Txn, player: int, card: Card) -> None:
        """A Go to Jail card after the first lap: stay and become a zombie (MZ.12), whatever
        the jail_square_converts option says."""
        if card.effect == "go_to_jail" and self.convertible(t, player):
            self.convert(t, player, "jail")
            if player == t.current:
                t.roll_again = False
            return
        super().card_effect(t, player, card)

    # ======================================================================================
    # Conversions, sharing and demolition
    # ======================================================================================
    def convert(self, t: Txn, seat: int, how: str, share: bool = True) -> bool:
        """Make ``seat`` a zombie unless first-lap immunity or an immunity card saves them
        (MZ.13, MZ.14, Z-8). True when converted."""
        p = zp(t, seat)
        if p.zombie:
            return False
        if not p.lap_done:
            t.emit("immune", seat, detail=how)
            return False
        if p.jail_cards and self.opt(t, "immunity_card") == "ask":
            if not any(isinstance(x, ImmunityChoice) and x.player == seat
                       for x in t.pending + t.front):
                t.emit("immunity_asked", seat, detail=how)
                t.push(ImmunityChoice(seat, how, share=share))  # the holder decides (Z-8)
            return False
        if p.jail_cards:  # the Get Out of Jail Free card, used as immunity (Z-8)
            return self._use_immunity(t, seat, how)
        return self.zombify(t, seat, how, share)

    def asks_immunity(self, t: Txn, seat: int) -> bool:
        p = zp(t, seat)
        return p.human and p.lap_done and bool(p.jail_cards) and \
            self.opt(t, "immunity_card") == "ask"

    def _use_immunity(self, t: Txn, seat: int, how: str) -> bool:
        p = zp(t, seat)
        deck = p.jail_cards[0]
        t.set_player(seat, jail_cards=p.jail_cards[1:])
        self._return_jail_card(t, deck)
        t.emit("immunity_used", seat, detail=f"{deck}:{how}")
        return False

    def answer_immunity(self, t: Txn, seat: int, use: bool) -> None:
        """The holder's answer to an ``ImmunityChoice`` (Z-8)."""
        head = t.pending[0] if t.pending else None
        if not isinstance(head, ImmunityChoice):
            raise IllegalActionError(f"no one is asked about an immunity card: "
                                     f"{self.waiting_for(t)}")
        if head.player != seat:
            raise IllegalActionError(f"it is {t.name(head.player)}'s card to use or keep, not "
                                     f"{t.name(seat)}'s")
        t.pending.pop(0)
        if use:
            self._use_immunity(t, seat, head.how)
        else:
            t.emit("immunity_kept", seat, detail=head.how)
            self.zombify(t, seat, head.how, share=head.share and head.land < 0)
            if seat == t.current:
                t.roll_again = False
        if head.land >= 0 and t.outcome is None:
            self.resolve_arrival(t, seat, head.land, LandContext(dice_total=head.dice_total))

    def zombify(self, t: Txn, seat: int, how: str, share: bool = True) -> bool:
        """The conversion itself: nothing saves ``seat`` any more."""
        square = t.players[seat].position
        t.set_player(seat, zombie=True, homeless=False, turning=False, bodyguards=0,
                     renewed=False, extra_roll=False, in_jail=False, jail_turns=0)
        t.pending = [_no_bidder(x, seat) for x in t.pending
                     if not (isinstance(x, Debt) and x.player == seat)]
        t.front = [_no_bidder(x, seat) for x in t.front
                   if not (isinstance(x, Debt) and x.player == seat)]
        t.emit("zombified", seat, square=square, detail=how)
        self.drop_from_group(t, seat)
        if stage(t) == CAPITALISM:
            t.table = replace(table(t), stage=OUTBREAK, outbreak_turn=t.turn_number)
            t.emit("stage", None, detail=OUTBREAK)
        self.humans_left(t, square)
        self.update_stage(t)
        if share:
            self.share_check(t, square)
        return True

    def shelter(self, t: Txn | GameState, index: int) -> bool:
        """Free Parking and improved lots keep humans safe from sharing (MZ.23, Z-13)."""
        sq = self.board.squares[index]
        return sq.kind == "free_parking" or (sq.ownable and t.squares[index].level > 0)

    def share_check(self, t: Txn, index: int) -> None:
        """Humans sharing a square with at least as many zombies become zombies (MZ.28);
        bodyguards count as humans (MZ.29)."""
        if self.shelter(t, index) or table(t).together:
            return
        here = self.on_square(t, index)
        zombies = sum(1 for i in here if zp(t, i).zombie)
        humans = [i for i in here if zp(t, i).human]
        if not zombies or not humans:
            return
        strength = len(humans) + sum(zp(t, i).bodyguards for i in humans)
        if zombies < strength:
            return
        for i in humans:
            self.convert(t, i, "outnumbered", share=False)

    def humans_left(self, t: Txn, index: int) -> None:
        """No human on an improved lot any more: one level falls if the lot is a zombie's,
        or if it is a human's and a zombie stands there (MZ.22, MZ.26, Z-15)."""
        if not self.board.squares[index].ownable or t.squares[index].level == 0:
            return
        here = self.on_square(t, index)
        if any(zp(t, i).human for i in here):
            return
        if self.owner_is_zombie(t, index) or (
                t.squares[index].owner is not None and any(zp(t, i).zombie for i in here)):
            self.demolish(t, index, None)

    def demolish(self, t: Txn, index: int, by: int | None) -> None:
        """One building level falls, back to the bank unpaid (a hotel becomes four houses, or
        as many as the bank has, Z-15)."""
        s = t.squares[index]
        if s.hotel:
            houses = min(t.options.max_houses, t.bank_houses)
            t.bank_hotels += 1
            t.bank_houses -= houses
            t.set_square(index, hotel=False, houses=houses)
        elif s.houses:
            t.bank_houses += 1
            t.set_square(index, houses=s.houses - 1)
        else:
            return
        t.emit("demolished", by, square=index, amount=t.squares[index].level)

    # ======================================================================================
    # Stages
    # ======================================================================================
    def apocalypse_due(self, t: Txn | GameState) -> bool:
        n = len(t.players)
        z = len(self.zombies(t))
        if z == 0:
            return False
        if z == n:
            return True  # the race to Jail starts at once (Z-27)
        if n >= 4:
            if self.opt(t, "apocalypse_at") == "one_away":
                return z + 1 >= n - z - 1  # one more conversion would equal the humans
            return z >= n // 2  # the printed figures: 2 at 4-5, 3 at 6-7, 4 at 8-9 (Z-17)
        if self.opt(t, "small_table") == "half":
            return z >= n // 2  # the test-log figure (Z-18)
        if z >= 2:
            return True
        return all(zp(t, i).circuit >= len(self.board.squares) for i in self.humans(t))

    def update_stage(self, t: Txn) -> None:
        if stage(t) == OUTBREAK and self.apocalypse_due(t):
            self.enter_apocalypse(t)

    def enter_apocalypse(self, t: Txn) -> None:
        """Money back to the bank, mortgages lifted, commerce dropped (MZ.32, Z-19)."""
        t.table = replace(table(t), stage=APOCALYPSE, apocalypse_turn=t.turn_number)
        t.emit("stage", None, detail=APOCALYPSE)
        for i, p in enumerate(t.players):
            if p.cash:
                t.bank_net -= p.cash
                t.set_player(i, cash=0)
            q = zp(t, i)
            t.set_player(i, homeless_at_apocalypse=q.homeless and q.human, in_jail=False,
                         jail_turns=0)
        t.bank_net -= t.pot
        t.pot = 0
        for i, s in enumerate(t.squares):
            if s.mortgaged:
                t.set_square(i, mortgaged=False)
        t.pending = [x for x in t.pending if not isinstance(x, COMMERCE)]
        t.front = [x for x in t.front if not isinstance(x, COMMERCE)]
        t.claimable = []
        t.roll_again = False

    # ======================================================================================
    # Money: zombies, homeless and the apocalypse take no part (MZ.19, Z-3, Z-10, MZ.32)
    # ======================================================================================
    def rent_due(self, t: Txn, payer: int, index: int, ctx: LandContext) -> int:
        if zp(t, payer).homeless or self.owner_is_zombie(t, index) or stage(t) == APOCALYPSE:
            return 0
        return super().rent_due(t, payer, index, ctx)

    def adjust_charge(self, t: Txn, debtor: int, creditor: int, amount: int, reason: str) -> int:
        if debtor >= 0 and (zp(t, debtor).zombie or zp(t, debtor).homeless):
            return 0
        if stage(t) == APOCALYPSE:
            return 0
        return amount

    def redirect_income(self, t: Txn, recipient: int, amount: int, reason: str) -> int:
        if recipient >= 0 and (zp(t, recipient).zombie or stage(t) == APOCALYPSE):
            return BANK  # a zombie's money is frozen (Z-12)
        return recipient

    def credit(self, t: Txn, player: int, amount: int, reason: str) -> None:
        super().credit(t, player, amount, reason)
        p = zp(t, player)
        if p.homeless and amount > 0:
            t.set_player(player, homeless=False)  # money ends homelessness (MZ.9, Z-5)
            t.emit("housed", player, amount=amount)

    def start_auction(self, t: Txn, index: int) -> None:
        """Bidders are the humans with money (Z-11)."""
        if stage(t) == APOCALYPSE:
            return
        if not t.options.auctions:
            t.emit("no_auction", None, square=index)
            return
        bidders = tuple(i for i in t.active()
                        if zp(t, i).human and not zp(t, i).homeless and t.players[i].cash > 0)
        t.emit("auction", None, square=index)
        t.push(Auction(-1, index, bidders))

    def bankrupt(self, t: Txn, player: int, creditor: int) -> None:
        """Bankrupt players stay on as homeless (MZ.4, Z-3)."""
        super().bankrupt(t, player, creditor)
        t.set_player(player, bankrupt=False, homeless=True, cash=0, bodyguards=0,
                     renewed=False)
        t.emit("homeless", player)
        if player == t.current:
            t.roll_again = False
            t.rolled = True

    def _manage_check(self, t: Txn, player: int, what: str) -> None:
        """Say why a zombie, a homeless player or anyone in the apocalypse may not manage."""
        p = zp(t, player)
        if p.zombie:
            raise IllegalActionError(f"{p.name} is a zombie: zombies take no part in commerce "
                                     f"(no {what})")
        if p.homeless:
            raise IllegalActionError(f"{p.name} is homeless and has nothing to {what}")
        if stage(t) == APOCALYPSE:
            raise IllegalActionError(f"commerce has stopped in the apocalypse (no {what})")
        super()._manage_check(t, player, what)

    def house_demand(self, state: GameState) -> dict[int, int]:
        """Only humans with a home build: zombies and the homeless want no houses, and no one
        does in the apocalypse (so they call and bid in no house auction)."""
        if stage(state) == APOCALYPSE:
            return {}
        return {p: n for p, n in super().house_demand(state).items()
                if zp(state, p).human and not zp(state, p).homeless}

    def trade_problem(self, state: GameState | Txn, action: Trade) -> str | None:
        """Zombies, the homeless and everyone in the apocalypse do not trade (Z-10, MZ.32)."""
        for seat in (action.player, action.partner):
            if 0 <= seat < len(state.players):
                p = zp(state, seat)
                if p.zombie:
                    return f"{p.name} is a zombie: zombies take no part in commerce"
                if p.homeless:
                    return f"{p.name} is homeless and has nothing to trade"
        if stage(state) == APOCALYPSE:
            return "commerce has stopped in the apocalypse"
        return super().trade_problem(state, action)

    def may_manage(self, state: GameState, player: int, what: str) -> bool:
        p = zp(state, player)
        if p.zombie or p.homeless or stage(state) == APOCALYPSE:
            return False
        return super().may_manage(state, player, what)

    # ======================================================================================
    # Building evenly without the whole group (MZ.3, Z-1)
    # ======================================================================================
    def _levels(self, state: GameState | Txn, group: str) -> list[int]:
        return [0 if s.owner is None or s.mortgaged else s.level
                for s in (state.squares[i] for i in self.board.groups[group])]

    def _build_problem(self, state: GameState | Txn, player: int, index: int,
                       free: bool = False) -> str | None:
        sq = self.board.squares[index]
        s = state.squares[index]
        p = zp(state, player)
        if p.zombie or p.homeless:
            return "zombies and homeless players do not build"
        if stage(state) == APOCALYPSE:
            return "nothing is built in the apocalypse"
        if not sq.is_street:
            return f"{sq.name} is not a street; only streets take houses"
        if s.owner != player:
            return f"you do not own {sq.name}"
        if s.mortgaged:
            return f"lift the mortgage on {sq.name} before building"
        if s.hotel:
            return f"{sq.name} already has a hotel"
        levels = self._levels(state, sq.group)
        if s.level > min(levels):
            return (f"build evenly: every lot of the {sq.group.replace('_', ' ')} group must "
                    f"be owned and carry {s.level} building(s) before {sq.name} gets another")
        if not free and state.players[player].cash < sq.house_cost:
            return f"a building on {sq.name} costs ${sq.house_cost}; you have ${state.players[player].cash}"
        if s.houses >= state.options.max_houses:
            return None if state.bank_hotels >= 1 else "the bank has no hotels left"
        if state.bank_houses < 1:
            return "the bank has no houses left"
        return None

    def _sell_problem(self, state: GameState | Txn, player: int, index: int) -> str | None:
        """Sell from the highest of your own lots of the group (Z-1)."""
        sq = self.board.squares[index]
        s = state.squares[index]
        if s.owner != player:
            return f"you do not own {sq.name}"
        if s.level == 0:
            return f"{sq.name} has no buildings to sell"
        mine = [state.squares[i].level for i in self.board.groups[sq.group]
                if state.squares[i].owner == player]
        if s.level < max(mine):
            return "sell evenly: another of your lots in the group has more buildings"
        return None

    def remove_building(self, t: Txn, index: int) -> None:
        s = t.squares[index]
        if s.hotel and t.bank_houses < t.options.max_houses:
            t.bank_hotels += 1
            houses = t.bank_houses
            t.bank_houses = 0
            t.set_square(index, hotel=False, houses=houses)
            return
        super().remove_building(t, index)

    def mortgage_building_problem(self, state: GameState | Txn, player: int,
                                  index: int) -> str | None:
        """Only your own lots of the group must be bare (Z-1)."""
        sq = self.board.squares[index]
        if sq.is_street and any(state.squares[i].level for i in self.board.groups[sq.group]
                                if state.squares[i].owner == player):
            return f"sell your buildings in the {sq.group.replace('_', ' ')} group first"
        return None

    def management_actions(self, state: GameState, player: int,
                           shortage: bool | None = None) -> list[Action]:
        p = zp(state, player)
        if p.zombie or p.homeless or stage(state) == APOCALYPSE:
            return []
        out = [a for a in super().management_actions(state, player, shortage)
               if not isinstance(a, (Build, Sell, Mortgage))]
        can_mortgage = self.may_manage(state, player, "mortgage") or (
            bool(state.pending) and isinstance(state.pending[0], Debt)
            and state.pending[0].player == player)
        head = state.pending[0] if state.pending else None
        if isinstance(head, PlaceHouse):
            return out
        raising = isinstance(head, Debt) and head.player == player
        can_build = not raising and super().may_manage(state, player, "build")
        short = self.house_shortage(state) if can_build else False
        for i, s in enumerate(state.squares):
            if s.owner != player or not self.board.squares[i].is_street:
                continue
            if can_build and not (short and s.houses < state.options.max_houses) and \
                    self._build_problem(state, player, i) is None:
                out.append(Build(player, i))
            if s.level and self._sell_problem(state, player, i) is None:
                out.append(Sell(player, i))
        if can_mortgage:
            out += [Mortgage(player, i) for i, s in enumerate(state.squares)
                    if s.owner == player and self._mortgage_problem(state, player, i) is None]
        return out

    # ======================================================================================
    # Bodyguards (MZ.29, Z-16)
    # ======================================================================================
    def hire(self, t: Txn, player: int, count: int) -> None:
        p = zp(t, player)
        price = int(self.opt(t, "bodyguard_price"))
        if count < 1:
            raise IllegalActionError("hire at least one bodyguard")
        if p.zombie or p.homeless:
            raise IllegalActionError("only humans with money hire bodyguards")
        if stage(t) == APOCALYPSE:
            raise IllegalActionError("no one hires bodyguards in the apocalypse: money is gone")
        if player != t.current or t.pending:
            raise IllegalActionError(f"hire bodyguards on your own turn: {self.waiting_for(t)}")
        if p.cash < price * count:
            raise IllegalActionError(f"{count} bodyguard(s) cost ${price * count}; you have "
                                     f"${p.cash}")
        t.pay(player, BANK, price * count, "bodyguards")
        t.set_player(player, bodyguards=count, renewed=True)
        t.emit("bodyguards", player, amount=count)

    # ======================================================================================
    # Groups (MZ.37-MZ.41, Z-22-Z-24)
    # ======================================================================================
    def _set_groups(self, t: Txn, groups: Sequence[Group]) -> None:
        kept = tuple(g for g in groups if len(g.members) >= 2)
        t.table = replace(table(t), groups=kept)

    def group_candidates(self, state: GameState, seat: int) -> tuple[int, ...]:
        """The humans the current player may group with now: after her move, on her square,
        free of groups and of the three turns apart."""
        p = zp(state, seat)
        if not state.rolled or p.zombie or p.in_jail or p.apart or \
                table(state).group_of(seat) is not None:
            return ()
        return tuple(i for i in self.on_square(state, p.position)
                     if i != seat and zp(state, i).human and not zp(state, i).apart
                     and table(state).group_of(i) is None)

    def form_group(self, t: Txn, seat: int, others: tuple[int, ...]) -> None:
        p = zp(t, seat)
        if stage(t) != APOCALYPSE:
            raise IllegalActionError("groups form only in the apocalypse")
        if seat != t.current or t.pending or not t.rolled:
            raise IllegalActionError("form a group on your own turn, after your move: "
                                     + self.waiting_for(t))
        if p.zombie:
            raise IllegalActionError("zombies do not form groups")
        if not others or seat in others or len(set(others)) != len(others):
            raise IllegalActionError("name the other humans to travel with, each once")
        if p.apart:
            raise IllegalActionError(f"{p.name} must take {p.apart} more turn(s) alone first")
        here = self.board.squares[p.position].name
        tab = table(t)
        if tab.group_of(seat) is not None:
            raise IllegalActionError(f"{p.name} already travels in a group")
        for i in others:
            if not 0 <= i < len(t.players):
                raise IllegalActionError(f"there is no player in seat {i}")
            q = zp(t, i)
            if q.zombie:
                raise IllegalActionError(f"{q.name} is a zombie")
            if q.position != p.position or q.in_jail:
                where = "in jail" if q.in_jail else f"on {self.board.squares[q.position].name}"
                raise IllegalActionError(f"{q.name} is {where}, not on {here}: a group forms "
                                         "only on a shared square")
            if tab.group_of(i) is not None:
                raise IllegalActionError(f"{q.name} already travels in a group")
            if q.apart:
                raise IllegalActionError(f"{q.name} must take {q.apart} more turn(s) alone first")
        members = tuple(sorted((seat, *others)))
        for i in members:
            t.set_player(i, homeless=False)  # the homeless regain 3d6 for good (MZ.42)
        self._set_groups(t, (*tab.groups, Group(members, seat)))
        t.emit("group_formed", seat, detail=" ".join(str(m) for m in members))

    def leave_group(self, t: Txn, seat: int) -> None:
        if t.pending:
            raise IllegalActionError(self.waiting_for(t))
        if table(t).group_of(seat) is None:
            raise IllegalActionError(f"{t.name(seat)} is not in a group")
        self.drop_from_group(t, seat)
        t.emit("group_left", seat)

    def drop_from_group(self, t: Txn, seat: int) -> None:
        tab = table(t)
        group = tab.group_of(seat)
        if group is None:
            return
        rest = tuple(m for m in group.members if m != seat)
        anchor = group.anchor if group.anchor != seat else (rest[-1] if rest else seat)
        groups = [g for g in tab.groups if g is not group]
        if len(rest) >= 2:
            groups.append(Group(rest, anchor, group.turns))
        self._set_groups(t, groups)

    def together_moves(self, state: GameState, head: GroupMove
                       ) -> list[tuple[tuple[int, tuple[int, ...], str], ...]]:
        """Allocations that bring the whole group to one square (one per square reached;
        pairs chosen greedily, a member's own dice first)."""
        size = len(self.board.squares)
        pos = state.players[head.player].position
        seen: set[int] = set()
        out: list[tuple[tuple[int, tuple[int, ...], str], ...]] = []
        for total in range(2, 13):
            shared = self._share_out(head, total)
            if shared is None:
                continue
            for direction in DIRECTIONS:
                target = (pos + (total if direction == "forward" else -total)) % size
                if target not in seen:
                    seen.add(target)
                    out.append(tuple((m, k, direction) for m, k in shared))
        return out

    @staticmethod
    def _share_out(head: GroupMove, total: int) -> list[tuple[int, tuple[int, ...]]] | None:
        pool = list(head.dice)
        moves = []
        for m in head.members:
            own = list(head.own_dice(m))
            found = None
            for pair in keep_options(tuple(own), 2) + keep_options(tuple(pool), 2):
                if sum(pair) == total and is_kept(tuple(pool), pair) and pair != (1, 1):
                    found = pair
                    break
            if found is None:
                return None
            for d in found:
                pool.remove(d)
            moves.append((m, found))
        return moves

    def allocate(self, t: Txn, seat: int,
                 moves: tuple[tuple[int, tuple[int, ...], str], ...]) -> None:
        head = t.pending[0] if t.pending else None
        if not isinstance(head, GroupMove):
            raise IllegalActionError(f"no group roll to share out: {self.waiting_for(t)}")
        if seat not in head.members:
            raise IllegalActionError(f"{t.name(seat)} is not in this group")
        rolled = " ".join(map(str, head.dice))
        if sorted(m for m, _k, _d in moves) != sorted(head.members):
            names = ", ".join(t.name(m) for m in head.members)
            raise IllegalActionError(f"give each member of the group ({names}) one move")
        used: list[int] = []
        for m, keep, direction in moves:
            if len(keep) != 2:
                raise IllegalActionError(f"{t.name(m)} keeps two dice, not {len(keep)}")
            if direction not in DIRECTIONS:
                raise IllegalActionError(f"there is no direction {direction!r}: say forward "
                                         "(clockwise) or back")
            used += keep
        if not is_kept(head.dice, tuple(used)):
            raise IllegalActionError(f"share out only the dice rolled ({rolled}), each once")
        t.pending.pop(0)
        self._move_group(t, head.player, [(m, k, d) for m, k, d in moves])

    def _move_group(self, t: Txn, anchor: int, moves: list[tuple[int, tuple[int, ...], str]]
                    ) -> None:
        """Every member moves, then the sharing checks run on the squares reached (they
        arrive together, MZ.38)."""
        t.table = replace(table(t), together=True)
        for m, keep, direction in moves:
            if keep == (1, 1) and self.convertible(t, m):
                t.set_player(m, turning=True)
            total = sum(keep)
            t.emit("steered", m, amount=total, detail=direction)
            self.move(t, m, total if direction == "forward" else -total,
                      LandContext(dice_total=total))
        t.table = replace(table(t), together=False)
        for square in sorted({t.players[m].position for m, _k, _d in moves}):
            self.share_check(t, square)
        self.group_moved(t, anchor, tuple(m for m, _k, _d in moves))

    def impasse(self, t: Txn, seat: int) -> None:
        head = t.pending[0] if t.pending else None
        if not isinstance(head, GroupMove):
            raise IllegalActionError(f"no group roll to share out: {self.waiting_for(t)}")
        if seat not in head.members:
            raise IllegalActionError(f"{t.name(seat)} is not in this group")
        t.pending.pop(0)
        t.emit("impasse", seat)
        for m in head.members:  # each uses two of the dice they rolled (MZ.41, Z-23)
            t.push(ChooseMove(m, head.own_dice(m), 2, grouped=True))
        t.push(GroupMoved(head.player, head.members))

    def group_moved(self, t: Txn, anchor: int, members: tuple[int, ...]) -> None:
        """Members now apart leave the group; after its third move it breaks up and each
        member takes three turns alone (MZ.40, Z-22)."""
        tab = table(t)
        group = tab.group_of(anchor) or next(
            (g for g in tab.groups if set(g.members) & set(members)), None)
        if group is None:
            return
        turns = group.turns + 1
        others = [g for g in tab.groups if g is not group]
        if turns >= GROUP_TURNS:
            for m in group.members:
                t.set_player(m, apart=GROUP_TURNS)
            self._set_groups(t, others)
            t.emit("group_split", anchor)
            return
        by_square: dict[int, list[int]] = {}
        for m in group.members:
            if zp(t, m).human:
                by_square.setdefault(t.players[m].position, []).append(m)
        for seats in by_square.values():
            if len(seats) >= 2:
                keep_anchor = anchor if anchor in seats else seats[-1]
                others.append(Group(tuple(seats), keep_anchor, turns))
        self._set_groups(t, others)

    # ======================================================================================
    # Ends of the game (MZ.43-MZ.45, Z-26-Z-28)
    # ======================================================================================
    def zombie_win(self, t: Txn, player: int, index: int) -> None:
        if index == self.board.jail and zp(t, player).zombie and not self.humans(t) and \
                t.outcome is None:
            t.outcome = self.standings(t, "zombies_win", winner=t.players[player].name)
            t.pending = []
            t.emit("game_over", player, detail=t.outcome.winner or "")

    def human_win_square(self, state: GameState | Txn) -> int | None:
        humans = self.humans(state)
        if not humans or stage(state) != APOCALYPSE:
            return None
        squares = {state.players[i].position for i in humans}
        if len(squares) != 1 or any(state.players[i].in_jail for i in humans):
            return None
        index = squares.pop()
        s = state.squares[index]
        if not self.board.squares[index].ownable or s.level == 0 or s.owner is None:
            return None
        if any(zp(state, i).zombie for i in self.on_square(state, index)):
            return None
        if zp(state, s.owner).human:
            return index
        if len(humans) == 1 and zp(state, humans[0]).homeless_at_apocalypse:
            return index  # MZ.44
        return None

    def check_winner(self, t: Txn) -> None:
        """No one is eliminated (Z-28); humans win together on a safe home (MZ.43)."""
        if t.outcome is not None:
            return
        index = self.human_win_square(t)
        if index is None:
            return
        names = "+".join(t.players[i].name for i in self.humans(t))
        t.outcome = self.standings(t, "humans_win", winner=names)
        t.pending = []
        t.emit("game_over", None, square=index, detail=names)

    # ======================================================================================
    # Actions
    # ======================================================================================
    def apply_extra(self, t: Txn, action: Action) -> None:
        if isinstance(action, Steer):
            self.steer(t, action.player, action.keep, action.direction)
        elif isinstance(action, GoTo):
            if not 0 <= action.square < len(self.board.squares):
                raise IllegalActionError(f"there is no square {action.square}: squares are 0-39")
            self.go_to(t, action.player, action.square)
        elif isinstance(action, HireBodyguards):
            self.hire(t, action.player, action.count)
        elif isinstance(action, FormGroup):
            self.form_group(t, action.player, action.others)
        elif isinstance(action, LeaveGroup):
            self.leave_group(t, action.player)
        elif isinstance(action, Allocate):
            self.allocate(t, action.player, action.moves)
        elif isinstance(action, Impasse):
            self.impasse(t, action.player)
        elif isinstance(action, AnswerImmunity):
            self.answer_immunity(t, action.player, action.use)
        else:
            super().apply_extra(t, action)

    def extra_legal_actions(self, state: GameState,
                            players: tuple[int, ...] | None = None) -> list[Action]:
        out: list[Action] = []
        if state.pending or state.outcome is not None:
            return out
        cur = state.current
        p = zp(state, cur)
        if p.extra_roll and p.human and stage(state) == APOCALYPSE:
            out.append(EndTurn(cur))  # the extra roll is optional (MZ.35)
        if p.human and not p.homeless and stage(state) == OUTBREAK and \
                p.cash >= self.opt(state, "bodyguard_price"):
            out.append(HireBodyguards(cur, 1))
        if stage(state) == APOCALYPSE:
            others = self.group_candidates(state, cur)
            if others:
                out.append(FormGroup(cur, others))
            tab = table(state)
            out += [LeaveGroup(m) for g in tab.groups for m in g.members]
        return out

    def bot_hint(self, state: GameState, actions: Sequence[Action]) -> Action | None:
        from companion.games.monopoly.monopozombie import bots

        return bots.bot_hint(self, state, actions)

    # ======================================================================================
    # Transcript, JSON and narration
    # ======================================================================================
    def parse_variant_verb(self, state: GameState, player: int, verb: str,
                           args: list[str]) -> Action | None:
        """``move [A B ...] forward|back``, ``go SQUARE``, ``hire N``."""
        if verb == "move":
            if not args or args[-1].lower() not in DIRECTIONS:
                raise ValueError("move [DICE KEPT ...] forward|back (e.g. move 5 3 back)")
            try:
                keep = tuple(int(a) for a in args[:-1])
            except ValueError:
                raise ValueError("the dice kept are numbers: move 5 3 back") from None
            return Steer(player, keep, args[-1].lower())
        if verb == "go":
            from companion.games.monopoly.transcript import square_index

            if len(args) != 1:
                raise ValueError('go takes one square, quoted if it has spaces: go "Park Place"')
            return GoTo(player, square_index(self, args[0]))
        if verb == "group":
            if not args:
                raise ValueError("group NAME ...: the humans on your square to travel with")
            return FormGroup(player, tuple(_seat(state, a) for a in args))
        if verb == "leave" and not args:
            return LeaveGroup(player)
        if verb == "impasse" and not args:
            return Impasse(player)
        if verb == "allocate":
            return Allocate(player, tuple(_allocation(state, a) for a in args))
        if verb == "immunity":
            if len(args) != 1 or args[0].lower() not in ("use", "keep"):
                raise ValueError("immunity use|keep: spend the immunity card, or keep it and "
                                 "become a zombie")
            return AnswerImmunity(player, args[0].lower() == "use")
        if verb == "hire":
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
                raise ValueError("hire N: how many bodyguards (1 or more)")
            return HireBodyguards(player, int(args[0]))
        return None

    def format_variant_action(self, state: GameState, action: Action) -> str | None:
        if isinstance(action, Steer):
            return " ".join(["move", *map(str, action.keep), action.direction])
        if isinstance(action, GoTo):
            name = self.board.squares[action.square].name
            return f'go "{name}"' if " " in name else f"go {name}"
        if isinstance(action, HireBodyguards):
            return f"hire {action.count}"
        if isinstance(action, AnswerImmunity):
            return f"immunity {'use' if action.use else 'keep'}"
        if isinstance(action, FormGroup):
            return "group " + " ".join(_name(state, i) for i in action.others)
        if isinstance(action, LeaveGroup):
            return "leave"
        if isinstance(action, Impasse):
            return "impasse"
        if isinstance(action, Allocate):
            return "allocate " + " ".join(
                f"{_name(state, m)}:{','.join(map(str, keep))}:{direction}"
                for m, keep, direction in action.moves)
        return None

    def set_player_field(self, player: PlayerState, key: str, value: str) -> PlayerState:
        """``set player NAME zombie=yes homeless=no lap=done|first immunity=yes|no
        bodyguards=N homeless_at_apocalypse=no circuit=N``."""
        if not isinstance(player, ZombiePlayer):
            raise ValueError("not a MonopoZombie player")
        if key in ("zombie", "homeless", "homeless_at_apocalypse", "immunity"):
            low = value.lower()
            if low not in TRUE_WORDS + FALSE_WORDS:
                raise ValueError(f"{key} takes yes or no, not {value!r}")
            flag = low in TRUE_WORDS
            if key == "immunity":  # first-lap immunity still on
                return replace(player, lap_done=not flag)
            if key == "zombie":
                return replace(player, zombie=flag)
            if key == "homeless":
                return replace(player, homeless=flag)
            return replace(player, homeless_at_apocalypse=flag)
        if key == "lap":
            if value.lower() not in ("first", "done"):
                raise ValueError(f"lap takes first or done, not {value!r}")
            return replace(player, lap_done=value.lower() == "done")
        if key in ("bodyguards", "circuit"):
            try:
                n = int(value)
            except ValueError:
                raise ValueError(f"{key} takes a whole number, not {value!r}") from None
            if n < 0:
                raise ValueError(f"{key} cannot be negative")
            if key == "bodyguards":
                return replace(player, bodyguards=n, renewed=n > 0)
            return replace(player, circuit=n)
        raise ValueError(f"unknown player field {key!r}; monopozombie adds zombie, homeless, "
                         "lap, immunity, bodyguards, homeless_at_apocalypse, circuit")

    def apply_set(self, state: GameState, words: list[str]) -> GameState:
        """Also ``set stage capitalism|outbreak|apocalypse`` (the stage only: no money moves)."""
        if len(words) >= 2 and words[1] == "stage":
            if len(words) != 3 or words[2] not in STAGES:
                raise ValueError(f"set stage takes one of {', '.join(STAGES)}")
            return replace(state, table=replace(table(state), stage=words[2]))
        return super().apply_set(state, words)

    def player_json(self, state: GameState, index: int) -> dict[str, Any]:
        p = zp(state, index)
        group = table(state).group_of(index)
        return {"zombie": p.zombie, "homeless": p.homeless, "lap_done": p.lap_done,
                "bodyguards": p.bodyguards, "homeless_at_apocalypse": p.homeless_at_apocalypse,
                "group": [state.players[m].name for m in group.members] if group else [],
                "apart": p.apart}

    def state_json(self, state: GameState, events: Sequence[Event] = ()) -> dict[str, Any]:
        data = super().state_json(state, events)
        data["stage"] = stage(state)
        return data

    def describe_event(self, state: GameState, event: Event) -> str | None:
        return narration.describe(self, state, event)

    def invariant_problems(self, state: GameState) -> list[str]:
        problems = super().invariant_problems(state)
        if stage(state) == APOCALYPSE and state.money_in_hand:
            problems.append("money in hand during the apocalypse")
        problems += [f"{p.name} is a homeless zombie" for p in state.players
                     if isinstance(p, ZombiePlayer) and p.zombie and p.homeless]
        return problems

    def result_lines(self, state: GameState) -> Any:
        yield f"Stage: {stage(state)}"
        for p in state.players:
            assert isinstance(p, ZombiePlayer)
            role = "zombie" if p.zombie else ("homeless human" if p.homeless else "human")
            yield f"  {p.name}: {role}"
        yield from super().result_lines(state)

    def game_facts(self, state: GameState) -> dict[str, int]:
        """For the simulation report: how the game ended and when each stage began."""
        tab = table(state)
        reason = state.outcome.reason if state.outcome else "unfinished"
        end = state.turn_number
        facts = {"humans_win": int(reason == "humans_win"),
                 "zombies_win": int(reason == "zombies_win"),
                 "capitalism_turns": (tab.outbreak_turn or end) - 1}
        if tab.outbreak_turn:
            facts["outbreak_turns"] = (tab.apocalypse_turn or end) - tab.outbreak_turn
        if tab.apocalypse_turn:
            facts["apocalypse_turns"] = end - tab.apocalypse_turn
        return facts


def _no_bidder(item: Any, seat: int) -> Any:
    """An auction still to run loses a bidder who has just become a zombie (Z-11)."""
    if isinstance(item, Auction) and seat in item.bidders and item.high_bidder != seat:
        return replace(item, bidders=tuple(b for b in item.bidders if b != seat))
    return item


def seat_colours(options: Options) -> tuple[str, ...]:
    """The ``die_colours`` option as a colour name per seat (seat order; () when unset)."""
    text = str(getattr(options, "die_colours", "") or "")
    return tuple(c.strip().lower() for c in text.split(",")) if text.strip() else ()


def _name(state: GameState, seat: int) -> str:
    name = state.players[seat].name
    return f'"{name}"' if " " in name else name


def _seat(state: GameState, name: str) -> int:
    try:
        return state.player_index(name)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from None


def _allocation(state: GameState, word: str) -> tuple[int, tuple[int, ...], str]:
    """``Ann:2,5:forward`` -> (seat, (2, 5), "forward")."""
    parts = word.split(":")
    if len(parts) != 3:
        raise ValueError(f"allocate takes NAME:A,B:forward|back per member, not {word!r}")
    name, dice, direction = parts
    try:
        keep = tuple(int(d) for d in dice.split(","))
    except ValueError:
        raise ValueError(f"the dice kept are numbers, as in Ann:2,5:back, not {dice!r}") from None
    if direction not in DIRECTIONS:
        raise ValueError(f"direction is forward or back, not {direction!r}")
    return _seat(state, name), keep, direction
