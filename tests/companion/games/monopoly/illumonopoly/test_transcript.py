"""Illumonopoly's transcript verbs and ``set`` keys (docs/transcript.md, "Illumonopoly")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.monopoly.actions import Choose, Pass
from companion.games.monopoly.illumonopoly import (
    BavarianDeal,
    DeclareMissing,
    Interfere,
    PlayCard,
    Sue,
    Support,
    Transfer,
)

ROOT = Path(__file__).resolve().parents[5]


@pytest.mark.parametrize("action", [
    Transfer(0, "green", "central", 100), Transfer(0, "central", "railroad", 30, "railroad"),
    Interfere(1), Support(1, "complainant", 100), Support(0, "plaintiff", 20, "orange"),
    Sue(0, 1, "title", 19), Sue(0, 2, "antitrust", 5), PlayCard(0, "irs_audit", 1),
    PlayCard(0, "bribed_assessor", square=39), PlayCard(0, "rent_control", as_deal=True),
    PlayCard(2, "interference", help=True), BavarianDeal(0), DeclareMissing(0, 8),
    Choose(1, "lot", "37"), Choose(0, "case", "abandon"), Pass(2),
])
def test_every_verb_round_trips(make: Any, action: Any) -> None:
    t = make()
    line = t.rules.format_action(t.state, action)
    assert t.rules.parse_action(t.state, _split(line)) == action


def _split(line: str) -> list[str]:
    import shlex

    return shlex.split(line)


def test_set_keys_treasuries_and_squares(make: Any) -> None:
    t = make()
    state = t.rules.apply_set(t.state, _split("set player Ann treasury=green:100,railroad:50"))
    state = t.rules.apply_set(state, _split("set player Ann central=200 illuminati=gnomes "
                                            "court_hand=2 audited=true"))
    p = state.players[0]
    assert p.central == 200 and p.treasury("green") == 100 and p.cash == 350
    assert p.illuminati == "gnomes" and p.court_hand == 2 and p.audited
    state = t.rules.apply_set(state, _split('set square "Park Place" landmark=true'))
    assert t.rules.square_json(state, 37) == {"landmark": True}
    with pytest.raises(ValueError, match="unknown Court Date card kind"):
        t.rules.apply_set(state, _split("set player Ann court_cards=joker"))


def test_a_bad_line_exits_2_naming_it(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text('variant illumonopoly\nseed 1\nplayer Ann\nplayer Ben\n'
                      'set square "Pacific Avenue" owner=Ann\nAnn transfer green central 10\n')
    run = subprocess.run([sys.executable, "-m", "companion.cli", "script", str(script)],
                         capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                              "SDL_VIDEODRIVER": "dummy"})
    assert run.returncode == 2
    assert "line 6" in run.stderr and "green treasury is empty" in run.stderr
