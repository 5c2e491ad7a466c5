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


def test_rings_on_print_of_their_own_colour(pipe: BoardPipeline, table: SyntheticTable,
                                            tilted_pose: CameraPose, mild: Conditions) -> None:
    """Red ring on the red Free Parking disc, orange ring in the orange Jail, orange ring on
    the red GO print: found from the pewter and the hue around it."""
    placement = {"Ann": 20, "Fin": 40, "Dee": 0}
    f = table.render(placement, seed=14, pose=tilted_pose, conditions=mild)
    obs = pipe.read_once(f.image)
    assert _owners(obs) == {20: ["Ann"], 40: ["Fin"], 0: ["Dee"]}


def test_ring_under_a_glare_spot(table: SyntheticTable, tilted_pose: CameraPose) -> None:
    placement = {"Cai": 24, "Dee": 27, "Ben": 5}
    plain = table.render(placement, seed=15, pose=tilted_pose)
    w, h = table.camera.width, table.camera.height
    x, y = next(fg.pos_px for fg in plain.truth.figurines if fg.owner == "Dee")
    glare = Conditions(glare=0.5, glare_pos=(x / w + 0.03, y / h), noise_sigma=2.0)
    p = BoardPipeline(PipelineConfig(camera=table.camera, auto_reference=False))
    assert p.set_reference(table.render({}, seed=16, pose=tilted_pose, conditions=glare).image)
    assert p.reader._inv_glare is not None  # the empty board showed the glare spot
    obs = p.read_once(table.render(placement, seed=17, pose=tilted_pose,
                                   conditions=glare).image)
    assert _owners(obs) == {24: ["Cai"], 27: ["Dee"], 5: ["Ben"]}


def test_print_hue_range_wraps_around_red() -> None:
    """Print hues on both sides of 0/180 (red) explain red pixels, not orange ones."""
    import cv2

    from vision.board.pawns import PawnReader

    r = PawnReader()
    ref = np.full((r.size, r.size, 3), (200, 228, 205), np.uint8)
    ref[100:140, 100:120] = (40, 40, 200)  # hue 0
    ref[100:140, 120:140] = (60, 40, 200)  # hue 179
    r.set_reference(ref)
    cur = ref.copy()
    cur[110:130, 300:320] = (40, 40, 200)  # a red patch on plain board: a ring colour
    cur[115:125, 125:130] = (25, 135, 250)  # orange on the red print
    hsv = cv2.cvtColor(cur, cv2.COLOR_BGR2HSV)
    lab = r._label(hsv, r.config.min_sat, r.config.min_val)
    r._not_print(hsv, lab)
    red = r.colour_names.index("red") + 1
    orange = r.colour_names.index("orange") + 1
    assert (lab[105:135, 105:118] == 0).all() and (lab[105:135, 122:124] == 0).all()
    assert (lab[112:128, 302:318] == red).all()
    assert (lab[116:124, 126:129] == orange).all()
