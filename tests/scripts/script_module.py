"""The training scripts under ``scripts/`` loaded as modules, for their tests (loaded when a test
asks, so collecting the tests imports no training code)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load(name: str) -> ModuleType:
    """``scripts/<name>.py`` as a module (imported once; the scripts import each other by name)."""
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    return importlib.import_module(name)
