"""Every vision network's onnxruntime session: threads as asked, no spinning unless asked."""

from __future__ import annotations

import numpy as np
import pytest

from vision import onnx_session
from vision.dice import models as dice_models
from vision.dice.models import MODEL_DIR, Network
from vision.onnx_session import SPIN_ENV, session_options
from vision.piecepack import models as piecepack_models
from vision.special_dice import nets as special_nets


def spin_flags(options: object) -> tuple[str, str]:
    return (options.get_session_config_entry("session.intra_op.allow_spinning"),  # type: ignore[attr-defined]
            options.get_session_config_entry("session.inter_op.allow_spinning"))  # type: ignore[attr-defined]


def test_worker_threads_sleep_between_runs_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SPIN_ENV, raising=False)
    options = session_options(4)
    assert options.intra_op_num_threads == 4
    assert options.inter_op_num_threads == 1
    assert spin_flags(options) == ("0", "0")


@pytest.mark.parametrize("value, spins", [("1", True), ("0", False), ("yes", False), ("", False)])
def test_spinning_only_when_the_environment_says_1(monkeypatch: pytest.MonkeyPatch, value: str,
                                                   spins: bool) -> None:
    monkeypatch.setenv(SPIN_ENV, value)
    assert onnx_session.spinning() is spins
    assert spin_flags(session_options(2)) == (("1", "1") if spins else ("0", "0"))


def test_at_least_one_thread() -> None:
    assert session_options(0).intra_op_num_threads == 1
    assert session_options(-3).intra_op_num_threads == 1


def test_the_dice_networks_use_these_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice reader's sessions are made with ``session_options``."""
    seen: list[int] = []
    real = dice_models.session_options

    def spy(threads: int) -> object:
        seen.append(threads)
        return real(threads)

    monkeypatch.setattr(dice_models, "session_options", spy)
    path = next(MODEL_DIR.glob("dice_classifier*.onnx"))
    net = Network(path, "onnxruntime")
    assert seen and seen[0] >= 1
    assert net.run(np.zeros((1, 1, 64, 64), np.float32)).shape[0] == 1


def test_the_other_vision_networks_share_them() -> None:
    assert piecepack_models.session_options is session_options
    assert special_nets.session_options is session_options
