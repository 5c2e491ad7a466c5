"""Fixtures for MonopoZombie tests (the table helper is zombie_table.Z)."""

from __future__ import annotations

import pytest
from zombie_table import Z


@pytest.fixture
def z() -> Z:
    return Z()
