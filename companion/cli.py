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
from companion.words import plural

EXAMPLE_TRANSCRIPT = asset("transcripts", "example-monopoly.txt")

# subcommands other packages provide: module path -> function adding them to the parser
PLUGIN_MODULES = ("vision.dice.cli", "vision.board.cli", "hardware.cli", "companion.journal",
                  "companion.kiosk.cli")


def cmd_script(args: argparse.Namespace) -> int:
    from companion.transcript import TranscriptError, read_text, replay, state_json

    path = Path(args.file)
    try:
        text = sys.stdin.read() if args.file == "-" else read_text(path)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
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
        if args.players is None:
            args.players = default_players(game, options)
        if not classes:  # a game whose players pick roles: the demo's (fighter, wizard ...)
            classes = demo_roles(game, args.players)
            if classes and not args.json:
                print(f"{plural(role_word(game))}: {', '.join(classes)} (the demo's; --classes "
                      "to choose)")
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
    plot = plot_path(args)
    if plot is not None:
        from companion.win_plot import plot_win_rates

        label = role_word(game) if classes else "seat"
        plot = plot_win_rates(plot, summary.wins, summary.games,
                              f"{args.variant}: {args.players} {args.bot} bots, seed {args.seed}",
                              even=1 / (len(set(classes)) if classes else args.players),
                              label=label)
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
        "plot": str(plot) if plot is not None else None,
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
    label = role_word(game) if classes else "seat"
    for key, wins in summary.wins.most_common():
        print(f"  {label} {key:<10} won {wins:>5} ({100 * wins / summary.games:.1f}%)")
    if summary.endings:
        print("  endings: " + ", ".join(f"{k} {v} ({100 * v / summary.games:.1f}%)"
                                        for k, v in summary.endings.most_common()))
    if summary.facts:
        print("  per game (mean): " + ", ".join(f"{k} {v}"
                                               for k, v in summary.fact_means().items()))
    print(f"  {summary.games_per_minute:.0f} games per minute on one core")
    if plot is not None:
        print(f"  win rates with 95% confidence intervals: {plot}")
    return 0


def plot_path(args: argparse.Namespace) -> Path | None:
    """Where ``simulate`` draws its win-rate plot (None: ``--no-plot``)."""
    if args.no_plot:
        return None
    if args.plot is not None:
        return Path(args.plot)
    return Path("out") / "simulate" / (f"{args.variant}-{args.players}p-{args.games}g-"
                                       f"seed{args.seed}.png")


def default_players(game: Game, options: dict[str, Any]) -> int:
    """How many players ``companion simulate`` seats when ``--players`` is not given: the
    game's own answer for these options when it has one (``default_players``, e.g. the end
    zones of the chosen map), else 4."""
    ask = getattr(game, "default_players", None)
    return int(ask(options)) if callable(ask) else 4


def role_word(game: Game) -> str:
    """What the game calls a player's role ("class", "roster", "colour")."""
    from companion.kiosk.presenter import presenter_of

    return str(presenter_of(game).role_word)


def demo_roles(game: Game, players: int) -> list[str]:
    """The roles the demo deals (``companion play --demo``), one per seat; [] for a game whose
    players have none."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # (the kiosk's modules load it)
    from companion.kiosk.demo import demo_players
    from companion.kiosk.presenter import presenter_of

    roles = list(presenter_of(game).roles())
    return [role for _, role in demo_players(roles, players)] if roles else []


def count_arg(low: int) -> Any:
    """An argparse type: a whole number of at least ``low`` (exit 2 with the reason)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{value} is too small: give {low} or more")
        return value
    return parse


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

    sim = sub.add_parser("simulate", help="play whole games between bots with seeded dice; "
                         "prints the win rates and draws them as a PNG plot")
    sim.add_argument("--variant", default=DEFAULT_VARIANT,
                     help=f"the game to play (default {DEFAULT_VARIANT}; e.g. dungeonopoly)")
    sim.add_argument("--players", type=count_arg(1), default=None,
                     help="players at the table (default: what the game and its options fit, "
                          "else 4; the game says how many it takes)")
    sim.add_argument("--games", type=count_arg(1), default=100,
                     help="games to play, one after another (default 100)")
    sim.add_argument("--seed", type=count_arg(0), default=1,
                     help="the first game's dice seed; game N uses seed+N (default 1)")
    sim.add_argument("--bot", default="heuristic",
                     help="a bot the game offers: random, and its own (Monopoly: heuristic)")
    sim.add_argument("--classes", help="comma-separated character classes, dealt round the "
                     "seats (default for a game with classes: the demo's, e.g. fighter, wizard, "
                     "cleric, rogue)")
    sim.add_argument("--max-turns", type=count_arg(1), default=1000,
                     help="stop a game after this many turns and count it as unfinished "
                          "(default 1000)")
    sim.add_argument("--option", action="append", metavar="NAME=VALUE",
                     help="a table option (repeatable), e.g. --option quicker_game=true")
    sim.add_argument("--json", action="store_true",
                     help="print one JSON object (wins, win rates, speed, the plot's path)")
    sim.add_argument("--no-progress", action="store_true",
                     help="no progress bar on standard error (it shows from 20 games)")
    sim.add_argument("--plot", metavar="FILE.png", default=None,
                     help="where to draw the win rates with 95%% confidence intervals (default "
                          "out/simulate/VARIANT-Np-Gg-seedS.png)")
    sim.add_argument("--no-plot", action="store_true", help="draw no plot")
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
    try:
        result = args.func(args)
    except argparse.ArgumentTypeError as exc:  # an option a command found wrong: usage, exit 2
        parser.exit(2, f"companion {getattr(args, 'command', '')}: error: {exc}\n".replace("  ", " "))
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
