"""What each declared action does: checks (``IllegalActionError`` with what to do instead, the
state untouched) and the dungeon's consequences through ``referee``."""

from __future__ import annotations

from dataclasses import replace

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.games.dungeonbowl import board, referee
from companion.games.dungeonbowl.actions import (
    AddModel,
    Block,
    BlockDoor,
    Climb,
    Door,
    Down,
    EndTurn,
    Kickoff,
    Leap,
    MoveBall,
    OpenChest,
    Passage,
    PlaceTrap,
    RuneJump,
    Score,
    Stand,
    Step,
    StopMove,
    Take,
    Throw,
    Winds,
)
from companion.games.dungeonbowl.dungeon import Square, level
from companion.games.dungeonbowl.referee import Txn, ask_armour, roll, xy
from companion.games.dungeonbowl.roster import RosterModel
from companion.games.dungeonbowl.state import ON_PITCH, BowlState, Model, Trap

Result = tuple[BowlState, list[Event]]
MOVES = ("walk", "rush", "ladder", "pushed")


def bad(message: str) -> IllegalActionError:
    return IllegalActionError(message)


def own_model(state: BowlState, seat: int, model_id: str, standing: bool = True) -> Model:
    m = state.model(model_id)
    if m is None:
        ids = ", ".join(x.id for x in state.models if x.team == seat) or "none yet"
        raise bad(f"no model called {model_id!r} (your models: {ids})")
    if m.team != seat:
        raise bad(f"{m.id} is {state.players[m.team].name}'s model, not yours")
    if standing and m.status != "standing":
        raise bad(f"{m.id} is {m.status.replace('_', ' ')}, not standing: it cannot do that")
    return m


def any_model(state: BowlState, model_id: str) -> Model:
    m = state.model(model_id)
    if m is None:
        raise bad(f"no model called {model_id!r}")
    return m


# -- setup ---------------------------------------------------------------------------------
def place_trap(state: BowlState, a: PlaceTrap) -> Result:
    placed = len(state.traps) - len(state.dungeon.traps)
    if not state.options.traps or placed >= state.options.trap_count:
        raise bad("no trap tokens are left to place")
    if a.player != placed % len(state.players):
        raise bad(f"it is {state.players[placed % len(state.players)].name}'s turn to place a "
                  "trap token")
    d = state.dungeon
    if a.at not in d.cells or d.cells[a.at].terrain != "floor" or d.cells[a.at].endzone:
        raise bad(f"{xy(a.at)} is not a floor square outside the end zones: a trap lies there")
    if any(t.at == a.at for t in state.traps) or a.at in state.chests:
        raise bad(f"{xy(a.at)} already holds a trap or a chest")
    t = Txn(replace(state, traps=(*state.traps, Trap(a.at))))
    t.say("trap", f"{state.players[a.player].name} lays a face-down trap token at {xy(a.at)}",
          a.player)
    return t.done()


def traps_to_place(state: BowlState) -> int:
    if not state.options.traps:
        return 0
    return max(0, state.options.trap_count - (len(state.traps) - len(state.dungeon.traps)))


def add_model(state: BowlState, a: AddModel) -> Result:
    d = state.dungeon
    old = state.model(a.model)
    if old is not None and (old.team != a.player or old.status not in ("reserves", "ko")):
        raise bad(f"there is already a model called {old.id}: give each model its own name")
    if old is not None and old.no_return:
        raise bad(f"{old.id} was rescued from a chasm this turn and may not come back yet "
                  "(DB.12)")
    if state.phase == "play" and old is None:
        raise bad("new models are declared before kick-off; a model comes back from the "
                  "reserves box by its name")
    if a.at not in d.endzone(a.player + 1):
        raise bad(f"{xy(a.at)} is not in {state.players[a.player].name}'s end zone "
                  f"(team {a.player + 1}'s squares)")
    if state.model_at(a.at) is not None:
        raise bad(f"{xy(a.at)} is taken by {state.model_at(a.at).id}")  # type: ignore[union-attr]
    if not 1 <= a.st <= 9 or not 1 <= a.ag <= 9 or not 1 <= a.ma <= 12:
        raise bad("characteristics: MA 1-12, ST 1-9, AG 1-9")
    team = state.players[a.player]
    listed = team.on_roster(a.model)
    if old is None and team.squad:
        if listed is None:
            left = [m.id for m in team.squad if state.model(m.id) is None]
            raise bad(f"{a.model} is not on the roster of {team.name} ({team.roster}): field "
                      f"one of {', '.join(left) or 'its models (all are declared)'}")
        given = RosterModel(listed.id, a.ma, a.st, a.ag, a.college, tuple(sorted(a.skills)))
        if given != replace(listed, skills=tuple(sorted(listed.skills))):
            raise bad(f"{listed.id} is on the roster of {team.name} as {listed.words()}: declare "
                      "it so, or leave its characteristics out")
    t = Txn(state)
    if old is not None:
        t.put(replace(old, status="standing", at=a.at, spent=old.ma))
        t.say("model", f"{old.id} comes back on at {xy(a.at)}", a.player)
    else:
        m = Model(listed.id if listed else a.model, a.player, a.at, "standing", a.ma, a.st,
                  a.ag, a.college, a.skills)
        t.s = replace(state, models=(*state.models, m))
        t.say("model", f"{state.players[a.player].name} sets up {a.model} at {xy(a.at)}",
              a.player)
    return t.done()


def kickoff(state: BowlState, a: Kickoff) -> Result:
    if traps_to_place(state):
        raise bad(f"{traps_to_place(state)} trap token(s) still to place")
    missing = [p.name for i, p in enumerate(state.players)
               if not any(m.team == i for m in state.models)]
    if missing:
        raise bad(f"every team sets up a model first: {', '.join(missing)} has none")
    t = Txn(replace(state, phase="play", current=0))
    t.say("kickoff", f"kick-off: {state.players[0].name} plays first", 0)
    return t.done()


# -- movement ------------------------------------------------------------------------------
def step_plan(state: BowlState, m: Model, to: Square,  # noqa: C901  (one check per feature)
              how: str) -> tuple[int, int, int, str]:
    """(movement points, Go For It rolls, levels fallen, where a failed rush falls) of a
    step, or IllegalActionError saying why it cannot be made."""
    d = state.dungeon
    frm = m.at
    if how not in MOVES:
        raise bad(f"a step is walk, rush, ladder or pushed, not {how!r}")
    if frm is None:
        raise bad(f"{m.id} is not on the pitch")
    if to not in d.cells:
        raise bad(f"{xy(to)} is not a square of this dungeon")
    cell = d.cells[to]
    if how == "ladder":
        ladder = d.ladder_between(frm, to)
        if ladder is None:
            raise bad(f"no ladder joins {xy(frm)} and {xy(to)}")
        return ladder.rungs + 1, 0, 0, ""
    if not board.adjacent(frm, to):
        raise bad(f"{xy(to)} is not next to {m.id} at {xy(frm)}: one square at a time")
    if cell.terrain == "wall":
        raise bad(f"{xy(to)} is a wall: {m.id} cannot walk through walls")
    if cell.terrain == "obstacle":
        raise bad(f"{xy(to)} holds an obstacle: no one may enter it (DB.13)")
    g = board.grid(state)
    if not g.step_open(frm, to):
        door = d.door_at(to) or d.door_between(frm, to)
        if door is not None:
            raise bad(f"door {door.id} is {state.door_state(door.id)}: open it (3 points) or "
                      "smash it first")
        raise bad(f"a wall stands between {xy(frm)} and {xy(to)}: {m.id} cannot walk through "
                  "walls")
    door = d.door_at(to) or d.door_between(frm, to)
    if door is not None and m.has("big_guy") and not door.large:
        raise bad(f"{m.id} is a big guy: it does not fit through doorway {door.id}, only a "
                  "large gate (DB.9)")
    other = state.model_at(to)
    dh = cell.height - d.cells[frm].height
    if other is not None:  # B-30: chain pushes and Player Collisions are declared, not applied
        if dh <= -2:
            raise bad(f"{xy(to)} is taken by {other.id}: a fall onto a model is a Player "
                      "Collision of the base rules: settle it and declare where each ends "
                      f"(e.g. 'step {other.id} X,Y pushed', 'down {other.id}'), then the fall")
        raise bad(f"{xy(to)} is taken by {other.id}" + (
            f": a chain push moves {other.id} on first: declare 'step {other.id} X,Y pushed', "
            f"then this push" if how == "pushed" else ""))
    water = d.cells[frm].terrain == "water" and cell.terrain != "water"
    if dh >= 2:
        if how == "pushed":
            raise bad(f"{xy(to)} is {dh} steps up: no one is pushed up a wall")
        raise bad(f"{xy(to)} is {dh} steps up: climb by the steps or a ladder (DB.34, DB.35)")
    if dh <= -2:  # a fall off the platform (DB.30)
        if how == "rush":
            raise bad("that is a drop, not a step: walk off it (a fall) or leap")
        return (0 if how == "pushed" else 1), 0, board.levels_between(d, frm, to), ""
    steps = abs(dh) + (1 if water and dh >= 0 else 0)
    if how == "pushed":
        return 0, 0, 0, ""
    if how == "rush":
        if steps == 0:
            raise bad(f"nothing to rush between {xy(frm)} and {xy(to)}: it is not a step")
        if any(b.kind == "iron" for b in state.balls_held(m.id)):
            raise bad(f"{m.id} carries the iron ball: it cannot Go For It (DB.44)")
        return steps, steps, 0, "from" if dh > 0 or water else "to"
    return (2 * steps if steps else 1), 0, 0, ""


def step(state: BowlState, a: Step) -> Result:
    m = (any_model(state, a.model) if a.how == "pushed"
         else own_model(state, a.player, a.model, standing=False))
    rise = 0
    if a.how != "pushed":
        if m.status == "prone":
            rise = 3  # standing up first: the base rules' 3 points (ruling B-26)
        elif m.status != "standing":
            raise bad(f"{m.id} is {m.status.replace('_', ' ')}: it cannot move")
    if a.how == "pushed" and m.status not in ON_PITCH:
        raise bad(f"{m.id} is not on the pitch")
    if m.status == "passage":
        raise bad(f"{m.id} is in the secret passage: leave it by a portal")
    if a.how == "pushed" and m.status == "in_pit":
        raise bad(f"{m.id} is in a pit: it is not pushed out")
    cost, rush_rolls, fall, fall_at = step_plan(state, m, a.to, a.how)
    cost += rise
    t = Txn(state)
    if rise:
        t.put(replace(m, status="standing"))
        m = t.model(m.id)
        t.say("stand", f"{m.id} stands up (3 points)", m.team)
    gfi = 0
    if a.how != "pushed":
        gfi = over_ma(state, m, cost)
        t.put(replace(m, spent=m.spent + cost))
        m = t.model(m.id)
    rolls = rush_rolls + gfi
    frm = m.at
    t.say("move", f"{m.id} {'is pushed' if a.how == 'pushed' else 'moves'} "
          f"{'by ladder ' if a.how == 'ladder' else ''}from {xy(frm)} to {xy(a.to)}"
          + (f" ({cost} points)" if cost > 1 else ""), m.team)
    if rolls:
        for i in range(rolls):
            roll(t, m.team, "gfi", f"Go For It for {m.id} ({xy(frm)} to {xy(a.to)})", m.id,
                 ("d6",), 2, (), ("2-6: on it goes", "1: falls over" +
                                  (" where it stood" if fall_at == "from" else "")),
                 (("from", xy(frm)), ("to", xy(a.to)), ("how", a.how),
                  ("fall", fall_at or "to"), ("left", str(rolls - 1 - i)),
                  ("fall_levels", str(fall))))
        return t.done()
    referee.arrive(t, m, frm, a.to, a.how, fall)
    return t.done()


def over_ma(state: BowlState, m: Model, cost: int, allow_gfi: bool = True) -> int:
    """The Go For It rolls a cost of ``cost`` points needs beyond MA (up to two)."""
    after = m.spent + cost
    iron = any(b.kind == "iron" for b in state.balls_held(m.id))
    limit = m.ma if (iron or not allow_gfi) else m.ma + 2
    if after > limit:
        left = max(0, limit - m.spent)
        raise bad(f"{m.id} has {left} movement point(s) left" +
                  (" (the iron ball: no Go For It, DB.44)" if iron and after <= m.ma + 2
                   else "") + f"; that needs {cost}")
    return max(0, after - m.ma) - max(0, m.spent - m.ma)


def stand(state: BowlState, a: Stand) -> Result:
    m = own_model(state, a.player, a.model, standing=False)
    if m.status != "prone":
        raise bad(f"{m.id} is {m.status.replace('_', ' ')}, not lying prone")
    over_ma(state, m, 3)
    t = Txn(state)
    t.put(replace(m, status="standing", spent=m.spent + 3))
    t.say("stand", f"{m.id} stands up (3 points)", m.team)
    return t.done()


def stop_move(state: BowlState, a: StopMove) -> Result:
    m = own_model(state, a.player, a.model)
    t = Txn(state)
    t.put(replace(m, spent=max(m.spent, m.ma)))
    t.say("stop", f"{m.id} ends its move at {xy(m.at)}", m.team)
    if m.at is not None and state.dungeon.cells[m.at].terrain == "lava":
        ask_armour(t, t.model(m.id), f"ended its move on lava at {xy(m.at)}",
                   state.options.lava_armour, down=False)
    return t.done()


# -- doors ---------------------------------------------------------------------------------
def beside_door(state: BowlState, m: Model, door_id: str) -> str:
    d = state.dungeon
    door = d.door(door_id)
    if door is None:
        names = ", ".join(x.id for x in d.doors) or "none"
        raise bad(f"there is no door {door_id!r} in this dungeon (doors: {names})")
    assert m.at is not None
    near = (board.adjacent(m.at, door.at) if door.at is not None
            else m.at in (door.edge or ()))
    if not near:
        raise bad(f"{m.id} at {xy(m.at)} is not beside door {door.id} "
                  f"({'-'.join(xy(s) for s in door.squares())})")
    return door.id


def door(state: BowlState, a: Door) -> Result:
    m = own_model(state, a.player, a.model)
    door_id = beside_door(state, m, a.door)
    now = state.door_state(door_id)
    if a.verb not in ("open", "close"):
        raise bad(f"a door is opened or closed, not {a.verb!r}")
    if a.verb == "open" and now != "closed":
        raise bad(f"door {door_id} is {now}" + (": block it to smash it open (DB.11)"
                                                if now == "locked" else ""))
    if a.verb == "close":
        if now != "open":
            raise bad(f"door {door_id} is {now}: only an open door closes" +
                      (" (a smashed door stays open, B-4)" if now == "smashed" else ""))
        dd = state.dungeon.door(door_id)
        assert dd is not None
        if dd.at is not None and state.model_at(dd.at) is not None:
            raise bad(f"someone stands in doorway {door_id}")
    gfi = over_ma(state, m, 3, state.options.door_gfi)
    t = Txn(state)
    t.put(replace(m, spent=m.spent + 3))
    m = t.model(m.id)
    if gfi:
        for i in range(gfi):
            roll(t, m.team, "gfi", f"Go For It for {m.id} at door {door_id}", m.id, ("d6",), 2,
                 (), ("2-6: on it goes", "1: falls over"),
                 (("from", xy(m.at)), ("to", xy(m.at)), ("then", "door"), ("door", door_id),
                  ("verb", a.verb), ("left", str(gfi - 1 - i))))
        return t.done()
    referee.door_result(t, m, door_id, a.verb)
    return t.done()


def block_dice(att: int, dfn: int) -> tuple[int, str]:
    """How many block dice and who picks (DB.11 and the base game's strength table)."""
    if att > 2 * dfn:
        return 3, "attacker"
    if att > dfn:
        return 2, "attacker"
    if att == dfn:
        return 1, "attacker"
    if dfn > 2 * att:
        return 3, "defender"
    return 2, "defender"


def block_door(state: BowlState, a: BlockDoor) -> Result:
    m = own_model(state, a.player, a.model)
    door_id = beside_door(state, m, a.door)
    now = state.door_state(door_id)
    if now not in ("closed", "locked"):
        raise bad(f"door {door_id} is {now}: there is nothing to smash")
    if a.assists < 0:
        raise bad("assists are 0 or more")
    dd = state.dungeon.door(door_id)
    assert dd is not None
    att = board.strength(state, m) + a.assists
    n, chooser = block_dice(att, dd.strength)
    t = Txn(state)
    roll(t, m.team, "block", f"{m.id} (ST {att}) blocks door {door_id} (ST {dd.strength})",
         m.id, ("block",) * n, 0, (),
         ("defender down or stumbles: smashed open for good",
          "both down: smashed; the blocker goes down too (unless Block)",
          "pushed: nothing (a door never moves)", "attacker down: the blocker goes down"),
         (("door", door_id), ("chooser", "attacker" if chooser == "attacker" else "door"),
          ("chooser_seat", str(m.team)), ("block_skill", "1" if m.has("block") else "0")))
    return t.done()


# -- blocks between models -----------------------------------------------------------------
def block(state: BowlState, a: Block) -> Result:
    m = own_model(state, a.player, a.model, standing=False)
    target = any_model(state, a.target)
    d = state.dungeon
    if m.status not in ("standing", "passage"):
        raise bad(f"{m.id} is {m.status}: only a standing player blocks")
    if target.status not in ("standing", "passage"):
        raise bad(f"{target.id} is {target.status}: only a standing player is blocked")
    if a.assists < 0 or a.defence < 0:
        raise bad("assists are 0 or more")
    portals = d.portals()
    if m.status == "passage" or target.status == "passage":
        inside, outside = (m, target) if m.status == "passage" else (target, m)
        pair = portals.get(inside.portal, ())
        if outside.status == "passage" or outside.at not in pair:
            raise bad("through a secret passage, a block is only between the player inside and "
                      "one standing on one of its portals (DB.26)")
        if a.assists:
            raise bad("no offensive assists in a block into or out of the secret passage "
                      "(DB.26)")
        if target.status == "passage" and a.defence:
            raise bad("the player inside the passage gets no defensive assists (DB.26)")
    else:
        assert m.at is not None and target.at is not None
        if not board.adjacent(m.at, target.at) or not board.grid(state).step_open(m.at,
                                                                                 target.at):
            raise bad(f"{target.id} is not next to {m.id} (with no wall between)")
        if not board.same_tier(d, m.at, target.at):
            raise bad(f"{m.id} and {target.id} are on different levels: only passing crosses "
                      "levels (DB.29)")
    att = board.strength(state, m) + a.assists
    dfn = board.strength(state, target) + a.defence
    n, chooser = block_dice(att, dfn)
    t = Txn(state)
    note = []
    if board.on_own_rune(state, m):
        note.append(f"{m.id} +1 ST on its rune")
    if board.on_own_rune(state, target):
        note.append(f"{target.id} +1 ST and Stand Firm on its rune (DB.20)")
    roll(t, m.team, "block", f"{m.id} (ST {att}) blocks {target.id} (ST {dfn})"
         + (": " + "; ".join(note) if note else ""), m.id, ("block",) * n, 0, (),
         (f"{n} dice, {'the attacker' if chooser == 'attacker' else 'the defender'} picks",),
         (("target", target.id), ("chooser", "attacker"),
          ("chooser_seat", str(m.team if chooser == "attacker" else target.team))))
    return t.done()


def down(state: BowlState, a: Down) -> Result:
    m = any_model(state, a.model)
    if m.status != "standing":
        raise bad(f"{m.id} is {m.status}: only a standing model is knocked down")
    note = ""
    if a.by:
        by = any_model(state, a.by)
        if any(b.kind == "spiked" for b in state.balls_held(by.id)) and by.team != m.team:
            note = "the spiked ball: +1 on the armour or the injury roll, the blocker's choice " \
                   "(DB.41)"
    t = Txn(state)
    referee.knock_down(t, m, "knocked down" + (f" by {a.by}" if a.by else ""), note=note)
    return t.done()


# -- passages and runes --------------------------------------------------------------------
def passage(state: BowlState, a: Passage) -> Result:
    how = a.how
    if how not in ("walk", "pushed"):
        raise bad("into or out of the passage: walk or pushed")
    d = state.dungeon
    portals = d.portals()
    m = any_model(state, a.model)
    if m.team != a.player and how != "pushed":
        raise bad(f"{m.id} is not your model")
    t = Txn(state)
    if a.to is None:  # into the passage
        if m.status != "standing" or m.at is None or not d.cells[m.at].portal:
            raise bad(f"{m.id} does not stand on a portal square: the passage opens only there")
        pid = d.cells[m.at].portal
        if any(x.status == "passage" and x.portal == pid for x in state.models):
            raise bad(f"the passage {pid} holds a player already (B-11)")
        if how != "pushed":
            over_ma(state, m, 1)
        t.put(replace(m, status="passage", portal=pid, at=None,
                      spent=m.spent + (0 if how == "pushed" else 1)))
        for b in state.balls_held(m.id):
            t.say("ball", f"{m.id} carries ball {b.id} into the passage", m.team)
        t.say("passage", f"{m.id} {'is pushed' if how == 'pushed' else 'steps'} into secret "
              f"passage {pid}", m.team)
        return t.done()
    if m.status != "passage":
        raise bad(f"{m.id} is not in a secret passage")
    pair = portals[m.portal]
    if a.to not in pair:
        raise bad(f"passage {m.portal} comes out at {xy(pair[0])} or {xy(pair[1])}, not "
                  f"{xy(a.to)}")
    if state.model_at(a.to) is not None:
        raise bad(f"the portal square {xy(a.to)} is taken")
    if how != "pushed":
        over_ma(state, m, 2)
    t.put(replace(m, status="standing", portal="", spent=m.spent + (0 if how == "pushed" else 2)))
    t.say("passage", f"{m.id} comes out of passage {m.portal} at {xy(a.to)}", m.team)
    referee.arrive(t, t.model(m.id), None, a.to, how)
    return t.done()


def rune_jump(state: BowlState, a: RuneJump) -> Result:
    m = own_model(state, a.player, a.model)
    d = state.dungeon
    if not board.on_own_rune(state, m):
        raise bad(f"{m.id} does not stand on a rune of its own college" +
                  ("" if m.college else " (it has no college)"))
    if a.to == m.at or a.to not in d.cells or d.cells[a.to].rune != m.college:
        raise bad(f"{xy(a.to)} bears no other {m.college} rune")
    if state.model_at(a.to) is not None:
        raise bad(f"{xy(a.to)} is taken")
    over_ma(state, m, 1)
    t = Txn(state)
    t.put(replace(m, spent=m.spent + 1))
    t.say("rune", f"{m.id} teleports from rune to rune: {xy(m.at)} to {xy(a.to)} (DB.21)",
          m.team)
    referee.arrive(t, t.model(m.id), None, a.to, "rune")
    return t.done()


def winds(state: BowlState, a: Winds) -> Result:
    m = own_model(state, a.player, a.model)
    if a.effect not in ("prone", "rise"):
        raise bad("Winds of Magic: choose prone (all without Stand Firm go down) or rise (all "
                  "down get up)")
    if not board.on_own_rune(state, m):
        raise bad(f"{m.id} must stand on a rune of its own college (B-10)")
    assert m.at is not None
    circle = state.dungeon.circle_of(m.at)
    if circle in state.circles_spent:
        raise bad(f"circle {circle} has released its spell this game already (DB.23)")
    t = Txn(state)
    referee.ag_roll(t, m, "winds", f"{m.id} releases the Winds of Magic ({a.effect})", [],
                    ("the spell goes off; the circle is spent", "nothing; the circle keeps it"),
                    (("circle", circle), ("effect", a.effect)))
    return t.done()


# -- leaps, passes, the ball ---------------------------------------------------------------
def leap(state: BowlState, a: Leap) -> Result:
    m = own_model(state, a.player, a.model)
    d = state.dungeon
    if not m.has("leap"):
        raise bad(f"{m.id} has no Leap skill")
    assert m.at is not None
    dist = max(abs(a.to[0] - m.at[0]), abs(a.to[1] - m.at[1]))
    if not 2 <= dist <= 3 or a.to not in d.cells:
        raise bad("a leap lands 2 or 3 squares away, on a square of the dungeon")
    cell = d.cells[a.to]
    if cell.terrain in ("wall", "obstacle") or a.to in board.grid(state).solid:
        raise bad(f"{xy(a.to)} cannot be landed on")
    if state.model_at(a.to) is not None:
        raise bad(f"{xy(a.to)} is taken")
    heights = [d.cells[s].height if s in d.cells else 0 for s in board.line(m.at, a.to)]
    ups = downs = 0
    drop = 0
    for h0, h1 in zip(heights, heights[1:], strict=False):
        if h1 - h0 >= 2:
            raise bad("a leap cannot go up a platform's wall")
        if h0 - h1 >= 2:
            drop = max(drop, level(h0) - level(h1) or 1)
        elif h1 > h0:
            ups += 1
        elif h1 < h0:
            downs += 1
    if ups > 1:
        raise bad("a leap may go up only one level of steps (DB.32)")
    mods: list[tuple[str, int]] = []
    extra = max(0, ups + downs - 1)
    if extra:
        mods.append((f"{extra} more step(s) down", -extra))
    cost = dist
    auto_fail = "0"
    if drop:
        mods.append(("leaping down a floor", -1))
        cost += 1
        if drop > 1:
            auto_fail = "1"
    over_ma(state, m, cost)
    t = Txn(state)
    t.put(replace(m, spent=m.spent + cost))
    referee.ag_roll(t, t.model(m.id), "leap", f"{m.id} leaps to {xy(a.to)} (plus the base "
                    "rules' leap modifiers)" + (": more than one level down, it fails (DB.37)"
                                                if auto_fail == "1" else ""), mods,
                    ("lands on its feet", "down in the square it aimed for"),
                    (("to", xy(a.to)), ("auto_fail", auto_fail)))
    return t.done()


def throw(state: BowlState, a: Throw) -> Result:
    m = own_model(state, a.player, a.model)
    d = state.dungeon
    held = state.balls_held(m.id)
    if not held:
        raise bad(f"{m.id} holds no ball")
    b = held[0]
    if b.kind == "iron":
        raise bad("an iron ball cannot be thrown (DB.44)")
    assert m.at is not None
    if a.to not in d.cells or a.to == m.at:
        raise bad(f"{xy(a.to)} is not a square to throw to")
    if not board.grid(state).in_sight(m.at, a.to):  # obstacles do not block it (DB.13)
        raise bad(f"{xy(a.to)} is out of sight from {xy(m.at)} (B-7)")
    mods = []
    hf, ht = d.cells[m.at].height, d.cells[a.to].height
    if ht - hf >= 2:
        mods.append(("passing up a level", -1))
    elif hf - ht >= 2:
        mods.append(("passing down a level", 1))
    if b.kind == "spiked":
        mods.append(("spiked ball: one range band longer", 0))
    if d.cells[m.at].terrain == "water":
        mods.append(("on water", -1))
    t = Txn(state)
    t.s = t.s.with_ball(replace(b, holder="", at=m.at))
    t.say("pass", f"{m.id} throws ball {b.id} towards {xy(a.to)}; passing roll modifiers: "
          + (", ".join(f"{w} {v:+d}" for w, v in mods) if mods else "none from the dungeon")
          + " (DB.31)", m.team)
    obstacles = [s for s in board.line(m.at, a.to)[1:-1] if d.cells[s].terrain == "obstacle"]
    ball = t.s.balls[[x.id for x in t.s.balls].index(b.id)]
    if obstacles:
        referee.obstacle_roll(t, m.team, ball, obstacles, a.to)
    else:
        referee.land(t, m.team, ball, a.to)
    return t.done()


def take(state: BowlState, a: Take) -> Result:
    m = any_model(state, a.model)
    if m.status != "standing" or m.at is None:
        raise bad(f"{m.id} is not standing on the pitch")
    if a.how not in ("pickup", "catch", "intercept", "handoff"):
        raise bad("take pickup, catch, intercept or handoff")
    d = state.dungeon
    if a.how == "handoff":
        giver = any_model(state, a.thrower)
        held = state.balls_held(giver.id)
        if not held or giver.at is None:
            raise bad(f"{giver.id} holds no ball to hand off")
        if not board.adjacent(giver.at, m.at) or not board.same_tier(d, giver.at, m.at):
            raise bad(f"{giver.id} and {m.id} are not side by side on one level (DB.29)")
        ball = held[0]
    else:
        found = state.loose_ball_at(m.at)
        if found is None:
            raise bad(f"no loose ball on {m.id}'s square {xy(m.at)}")
        ball = found
    if ball.kind == "iron" and m.st <= 1:
        raise bad(f"{m.id} (ST 1) cannot pick up the iron ball (DB.44)")
    t = Txn(state)
    if a.how == "handoff":
        t.s = t.s.with_ball(replace(ball, holder="", at=m.at))
    if ball.kind == "enchanted":
        t.say("note", "the enchanted ball: +1 to that pick-up or catch (DB.42)", m.team)
    if ball.kind == "spiked" and a.how in ("catch", "intercept"):
        thrower = state.model(a.thrower) if a.thrower else None
        mod = [("thrown by a team-mate", 1)] if thrower is not None and thrower.team == m.team \
            else [("thrown by an opponent", -1)] if thrower is not None else []
        referee.ag_roll(t, m, "spiked", f"{m.id} faces the spiked ball (DB.40)", mod,
                        ("it may try the catch", "an armour roll, then it may try the catch"),
                        (("ball", ball.id), ("how", a.how)))
        return t.done()
    referee.hold(t, m, ball.id, a.how)
    return t.done()


def move_ball(state: BowlState, a: MoveBall) -> Result:
    b = next((x for x in state.balls if x.id.lower() == a.ball.lower() and not x.gone), None)
    if b is None:
        raise bad(f"no ball {a.ball!r} in play (balls: "
                  f"{', '.join(x.id for x in state.balls if not x.gone) or 'none found yet'})")
    d = state.dungeon
    if a.to not in d.cells or d.cells[a.to].terrain in ("wall", "obstacle", "chasm"):
        raise bad(f"a ball cannot rest on {xy(a.to)}")
    t = Txn(state)
    t.s = t.s.with_ball(replace(b, holder="", at=a.to))
    t.say("ball", f"ball {b.id} comes to rest at {xy(a.to)}", a.player)
    return t.done()


def open_chest(state: BowlState, a: OpenChest) -> Result:
    m = own_model(state, a.player, a.model)
    if a.at not in state.chests:
        raise bad(f"there is no unopened chest at {xy(a.at)}")
    assert m.at is not None
    if m.at != a.at and not board.adjacent(m.at, a.at):
        raise bad(f"{m.id} is not beside the chest at {xy(a.at)}")
    t = Txn(state)
    chests_left = len(state.chests)
    answers: tuple[str, ...]
    if state.hidden_balls <= 0:
        answers = ("explosion",)
    elif state.hidden_balls >= chests_left:
        answers = ("ball",)
    else:
        answers = ("ball", "explosion")
    referee.ask(t, m.team, "chest", f"{m.id} opens the chest at {xy(a.at)}: what is in it?",
                answers, m.id, ("ball: the opener holds it", "explosion: everyone around is "
                                "knocked down"), (("at", xy(a.at)),))
    return t.done()


def climb(state: BowlState, a: Climb) -> Result:
    m = own_model(state, a.player, a.model, standing=False)
    if m.status != "in_pit":
        raise bad(f"{m.id} is not in a pit")
    if m.spent:
        raise bad("climbing out takes the model's whole movement (DB.50): it has moved")
    assert m.at is not None
    friends = [x for x in state.models if x.team == m.team and x.status == "standing"
               and x.at is not None and board.adjacent(x.at, m.at)]
    if not 0 <= a.helpers <= len(friends):
        raise bad(f"{len(friends)} team-mate(s) stand next to the pit; helpers 0-{len(friends)} "
                  "(those not in an opponent's tackle zone)")
    t = Txn(state)
    t.put(replace(m, spent=m.ma))
    referee.ag_roll(t, t.model(m.id), "climb", f"{m.id} climbs out of the pit",
                    [("helpers", a.helpers)] if a.helpers else [],
                    ("out, standing on the pit's edge", "stays in the pit"))
    return t.done()


def score(state: BowlState, a: Score) -> Result:
    m = own_model(state, a.player, a.model)
    held = state.balls_held(m.id)
    if not held:
        raise bad(f"{m.id} holds no ball")
    assert m.at is not None
    zone = state.dungeon.cells[m.at].endzone
    if not zone or zone - 1 == m.team or zone - 1 >= len(state.players) or \
            referee.allies(state, zone - 1, m.team):
        raise bad(f"{m.id} is not in an opponent's end zone")
    t = Txn(state)
    b = held[0]
    if state.options.balls > 1 and state.options.multiball == "illusionary":
        left = sum(1 for x in state.balls if not x.gone) + state.hidden_balls
        if left > 1:
            referee.roll(t, m.team, "illusion", f"is ball {b.id} the real one? ({left} balls "
                         "left)", m.id, ("d6",), 0, (),
                         (_illusion_words(left),), (("ball", b.id), ("left", str(left))))
            return t.done()
    referee.touchdown(t, m, b.id)
    return t.done()


def _illusion_words(k: int) -> str:
    if k in (2, 3, 6):
        return f"1-{6 // k}: the real ball, a touchdown; otherwise an illusion (B-15)"
    return f"1: the real ball; 2-{k}: an illusion; above {k}: roll again (B-15)"


def end_turn(state: BowlState, a: EndTurn) -> Result:
    t = Txn(state)
    referee.end_turn(t)
    return t.done()
