"""The referee's work: what a declared action does to the dungeon, which rolls and questions it
raises, and what each result does when it comes in.

A ``Txn`` is the working copy during one ``apply``: it changes the state, records events and
queues rolls and questions (new ones go before those already waiting, so a consequence is
settled before the next thing). Rule numbers (DB.n) are those of docs/dungeonbowl.md; rulings
B-n are docs/dungeonbowl/rulings.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from companion.core.errors import IllegalActionError
from companion.core.events import Event
from companion.core.game import Outcome
from companion.games.dungeonbowl import board
from companion.games.dungeonbowl.dice import SCATTER, SCATTER_STEP, d3, teleporter_die
from companion.games.dungeonbowl.dungeon import Square
from companion.games.dungeonbowl.state import (
    BALL_KINDS,
    STAYING_TRAPS,
    TRAP_KINDS,
    Ball,
    BowlState,
    Model,
    Pending,
    Trap,
)

ARMOUR_ANSWERS = ("held", "stunned", "ko", "casualty")
TRAP_WORDS = {"pit": "a pit", "spiked_pit": "a spiked pit", "exploding": "an exploding trap",
              "gas": "a gas trap", "teleporter": "a teleporter trap",
              "trampoline": "a trampoline"}


def xy(s: Square | None) -> str:
    return "-" if s is None else f"{s[0]},{s[1]}"


class Txn:
    def __init__(self, state: BowlState) -> None:
        self.s = state
        self.events: list[Event] = []
        self.queue: list[Pending] = []

    def say(self, kind: str, text: str, seat: int | None = None, amount: int = 0) -> None:
        self.events.append(Event(kind, seat, amount, None, None, text))

    def push(self, p: Pending) -> None:
        self.queue.append(p)

    def done(self) -> tuple[BowlState, list[Event]]:
        return replace(self.s, pending=(*self.queue, *self.s.pending)), self.events

    def model(self, model_id: str) -> Model:
        m = self.s.model(model_id)
        assert m is not None, model_id
        return m

    def put(self, m: Model) -> None:
        self.s = self.s.with_model(m)

    def name(self, m: Model) -> str:
        return f"{m.id} ({self.s.players[m.team].name})"


# -- asking --------------------------------------------------------------------------------
def ask_armour(t: Txn, m: Model, why: str, armour: int = 0, injury: int = 0,
               down: bool = True, note: str = "") -> None:
    """The armour roll is the base rules': the owner's coach says how it went (ruling B-1)."""
    mods = []
    if armour:
        mods.append(("armour", armour))
    if injury:
        mods.append(("injury", injury))
    where = t.s.dungeon.cells[m.at].terrain if m.at is not None else ""
    results = ["held: armour holds" + ("" if down else ", no harm"),
               "stunned" + (": KO'd instead on " + where + " (DB.16, DB.19)"
                            if where in ("lava", "water") else ""),
               "ko: off to the dugout", "casualty: off the pitch"]
    if note:
        results.append(note)
    t.push(Pending("ask", m.team, "armour", f"armour roll for {m.id}: {why}", m.id,
                   modifiers=tuple(mods), results=tuple(results), answers=ARMOUR_ANSWERS,
                   data=(("down", "1" if down else "0"),)))


def roll(t: Txn, seat: int, step: str, why: str, model: str = "", dice: tuple[str, ...] = ("d6",),
         target: int = 0, modifiers: tuple[tuple[str, int], ...] = (),
         results: tuple[str, ...] = (), data: tuple[tuple[str, str], ...] = ()) -> None:
    t.push(Pending("roll", seat, step, why, model, dice, target, modifiers, results, (), data))


def ask(t: Txn, seat: int, step: str, why: str, answers: tuple[str, ...], model: str = "",
        results: tuple[str, ...] = (), data: tuple[tuple[str, str], ...] = ()) -> None:
    t.push(Pending("ask", seat, step, why, model, (), 0, (), results, answers, data))


def ag_roll(t: Txn, m: Model, step: str, why: str, mods: list[tuple[str, int]],
            results: tuple[str, str], data: tuple[tuple[str, str], ...] = ()) -> None:
    """An AG roll on a D6: 7 - AG or more after modifiers; water and an iron ball take 1 off
    (DB.18, DB.44)."""
    d = t.s.dungeon
    if m.at is not None and d.cells[m.at].terrain == "water":
        mods.append(("on water", -1))
    if any(b.kind == "iron" for b in t.s.balls_held(m.id)):
        mods.append(("iron ball", -1))
    roll(t, m.team, step, why, m.id, ("d6",), board.agility_target(m.ag), tuple(mods),
         (f"{board.agility_target(m.ag)}+ after modifiers, or a 6: {results[0]}",
          f"less, or a 1: {results[1]}"), data)


# -- what happens to models ----------------------------------------------------------------
def knock_down(t: Txn, m: Model, why: str, armour: int = 0, injury: int = 0,
               note: str = "") -> None:
    if m.status not in ("standing", "prone", "stunned", "in_pit"):
        return
    if m.status == "standing":
        m = replace(m, status="prone")
        t.put(m)
    t.say("down", f"{t.name(m)} is knocked down at {xy(m.at)}: {why}", m.team)
    drop_balls(t, m)
    ask_armour(t, m, why, armour, injury, True, note)


def drop_balls(t: Txn, m: Model) -> None:
    for b in t.s.balls_held(m.id):
        t.s = t.s.with_ball(replace(b, holder="", at=m.at))
        t.say("ball", f"{m.id} drops ball {b.id} at {xy(m.at)}; it bounces", m.team)
        scatter(t, b, m.team, "the dropped ball bounces")


def off_pitch(t: Txn, m: Model, status: str, why: str) -> None:
    at = m.at
    t.put(replace(m, status=status, at=None, portal=""))
    if at is not None:
        for b in t.s.balls_held(m.id):
            t.s = t.s.with_ball(replace(b, holder="", at=at))
            t.say("ball", f"ball {b.id} falls at {xy(at)}; it bounces", m.team)
            scatter(t, b, m.team, "the ball bounces")
    t.say(status, f"{t.name(m)}: {why}", m.team)


def scatter(t: Txn, b: Ball, seat: int, why: str, times: int = 1) -> None:
    roll(t, seat, "scatter", f"scatter ball {b.id}: {why}", "", ("scatter",), 0, (),
         ("the ball moves one square that way; a wall or a pillar keeps it where it is (B-22)",),
         (("ball", b.id), ("times", str(times))))


def teleport(t: Txn, m: Model, why: str) -> None:
    n = len(t.s.dungeon.teleporters())
    if n == 0:
        t.say("note", f"no teleporters in this dungeon: {m.id} stays where it is", m.team)
        return
    die = teleporter_die(n)
    roll(t, m.team, "teleport", f"which teleporter {m.id} goes to ({why})", m.id, (die.name,),
         0, (), (f"1-{n}: that teleporter" + (f"; {n + 1}-{die.faces[-1]}: roll again"
                                               if n < die.faces[-1] else ""),))


# -- entering a square ----------------------------------------------------------------------
def arrive(t: Txn, m: Model, frm: Square | None, to: Square, how: str, fall: int = 0) -> None:
    """``m`` is on ``to`` now; what the square does (DB.12, DB.15, DB.19, DB.30, DB.49)."""
    d = t.s.dungeon
    m = replace(m, at=to)
    t.put(m)
    cell = d.cells[to]
    if cell.terrain == "chasm":
        roll(t, m.team, "chasm", f"{m.id} falls into the chasm at {xy(to)}", m.id, ("d6",), 0, (),
             ("1: rescued to the reserves box (not back this turn)",
              "2-5: lost in space (back unhurt after the game)",
              "6: killed: struck from the roster"), (("from", xy(frm)),))
        return
    if frm is not None and how != "pushed" and d.cells[frm].terrain == "lava":
        ask_armour(t, m, f"moved off lava at {xy(frm)}", t.s.options.lava_armour, down=False)
    elif frm is not None and how == "pushed" and d.cells[frm].terrain == "lava":
        ask_armour(t, m, f"pushed off lava at {xy(frm)}", t.s.options.lava_armour, down=False)
    if cell.terrain == "water" and m.has("titchy"):
        off_pitch(t, m, "ko", "Titchy in the water: KO'd (DB.19)")
        return
    if fall:
        extra = fall - 1
        knock_down(t, m, f"fell {fall} level(s) from a platform (DB.30)", 2 * extra, extra)
    trap = t.s.trap_at(to)
    if trap is not None:
        spring(t, t.model(m.id), trap)


def spring(t: Txn, m: Model, trap: Trap) -> None:
    if not trap.kind:
        if t.s.options.trap_tokens == "virtual":
            rng = random.Random(t.s.seed * 7919 + t.s.draws)
            kind = rng.choice(TRAP_KINDS)
            t.s = replace(t.s, draws=t.s.draws + 1)
            reveal(t, m, trap, kind)
        else:
            ask(t, m.team, "trap", f"{m.id} steps on the trap token at {xy(trap.at)}: turn it "
                "over; what does it show?", TRAP_KINDS, m.id,
                data=(("at", xy(trap.at)),))
        return
    trap_effect(t, m, trap)


def reveal(t: Txn, m: Model, trap: Trap, kind: str) -> None:
    trap = replace(trap, kind=kind)
    t.s = replace(t.s, traps=tuple(trap if x.at == trap.at else x for x in t.s.traps))
    t.say("trap", f"the trap at {xy(trap.at)} is {TRAP_WORDS[kind]}", m.team)
    trap_effect(t, m, trap)


def trap_effect(t: Txn, m: Model, trap: Trap) -> None:
    kind = trap.kind
    if kind not in STAYING_TRAPS:  # one-shot traps go (DB.53, DB.54, ruling B-17)
        t.s = replace(t.s, traps=tuple(replace(x, removed=True) if x.at == trap.at else x
                                       for x in t.s.traps))
    if kind in ("pit", "spiked_pit"):
        spiked = kind == "spiked_pit"
        below = dict(t.s.dungeon.holes).get(trap.at)
        if below is not None and t.s.model_at(below) is None and m.at is not None:
            # a hole in a platform: down to the square below, by the falling rules (DB.52);
            # a spiked one still adds its +3 armour, +1 injury
            levels = board.levels_between(t.s.dungeon, m.at, below)
            t.say("pit", f"{t.name(m)} drops through the hole at {xy(m.at)} to {xy(below)}",
                  m.team)
            m = replace(m, at=below)
            t.put(m)
            knock_down(t, m, f"fell through a {'spiked ' if spiked else ''}hole (DB.52)",
                       2 * (levels - 1) + (3 if spiked else 0), (levels - 1) + (1 if spiked
                                                                                 else 0))
            return
        if below is not None:
            taken = t.s.model_at(below)
            t.say("note", f"the square below the hole, {xy(below)}, is taken"
                  + (f" by {taken.id}" if taken is not None else "")
                  + ": it works as a pit (B-28)", m.team)
        m = replace(m, status="in_pit")
        t.put(m)
        drop_balls(t, m)
        t.say("pit", f"{t.name(m)} falls into the {'spiked ' if spiked else ''}pit at "
              f"{xy(m.at)}", m.team)
        ask_armour(t, m, "fell into a " + ("spiked pit (DB.51)" if spiked else "pit (DB.50)"),
                   3 if spiked else 0, 1 if spiked else 0)
    elif kind == "exploding":
        t.say("trap", f"the trap at {xy(trap.at)} explodes", m.team)
        for other in around(t, trap.at):
            knock_down(t, other, f"the explosion at {xy(trap.at)} (DB.53)")
    elif kind == "gas":
        t.say("trap", f"gas pours out at {xy(trap.at)}", m.team)
        for other in around(t, trap.at):
            if board.strength(t.s, other) >= 5:
                roll(t, other.team, "gas", f"{other.id} (ST {board.strength(t.s, other)}) "
                     "resists the gas?", other.id, ("d6",), 4, (),
                     ("4+: stunned", "1-3: unaffected (ruling B-18)"))
            else:
                stun(t, other, "gassed (DB.54)")
    elif kind == "teleporter":
        teleport(t, m, "a teleporter trap (DB.55)")
    elif kind == "trampoline":
        roll(t, m.team, "trampoline", f"{m.id} bounces off the trampoline at {xy(trap.at)}",
             m.id, ("d6", "scatter"), 0, (),
             ("the D6 halved rounding up (D3, ruling B-19) is how many squares, the scatter "
              "die the direction; a wall stops the leap, a pillar does not; the landing "
              "always fails: knocked down (DB.56)",))


def around(t: Txn, at: Square) -> list[Model]:
    """The models on ``at`` and the eight squares around it, on the pitch."""
    squares = {at, *board.neighbours8(t.s.dungeon, at)}
    return [m for m in t.s.models if m.at in squares and m.status in ("standing", "prone",
                                                                      "stunned", "in_pit")]


def stun(t: Txn, m: Model, why: str) -> None:
    m = t.model(m.id)
    if m.at is not None and t.s.dungeon.cells[m.at].terrain in ("lava", "water"):
        off_pitch(t, m, "ko", f"{why}; stunned on {t.s.dungeon.cells[m.at].terrain}: KO'd "
                  "instead (DB.16, DB.19)")
        return
    t.put(replace(m, status="stunned" if m.status != "in_pit" else "in_pit"))
    drop_balls(t, t.model(m.id))
    t.say("stunned", f"{t.name(m)} is stunned: {why}", m.team)


# -- the results coming in --------------------------------------------------------------------
Resolver = Callable[[Txn, Pending, tuple[int, ...], str], None]


def resolve(state: BowlState, p: Pending, values: tuple[int, ...], answer: str
            ) -> tuple[BowlState, list[Event]]:
    t = Txn(replace(state, pending=state.pending[1:]))
    RESOLVERS[p.step](t, p, values, answer)
    return t.done()


def _armour(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    if answer == "held":
        t.say("armour", f"{m.id}'s armour holds", m.team)
    elif answer == "stunned":
        stun(t, m, "armour broken")
    else:
        off_pitch(t, m, answer, "armour broken: " + ("KO'd" if answer == "ko" else
                                                     "a casualty"))


def _gfi(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    frm, to = _sq(p.get("from")), _sq(p.get("to"))
    left = int(p.get("left", "0"))
    if values[0] == 1:
        # the move ends here: the rest of its Go For It rolls are not made
        t.s = replace(t.s, pending=tuple(x for x in t.s.pending
                                         if not (x.step == "gfi" and x.model == m.id)))
        fall_at = frm if p.get("fall") == "from" else to
        t.say("gfi", f"{m.id} falls going for it (rolled a 1)", m.team)
        if fall_at != m.at:
            arrive(t, m, m.at, fall_at, "fall")
            m = t.model(m.id)
            if m.status != "standing":
                return
        knock_down(t, m, "failed Go For It")
        return
    if left > 0:
        return  # the next roll is already waiting behind this one
    if p.get("then") == "door":
        door_result(t, m, p.get("door"), p.get("verb"))
        return
    arrive(t, m, frm, to, p.get("how"), int(p.get("fall_levels", "0")))


def door_result(t: Txn, m: Model, door_id: str, verb: str) -> None:
    if verb == "close":
        t.s = t.s.with_door(door_id, "closed")
        t.say("door", f"{m.id} closes door {door_id}", m.team)
        return
    if door_id not in t.s.tried:
        t.s = replace(t.s, tried=(*t.s.tried, door_id))
        roll(t, m.team, "lock", f"first try at door {door_id}: is it locked?", m.id, ("d6",), 2,
             (), ("1: locked for good (smash it to open)", "2-6: it opens"), (("door", door_id),))
        return
    t.s = t.s.with_door(door_id, "open")
    t.say("door", f"{m.id} opens door {door_id}", m.team)


def _lock(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    door_id = p.get("door")
    m = t.model(p.model)
    if values[0] == 1:
        t.s = t.s.with_door(door_id, "locked")
        t.put(replace(m, spent=max(0, m.spent - 3)))  # no points spent on a locked door
        t.say("door", f"door {door_id} is locked (rolled 1): only smashing it opens it", m.team)
    else:
        t.s = t.s.with_door(door_id, "open")
        t.say("door", f"{m.id} opens door {door_id}", m.team)


def _chasm(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    v = values[0]
    frm = _sq(p.get("from")) if p.get("from") != "-" else None
    if frm is not None:  # a carried ball stays on the brink (ruling B-6)
        m = replace(m, at=frm)
        t.put(m)
    if v == 1:
        off_pitch(t, m, "reserves", "rescued by magic from the chasm: to the reserves box")
        t.put(replace(t.model(m.id), no_return=True))
    elif v <= 5:
        off_pitch(t, m, "lost", "lost in space in the chasm: back after the game")
    else:
        off_pitch(t, m, "dead", "fell to its death in the chasm")


def _scatter(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    b = next(x for x in t.s.balls if x.id == p.get("ball"))
    times = int(p.get("times", "1"))
    if b.holder or b.gone or b.at is None:
        return
    d = t.s.dungeon
    dx, dy = SCATTER_STEP[values[0]]
    to = (b.at[0] + dx, b.at[1] + dy)
    g = board.grid(t.s)
    stays = to not in d.cells or d.cells[to].terrain in ("wall", "obstacle") or \
        (to in g.solid and d.cells[to].terrain != "obstacle") or (
            b.at in g.cells and b.at not in g.solid and not g.step_open(b.at, to)
            and d.cells[to].terrain != "obstacle")
    if stays:
        t.say("ball", f"ball {b.id} scatters {SCATTER.label(values[0])} into a wall and stays "
              f"at {xy(b.at)}", p.seat)
        return
    frm = b.at
    b = replace(b, at=to)
    t.s = t.s.with_ball(b)
    t.say("ball", f"ball {b.id} scatters {SCATTER.label(values[0])} to {xy(to)}", p.seat)
    cell = d.cells[to]
    trap = t.s.trap_at(to)
    if cell.terrain == "chasm" or (trap is not None and trap.kind in ("pit", "spiked_pit")):
        scatter(t, b, p.seat, "balls never rest in a chasm or a pit (DB.50, B-22)")
        return
    if frm in d.cells and d.cells[frm].height - cell.height >= 2:
        who = t.s.model_at(to)
        if who is not None and b.kind == "iron":
            knock_down(t, who, "an iron ball fell on its head (DB.44)")
        elif who is None:
            t.say("ball", "off the ledge: it bounces three times (DB.30)", p.seat)
            scatter(t, b, p.seat, "bouncing after the fall", 3)
            return
    if times > 1:
        scatter(t, b, p.seat, "bouncing", times - 1)


def _teleport(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    tele = t.s.dungeon.teleporters()
    v = values[0]
    if v not in tele or (t.s.model_at(tele[v]) is not None and tele[v] != m.at):
        t.say("note", f"teleporter {v} " + ("does not exist" if v not in tele else "is taken")
              + ": roll again (B-21)", m.team)
        teleport(t, m, "rolled again")
        return
    t.say("teleport", f"{m.id} teleports to teleporter {v} at {xy(tele[v])}", m.team)
    arrive(t, replace(m, status="standing" if m.status == "in_pit" else m.status), None,
           tele[v], "teleport")


def _trap(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    at = _sq(p.get("at"))
    trap = next(x for x in t.s.traps if x.at == at)
    reveal(t, t.model(p.model), trap, answer)


def _gas(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    if values[0] >= 4:
        stun(t, m, "gassed (DB.54)")
    else:
        t.say("note", f"{m.id} shrugs off the gas", m.team)


def _trampoline(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    squares, (dx, dy) = d3(values[0]), SCATTER_STEP[values[1]]
    d = t.s.dungeon
    g = board.grid(t.s)
    here = m.at
    assert here is not None
    landing = here
    stopped_by = None
    for _ in range(squares):
        nxt = (here[0] + dx, here[1] + dy)
        if nxt not in d.cells or (nxt in g.solid and d.cells[nxt].terrain != "obstacle"):
            break
        if not (g.step_open(here, nxt) or d.cells[nxt].terrain == "obstacle"
                or d.cells[here].terrain == "obstacle"):
            break
        here = nxt
        if t.s.model_at(here) is not None:
            stopped_by = t.s.model_at(here)
            break  # not landed on: down on the last free square before it (B-19)
        if d.cells[here].terrain != "obstacle":
            landing = here
    t.say("leap", f"{m.id} is flung {squares} square(s) {SCATTER.label(values[1])}, "
          f"landing at {xy(landing)}" + (
              f", short of {stopped_by.id} at {xy(stopped_by.at)}: a Player Collision is the "
              "base rules': declare its outcome (B-19, B-30)" if stopped_by is not None else ""),
          m.team)
    if m.has("acrobatics"):
        ag_roll(t, m, "acrobatics", f"{m.id} lands on its feet? (Acrobatics, unmodified)", [],
                ("stays on its feet", "knocked down"), (("to", xy(landing)),))
        t.queue[-1] = replace(t.queue[-1], modifiers=())  # unmodified (DB.56)
        return
    arrive(t, m, m.at, landing, "flung")
    m = t.model(m.id)
    if m.status == "standing":
        knock_down(t, m, "the trampoline's leap always fails (DB.56)")


def _acrobatics(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    to = _sq(p.get("to"))
    ok = values[0] == 6 or (values[0] != 1 and values[0] >= p.target)
    arrive(t, m, m.at, to, "flung")
    m = t.model(m.id)
    if not ok and m.status == "standing":
        knock_down(t, m, "the trampoline's leap always fails (DB.56)")


def passed(p: Pending, value: int) -> bool:
    """A D6 roll against its target after modifiers (a 6 passes, a 1 fails)."""
    if value == 6:
        return True
    if value == 1:
        return False
    return value + p.total_modifier >= p.target


def _winds(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    if not passed(p, values[0]):
        t.say("winds", f"{m.id} fails to release the Winds of Magic; the circle keeps its "
              "spell (B-10)", m.team)
        return
    circle = p.get("circle")
    t.s = replace(t.s, circles_spent=(*t.s.circles_spent, circle))
    effect = p.get("effect")
    t.say("winds", f"{m.id} releases the Winds of Magic from circle {circle}: " +
          ("everyone without Stand Firm goes down" if effect == "prone"
           else "everyone down gets up"), m.team)
    for other in t.s.models:
        if effect == "prone" and other.status == "standing" and not board.stands_firm(t.s, other):
            t.put(replace(other, status="prone"))
            drop_balls(t, t.model(other.id))
        elif effect == "rise" and other.status in ("prone", "stunned"):
            t.put(replace(other, status="standing"))


def _leap(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    to = _sq(p.get("to"))
    ok = p.get("auto_fail") != "1" and passed(p, values[0])
    arrive(t, m, m.at, to, "leap")
    m = t.model(m.id)
    if not ok and m.status == "standing":
        knock_down(t, m, "the leap failed: down in the square it aimed for (B-23)")
    elif ok:
        t.say("leap", f"{m.id} lands the leap at {xy(to)}", m.team)


def _obstacle(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    b = next(x for x in t.s.balls if x.id == p.get("ball"))
    at = _sq(p.get("at"))
    rest = [_sq(s) for s in p.get("rest").split(";") if s]
    if values[0] == 1:
        t.s = t.s.with_ball(replace(b, holder="", at=at))
        t.say("pass", f"ball {b.id} hits the obstacle at {xy(at)}: it scatters from there; "
              "turnover (DB.14)", p.seat)
        scatter(t, t.s.balls[[x.id for x in t.s.balls].index(b.id)], p.seat, "off the obstacle")
        ask(t, p.seat, "turnover", "the pass hit an obstacle: a turnover", ("end_turn",))
        return
    if rest:
        obstacle_roll(t, p.seat, b, rest, _sq(p.get("to")))
        return
    land(t, p.seat, b, _sq(p.get("to")))


def obstacle_roll(t: Txn, seat: int, b: Ball, squares: list[Square], to: Square) -> None:
    roll(t, seat, "obstacle", f"ball {b.id} flies over the obstacle at {xy(squares[0])}",
         "", ("d6",), 2, (), ("1: it hits: the ball stops there, scatters once; turnover",
                              "2-6: it flies on"),
         (("ball", b.id), ("at", xy(squares[0])), ("rest", ";".join(xy(s) for s in squares[1:])),
          ("to", xy(to))))


def land(t: Txn, seat: int, b: Ball, to: Square) -> None:
    t.s = t.s.with_ball(replace(b, holder="", at=to))
    who = t.s.model_at(to)
    t.say("pass", f"ball {b.id} reaches {xy(to)}: the pass and catch rolls are the base "
          "rules'" + (f"; declare '{who.id} take catch' or where the ball ends" if who else
                      "; declare where the ball ends"), seat)


def _turnover(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    end_turn(t)


def _ball_kind(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    v = values[0]
    kind = "normal" if v <= 2 else BALL_KINDS[v - 2]
    b = next(x for x in t.s.balls if x.id == p.get("ball"))
    t.s = t.s.with_ball(replace(b, kind=kind))
    t.say("ball", f"ball {b.id} is a{'n' if kind[0] in 'aeiou' else ''} {kind} ball "
          "(DB.39)", p.seat)


def _chest(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    at = _sq(p.get("at"))
    t.s = replace(t.s, chests=tuple(c for c in t.s.chests if c != at))
    if answer == "explosion":
        t.say("chest", f"the chest at {xy(at)} explodes", m.team)
        for other in around(t, at):
            knock_down(t, other, f"the exploding chest at {xy(at)}")
        return
    n = len(t.s.balls) + 1
    b = Ball(f"b{n}", None, m.id, "" if t.s.options.ball == "rolled" else t.s.options.ball)
    t.s = replace(t.s, balls=(*t.s.balls, b), hidden_balls=t.s.hidden_balls - 1)
    t.say("chest", f"{m.id} finds ball {b.id} in the chest at {xy(at)} and holds it "
          "(ruling B-24)", m.team)
    if not b.kind:
        roll(t, m.team, "ball_kind", f"what kind of ball {b.id} is", m.id, ("d6",), 0, (),
             ("1-2 normal", "3 spiked", "4 enchanted", "5 living", "6 iron"),
             (("ball", b.id),))
    over_hands(t, t.model(m.id))


def over_hands(t: Txn, m: Model) -> None:
    limit = 3 if (m.has("extra_arms") or m.has("tentacles")) else 2
    held = t.s.balls_held(m.id)
    if len(held) > limit:
        b = held[-1]
        t.s = t.s.with_ball(replace(b, holder="", at=m.at))
        t.say("ball", f"{m.id} cannot hold {len(held)} balls (DB.45): ball {b.id} bounces",
              m.team)
        scatter(t, t.s.balls[[x.id for x in t.s.balls].index(b.id)], m.team, "too many balls")


def _spiked(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    if passed(p, values[0]):
        ask_catch(t, m, p.get("ball"), p.get("how"))
        return
    ask_armour(t, m, "cut by the spiked ball (DB.40)", down=False)
    ask_catch(t, m, p.get("ball"), p.get("how"), after_armour=True)


def ask_catch(t: Txn, m: Model, ball_id: str, how: str, after_armour: bool = False) -> None:
    ask(t, m.team, "catch", f"{m.id}'s {'catch' if how != 'intercept' else 'interception'} "
        "roll (base rules): did it hold on?", ("yes", "no"), m.id,
        ("yes: it holds the ball", "no: the ball bounces (declare where it ends)"),
        (("ball", ball_id), ("how", how), ("check", "1" if after_armour else "0")))


def _catch(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    if answer == "no" or m.status != "standing":
        t.say("ball", f"{m.id} does not hold ball {p.get('ball')}", m.team)
        return
    hold(t, m, p.get("ball"), p.get("how"))


def hold(t: Txn, m: Model, ball_id: str, how: str) -> None:
    b = next(x for x in t.s.balls if x.id == ball_id)
    t.s = t.s.with_ball(replace(b, holder=m.id, at=None))
    t.say("ball", f"{m.id} holds ball {b.id} ({how})", m.team)
    over_hands(t, t.model(m.id))
    if not b.kind:  # a ball lying loose from the start is found now (B-13)
        roll(t, m.team, "ball_kind", f"what kind of ball {b.id} is", m.id, ("d6",), 0, (),
             ("1-2 normal", "3 spiked", "4 enchanted", "5 living", "6 iron"),
             (("ball", b.id),))
    if b.kind == "enchanted" and how != "handoff-given":
        roll(t, m.team, "enchanted", f"the enchanted ball {b.id} in {m.id}'s hands", m.id,
             ("d6",), 0, (), ("1: the ball whisks the player to a random teleporter",
                              "2-6: nothing"))


def _enchanted(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    if values[0] == 1:
        teleport(t, t.model(p.model), "the enchanted ball (DB.42)")


def _climb(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    m = t.model(p.model)
    if passed(p, values[0]):
        t.put(replace(m, status="standing"))
        t.say("climb", f"{m.id} climbs out of the pit (B-25)", m.team)
    else:
        t.say("climb", f"{m.id} stays in the pit another turn", m.team)


def _block_pick(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    from companion.games.dungeonbowl.dice import BLOCK
    if p.kind == "roll":
        labels = [BLOCK.label(v) for v in values]
        chooser = p.get("chooser")
        if len(set(labels)) == 1 or chooser == "door":
            pick = labels[0] if chooser != "door" else worst(labels, p)
            block_result(t, p, pick)
            return
        seat = int(p.get("chooser_seat"))
        options = tuple(sorted(set(labels), key=labels.index))
        t.push(Pending("ask", seat, "block_pick", "choose the block result", p.model, (), 0,
                       (), (), tuple(o.replace(" ", "_") for o in options), p.data))
        return
    block_result(t, p, answer.replace("_", " "))


ORDER = ("attacker down", "both down", "pushed", "defender stumbles", "defender down")


def worst(labels: list[str], p: Pending) -> str:
    order = list(ORDER)
    if p.get("block_skill") == "1":
        order = ["attacker down", "pushed", "both down", "defender stumbles", "defender down"]
    return min(labels, key=order.index)


def block_result(t: Txn, p: Pending, pick: str) -> None:
    m = t.model(p.model)
    door_id = p.get("door")
    if not door_id:
        t.s = replace(t.s, blocked=(m.id, p.get("target")))
        t.say("block", f"block result: {pick}; declare the push or knock-down the base rules "
              "give (step ... pushed, down ...)", m.team)
        return
    t.say("block", f"{m.id} blocks door {door_id}: {pick}", m.team)
    if pick in ("defender down", "defender stumbles") or (pick == "both down"):
        t.s = t.s.with_door(door_id, "smashed")
        t.say("door", f"door {door_id} is smashed open for the rest of the game (DB.11)", m.team)
    if pick == "attacker down" or (pick == "both down" and not m.has("block")):
        knock_down(t, m, f"blocking door {door_id}")
    if pick == "pushed":
        t.say("door", "a door is never pushed back: nothing happens", m.team)


def _illusion(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    k = int(p.get("left"))
    m = t.model(p.model)
    v = values[0]
    real = (v <= 6 // k) if k in (2, 3, 6) else None
    if real is None:
        if v > k:
            t.say("note", f"{v} is above {k}: roll again (B-15)", m.team)
            t.push(p)
            return
        real = v == 1
    touchdown(t, m, p.get("ball"), real)


def _living(t: Txn, p: Pending, values: tuple[int, ...], answer: str) -> None:
    b = next(x for x in t.s.balls if x.id == p.get("ball"))
    if b.holder or b.gone or b.at is None:
        return
    d = t.s.dungeon
    g = board.grid(t.s)
    dx, dy = SCATTER_STEP[values[1]]
    here = b.at
    for _ in range(values[0]):
        nxt = (here[0] + dx, here[1] + dy)
        if nxt not in d.cells or not g.step_open(here, nxt):
            break
        cell = d.cells[nxt]
        if (t.s.model_at(nxt) is not None or t.s.trap_at(nxt) is not None
                or cell.terrain in ("lava", "water", "chasm")
                or d.cells[here].height - cell.height >= 2):
            break
        here = nxt
    t.s = t.s.with_ball(replace(b, at=here))
    t.say("ball", f"the living ball {b.id} runs {SCATTER.label(values[1])} to {xy(here)} "
          "(DB.43, B-14)", p.seat)


RESOLVERS: dict[str, Resolver] = {
    "armour": _armour, "gfi": _gfi, "lock": _lock, "chasm": _chasm, "scatter": _scatter,
    "teleport": _teleport, "trap": _trap, "gas": _gas, "trampoline": _trampoline,
    "acrobatics": _acrobatics, "winds": _winds, "leap": _leap, "obstacle": _obstacle,
    "turnover": _turnover, "ball_kind": _ball_kind, "chest": _chest, "spiked": _spiked,
    "catch": _catch, "enchanted": _enchanted, "climb": _climb, "block": _block_pick,
    "block_pick": _block_pick, "illusion": _illusion, "living": _living,
}


# -- touchdowns and turns ---------------------------------------------------------------------
def touchdown(t: Txn, m: Model, ball_id: str, real: bool = True) -> None:
    b = next(x for x in t.s.balls if x.id == ball_id)
    t.s = t.s.with_ball(replace(b, holder="", at=None, gone=True))
    team = t.s.players[m.team]
    opts = t.s.options
    if not real:
        t.say("illusion", f"ball {b.id} was an illusion: it vanishes, no touchdown; turnover "
              "(DB.47)", m.team)
        end_turn(t)
        return
    t.s = replace(t.s, players=tuple(replace(p, score=p.score + 1) if i == m.team else p
                                     for i, p in enumerate(t.s.players)))
    t.say("touchdown", f"touchdown! {m.id} scores for {team.name}", m.team, 1)
    left = sum(1 for x in t.s.balls if not x.gone) + t.s.hidden_balls
    if opts.balls == 1 or opts.multiball in ("first_score", "illusionary") or left == 0:
        finish(t, "touchdown" if opts.balls == 1 or opts.multiball != "standard"
               else "all balls scored")
        return
    t.say("turnover", "the ball vanishes; turnover (DB.46)", m.team)
    end_turn(t)


def finish(t: Txn, reason: str) -> None:
    t.s = replace(t.s, outcome=outcome_of(t.s, reason), pending=())
    t.queue = []
    t.say("game_over", f"the game is over ({reason})")


def outcome_of(state: BowlState, reason: str) -> Outcome:
    sides = sides_of(state)
    scores = [(" + ".join(state.players[i].name for i in side),
               sum(state.players[i].score for i in side)) for side in sides]
    scores.sort(key=lambda s: -s[1])
    winner = scores[0][0] if scores and scores[0][1] > (scores[1][1] if len(scores) > 1 else -1) \
        else None
    if winner is not None and " + " in winner:
        winner = winner.replace(" + ", "+")
    return Outcome(winner, tuple(scores), reason)


def sides_of(state: BowlState) -> list[list[int]]:
    """The sides playing: each team alone, or the agreed alliances (DB.6)."""
    if not state.options.sides:
        return [[i] for i in range(len(state.players))]
    return [[int(x) - 1 for x in side.split("+")] for side in state.options.sides.split(",")]


def allies(state: BowlState, a: int, b: int) -> bool:
    return any(a in side and b in side for side in sides_of(state))


def end_turn(t: Txn) -> None:
    s = t.s
    ending = s.current
    for b in s.balls:
        if b.kind == "living" and not b.holder and not b.gone and b.at is not None \
                and s.model_at(b.at) is None:
            roll(t, ending, "living", f"the living ball {b.id} runs", "", ("d6", "scatter"),
                 0, (), ("the D6 is how far, the scatter die which way; it stops before a "
                         "model, a trap, lava, water or a ledge",), (("ball", b.id),))
    nxt = (ending + 1) % len(s.players)
    models = []
    for m in s.models:
        if m.team == ending:
            m = replace(m, no_return=False)
        if m.team == nxt:
            m = replace(m, spent=0, status="prone" if m.status == "stunned" else m.status)
        models.append(m)
    t.s = replace(s, current=nxt, turn=s.turn + 1, models=tuple(models), blocked=())
    t.say("turn", f"{s.players[ending].name}'s turn ends; {s.players[nxt].name} to play",
          nxt)


def _sq(text: str) -> Square:
    x, _, y = text.partition(",")
    return int(x), int(y)


def refuse(message: str) -> IllegalActionError:
    return IllegalActionError(message)
