"""The process the kill campaign (test_campaign_kill.py) kills with SIGKILL.

``kill_child.py play PATH VARIANT SEED``: start the saved game at PATH (or resume it) through
``companion.session.Session`` and play it with the heuristic bot; right after each
``Session.apply`` returns, print ``ack SEQ LINE`` and flush (the action is acknowledged: the
screen would now show it).

``kill_child.py create FOLDER``: create journals ``game-N.sqlite`` one after another with
``companion.journal.Journal.create``; print ``ack N`` after each one returns.

Both print ``ready`` first (after the imports), so the parent times its kill from there.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.bots import DiceRoller
from companion.games.monopoly.bots import HeuristicBot
from companion.journal import Journal
from companion.session import Session

HEADER = ["variant monopoly", "seed 5", "player Ann", "player Ben"]
SEATS = {
    "monopoly": [("Ann", ""), ("Ben", ""), ("Cai", "")],
    "dungeonopoly": [("Ann", "fighter"), ("Ben", "wizard"), ("Cai", "rogue")],
}


def play(path: Path, variant: str, seed: int) -> int:
    if path.exists():
        session = Session.resume(path)
    else:
        print("ready", flush=True)
        session = Session.new(path, variant, SEATS[variant], seed=seed)
        print("created", flush=True)
    # a fresh stream per resume, so a resumed game goes on differently from the lost tail
    roller = DiceRoller(seed * 7919 + len(session.lines))
    bot = HeuristicBot(seed + len(session.lines))
    print("ready", flush=True)
    rules = session.rules
    while session.state.outcome is None:
        state = session.state
        actions = rules.legal_actions(state, rules.deciders(state))
        action = roller.fill(rules, state, bot.choose(rules, state, actions))
        applied = session.apply(action)
        print(f"ack {applied.seq} {applied.line}", flush=True)
    session.close()
    print("over", flush=True)
    return 0


def create(folder: Path) -> int:
    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        Journal.create(folder / f"game-{n}.sqlite", HEADER).close()
        print(f"ack {n}", flush=True)


def main(argv: list[str]) -> int:
    if argv[0] == "play":
        return play(Path(argv[1]), argv[2], int(argv[3]))
    if argv[0] == "create":
        return create(Path(argv[1]))
    raise SystemExit(f"unknown mode {argv[0]!r}")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
