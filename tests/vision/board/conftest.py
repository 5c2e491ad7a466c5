"""Shared synthetic frames for the board tests (rendered once per session, small counts)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synthetic.table import CameraPose, Conditions, SyntheticTable


@pytest.fixture(scope="session")
def table() -> SyntheticTable:
    return SyntheticTable()


@pytest.fixture(scope="session")
def tilted_pose() -> CameraPose:
    return CameraPose(300.0, 330.0, 470.0, (254.0, 254.0), 3.0)


@pytest.fixture(scope="session")
def mild() -> Conditions:
    return Conditions(light_gradient=0.2, light_angle_deg=30, exposure=0.95, blur_sigma=0.6,
                      noise_sigma=3.0)


@pytest.fixture(scope="session")
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)
