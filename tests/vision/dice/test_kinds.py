"""``DiceConfig.kinds``: a die of a type not in play is never read as one in play."""

from __future__ import annotations

import numpy as np

from vision.dice import DiceConfig, read_dice
from vision.synthetic.dice import render_dice_scene


def test_numbered_dice_at_a_d6_roll_are_never_read_as_d6() -> None:
    read = 0
    for seed in range(6):
        img, truths = render_dice_scene(np.random.default_rng(seed), (640, 480), n_dice=3,
                                        kinds=("d12", "d20"), die_px=(50.0, 70.0))
        assert truths
        everything = read_dice(img)
        read += sum(d.value is not None for d in everything.dice)
        d6_only = read_dice(img, config=DiceConfig(kinds=("d6",)))
        assert all(d.value is None for d in d6_only.dice), d6_only
    assert read > 0  # the same dice are read when every type is allowed


def test_other_types_share_counts_against_the_confidence(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import vision.dice.reader as reader
    from vision.dice.labels import CLASSES, class_of

    def sure_it_is_a_d12(crops, *args):  # type: ignore[no-untyped-def]
        p = np.zeros((len(crops), len(CLASSES)), np.float32)
        p[:, class_of("d12", 5)] = 0.98
        p[:, class_of("d6", 3)] = 0.02
        return p

    img, truths = render_dice_scene(np.random.default_rng(1), (640, 480), n_dice=1,
                                    kinds=("d6",), die_px=(60.0, 60.0))
    monkeypatch.setattr(reader, "classify_with_turns", sure_it_is_a_d12)
    # the classifier alone (no face reader asked): a confident d12 when every type is allowed
    anything = read_dice(img, config=DiceConfig(face_readers=()))
    assert [(d.kind, d.value) for d in anything.dice] == [("d12", 5)]
    # by default the d12 face reader is asked (0.98 is under the skip, 0.995) and says this
    # pipped face is not a d12 ("not this type"): nothing is read
    with_reader = read_dice(img)
    assert [d.value for d in with_reader.dice] == [None]
    d6_only = read_dice(img, config=DiceConfig(kinds=("d6",)))
    assert len(d6_only.dice) == 1
    die = d6_only.dice[0]
    assert die.value is None and die.status == "unsure" and die.confidence < 0.05, die
