"""Rules engine speed: microseconds per legal_actions + apply, and whole bot games per minute.

    python3 benchmarks/engine.py [--games 60] [--seed 1000] [--classes fighter,wizard,cleric,rogue]
    python3 benchmarks/engine.py --dungeonbowl-setup-only   # the Dungeonbowl setup figures alone

Runs on one core (one process); games per minute are per CPU-minute of this process (so other
load on the machine does not distort them), the variants' games interleaved seed by seed (so a
change in that load weighs on both alike). Prints readable lines, then one JSON object as the last line.
Games are 4-player heuristic-bot games capped at 1,000 turns (standings decide at the cap).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from companion.bots import DiceRoller, bots_for
from companion.core.registry import find_game, game_names
from companion.simulate import play_game


def step_timings(variant: str, players: list[str | tuple[str, str]], seeds: range,
                 full_list: bool) -> list[float]:
    """Time legal_actions + apply per step (microseconds) over whole heuristic games."""
    rules = find_game(variant)
    samples: list[float] = []
    for seed in seeds:
        state = rules.new_game(players, seed=seed)
        bot = bots_for(rules)["heuristic"](seed)
        roller = DiceRoller(seed)
        while state.outcome is None and state.turn_number <= 1000:
            t0 = time.perf_counter()
            actions = rules.legal_actions(state, None if full_list else rules.deciders(state))
            action = roller.fill(rules, state, bot.choose(rules, state, actions))
            state, _ = rules.apply(state, action)
            samples.append((time.perf_counter() - t0) * 1e6)
    return samples


def games_per_minute(tables: list[tuple[str, list[str | tuple[str, str]]]], games: int,
                     seed: int) -> dict[str, tuple[float, int, int] | Exception]:
    """Complete games per CPU-minute of this process, for each (variant, players) table: the
    number of games ended by bankruptcy and the median turns, or the error a variant raised.
    The variants' games are interleaved seed by seed, so that a change in the load on the
    machine during the run weighs on each variant alike (their ratio is a figure we quote)."""
    rules = {variant: find_game(variant) for variant, _players in tables}
    cpu = {variant: 0.0 for variant, _players in tables}
    finished = {variant: 0 for variant, _players in tables}
    turns: dict[str, list[int]] = {variant: [] for variant, _players in tables}
    errors: dict[str, Exception] = {}
    for g in range(games):
        for variant, players in tables:
            if variant in errors:
                continue
            start = time.process_time()  # CPU time of this one process: per core
            try:
                result = play_game(rules[variant], players, seed + g)
            except Exception as exc:  # reported by the caller: the figure is missing
                errors[variant] = exc
                continue
            cpu[variant] += time.process_time() - start
            turns[variant].append(result.state.turn_number)
            if result.state.outcome and not result.capped:  # ended by the game's rules
                finished[variant] += 1
    out: dict[str, tuple[float, int, int] | Exception] = dict(errors)
    for variant, _players in tables:
        if variant not in errors:
            out[variant] = (60 * games / cpu[variant], finished[variant],
                            int(statistics.median(turns[variant])))
    return out


def dungeonbowl_setup_ms(figures: dict[str, object], reps: int = 21) -> None:
    """Milliseconds (median of ``reps``) to list a Dungeonbowl setup's legal actions: every
    bundled-roster model of every team on every free square of its end zone (the kiosk's menu
    is rebuilt from this list after each press)."""
    if "dungeonbowl" not in game_names():
        return
    from companion.games.dungeonbowl import roster

    rules = find_game("dungeonbowl")
    rosters = roster.bundled()
    for teams, dungeon in ((2, "two_teams"), (4, "four_teams")):
        state = rules.new_game([(f"Team {i + 1}", rosters[i % len(rosters)]) for i in range(teams)],
                               {"dungeon": dungeon})
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            listed = len(rules.legal_actions(state))
            times.append((time.perf_counter() - t0) * 1000)
        ms = round(statistics.median(times), 2)
        figures[f"dungeonbowl_setup_legal_ms_{teams}_rosters"] = ms
        print(f"dungeonbowl setup, {teams} teams with rosters on {dungeon}: {listed} legal actions "
              f"listed in {ms} ms (median of {reps})")


def report_variant(figures: dict[str, object], name: str, label: str,
                   result: tuple[float, int, int] | Exception | None, gpm: float,
                   games: int) -> None:
    """A variant's figures beside standard Monopoly's (or the reason it has none)."""
    if result is None or isinstance(result, Exception):
        figures[f"{name}_error"] = f"{type(result).__name__}: {result}"
        print(f"{name}: benchmark failed: {result}")
        return
    vgpm, finished, turns = result
    figures[f"{name}_games_per_minute"] = round(vgpm, 1)
    figures[f"{name}_games_finished_by_the_rules"] = f"{finished}/{games}"
    figures[f"{name}_median_turns"] = turns
    figures[f"{name}_to_monopoly_ratio"] = round(vgpm / gpm, 2)
    print(f"{label}: {vgpm:.0f} games per minute ({vgpm / gpm:.2f}x monopoly), "
          f"{finished}/{games} ended by the rules, median {turns} turns")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--classes", default="fighter,wizard,cleric,rogue")
    parser.add_argument("--dungeonbowl-setup-only", action="store_true",
                        help="only the time to list a Dungeonbowl setup's actions")
    args = parser.parse_args()

    figures: dict[str, object] = {
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
    }
    dungeonbowl_setup_ms(figures)
    if args.dungeonbowl_setup_only:
        print(json.dumps(figures))
        return
    names = ["Ann", "Bob", "Cy", "Di"]
    plain: list[str | tuple[str, str]] = list(names)
    full = step_timings("monopoly", plain, range(args.seed, args.seed + 5), full_list=True)
    deciders = step_timings("monopoly", plain, range(args.seed, args.seed + 5), full_list=False)
    figures["monopoly_step_us_median_full_legal_list"] = round(statistics.median(full), 1)
    figures["monopoly_step_us_median_deciders_only"] = round(statistics.median(deciders), 1)
    tables: list[tuple[str, list[str | tuple[str, str]]]] = [("monopoly", plain)]
    classes = [c for c in args.classes.split(",") if c]
    seated: list[str | tuple[str, str]] = [(n, classes[i % len(classes)]) for i, n in enumerate(names)]
    d_steps: list[float] = []
    d_error: Exception | None = None
    if "dungeonopoly" in game_names():
        try:
            d_steps = step_timings("dungeonopoly", seated, range(args.seed, args.seed + 3), True)
        except Exception as exc:  # report, do not hide: the figure is missing
            d_error = exc
        else:
            tables.append(("dungeonopoly", seated))
    if "monopozombie" in game_names():
        tables.append(("monopozombie", plain))
    if "illumonopoly" in game_names():  # the basic game: four players, no Illuminati
        tables.append(("illumonopoly", plain))
    results = games_per_minute(tables, args.games, args.seed)
    monopoly = results["monopoly"]
    if isinstance(monopoly, Exception):
        raise monopoly
    gpm, finished, median_turns = monopoly
    figures["monopoly_games_per_minute"] = round(gpm, 1)
    figures["monopoly_games_finished_by_bankruptcy"] = f"{finished}/{args.games}"
    figures["monopoly_median_turns"] = median_turns
    print(f"monopoly: legal_actions+apply median {figures['monopoly_step_us_median_full_legal_list']} us "
          f"(full list), {figures['monopoly_step_us_median_deciders_only']} us (deciders only)")
    print(f"monopoly: {gpm:.0f} complete 4-player games per minute on one core "
          f"({finished}/{args.games} ended by bankruptcy, median {median_turns} turns)")

    labels = {"dungeonopoly": f"dungeonopoly ({','.join(classes)})",
              "illumonopoly": "illumonopoly (basic game)"}
    for name, _table in tables[1:]:
        result = results.get(name)
        report_variant(figures, name, labels.get(name, name), result, gpm, args.games)
        if name == "dungeonopoly" and d_steps and f"{name}_games_per_minute" in figures:
            figures["dungeonopoly_step_us_median_full_legal_list"] = round(
                statistics.median(d_steps), 1)
    if d_error is not None and "dungeonopoly_error" not in figures:
        report_variant(figures, "dungeonopoly", "dungeonopoly", d_error, gpm, args.games)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
