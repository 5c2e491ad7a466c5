"""The actions the referee lists now (``Dungeonbowl.legal_actions``): every candidate is tried
and only those the rules accept are listed. Pushes, knock-downs and where a ball comes to rest
are the base rules' outcomes: coaches declare them (transcript lines, the kiosk's referee menu);
they are listed only where a block just made them likely."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from companion.core.actions import Action
from companion.core.errors import IllegalActionError
from companion.games.dungeonbowl import board, declare
from companion.games.dungeonbowl.actions import (
    AddModel,
    Answer,
    Block,
    BlockDoor,
    Climb,
    Door,
    Down,
    EndTurn,
    Kickoff,
    Leap,
    OpenChest,
    Passage,
    PlaceTrap,
    Roll,
    RuneJump,
    Score,
    Stand,
    Step,
    StopMove,
    Take,
    Throw,
    Winds,
)
from companion.games.dungeonbowl.roster import team_stem
from companion.games.dungeonbowl.state import BowlState

if TYPE_CHECKING:
    from companion.games.dungeonbowl.rules import Dungeonbowl


def choices(game: Dungeonbowl, state: BowlState) -> list[Action]:
    if state.pending:
        p = state.pending[0]
        if p.kind == "roll":
            return [Roll(p.seat, ())]
        return [Answer(p.seat, a) for a in p.answers]
    if state.phase == "setup":
        return _ok(game, state, list(_setup(state)))
    return _ok(game, state, list(_play(state)))


def _chain_pushes(state: BowlState, target: str, blocker: str) -> list[Action]:
    """A chain push (base rules, B-30): a model standing where the block's target may be
    pushed is pushed on first, so the pushes of every model in the crowd around the target
    are listed too (the coach declares the farthest first)."""
    d = state.dungeon
    seen = {target, blocker}
    frontier = [target]
    out: list[Action] = []
    while frontier:
        here = state.model(frontier.pop())
        if here is None or here.at is None:
            continue
        for q in board.neighbours8(d, here.at):
            other = state.model_at(q)
            if other is None or other.id in seen or other.at is None:
                continue
            seen.add(other.id)
            frontier.append(other.id)
            out += [Step(state.current, other.id, r, "pushed")
                    for r in board.neighbours8(d, other.at)]
    return out


def _ok(game: Dungeonbowl, state: BowlState, candidates: list[Action]) -> list[Action]:
    """The candidates the rules accept. A model set up or brought back is listed on every free
    square of its end zone, and those squares pass the same checks: the first one tried
    stands for the rest (a roster of 12 on 15 squares is one trial a model, not 180)."""
    out = []
    tried: dict[Action, bool] = {}
    for a in candidates:
        alike = replace(a, at=(-1, -1)) if isinstance(a, AddModel) else None
        if alike is not None and alike in tried:
            if tried[alike]:
                out.append(a)
            continue
        try:
            game.apply(state, a)
            legal = True
        except IllegalActionError:
            legal = False
        if alike is not None:
            tried[alike] = legal
        if legal:
            out.append(a)
    return out


def _setup(state: BowlState) -> list[Action]:
    d = state.dungeon
    left = declare.traps_to_place(state)
    if left:
        seat = (state.options.trap_count - left) % len(state.players)
        taken = {t.at for t in state.traps} | set(state.chests)
        return [PlaceTrap(seat, s) for s in d.squares_where(terrain="floor", endzone=0)
                if s not in taken]
    out: list[Action] = []
    for seat, team in enumerate(state.players):
        count = sum(1 for m in state.models if m.team == seat)
        free = [s for s in d.endzone(seat + 1) if state.model_at(s) is None]
        if count >= 11 or not free:
            continue
        if not team.squad:  # the next standard model, on any free square of the end zone
            out += [AddModel(seat, model_id(state, seat, count + 1), q) for q in free]
        out += [AddModel(seat, m.id, q, m.ma, m.st, m.ag, m.college, m.skills)
                for m in team.squad if state.model(m.id) is None for q in free]
    out.append(Kickoff(0))
    return out


def model_id(state: BowlState, seat: int, n: int) -> str:
    """A fresh model name for a team: its first letter (or its seat number) and a number."""
    stem = team_stem([p.name for p in state.players], seat)
    stem = stem if stem.isalpha() else f"{stem}-"
    name = f"{stem}{n}"
    while state.model(name) is not None:
        n += 1
        name = f"{stem}{n}"
    return name


def _play(state: BowlState) -> list[Action]:  # noqa: C901  (one branch per feature)
    s = state.current
    d = state.dungeon
    out: list[Action] = []
    portals = d.portals()
    for m in state.models:
        if m.team != s:
            continue
        if m.status in ("reserves", "ko") and not m.no_return:
            out += [AddModel(s, m.id, q, m.ma, m.st, m.ag, m.college, m.skills)
                    for q in d.endzone(s + 1) if state.model_at(q) is None]
            continue
        if m.status == "passage":
            out += [Passage(s, m.id, q) for q in portals.get(m.portal, ())]
            continue
        if m.status == "in_pit":
            out.append(Climb(s, m.id))
            continue
        if m.status not in ("standing", "prone") or m.at is None:
            continue
        for q in board.neighbours8(d, m.at):
            out.append(Step(s, m.id, q))
            out.append(Step(s, m.id, q, "rush"))
        for ld in d.ladders:
            if m.at in ld.edge:
                out.append(Step(s, m.id, next(q for q in ld.edge if q != m.at), "ladder"))
        if m.status != "standing":
            out.append(Stand(s, m.id))
            continue
        if d.cells[m.at].terrain == "lava":
            out.append(StopMove(s, m.id))
        for door in d.doors:
            out += [Door(s, m.id, door.id, "open"), Door(s, m.id, door.id, "close"),
                    BlockDoor(s, m.id, door.id)]
        if d.cells[m.at].portal:
            out.append(Passage(s, m.id))
        if m.college and d.cells[m.at].rune == m.college:
            out += [RuneJump(s, m.id, q) for q in d.squares_where(rune=m.college)]
            out += [Winds(s, m.id, "prone"), Winds(s, m.id, "rise")]
        if m.has("leap"):
            out += [Leap(s, m.id, (m.at[0] + dx, m.at[1] + dy))
                    for dx in range(-2, 3) for dy in range(-2, 3) if max(abs(dx), abs(dy)) == 2]
        if state.balls_held(m.id):
            out += [Throw(s, m.id, o.at) for o in state.models
                    if o.team == s and o.at is not None and o.id != m.id
                    and o.status == "standing"]
            out.append(Score(s, m.id))
        if state.loose_ball_at(m.at) is not None:
            out.append(Take(s, m.id, "pickup"))
        out += [OpenChest(s, m.id, c) for c in state.chests]
        out += [Block(s, m.id, o.id) for o in state.models
                if o.team != s and o.status == "standing" and o.at is not None
                and board.adjacent(o.at, m.at)]
    for mid in state.blocked:  # after a block: the pushes and knock-downs it may have made
        hit = state.model(mid)
        if hit is None or hit.at is None:
            continue
        out.append(Down(s, hit.id))
        if mid == state.blocked[-1]:
            out += [Step(s, hit.id, q, "pushed") for q in board.neighbours8(d, hit.at)]
            if d.cells[hit.at].portal:
                out.append(Passage(s, hit.id, None, "pushed"))
            out += _chain_pushes(state, hit.id, state.blocked[0])
    for m in state.models:  # a player inside a passage blocked from a portal (DB.26)
        if m.team != s and m.status == "passage":
            for o in state.models:
                if o.team == s and o.at in portals.get(m.portal, ()):
                    out.append(Block(s, o.id, m.id))
    out.append(EndTurn(s))
    return out
