"""A table's tuning is used only with the networks that made it: each memory keeps their
fingerprints, and after a retrained network is shipped it is left unused (the dice read as
without tuning) with a message saying to tune again; files saved before fingerprints are dated by
their stored examples."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.dice import cli, d6colour, d6head, models, numbers, reader
from vision.dice.labels import CLASSES
from vision.dice.tune import (
    OLDER,
    STALE_KIOSK,
    Adaptation,
    ExampleStore,
    NumberMemory,
    TuneError,
    grey_networks,
    number_network,
    saved_state,
    unit,
)
from vision.dice.types import DiceConfig

from .fixed_answers import (
    classifier_says,
    grey_looks_unsure,
    head_says,
    one_die_frame,
    type_reader_undecided,
)

TUNED_FILES = ("d6_embed.onnx", "d6_head.npz", "number_reader.onnx", "d6_colour.onnx")


def _models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the networks a tuning is built on, and the readers pointed at it (as
    ``DICE_MODEL_DIR`` points them at a retrained set)."""
    folder = tmp_path / "models"
    folder.mkdir()
    for name in TUNED_FILES:  # the shipped head may be missing from a checkout
        if (models.MODEL_DIR / name).is_file():
            shutil.copy2(models.MODEL_DIR / name, folder / name)
    for module in (d6head, numbers, d6colour):
        monkeypatch.setattr(module, "MODEL_DIR", folder)
    return folder


def _retrain(path: Path) -> None:
    """Stand in for a retrained network: the same graph with one weight moved."""
    onnx = pytest.importorskip("onnx", reason="onnx is a dev dependency: pip install -e '.[dev]'")
    from onnx import numpy_helper

    m = onnx.load(str(path))
    for init in m.graph.initializer:  # the first convolution's kernel: every output moves
        w = numpy_helper.to_array(init)
        if w.dtype in (np.float32, np.float16) and w.ndim == 4:
            init.CopyFrom(numpy_helper.from_array((w + w.dtype.type(0.1)).astype(w.dtype), init.name))
            break
    else:
        raise AssertionError(f"{path.name} has no convolution kernel to move")
    onnx.save(m, str(path))




def test_the_fingerprint_is_one_digest_of_the_file_for_every_network(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = d6colour.fingerprint()
    folder = _models(tmp_path, monkeypatch)
    # the colour reader's fingerprint is the shared helper's, and a copy has the same one
    assert d6colour.fingerprint() == models.fingerprint(folder / "d6_colour.onnx") == shipped
    assert len(shipped) == 16 and int(shipped, 16) >= 0
    before = grey_networks()
    assert set(before) == {"d6_embed.onnx", "d6_head.npz"} and len(before["d6_embed.onnx"]) == 16
    number = number_network()
    _retrain(folder / "d6_embed.onnx")
    assert grey_networks()["d6_embed.onnx"] != before["d6_embed.onnx"]
    assert grey_networks()["d6_head.npz"] == before["d6_head.npz"] and number_network() == number
    assert models.fingerprint(folder / "missing.onnx") == ""


def _grey_table() -> Adaptation:
    """A table whose own dice say "this is a 2" (its correction lifts 2 far above the rest), made
    under the networks in place."""
    bias = np.zeros(6)
    bias[1] = 8.0
    return Adaptation(np.zeros((96, 6)), bias, 40, read_at=0.99, networks=grey_networks())


def test_a_tuning_made_under_another_d6_network_is_not_used_and_reads_as_untuned(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _models(tmp_path, monkeypatch)
    grey_looks_unsure(monkeypatch, head=2)
    frame = one_die_frame("d6")
    cfg = DiceConfig(kinds=("d6",), d6_colour=False)
    plain = reader.read_dice(frame, config=cfg)
    assert (plain.dice[0].status, plain.dice[0].guess) == ("unsure", 2)
    table_dir = tmp_path / "examples"
    _grey_table().save(table_dir)
    # an unchanged network: the saved tuning is used and reads the die
    same = Adaptation.load(table_dir)
    assert same is not None and same.stale() == () and same.in_force() is same
    assert reader.read_dice(frame, config=replace(cfg, d6_table=same)).dice[0].status == "read"
    assert saved_state(table_dir) == ""
    # a software update ships a retrained d6 network: the tuning is left unused, the reading is
    # exactly the untuned reader's, and the message says to tune again
    _retrain(folder / "d6_embed.onnx")
    stale = Adaptation.load(table_dir)
    assert stale is not None and stale.stale() == ("d6",) and stale.in_force() is None
    assert reader.read_dice(frame, config=replace(cfg, d6_table=stale)) == plain
    assert "another version of the dice reader" in saved_state(table_dir)
    # companion dice read --tuned: a warning on stderr, the JSON as without tuning
    image = tmp_path / "roll.png"
    import cv2

    cv2.imwrite(str(image), frame)
    args = ["dice", "read", str(image), "--json", "--kinds", "d6", "--d6-colour", "off"]
    assert cli.main(args) == 0
    untuned = capsys.readouterr()
    assert cli.main([*args, "--tuned", str(table_dir)]) == 0
    tuned = capsys.readouterr()
    assert tuned.out == untuned.out and json.loads(tuned.out)["dice"][0]["status"] == "unsure"
    assert "warning:" in tuned.err and "not used" in tuned.err and "companion dice tune' again" in tuned.err
    assert untuned.err == ""
    # the kiosk: the same on stderr, and a line a family understands on screen
    from companion.kiosk.cli import _table_tuning

    assert _table_tuning(table_dir) == (None, STALE_KIOSK)
    assert "tune again" in STALE_KIOSK and "not used" in capsys.readouterr().err


def test_the_reader_checks_a_tunings_networks_once_and_again_when_their_folder_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _models(tmp_path, monkeypatch)
    monkeypatch.setattr(reader, "classify_with_turns", classifier_says(CLASSES.index("d6:6"), 0.6))
    monkeypatch.setattr(reader, "read_types", type_reader_undecided)
    monkeypatch.setattr(reader, "count_pips", lambda *a, **k: None)
    monkeypatch.setattr(reader, "read_d6", head_says(2, 0.6))
    checked: list[int] = []
    real = Adaptation.in_force

    def counted(self: Adaptation) -> Adaptation | None:
        checked.append(1)
        return real(self)

    monkeypatch.setattr(Adaptation, "in_force", counted)
    frame = one_die_frame("d6")
    cfg = DiceConfig(kinds=("d6",), d6_colour=False)
    plain = reader.read_dice(frame, config=cfg)
    table = _grey_table()
    tuned = replace(cfg, d6_table=table)
    assert [reader.read_dice(frame, config=tuned).dice[0].status for _ in range(3)] == ["read"] * 3
    assert len(checked) == 1  # once for three frames
    # an update replaces the d6 network by a new file: the next frame notices, and reads as untuned
    new = folder / "d6_embed.new.onnx"
    shutil.copy2(folder / "d6_embed.onnx", new)
    _retrain(new)
    before = folder.stat().st_mtime_ns
    new.replace(folder / "d6_embed.onnx")
    if folder.stat().st_mtime_ns == before:  # a coarse clock: the same tick
        os.utime(folder, ns=(folder.stat().st_atime_ns, before + 1_000_000))
    assert reader.read_dice(frame, config=tuned) == plain and len(checked) == 2
    assert reader.read_dice(frame, config=tuned) == plain and len(checked) == 2
    # a network looked for elsewhere (DICE_MODEL_DIR) is checked too
    monkeypatch.setattr(d6head, "MODEL_DIR", models.MODEL_DIR)
    assert reader.read_dice(frame, config=tuned).dice[0].status == "read" and len(checked) == 3
    # a network rewritten in place is noticed by the next load of the tuning
    monkeypatch.setattr(d6head, "MODEL_DIR", folder)
    shutil.copy2(models.MODEL_DIR / "d6_embed.onnx", folder / "d6_embed.onnx")
    table.save(tmp_path / "examples")
    loaded = Adaptation.load(tmp_path / "examples")
    assert loaded is not None and loaded.stale() == ()
    _retrain(folder / "d6_embed.onnx")
    again = Adaptation.load(tmp_path / "examples")
    assert again is not None and again.for_reading() is None
    assert reader.read_dice(frame, config=replace(cfg, d6_table=again)) == plain


def test_a_retrained_number_reader_leaves_that_kinds_memory_unused_and_the_rest_in_use(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _models(tmp_path, monkeypatch)
    rng = np.random.default_rng(0)
    nm = NumberMemory("d20", unit(rng.normal(0, 1, (80, 16))), np.tile(np.arange(1, 21), 4),
                      network=number_network())
    table = replace(_grey_table(), numbers={"d20": nm})
    table.save(tmp_path / "t")
    back = Adaptation.load(tmp_path / "t")
    assert back is not None and back.numbers["d20"].network == number_network() and back.stale() == ()
    _retrain(folder / "number_reader.onnx")
    back = Adaptation.load(tmp_path / "t")
    assert back is not None and back.stale() == ("d20",)
    used = back.in_force()
    assert used is not None and used.numbers == {} and used.read_at == 0.99  # the d6 still tuned
    # only a number memory, now stale: nothing left, the reader reads as untuned
    only = replace(back, bias=np.zeros(6), read_at=None)
    assert only.in_force() is None


def test_a_retrained_colour_reader_leaves_only_the_colour_memory_unused(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.dice.tune import ColourMemory

    folder = _models(tmp_path, monkeypatch)
    colour = ColourMemory(unit(np.ones((8, 16))), np.full(8, 2), 0.9, network=d6colour.fingerprint())
    table = replace(_grey_table(), colour=colour)
    assert table.stale() == () and table.in_force() is table
    _retrain(folder / "d6_colour.onnx")
    assert table.stale() == ("d6 in colour",)
    used = table.in_force()
    assert used is not None and used.colour is None and used.read_at == 0.99


def _old_file(folder: Path, memory: np.ndarray, values: np.ndarray) -> None:
    """An adaptation as saved before tunings kept their networks' fingerprints."""
    np.savez(folder / "adaptation.npz", weight=np.zeros((96, 6)), bias=np.zeros(6), examples=np.array(len(values)),
             memory=memory.astype(np.float16), memory_values=values, knn=np.array([7, 20.0]),
             read_at=np.array(0.9))


def test_an_old_tuning_is_dated_by_its_stored_dice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _models(tmp_path, monkeypatch)
    table = tmp_path / "examples"
    store = ExampleStore(table)
    rng = np.random.default_rng(4)
    crops = rng.integers(0, 255, (6, 64, 64), dtype=np.uint8)
    for i, c in enumerate(crops):
        store.add_crop(c, i + 1, "d6", None)
    values = np.arange(1, 7)
    # made by the d6 network in place (nothing retrained since): found again, used as before
    _, emb = d6head.embed(crops)
    _old_file(table, unit(emb), values)
    same = Adaptation.load(table)
    assert same is not None and same.networks == grey_networks() and same.stale() == ()
    # made by another network (the one shipped before): its stored dice are not found in its
    # memory, so it is left unused
    older = tmp_path / "older"
    older.mkdir()
    shutil.copy2(folder / "d6_embed.onnx", older / "d6_embed.onnx")
    _retrain(older / "d6_embed.onnx")
    monkeypatch.setattr(d6head, "MODEL_DIR", older)
    _, other = d6head.embed(crops)
    monkeypatch.setattr(d6head, "MODEL_DIR", folder)
    assert not np.allclose(other, emb, atol=1e-3)
    _old_file(table, unit(other), values)
    stale = Adaptation.load(table)
    assert stale is not None and set(stale.networks.values()) == {OLDER} and stale.stale() == ("d6",)
    assert stale.in_force() is None
    # nothing to tell by (its stored dice gone): used as before, as it always was
    for e in store.examples():
        e.path.unlink()
    kept = Adaptation.load(table)
    assert kept is not None and kept.networks == grey_networks() and kept.stale() == ()


def test_an_old_tuning_is_dated_once_and_again_only_when_the_file_or_the_network_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.dice import tune

    folder = _models(tmp_path, monkeypatch)
    table = tmp_path / "examples"
    store = ExampleStore(table)
    rng = np.random.default_rng(5)
    crops = rng.integers(0, 255, (6, 64, 64), dtype=np.uint8)
    for i, c in enumerate(crops):
        store.add_crop(c, i + 1, "d6", None)
    _, emb = d6head.embed(crops)
    read: list[int] = []

    def counted(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        read.append(len(x))
        return d6head.embed(x)

    monkeypatch.setattr(tune, "embed", counted)
    _old_file(table, unit(emb), np.arange(1, 7))
    loads = [Adaptation.load(table) for _ in range(3)]
    assert read == [6]  # its stored dice read again once, not at every load
    assert all(a is not None and a.networks == grey_networks() and a.stale() == () for a in loads)
    # another old file in its place, the same size and time: dated afresh (made by another network)
    mtime = (table / "adaptation.npz").stat().st_mtime_ns
    _old_file(table, unit(emb + rng.normal(0, 0.05, emb.shape).astype(np.float32)), np.arange(1, 7))
    os.utime(table / "adaptation.npz", ns=(mtime, mtime))
    other = Adaptation.load(table)
    assert read == [6, 6] and other is not None and set(other.networks.values()) == {OLDER}
    again = Adaptation.load(table)
    assert other.stale() == ("d6",) and again is not None and again.stale() == ("d6",) and read == [6, 6]
    # the network in place changes: dated afresh too
    _old_file(table, unit(emb), np.arange(1, 7))
    assert Adaptation.load(table).stale() == () and read == [6, 6, 6]  # type: ignore[union-attr]
    _retrain(folder / "d6_embed.onnx")
    assert Adaptation.load(table) is not None and read == [6, 6, 6, 6]
    # a dated file damaged since is reported as damaged, and the examples are kept
    whole = (table / "adaptation.npz").read_bytes()
    (table / "adaptation.npz").write_bytes(whole[: len(whole) // 2])
    with pytest.raises(TuneError, match="is damaged"):
        Adaptation.load(table)
    assert len(store.examples()) == 6


def test_an_old_number_memory_is_dated_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = ExampleStore(tmp_path)
    rng = np.random.default_rng(7)
    colour = rng.integers(0, 255, (4, 112, 112, 3), dtype=np.uint8)
    for v in range(1, 5):
        store.add_crop(rng.integers(0, 255, (64, 64), dtype=np.uint8), v, "d4", None, colour[v - 1])
    from vision.dice.tune import number_input

    feats = numbers.glyphs_and_features(number_input(colour))[1]
    np.savez(tmp_path / "adaptation.npz", weight=np.zeros((96, 6)), bias=np.zeros(6), examples=np.array(0),
             num_d4_memory=unit(feats).astype(np.float16), num_d4_values=np.arange(1, 5),
             num_d4_knn=np.array([7, 20.0, 0.97]))
    read: list[int] = []
    real = numbers.glyphs_and_features

    def counted(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        read.append(len(x))
        return real(x)

    monkeypatch.setattr(numbers, "glyphs_and_features", counted)
    loads = [Adaptation.load(tmp_path) for _ in range(2)]
    assert read == [4]
    assert all(a is not None and a.numbers["d4"].network == number_network() for a in loads)


def test_damaged_or_partial_tuning_files_say_what_to_do_and_keep_the_examples(tmp_path: Path) -> None:
    store = ExampleStore(tmp_path)
    store.add_crop(np.zeros((64, 64), np.uint8), 3, "d6", None)
    _grey_table().save(tmp_path)
    whole = (tmp_path / "adaptation.npz").read_bytes()
    for broken in (whole[: len(whole) // 2], whole[:100], b"", b"not an npz"):
        (tmp_path / "adaptation.npz").write_bytes(broken)
        with pytest.raises(TuneError, match="is damaged.*kept examples are still there.*dice tune' again"):
            Adaptation.load(tmp_path)
        assert saved_state(tmp_path).startswith("The tuning saved before is damaged")
        assert len(store.examples()) == 1  # nothing of the table's dice is lost
    # fingerprints that are not names and digests
    (tmp_path / "adaptation.npz").write_bytes(whole)
    d = dict(np.load(tmp_path / "adaptation.npz"))
    d["networks"] = np.array("[1, 2]")
    np.savez(tmp_path / "adaptation.npz", **d)
    with pytest.raises(TuneError, match="fingerprints"):
        Adaptation.load(tmp_path)


def test_dice_tune_says_the_saved_tuning_was_made_with_another_reader_and_replaces_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = ExampleStore(tmp_path)
    rng = np.random.default_rng(2)
    for k in range(6):
        store.add_crop(rng.integers(0, 255, (64, 64), dtype=np.uint8), k + 1, "d6", k + 1)
    older = dict.fromkeys(grey_networks(), "0123456789abcdef")
    Adaptation(np.zeros((96, 6)), np.zeros(6), 6, read_at=0.9, networks=older).save(tmp_path)
    assert saved_state(tmp_path) == ("The tuning saved before was made with another version of the dice "
                                     "reader (d6: not used)")
    assert cli.main(["dice", "tune", "--examples", str(tmp_path), "--status"]) == 0
    status = capsys.readouterr().out
    assert "6 d6 in 6 rolls" in status and "nothing of it in use" in status
    assert "not used: the table's dice tuning of d6 was made with another version" in status
    assert Adaptation.load(tmp_path).networks == older  # type: ignore[union-attr]  # --status tunes nothing
    assert cli.main(["dice", "tune", "--examples", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "made with another version of the dice reader (d6: not used); this tuning replaces it." in out
    new = Adaptation.load(tmp_path)
    assert new is not None and new.networks == grey_networks() and new.stale() == () and saved_state(tmp_path) == ""
    assert cli.main(["dice", "tune", "--examples", str(tmp_path), "--status"]) == 0
    status = capsys.readouterr().out
    assert "saved tuning: in use for d6" in status and "not used" not in status
    # nothing to learn from: the error, and the note that the saved one is still not used
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "adaptation.npz").write_bytes(b"half")
    assert cli.main(["dice", "tune", "--examples", str(empty)]) == 1
    err = capsys.readouterr().err
    assert "nothing to learn from" in err and "note: The tuning saved before is damaged" in err
    assert cli.main(["dice", "tune", "--examples", str(empty), "--status"]) == 1
    assert "examples kept in" in (out := capsys.readouterr().out) and "not used:" in out and "is damaged" in out


def test_an_old_number_memory_is_dated_by_its_stored_dice(tmp_path: Path) -> None:
    from vision.dice.numbers import glyphs_and_features
    from vision.dice.tune import number_input

    store = ExampleStore(tmp_path)
    rng = np.random.default_rng(6)
    colour = rng.integers(0, 255, (4, 112, 112, 3), dtype=np.uint8)
    for v in range(1, 5):
        store.add_crop(rng.integers(0, 255, (64, 64), dtype=np.uint8), v, "d4", None, colour[v - 1])
    feats = glyphs_and_features(number_input(colour))[1]

    def old(memory: np.ndarray) -> None:  # saved before number memories kept their network
        np.savez(tmp_path / "adaptation.npz", weight=np.zeros((96, 6)), bias=np.zeros(6), examples=np.array(0),
                 num_d4_memory=memory.astype(np.float16), num_d4_values=np.arange(1, 5),
                 num_d4_knn=np.array([7, 20.0, 0.97]))

    old(unit(feats))  # made by the number reader in place
    same = Adaptation.load(tmp_path)
    assert same is not None and same.numbers["d4"].network == number_network() and same.stale() == ()
    old(unit(feats + rng.normal(0, 0.05, feats.shape).astype(np.float32)))  # by another one
    other = Adaptation.load(tmp_path)
    assert other is not None and other.numbers["d4"].network == OLDER and other.stale() == ("d4",)
    assert other.in_force() is None


def test_an_old_tuning_that_cannot_be_dated_here_is_used_as_before(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    table = tmp_path / "examples"
    store = ExampleStore(table)
    rng = np.random.default_rng(8)
    for v in range(1, 4):
        store.add_crop(rng.integers(0, 255, (64, 64), dtype=np.uint8), v, "d6", None)
    _old_file(table, unit(rng.normal(0, 1, (3, 96))), np.arange(1, 4))
    # the d6 network missing here: the reader reports that; the tuning is not thrown away for it
    monkeypatch.setattr(d6head, "MODEL_DIR", tmp_path / "no models")
    kept = Adaptation.load(table)
    assert kept is not None and kept.networks == grey_networks() and kept.stale() == ()
