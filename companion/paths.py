"""Where the project's data lives (the top-level ``assets/`` folder beside the packages)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ASSETS = Path(os.environ.get("COMPANION_ASSETS", REPO_ROOT / "assets"))


def asset(*parts: str) -> Path:
    """Path of a file under ``assets/``."""
    return ASSETS.joinpath(*parts)
