"""The heuristic bot's MonopoZombie policy (``MonopoZombie.bot_hint``): where to steer a
zombie (towards humans and human buildings), an apocalypse human (towards a safe home, away
from zombies), a homeless player; when to hire a bodyguard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.games.monopoly.actions import Action, EndTurn, Roll
from companion.games.monopoly.monopozombie.model import (
    Allocate,
    AnswerImmunity,
    ChooseMove,
    FormGroup,
    GroupMove,
    HireBodyguards,
    ImmunityChoice,
    Impasse,
    Steer,
)
from companion.games.monopoly.state import GameState

if TYPE_CHECKING:
    from companion.games.monopoly.monopozombie.layer import MonopoZombie


def _target(rules: MonopoZombie, state: GameState, seat: int, steer: Steer) -> int:
    size = len(rules.board.squares)
    total = sum(steer.keep) if steer.keep else sum(state.pending[0].dice)
    step = total if steer.direction == "forward" else -total
    return (state.players[seat].position + step) % size


def _score(rules: MonopoZombie, state: GameState, seat: int, square: int, steer: Steer) -> float:
    from companion.games.monopoly.monopozombie.layer import zp

    me = zp(state, seat)
    here = rules.on_square(state, square)
    zombies = sum(1 for i in here if zp(state, i).zombie and i != seat)
    sq = rules.board.squares[square]
    s = state.squares[square]
    if me.zombie:
        return _zombie_score(rules, state, seat, square)
    score = 0.0
    if steer.keep == (1, 1):
        score -= 50.0
    if zombies and not rules.shelter(state, square):
        score -= 20.0 * zombies
    if sq.ownable and s.owner is not None and rules.owner_is_zombie(state, square) and not s.level:
        score -= 30.0
    if sq.ownable and s.level and s.owner is not None and not zombies:
        score += 5.0
        if zp(state, s.owner).human:
            score += 5.0 + 3.0 * sum(1 for h in rules.humans(state)
                                     if state.players[h].position == square)
    if len(steer.keep) == 2 and steer.keep[0] == steer.keep[1] and steer.keep != (1, 1):
        score += 1.0
    return score


# the chance that a 2d6 roll moves a piece d squares forward
TWO_D6 = {d: (6 - abs(d - 7)) / 36 for d in range(2, 13)}


# the zombie policy's weights (values measured with benchmarks: docs/monopozombie/overview.md)
CONVERT = 12.0  # per human converted on arrival
BLOCK = 15.0  # standing on the human house where humans gather (their win needs no zombie)
DEMOLISH_NOW = 6.0  # a human house with no human on it: a level falls on arrival
DEMOLISH_NEXT = 8.0  # per house level the next roll can reach (chance-weighted)

# the chance that a 2d4 roll can take a piece d squares away, either way (the way is chosen)
TWO_D4_EITHER = {d: (4 - abs(d - 5)) / 16 for d in range(2, 9)}


def ring(a: int, b: int, size: int = 40) -> int:
    """Squares between a and b the short way round."""
    d = abs(a - b) % size
    return min(d, size - d)


def _zombie_score(rules: MonopoZombie, state: GameState, seat: int, square: int) -> float:
    """Chase and convert: a zombie goes where it converts humans now, else where humans are
    likely to land next (they walk 2d6 forward before the apocalypse) or where it spoils their
    safe homes (human houses: demolished, and a zombie on one blocks the humans' win)."""
    from companion.games.monopoly.monopozombie.layer import stage, zp
    from companion.games.monopoly.monopozombie.model import APOCALYPSE

    humans = [h for h in rules.humans(state) if not state.players[h].in_jail]
    if not rules.humans(state):
        return 100.0 if square == rules.board.jail else -ring(square, rules.board.jail)
    size = len(rules.board.squares)
    here = rules.on_square(state, square)
    zombies_there = 1 + sum(1 for i in here if zp(state, i).zombie and i != seat)
    there = [i for i in here if zp(state, i).human]
    score = 0.0
    sheltered = rules.shelter(state, square)
    if there and not sheltered:
        strength = len(there) + sum(zp(state, i).bodyguards for i in there)
        catch = sum(1 for i in there if rules.convertible(state, i))
        score += CONVERT * catch if zombies_there >= strength else 2.0 * len(there)
    sq = rules.board.squares[square]
    s = state.squares[square]
    human_home = sq.ownable and s.owner is not None and s.level > 0 and \
        not rules.owner_is_zombie(state, square)
    apocalypse = stage(state) == APOCALYPSE
    if human_home:
        # unguarded: a level falls at once; guarded: the zombie blocks the humans' win there
        # and a level falls when they leave
        near = sum(1 for h in humans if ring(state.players[h].position, square, size) <= 12)
        if apocalypse and there:
            score += BLOCK + 2.0 * near  # humans gather there: block their win
        else:
            score += DEMOLISH_NOW + (2.0 * near if apocalypse else 0.0)
    if not sheltered and not apocalypse:
        for h in humans:  # an ambush where humans land next
            if rules.convertible(state, h):
                ahead = (square - state.players[h].position) % size
                score += 8.0 * TWO_D6.get(ahead, 0.0)
    # where the next roll can take it from there (2d4, either way): human houses to knock
    # down, the more levels the better (the zombies' way to win: no safe home left)
    score += DEMOLISH_NEXT * sum(s2.level * TWO_D4_EITHER.get(ring(square, i, size), 0.0)
                       for i, s2 in enumerate(state.squares)
                       if i != square and s2.level and s2.owner is not None
                       and not rules.owner_is_zombie(state, i))
    return score


def bot_hint(rules: MonopoZombie, state: GameState, actions: Sequence[Action]) -> Action | None:
    from companion.games.monopoly.monopozombie.layer import zp

    head = state.pending[0] if state.pending else None
    if isinstance(head, ImmunityChoice):  # always spend the card to stay human
        return next((a for a in actions if isinstance(a, AnswerImmunity) and a.use), None)
    if isinstance(head, ChooseMove):
        steers = [a for a in actions if isinstance(a, Steer) and a.player == head.player]
        if steers:
            return max(steers, key=lambda a: _score(rules, state, head.player,
                                                    _target(rules, state, head.player, a), a))
        return None
    if isinstance(head, GroupMove):
        allocations = [a for a in actions if isinstance(a, Allocate)]
        if not allocations:
            return next((a for a in actions if isinstance(a, Impasse)), None)
        size = len(rules.board.squares)
        pos = state.players[head.player].position

        def value(a: Allocate) -> float:
            _m, keep, direction = a.moves[0]
            target = (pos + (sum(keep) if direction == "forward" else -sum(keep))) % size
            return _score(rules, state, head.player, target, Steer(head.player, keep, direction))

        return max(allocations, key=value)
    if head is not None:
        return None
    cur = state.current
    form = next((a for a in actions if isinstance(a, FormGroup) and a.player == cur), None)
    if form is not None:
        return form
    me = zp(state, cur)
    if me.extra_roll and me.human:
        pos = state.players[cur].position
        if rules.human_win_square(state) is None and any(
                zp(state, z).zombie and ring(state.players[z].position, pos) <= 8
                for z in range(len(state.players))):
            return next((a for a in actions if isinstance(a, Roll) and a.player == cur), None)
        return next((a for a in actions if isinstance(a, EndTurn)), None)
    hire = next((a for a in actions if isinstance(a, HireBodyguards)), None)
    if hire is not None and not state.rolled and me.cash > 600 and not me.bodyguards:
        return hire
    return None
