import numpy as np

from vision.board.gate import GateConfig, StillGate


def test_still_after_quiet_frames_and_moving_on_change() -> None:
    rng = np.random.default_rng(0)
    base = rng.integers(0, 255, (360, 640), dtype=np.uint8)
    gate = StillGate(GateConfig(still_frames=3))
    states = [gate.update(base) for _ in range(4)]
    assert [s.still for s in states] == [False, False, False, True]
    moved = base.copy()
    moved[100:200, 100:300] = 255 - moved[100:200, 100:300]
    assert not gate.update(moved).still
    assert not gate.update(moved).still


def test_sensor_noise_alone_is_still() -> None:
    rng = np.random.default_rng(1)
    base = np.full((360, 640), 128, np.int16)
    gate = StillGate()
    out = []
    for _ in range(6):
        noisy = np.clip(base + rng.normal(0, 6, base.shape), 0, 255).astype(np.uint8)
        out.append(gate.update(noisy).still)
    assert out[-1]


def test_new_frame_size_resets() -> None:
    gate = StillGate(GateConfig(still_frames=1))
    a = np.zeros((100, 200), np.uint8)
    gate.update(a)
    assert gate.update(a).still
    assert not gate.update(np.zeros((120, 200), np.uint8)).still
