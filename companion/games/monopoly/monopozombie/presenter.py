"""What the kiosk shows of MonopoZombie beyond Monopoly: who is human, zombie or homeless (a
coloured badge with an icon on each card), the stage and the humans' progress towards their win
(in the top bar), the squares a roll can reach as menu rows, group moves and bodyguards, and dice
prompts that name the dice (2d4, 3d6, 1d6, 3n d6).

A move chosen after the roll tells the kiosk every square the piece may go to
(``piece_choices``), and each menu row that moves a piece names its square (``Option.places``):
the pawn check accepts the piece on any of them and the row where the camera sees it is
pre-selected. A group's pooled dice are shared out with an editor of small menus: for each
member, the first die, the second die, then the direction (the last member's direction row
moves the group); "everyone to one square" and an impasse per member are rows beside it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.games.monopoly.monopozombie.layer import (
    MonopoZombie,
    seat_colours,
    stage,
    table,
    zp,
)
from companion.games.monopoly.monopozombie.model import (
    DIRECTIONS,
    Allocate,
    AnswerImmunity,
    ChooseMove,
    FormGroup,
    GoTo,
    GroupMove,
    HireBodyguards,
    HomelessRoll,
    Impasse,
    LeaveGroup,
    Steer,
    ZombieReroll,
    keep_options,
)
from companion.games.monopoly.presenter import MonopolyPresenter, short_name
from companion.games.monopoly.state import GameState
from companion.kiosk.inputs import Menu, Option, Pad
from companion.kiosk.presenter import HeaderFacts
from companion.kiosk.views import PlayerCard

ZOMBIE = (120, 200, 80)  # green
HUMAN = (90, 160, 235)  # blue
HOMELESS = (230, 170, 60)  # amber
STAGE_TITLES = {"capitalism": "Capitalism", "outbreak": "Outbreak", "apocalypse": "Apocalypse"}


class ZombiePresenter(MonopolyPresenter):
    description = "Monopoly overrun by zombies: capitalism, outbreak, apocalypse"

    def __init__(self, game: MonopoZombie) -> None:
        super().__init__(game)
        self.zrules = game

    # -- labels ----------------------------------------------------------------------------
    def _target(self, state: GameState, seat: int, keep: tuple[int, ...], direction: str) -> int:
        total = sum(keep)
        size = len(self.rules.board.squares)
        pos = state.players[seat].position
        return (pos + (total if direction == "forward" else -total)) % size

    def variant_label(self, state: GameState, a: Action) -> str | None:
        who = self.who
        if isinstance(a, Steer):
            head = state.pending[0] if state.pending else None
            keep = a.keep or (head.dice if isinstance(head, ChooseMove) else ())
            target = self._target(state, a.player, keep, a.direction)
            way = "ahead" if a.direction == "forward" else "back"
            dice = "+".join(map(str, keep))
            return f"{self.target_name(target)} ({dice} {way})"
        if isinstance(a, GoTo):
            return f"Go to {self.square_name(a.square)}"
        if isinstance(a, Allocate):
            seat, keep, direction = a.moves[0]
            target = self._target(state, seat, keep, direction)
            parts = ", ".join(f"{who(state, m)} {'+'.join(map(str, k))}" for m, k, _d in a.moves)
            return f"All to {self.target_name(target)} ({parts})"
        if isinstance(a, Impasse):
            return f"{who(state, a.player)}: impasse (each uses own dice)"
        if isinstance(a, FormGroup):
            return "Travel with " + " and ".join(who(state, i) for i in a.others)
        if isinstance(a, LeaveGroup):
            return f"{who(state, a.player)} leaves the group"
        if isinstance(a, AnswerImmunity):
            return ("Use the immunity card: stay human" if a.use
                    else "Keep the card: become a zombie")
        if isinstance(a, HireBodyguards):
            price = int(getattr(state.options, "bodyguard_price", 100))
            return f"Hire {a.count} bodyguard{'s' if a.count > 1 else ''} (${price * a.count})"
        return None

    # -- moves chosen after the roll: the pawn check and the menu --------------------------
    def piece_choices(self, state: GameState) -> Mapping[int, tuple[int, ...]]:
        """Every square a zombie's, an apocalypse human's or homeless player's roll can take
        their piece to (either way); for a group, every square each member can reach with
        any two of the pooled dice, either way."""
        head = state.pending[0] if state.pending else None
        if isinstance(head, ChooseMove):
            return {head.player: tuple(sorted(self.zrules.reachable(state, head)))}
        if isinstance(head, GroupMove):
            totals = {sum(k) for k in keep_options(head.dice, 2)}
            return {m: tuple(sorted({self._step(state, m, t, d) for t in totals
                                     for d in DIRECTIONS}))
                    for m in head.members}
        return {}

    def _step(self, state: GameState, seat: int, total: int, direction: str) -> int:
        size = len(self.rules.board.squares)
        return (state.players[seat].position + (total if direction == "forward" else -total)) \
            % size

    def menu(self, state: GameState, actions: Sequence[Action] | None = None,
             referee: Sequence[tuple[str, str]] = ()) -> Menu:
        root = super().menu(state, actions, referee)
        head = state.pending[0] if state.pending else None
        for o in root.options:
            if isinstance(o.action, Steer):
                keep = o.action.keep or (head.dice if isinstance(head, ChooseMove) else ())
                o.places = (self._target(state, o.action.player, keep, o.action.direction),)
        if isinstance(head, GroupMove):
            root.options = self.group_rows_for(state, head, root.options)
        return root

    def group_rows_for(self, state: GameState, head: GroupMove,
                       options: list[Option]) -> list[Option]:
        """A group's roll: the editor first, then "everyone to one square", the impasses,
        then whatever else the menu had (the referee ...)."""
        together = [o for o in options if isinstance(o.action, Allocate)]
        impasses = [o for o in options if isinstance(o.action, Impasse)]
        rest = [o for o in options if o not in together and o not in impasses]
        for o in together:
            assert isinstance(o.action, Allocate)
            seat, keep, direction = o.action.moves[0]
            o.places = (self._target(state, seat, keep, direction),)
            o.seat = seat
        rows = [Option("Share out the dice: each member picks two dice and a way",
                       open=lambda: self.pick_first(state, head, 0, self._pool(head), ()),
                       seat=head.player)]
        if together:
            rows.append(Option(f"Everyone to one square ({len(together)} ways)",
                               open=lambda: Menu("Everyone to one square", together),
                               seat=head.player))
        return rows + impasses + rest

    # -- the allocation editor -------------------------------------------------------------
    @staticmethod
    def _pool(head: GroupMove) -> tuple[tuple[int, int], ...]:
        """The pooled dice as (value, the seat that rolled it)."""
        return tuple((v, head.members[k // 3]) for k, v in enumerate(head.dice))

    def _editor_title(self, state: GameState, head: GroupMove, seat: int, pool: Sequence[
            tuple[int, int]], chosen: Sequence[tuple[int, tuple[int, ...], str]], ask: str) -> str:
        done = "; ".join(f"{self.who(state, m)} {'+'.join(map(str, k))} "
                         f"{'ahead' if d == 'forward' else 'back'}" for m, k, d in chosen)
        left = " ".join(str(v) for v in sorted((v for v, _s in pool), reverse=True))
        return f"{self.who(state, seat)}: {ask} (left {left})" + (f" [{done}]" if done
                                                                   else "")

    def pick_first(self, state: GameState, head: GroupMove, k: int,
                   pool: tuple[tuple[int, int], ...],
                   chosen: tuple[tuple[int, tuple[int, ...], str], ...]) -> Pad:
        """Member ``k``'s first die: one row per value left in the pool."""
        seat = head.members[k]
        values = sorted({v for v, _s in pool}, reverse=True)
        rows = []
        for v in values:
            rollers = sorted({s for w, s in pool if w == v})
            others = _without(pool, v, seat)
            reach = tuple(sorted({self._step(state, seat, v + w, d) for w, _s in others
                                  for d in DIRECTIONS}))
            by = ", ".join(self.who(state, s) for s in rollers)
            rows.append(Option(f"{v}  (rolled by {by})", seat=seat, places=reach,
                               open=_opener(self.pick_second, state, head, k, others, chosen,
                                            v)))
        return Menu(self._editor_title(state, head, seat, pool, chosen, "first die"), rows)

    def pick_second(self, state: GameState, head: GroupMove, k: int,
                    pool: tuple[tuple[int, int], ...],
                    chosen: tuple[tuple[int, tuple[int, ...], str], ...], first: int) -> Pad:
        seat = head.members[k]
        rows = []
        for v in sorted({w for w, _s in pool}, reverse=True):
            total = first + v
            ways = (self._step(state, seat, total, "forward"),
                    self._step(state, seat, total, "back"))
            rest = _without(pool, v, seat)
            rows.append(Option(f"{first}+{v} = {total}: {self.short(ways[0])} / back "
                               f"{self.short(ways[1])}", seat=seat, places=ways,
                               open=_opener(self.pick_way, state, head, k, rest, chosen,
                                            (max(first, v), min(first, v)))))
        return Menu(self._editor_title(state, head, seat, pool, chosen,
                                       f"die to go with the {first}"), rows)

    def pick_way(self, state: GameState, head: GroupMove, k: int,
                 pool: tuple[tuple[int, int], ...],
                 chosen: tuple[tuple[int, tuple[int, ...], str], ...],
                 pair: tuple[int, ...]) -> Pad:
        seat = head.members[k]
        rows = []
        for direction in DIRECTIONS:
            target = self._step(state, seat, sum(pair), direction)
            way = "ahead" if direction == "forward" else "back"
            moves = (*chosen, (seat, pair, direction))
            label = f"{sum(pair)} {way} to {self.target_name(target)}"
            if k + 1 < len(head.members):
                rows.append(Option(label, seat=seat, places=(target,),
                                   open=_opener(self.pick_first, state, head, k + 1, pool,
                                                moves)))
            else:
                rows.append(Option(f"{label}: move the group", seat=seat, places=(target,),
                                   action=Allocate(head.player, moves)))
        return Menu(self._editor_title(state, head, seat, pool, chosen,
                                       f"which way with {'+'.join(map(str, pair))}"), rows)

    def short(self, index: int) -> str:
        """A square's name cut short for a menu row ("Illinois", "Jail")."""
        if index == self.rules.board.jail:
            return "Jail"
        return short_name(self.square_name(index))

    def target_name(self, index: int) -> str:
        return "Jail / Just Visiting" if index == self.rules.board.jail else self.square_name(index)

    # -- dice ------------------------------------------------------------------------------
    def dice_prompt(self, state: GameState) -> DicePrompt | None:
        """The dice named for the screen: "Bob (zombie) moves: 2d4" ..."""
        prompt = super().dice_prompt(state)
        if prompt is None:
            return None
        seat = prompt.player
        p = zp(state, seat)
        count = self.rules.describe_dice(tuple(len(d.faces) for d in prompt.dice))
        head = state.pending[0] if state.pending else None
        if isinstance(head, HomelessRoll):
            keep = ", keep one, either way" if len(prompt.dice) == 2 else ", clockwise"
            words = f"{p.name} (homeless) moves on: {count}{keep}"
        elif isinstance(head, ZombieReroll):
            stands = f"; the {head.kept[0]} stands" if head.kept else ""
            words = f"{p.name} (zombie) rolls every 5 or 6 again: {count}{stands}"
        elif head is not None:
            return prompt
        elif p.zombie:
            words = f"{p.name} (zombie) moves: {count}, then pick the square"
        elif stage(state) == "apocalypse":
            group = table(state).group_of(seat)
            if group is not None and len(prompt.dice) > 3:
                return self.group_prompt(state, prompt, group.members, count)
            elif len(prompt.dice) == 2:
                words = f"{p.name} moves: {count}, keep one"
            else:
                words = f"{p.name} moves: {count}, keep two"
        else:
            return prompt
        return replace(prompt, purpose=words)

    def group_prompt(self, state: GameState, prompt: DicePrompt, members: Sequence[int],
                     count: str) -> DicePrompt:
        """A group's pooled roll: three dice per member. With a colour per seat
        (``die_colours``) the camera's dice are put in member order by colour; without, the
        screen says the order to enter them in (Z-23)."""
        colours = seat_colours(state.options)
        if len(colours) > max(members):
            mine = [colours[m] for m in members]
            if len(set(mine)) == len(mine):
                who = ", ".join(f"{self.who(state, m)} {c}" for m, c in zip(members, mine,
                                                                           strict=True))
                return replace(prompt, purpose=f"group moves: {count}, 3 each ({who})",
                               colours=tuple(c for c in mine for _ in range(3)))
        order = ", then ".join(f"{self.who(state, m)}'s 3" for m in members)
        return replace(prompt, purpose=f"group moves: {count}; enter {order}")

    # -- the screen ------------------------------------------------------------------------
    def header(self, state: GameState) -> HeaderFacts:
        facts = super().header(state)
        pot = state.pot if state.options.free_parking_pot else None
        return replace(facts, bank=self.stage_line(state), pot=pot)

    def stage_line(self, state: GameState) -> str:
        """"Apocalypse: 2 of 3 humans on Park Place" (the humans' win condition)."""
        now = stage(state)
        title = STAGE_TITLES.get(now, now)
        humans = self.zrules.humans(state)
        zombies = len(state.players) - len(humans)
        if now != "apocalypse":
            return f"{title}: {zombies} zombie{'s' if zombies != 1 else ''}, " \
                   f"{len(humans)} human{'s' if len(humans) != 1 else ''}"
        if not humans:
            return f"{title}: all zombies; first to Jail wins"
        best, count = self.best_home(state, humans)
        if best is None:
            return f"{title}: {len(humans)} humans, no safe home yet"
        return f"{title}: {count} of {len(humans)} humans on {self.square_name(best)}"

    def best_home(self, state: GameState, humans: list[int]) -> tuple[int | None, int]:
        """The improved human-owned lot holding the most humans (no zombie on it)."""
        best: int | None = None
        count = 0
        for i, s in enumerate(state.squares):
            if not s.level or s.owner is None or zp(state, s.owner).zombie:
                continue
            here = self.zrules.on_square(state, i)
            if any(zp(state, j).zombie for j in here):
                continue
            n = sum(1 for j in humans if j in here)
            if best is None or n > count:
                best, count = i, n
        return best, count

    def variant_card(self, state: GameState, seat: int, card: PlayerCard) -> PlayerCard:
        p = zp(state, seat)
        extras = []
        if p.zombie:
            badge, icon, colour = "Zombie", "Z", ZOMBIE
        elif p.homeless:
            badge, icon, colour = "Homeless", "h", HOMELESS
        else:
            badge, icon, colour = "Human", "H", HUMAN
        if p.human and not p.lap_done:
            extras.append("immune (first lap)")
        if p.bodyguards:
            extras.append(f"{p.bodyguards} bodyguard{'s' if p.bodyguards > 1 else ''}")
        group = table(state).group_of(seat)
        if group is not None:
            others = [state.players[m].name for m in group.members if m != seat]
            extras.append(f"group with {', '.join(others)} ({group.turns}/3)")
        if p.apart:
            extras.append(f"{p.apart} turns alone")
        if p.homeless:
            extras.append("moves when pushed on")
        card = replace(card, badge=badge, badge_icon=icon, badge_colour=colour,
                       extras=tuple(extras))
        if p.jail_cards and p.lap_done:
            card = replace(card, jail_cards=0,
                           extras=(f"{len(p.jail_cards)} immunity card", *extras))
        if stage(state) == "apocalypse":
            card = replace(card, cash=None)
        return card

    def lot_marks(self, state: GameState, index: int) -> tuple[str, ...]:
        s = state.squares[index]
        if s.owner is not None and zp(state, s.owner).zombie:
            return ("infection ground",) if not s.level else ("zombie house",)
        return ()


def _without(pool: tuple[tuple[int, int], ...], value: int, seat: int
             ) -> tuple[tuple[int, int], ...]:
    """The pool less one die of ``value`` (the member's own first, when they rolled one)."""
    at = next((i for i, (v, s) in enumerate(pool) if v == value and s == seat),
              next(i for i, (v, _s) in enumerate(pool) if v == value))
    return pool[:at] + pool[at + 1:]


def _opener(make: Callable[..., Pad], *args: object) -> Callable[[], Pad]:
    def open_() -> Pad:
        return make(*args)
    return open_
