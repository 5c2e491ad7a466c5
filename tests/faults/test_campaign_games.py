"""Campaign 4: simulated games with the invariants checked at every step.

Seeded bot games (``companion.simulate.bot_steps``) of Monopoly and Dungeonopoly, with and
without team play, heuristic and random bots: after every action money is conserved (a team's
pool counted once), the house and hotel stock stays within bounds, and more (see
``check_invariants``); the recorded actions, written as a transcript, replay to an equal state
at the end and at a few points along the way."""

from __future__ import annotations

import time
from typing import Any

from companion.transcript import replay

Campaign = Any  # the type of conftest.py's ``campaign`` fixture, which carries the helpers


def test_bot_games_keep_every_invariant_and_replay_equal(campaign: Campaign) -> None:
    rng = campaign.rng("games")
    games = campaign.size(20, 500)
    seen: dict[str, int] = {}
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        seed = rng.randrange(10**6)
        table = campaign.table_for(seed, team=True if g % 5 == 2 else None)
        bot = "random" if g % 3 == 0 else "heuristic"
        max_steps = rng.randint(50, campaign.size(150, 1000))
        lines, final, states = campaign.bot_game(table, seed, max_steps, bot=bot, check=True)
        actions = len(states)
        header = len(lines) - actions
        steps += actions
        label = f"game {g}: {table.label} {bot} seed {seed}"
        assert replay("\n".join(lines)).state == final, f"{label}: replay differs"
        for cut in sorted(rng.sample(range(1, actions + 1), min(3, actions))):
            again = replay("\n".join(lines[:header + cut])).state
            assert again == states[cut - 1], f"{label}: replay of {cut} actions differs"
        key = f"{table.variant}{' teams' if table.options else ''} {bot}"
        seen[key] = seen.get(key, 0) + 1
    print(f"games: {games} ({steps} steps) in {time.perf_counter() - start:.1f} s: {seen}")
    assert len(seen) >= 6, seen  # both variants, teams or not, both bots
