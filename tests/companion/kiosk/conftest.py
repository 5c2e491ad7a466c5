"""Shared set-up for the kiosk tests: no window ever opens (SDL dummy driver), PNGs go to the
gitignored out/ folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from companion.session import Session, choose_variant  # noqa: E402
from companion.transcript import replay  # noqa: E402

PNG_DIR = Path(__file__).resolve().parents[3] / "out" / "kiosk-tests"
SIZES = [(1280, 720), (800, 480)]


def classes() -> list[str]:
    try:
        from companion.games.monopoly.dungeonopoly.abilities import class_names
    except ImportError:
        return []
    return list(class_names())


def midgame_session() -> Session:
    """A Dungeonopoly game in the middle (Monopoly while the layer is missing): properties in
    groups with houses, a hotel and a mortgage, cash, EP, an enchantment, money in the pot."""
    variant = choose_variant("dungeonopoly")
    roles = classes() if variant == "dungeonopoly" else []
    want = ["fighter", "wizard", "cleric", "rogue"]
    picked = [r if r in roles else (roles[i % len(roles)] if roles else "")
              for i, r in enumerate(want)]
    lines = [f"variant {variant}", "seed 4"]
    names = ["Ann", "Ben", "Cai", "Dee"]
    lines += [f"player {n} {r}".rstrip() for n, r in zip(names, picked, strict=True)]
    lines += [
        'set square "Boardwalk" owner=Ann houses=2',
        'set square "Park Place" owner=Ann houses=2',
        'set square "Reading Railroad" owner=Ann mortgaged=true',
        'set square "Baltic Avenue" owner=Ben',
        'set square "Mediterranean Avenue" owner=Ben mortgaged=true',
        'set square "Kentucky Avenue" owner=Cai hotel=true',
        'set square "Indiana Avenue" owner=Cai hotel=true',
        'set square "Illinois Avenue" owner=Cai hotel=true',
        "set player Ann cash=2310 position=Boardwalk",
        "set player Ben cash=120 position=Jail in_jail=true",
        "set player Cai cash=905",
        "set pot 350",
    ]
    if variant == "dungeonopoly":
        lines += ["set player Ann ep=17", "set player Ben ep=4",
                  "set player Cai ep=31 enchantments=shield_of_faith"]
    result = replay("\n".join(lines) + "\n")
    header = [ln for ln in lines]
    session = Session(result.rules, result.state, header, None)
    session.log.extend(["Bob paid Ann $2,000 rent for Boardwalk", "Ann gains 1 EP (rent)"])
    return session


@pytest.fixture
def png_dir() -> Path:
    PNG_DIR.mkdir(parents=True, exist_ok=True)
    return PNG_DIR


@pytest.fixture
def midgame() -> Session:
    return midgame_session()
