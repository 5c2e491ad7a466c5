"""Rules engine speed: microseconds per legal_actions + apply, and whole bot games per minute.

    python3 benchmarks/engine.py [--games 60] [--variant monopoly] [--classes ...]

Runs on one core (one process); games per minute are per CPU-minute of this process (so other
load on the machine does not distort them). Prints readable lines, then one JSON object as the last line.
Games are 4-player heuristic-bot games capped at 1,000 turns (standings decide at the cap).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from companion.bots import DiceRoller, HeuristicBot
from companion.simulate import play_game
from companion.variants import find_variant, variant_names


def step_timings(variant: str, players: list[str | tuple[str, str]], seeds: range,
                 full_list: bool) -> list[float]:
    """Time legal_actions + apply per step (microseconds) over whole heuristic games."""
    rules = find_variant(variant)
    samples: list[float] = []
    for seed in seeds:
        state = rules.new_game(players, seed=seed)
        bot = HeuristicBot(seed)
        roller = DiceRoller(seed)
        while state.outcome is None and state.turn_number <= 1000:
            t0 = time.perf_counter()
            actions = rules.legal_actions(state, None if full_list else rules.deciders(state))
            action = roller.fill(rules, state, bot.choose(rules, state, actions))
            state, _ = rules.apply(state, action)
            samples.append((time.perf_counter() - t0) * 1e6)
    return samples


def games_per_minute(variant: str, players: list[str | tuple[str, str]], games: int,
                     seed: int) -> tuple[float, int, int]:
    rules = find_variant(variant)
    start = time.process_time()  # CPU time of this one process: games per minute per core
    finished = 0
    turns = []
    for g in range(games):
        result = play_game(rules, players, seed + g)
        turns.append(result.state.turn_number)
        if result.state.outcome and result.state.outcome.reason == "last_player_standing":
            finished += 1
    elapsed = time.process_time() - start
    return 60 * games / elapsed, finished, int(statistics.median(turns))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--classes", default="fighter,wizard,cleric,rogue")
    args = parser.parse_args()

    figures: dict[str, object] = {
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
    }
    plain = ["Ann", "Bob", "Cy", "Di"]
    full = step_timings("monopoly", plain, range(args.seed, args.seed + 5), full_list=True)
    deciders = step_timings("monopoly", plain, range(args.seed, args.seed + 5), full_list=False)
    figures["monopoly_step_us_median_full_legal_list"] = round(statistics.median(full), 1)
    figures["monopoly_step_us_median_deciders_only"] = round(statistics.median(deciders), 1)
    gpm, finished, median_turns = games_per_minute("monopoly", plain, args.games, args.seed)
    figures["monopoly_games_per_minute"] = round(gpm, 1)
    figures["monopoly_games_finished_by_bankruptcy"] = f"{finished}/{args.games}"
    figures["monopoly_median_turns"] = median_turns
    print(f"monopoly: legal_actions+apply median {figures['monopoly_step_us_median_full_legal_list']} us "
          f"(full list), {figures['monopoly_step_us_median_deciders_only']} us (deciders only)")
    print(f"monopoly: {gpm:.0f} complete 4-player games per minute on one core "
          f"({finished}/{args.games} ended by bankruptcy, median {median_turns} turns)")

    if "dungeonopoly" in variant_names():
        classes = [c for c in args.classes.split(",") if c]
        seated: list[str | tuple[str, str]] = [(n, classes[i % len(classes)]) for i, n in enumerate(plain)]
        try:
            d_steps = step_timings("dungeonopoly", seated, range(args.seed, args.seed + 3), True)
            dgpm, dfinished, dturns = games_per_minute("dungeonopoly", seated, args.games, args.seed)
        except Exception as exc:  # report, do not hide: the figure is missing
            figures["dungeonopoly_error"] = f"{type(exc).__name__}: {exc}"
            print(f"dungeonopoly: benchmark failed: {exc}")
        else:
            figures["dungeonopoly_step_us_median_full_legal_list"] = round(statistics.median(d_steps), 1)
            figures["dungeonopoly_games_per_minute"] = round(dgpm, 1)
            figures["dungeonopoly_games_finished_by_bankruptcy"] = f"{dfinished}/{args.games}"
            figures["dungeonopoly_median_turns"] = dturns
            figures["dungeonopoly_to_monopoly_ratio"] = round(dgpm / gpm, 2)
            print(f"dungeonopoly ({','.join(classes)}): {dgpm:.0f} games per minute "
                  f"({dgpm / gpm:.2f}x monopoly), {dfinished}/{args.games} by bankruptcy")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
