"""The ``companion`` command: ``companion --help`` lists the subcommands."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.core.game import Game
from companion.paths import asset
from companion.transcript import DEFAULT_VARIANT

EXAMPLE_TRANSCRIPT = asset("transcripts", "example-monopoly.txt")

# subcommands other packages provide: module path -> function adding them to the parser
PLUGIN_MODULES = ("vision.dice.cli", "vision.board.cli", "hardware.cli", "companion.journal",
                  "companion.kiosk.cli")


def cmd_script(args: argparse.Namespace) -> int:
    from companion.transcript import TranscriptError, replay, state_json

    path = Path(args.file)
    try:
        text = sys.stdin.read() if args.file == "-" else path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"companion script: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        result = replay(text)
    except TranscriptError as exc:
        print(f"companion script: {path}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(state_json(result.rules, result.state, result.events), indent=2))
    else:
        for event in result.events:
            print(result.rules.describe(result.state, event))
        print()
        print_standings(result.rules, result.state)
    return 0


def print_standings(game: Game, state: Any) -> None:
    """The game's standings (final or so far), as ``companion script`` ends."""
    for line in game.result_lines(state):
        print(line)


def cmd_play(args: argparse.Namespace) -> int:
    """The main job: the kiosk (``--demo``: fed by the synthetic table, bots at the buttons;
    headless PNG frames when there is no display). ``--replay FILE`` prints a transcript's
    turn-by-turn account instead."""
    from companion.kiosk.cli import replay_account, run_play

    if args.replay:
        path = Path(args.replay)
        code = replay_account(path)
        if code == 0:
            from companion.transcript import replay

            result = replay(path.read_text(encoding="utf-8"))
            print()
            print_standings(result.rules, result.state)
        return code
    return run_play(args)


def cmd_simulate(args: argparse.Namespace) -> int:
    from companion.core.registry import find_game
    from companion.simulate import InvariantError, simulate

    classes = [c for c in (args.classes or "").split(",") if c]
    try:
        game = find_game(args.variant)
        options = dict(parse_option_word(game, text) for text in args.option or ())
        summary = simulate(args.variant, args.players, args.games, args.seed, args.bot, classes,
                           args.max_turns, progress=not args.no_progress and args.games >= 20,
                           options=options, check=args.check)
    except (KeyError, ValueError) as exc:
        print(f"companion simulate: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    except InvariantError as exc:
        print(f"companion simulate --check: {exc}", file=sys.stderr)
        return 1
    turns = sorted(summary.turns)
    median_turns = turns[len(turns) // 2] if turns else 0
    report = {
        "variant": args.variant,
        "options": options,
        "games": summary.games,
        "finished_by_bankruptcy": summary.finished,
        "hit_turn_cap": summary.games - summary.finished,
        "median_turns": median_turns,
        "wins": dict(summary.wins.most_common()),
        "win_rate": {k: round(v / summary.games, 3) for k, v in summary.wins.most_common()},
        "games_per_minute": round(summary.games_per_minute, 1),
        "endings": dict(summary.endings.most_common()),
    }
    if summary.facts:
        report["game_facts"] = summary.fact_means()
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{summary.games} games of {args.variant}, {args.players} players, {args.bot} bots, "
          f"seed {args.seed}")
    print(f"  ended by the rules: {summary.finished}; stopped at {args.max_turns} turns: "
          f"{summary.games - summary.finished}; median turns {median_turns}")
    label = "class" if classes else "seat"
    for key, wins in summary.wins.most_common():
        print(f"  {label} {key:<10} won {wins:>5} ({100 * wins / summary.games:.1f}%)")
    if summary.endings:
        print("  endings: " + ", ".join(f"{k} {v} ({100 * v / summary.games:.1f}%)"
                                        for k, v in summary.endings.most_common()))
    if summary.facts:
        print("  per game (mean): " + ", ".join(f"{k} {v}"
                                               for k, v in summary.fact_means().items()))
    print(f"  {summary.games_per_minute:.0f} games per minute on one core")
    return 0


def parse_option_word(game: Game, text: str) -> tuple[str, Any]:
    """A command line's ``NAME=VALUE`` word as a typed option of ``game``; ValueError saying
    what is wrong."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise ValueError(f"--option takes NAME=VALUE, not {text!r}")
    return game.parse_option(name.strip(), value.strip())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Referee and banker for Monopoly and Dungeonopoly at a real table.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="run the table companion (--demo: the kiosk on a "
                          "synthetic table; --replay FILE: a transcript's account)")
    from companion.kiosk.cli import add_play_arguments

    add_play_arguments(play)
    play.set_defaults(func=cmd_play)

    script = sub.add_parser("script", help="replay a game transcript and print the result")
    script.add_argument("file", help="transcript file ('-' for standard input)")
    script.add_argument("--json", action="store_true", help="print the final state as JSON")
    script.set_defaults(func=cmd_script)

    sim = sub.add_parser("simulate", help="play whole games between bots with seeded dice")
    sim.add_argument("--variant", default=DEFAULT_VARIANT)
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--bot", default="heuristic",
                     help="a bot the game offers: random, and its own (Monopoly: heuristic)")
    sim.add_argument("--classes", help="comma-separated character classes, dealt round the seats")
    sim.add_argument("--max-turns", type=int, default=1000)
    sim.add_argument("--option", action="append", metavar="NAME=VALUE",
                     help="a table option (repeatable), e.g. --option quicker_game=true")
    sim.add_argument("--json", action="store_true")
    sim.add_argument("--no-progress", action="store_true")
    sim.add_argument("--check", action="store_true",
                     help="check the game's invariants (money conserved, house stock ...) after "
                          "every step and replay every game's transcript: for anyone changing "
                          "the rules; exit 1 naming the first step that breaks one")
    sim.set_defaults(func=cmd_simulate)

    for module_name in PLUGIN_MODULES:
        module = importlib.import_module(module_name)
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    result = args.func(args)
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
