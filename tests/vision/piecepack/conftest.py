from __future__ import annotations

import cv2
import pytest


@pytest.fixture(autouse=True, scope="session")
def _one_thread() -> None:
    cv2.setNumThreads(1)
