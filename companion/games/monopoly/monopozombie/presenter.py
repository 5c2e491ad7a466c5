"""What the kiosk shows of MonopoZombie beyond Monopoly: who is human, zombie or homeless (a
coloured badge with an icon on each card), the stage and the humans' progress towards their win
(in the top bar), the squares a roll can reach as menu rows, group moves and bodyguards, and dice
prompts that name the dice (2d4, 3d6, 1d6, 3n d6)."""

from __future__ import annotations

from dataclasses import replace

from companion.core.actions import Action
from companion.core.dice import DicePrompt
from companion.games.monopoly.monopozombie.layer import MonopoZombie, stage, table, zp
from companion.games.monopoly.monopozombie.model import (
    Allocate,
    AnswerImmunity,
    ChooseMove,
    FormGroup,
    GoTo,
    HireBodyguards,
    HomelessRoll,
    Impasse,
    LeaveGroup,
    Steer,
    ZombieReroll,
)
from companion.games.monopoly.presenter import MonopolyPresenter
from companion.games.monopoly.state import GameState
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
                words = f"group of {len(group.members)} moves: {count} (3 per member)"
            elif len(prompt.dice) == 2:
                words = f"{p.name} moves: {count}, keep one"
            else:
                words = f"{p.name} moves: {count}, keep two"
        else:
            return prompt
        return replace(prompt, purpose=words)

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
