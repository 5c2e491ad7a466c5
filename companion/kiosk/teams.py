"""Team play on the kiosk: team letters (A-D) and colours, the setup screen's presets, the
``teams`` option string built from the chosen names, and the names the game screen shows
("Team A: Ann+Cai").

The engine keeps teams as ``state.sides`` (each seat's side: its team's first seat); the letters
are the order of the teams in the ``teams`` option, which the setup screen writes A first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.kiosk.painter import Colour

TEAM_LETTERS = "ABCD"
TEAM_COLOURS: dict[str, Colour] = {
    "A": (255, 150, 60),   # orange
    "B": (80, 200, 255),   # sky blue
    "C": (200, 120, 255),  # violet
    "D": (120, 230, 120),  # green
}
NO_TEAM = ""


def team_colour(letter: str) -> Colour:
    return TEAM_COLOURS.get(letter, (150, 150, 150))


def teams_spec(names: Sequence[str], letters: Sequence[str]) -> str:
    """The ``teams`` option ("Ann+Cai,Ben+Dee") from each seat's letter ("" = alone); teams in
    letter order. A letter held by one seat only is left out (see :func:`team_problem`)."""
    teams: list[str] = []
    for letter in TEAM_LETTERS:
        members = [n.strip() for n, t in zip(names, letters, strict=True) if t == letter]
        if len(members) >= 2:
            teams.append("+".join(members))
    return ",".join(teams)


def team_problem(names: Sequence[str], letters: Sequence[str]) -> str | None:
    """What is wrong with the chosen teams, in words for the screen (None: fine for the kiosk;
    the engine checks the rest, e.g. that two sides remain)."""
    for letter in TEAM_LETTERS:
        members = [n.strip() for n, t in zip(names, letters, strict=True) if t == letter]
        if len(members) == 1:
            return (f"Team {letter} has only {members[0]}: give {members[0]} a teammate or "
                    "set them to 'no team'")
    return None


def presets(n: int) -> list[tuple[str, tuple[str, ...]]]:
    """Ready-made teams for ``n`` players: (label by seat numbers, letter per seat). Partners
    sit apart (1+3 vs 2+4), as at a card table, or side by side."""
    out: list[tuple[str, tuple[str, ...]]] = [("No teams: everyone plays alone", ("",) * n)]

    def add(k: int, alternate: bool) -> None:
        size = n // k
        letters = tuple(TEAM_LETTERS[i % k] if alternate else TEAM_LETTERS[i // size]
                        for i in range(n))
        groups = ["+".join(str(i + 1) for i in range(n) if letters[i] == TEAM_LETTERS[t])
                  for t in range(k)]
        word = {2: "Two", 3: "Three", 4: "Four"}[k]
        out.append((f"{word} teams: seats {' vs '.join(groups)}", letters))

    for k in (2, 3, 4):
        if n % k == 0 and n // k >= 2:
            add(k, True)
            add(k, False)
    if n == 3:
        out += [("Two sides: seats 1+2 vs 3", ("A", "A", "")),
                ("Two sides: seats 1+3 vs 2", ("A", "", "A")),
                ("Two sides: seats 2+3 vs 1", ("", "A", "A"))]
    elif n % 2 == 1 and n >= 5:
        pairs = tuple(TEAM_LETTERS[i // 2] if i < n - 1 and i // 2 < 4 else ""
                      for i in range(n))
        label = " vs ".join(f"{i + 1}+{i + 2}" for i in range(0, n - 1, 2) if i // 2 < 4)
        out.append((f"Teams of two: seats {label} (seat {n} alone)", pairs))
    return out


def letters_of(state: Any) -> dict[int, str]:
    """Each team's letter by its side (its first seat), from the ``teams`` option's order."""
    sides: Sequence[int] = getattr(state, "sides", ())
    if not sides:
        return {}
    names = [p.name.strip().lower() for p in state.players]
    spec = str(getattr(state.options, "teams", "") or "")
    out: dict[int, str] = {}
    for team in spec.split(","):
        first = team.split("+")[0].strip().lower()
        if first in names and len(out) < len(TEAM_LETTERS):
            side = sides[names.index(first)]
            if side not in out and sum(1 for s in sides if s == side) > 1:
                out[side] = TEAM_LETTERS[len(out)]
    for side in sorted(set(sides)):  # a team the option did not name in order (never expected)
        if side not in out and sum(1 for s in sides if s == side) > 1 and len(out) < 4:
            out[side] = TEAM_LETTERS[len(out)]
    return out


def team_of(state: Any, seat: int) -> str:
    """The seat's team letter, "" when the seat plays alone (or without teams)."""
    if not getattr(state, "sides", ()):
        return ""
    return letters_of(state).get(state.sides[seat], "")


def side_title(state: Any, seat: int) -> str:
    """What the screen calls a seat's side: "Team A: Ann+Cai", or the player's name."""
    letter = team_of(state, seat)
    if not letter:
        return str(state.players[seat].name)
    return f"Team {letter}: {state.side_name(seat)}"


def title_of_name(state: Any, name: str) -> str:
    """A side named as the engine names it in standings and ``winner`` ("Ann+Cai") ->
    "Team A: Ann+Cai"; other names as they are."""
    for i in range(len(state.players)):
        if state.side_name(i) == name:
            return side_title(state, i)
    return name
