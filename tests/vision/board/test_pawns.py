import numpy as np
import pytest

from vision.board.pawns import MoveContext
from vision.board.pipeline import BoardPipeline, PipelineConfig
from vision.synthetic.table import CameraPose, Conditions, SyntheticTable


@pytest.fixture(scope="module")
def pipe(table: SyntheticTable, tilted_pose: CameraPose, mild: Conditions) -> BoardPipeline:
    p = BoardPipeline(PipelineConfig(camera=table.camera, auto_reference=False))
    assert p.set_reference(table.render({}, seed=10, pose=tilted_pose, conditions=mild).image)
    return p


def _owners(obs: object) -> dict[int, list[str]]:
    return {c: sorted(r.owner or "?" for r in v) for c, v in obs.occupants.items()}  # type: ignore[attr-defined]


@pytest.mark.parametrize("placement", [
    {"Ann": 1, "Ben": 5, "Cai": 12, "Dee": 27, "Eve": 33, "Fin": 39},
    {"Ann": 40, "Ben": 10, "Cai": 10, "Dee": 24},  # in Jail vs Just Visiting
    {"Ben": 16, "Cai": 16, "Dee": 16, "Eve": 16},  # four on one square
    {"Cai": 21, "Eve": 6, "Fin": 26, "Dee": 13},  # rings on coloured bands
])
def test_reads_owner_and_square(pipe: BoardPipeline, table: SyntheticTable,
                                tilted_pose: CameraPose, mild: Conditions,
                                placement: dict[str, int]) -> None:
    f = table.render(placement, [2, 5], seed=11, pose=tilted_pose, conditions=mild)
    obs = pipe.read_once(f.image)
    assert obs.status == "ok"
    want: dict[int, list[str]] = {}
    for owner, cell in placement.items():
        want.setdefault(cell, []).append(owner)
    assert _owners(obs) == {c: sorted(v) for c, v in want.items()}


def test_unexpected_square_is_flagged(pipe: BoardPipeline, table: SyntheticTable,
                                      tilted_pose: CameraPose, mild: Conditions) -> None:
    f = table.render({"Ann": 9, "Ben": 3}, seed=12, pose=tilted_pose, conditions=mild)
    ctx = MoveContext("Ann", from_square=1, candidates=(6, 7, 8), positions={"Ben": 3})
    obs = pipe.read_once(f.image, ctx)
    assert [(u.owner, u.square) for u in obs.unexpected] == [("Ann", 9)]
    ok = pipe.read_once(f.image, MoveContext("Ann", 1, (9,), {"Ben": 3}))
    assert ok.unexpected == ()


def test_empty_board_reads_empty(pipe: BoardPipeline, table: SyntheticTable,
                                 tilted_pose: CameraPose, mild: Conditions) -> None:
    f = table.render({}, [6, 6], seed=13, pose=tilted_pose, conditions=mild)
    obs = pipe.read_once(f.image)
    assert obs.status == "ok" and dict(obs.occupants) == {}


def test_smoothing_needs_several_still_frames(table: SyntheticTable, tilted_pose: CameraPose,
                                              mild: Conditions) -> None:
    p = BoardPipeline(PipelineConfig(camera=table.camera))
    frames = [table.render({"Ann": 5, "Ben": 30}, seed=s, pose=tilted_pose, conditions=mild).image
              for s in range(3)]
    statuses = [p.process(frames[k % 3]) for k in range(7)]
    assert statuses[0].status == "moving"
    assert statuses[-1].status == "ok" and statuses[-1].stable
    assert _owners(statuses[-1]) == {5: ["Ann"], 30: ["Ben"]}
    rng = np.random.default_rng(0)
    assert rng is not None
