"""Bot games as bytes: transcripts, accounts and final JSON of seeded games, to prove a change
of shape changed no behaviour.

    python3 scripts/bot_game_digest.py --out DIR [--seeds 1-200] [--variants monopoly,dungeonopoly]
    python3 scripts/bot_game_digest.py --compare DIR_BEFORE DIR_AFTER

The first form plays one 4-player heuristic game per seed and variant (capped at 300 turns),
writes ``DIR/<variant>-<seed>.txt`` (the transcript, then the account of every step, then the
JSON that replaying the transcript gives) and prints one digest per variant; the last line is
one JSON object holding them. The second form names every file that differs. Run the first
form on the old code (a git worktree) and on the new, then compare.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from companion.bots import DiceRoller
from companion.core.registry import find_game
from companion.games.monopoly.bots import HeuristicBot
from companion.narrate import account
from companion.simulate import bot_steps
from companion.transcript import format_action, header_lines, replay, state_json

MAX_TURNS = 300


def game_text(variant: str, seed: int) -> str:
    rules = find_game(variant)
    roles: list[str] = []
    if variant == "dungeonopoly":
        from companion.games.monopoly.dungeonopoly.abilities import class_names

        names = class_names()
        roles = [names[(seed + i) % len(names)] for i in range(4)]
    players: list[str | tuple[str, str]] = [
        (f"P{i + 1}", roles[i]) if roles else f"P{i + 1}" for i in range(4)]
    state = rules.new_game(players, seed=seed)
    lines = header_lines(rules, state, roles or None)
    told: list[str] = []
    for step in bot_steps(rules, state, HeuristicBot(seed), DiceRoller(seed + 1_000_003)):
        lines.append(format_action(rules, step.before, step.action))
        told.extend(account(rules, step.after, step.events))
        if step.after.turn_number > MAX_TURNS:
            break
    transcript = "\n".join(lines) + "\n"
    final = replay(transcript).state
    data = state_json(rules, final)
    return (transcript + "---\n" + "\n".join(told) + "\n---\n"
            + json.dumps(data, sort_keys=True, indent=1) + "\n")


def _seeds(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--seeds", default="1-200")
    parser.add_argument("--variants", default="monopoly,dungeonopoly")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        before, after = args.compare
        names = sorted({p.name for p in before.glob("*.txt")} | {p.name for p in after.glob("*.txt")})
        differ = [n for n in names if not (before / n).exists() or not (after / n).exists()
                  or (before / n).read_bytes() != (after / n).read_bytes()]
        for name in differ:
            print(f"differs: {name}")
        print(json.dumps({"files": len(names), "differ": len(differ)}))
        return 1 if differ else 0
    if args.out is None:
        parser.error("give --out DIR or --compare BEFORE AFTER")
    args.out.mkdir(parents=True, exist_ok=True)
    digests: dict[str, str] = {}
    for variant in args.variants.split(","):
        h = hashlib.sha256()
        for seed in _seeds(args.seeds):
            text = game_text(variant, seed)
            (args.out / f"{variant}-{seed}.txt").write_text(text)
            h.update(text.encode())
        digests[variant] = h.hexdigest()
        print(f"{variant}: {len(_seeds(args.seeds))} games, sha256 {digests[variant]}")
    print(json.dumps(digests))
    return 0


if __name__ == "__main__":
    sys.exit(main())
