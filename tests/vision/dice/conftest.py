from __future__ import annotations

from pathlib import Path

import cv2
import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dice"


@pytest.fixture(autouse=True, scope="session")
def _one_thread() -> None:
    cv2.setNumThreads(1)


@pytest.fixture(scope="session")
def rune55_fixture() -> Path:
    return FIXTURES / "rune55"
