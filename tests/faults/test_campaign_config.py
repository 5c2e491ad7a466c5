"""Campaign 5: bad settings files.

Malformed TOML, values of the wrong type, out of range, NaN and infinities, unknown keys, NUL
characters, folders and missing files given as the settings file: each raises
:class:`companion.config.ConfigError` whose message names the key (or the file), never another
exception. The documented settings file, mutated at random, gives a Config or a ConfigError."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.config import DEFAULT_FILE, Config, ConfigError, load_config, parse_config_text

Campaign = Any  # the type of conftest.py's ``campaign`` fixture, which carries the helpers

BAD_NUMBERS = ("nan", "inf", "-inf", "-1", "1e9", "true", '"1.0"', "[]", "{}", "1979-05-27")
BAD_BOOLS = ("1", '"true"', "nan", "[true]", "{}", "0.0")
BAD_SIZES = ("[1280]", "[1280, 720, 3]", "[0, 720]", "[1280.0, 720]", "[true, 720]",
             '["1280", 720]', "[99999, 720]", "[-1, 720]", "nan", '"1280x720"', "[[1280], 720]")
BAD_PINS = ("-1", "28", "1.5", "true", '""', '"  "', "[5]", "{}", "nan")
# (section, key, bad values): every one must be refused with a message naming the key
KEYS: list[tuple[str, str, tuple[str, ...]]] = [
    ("buttons", "backend", ('"gpioo"', "1", '["gpio"]', '""', "{}", "true")),
    ("buttons", "bounce_time", BAD_NUMBERS + ("1.5",)),
    ("buttons", "hold_time", BAD_NUMBERS + ("0.0", "11")),
    ("buttons", "hold_actions", ('"back"', '["jump"]', "[1]", "[[]]", "5", '["back", 1]')),
    ("buttons.pins", "prev", BAD_PINS),
    ("buttons.pins", "next", BAD_PINS),
    ("buttons.pins", "confirm", BAD_PINS),
    ("buttons.pins", "back", BAD_PINS),
    ("buttons.pins", "react", ("5", "[1,2,3,4,7,8,9,10,11]", "[-1]", "[true]", "[[17]]", '"17"')),
    ("camera", "backend", ("1", '""', '"   "', "[]", "true", "{}")),
    ("camera", "size", BAD_SIZES),
    ("camera", "swap_rb", BAD_BOOLS),
    ("camera", "warmup", BAD_NUMBERS + ("31",)),
    ("camera", "lock_controls", BAD_BOOLS),
    ("camera", "stall_timeout", BAD_NUMBERS + ("0.1", "11")),
    ("camera", "closer_look", BAD_BOOLS),
    ("camera", "dice_area", ('"middle"', '""', "5", "[]", "[0, 0, 100]", "[0, 0, -5, 100]",
                             "[nan, 0, 100, 100]", "[0, 0, inf, 100]", '["a", 0, 1, 1]',
                             "[[1], 2, 3, 4]", "{x = 1}", "true", "[0, 0, 0, 0]")),
    ("kiosk", "resolution", BAD_SIZES),
    ("kiosk", "fullscreen", BAD_BOOLS),
    ("journal", "path", ("5", '""', '"  "', '"a\\u0000b"', '"\\u0000"', "[]", "true")),
]
STRUCTURE: list[tuple[str, str]] = [  # (text, a word the message must hold)
    ("buttons = 5", "buttons"),
    ("camera = [1]", "camera"),
    ("[[camera]]\nbackend = 'none'", "camera"),
    ("[buttons]\npins = 5", "pins"),
    ("[camera]\nzoom = 2", "zoom"),
    ("[camera.extra]\nx = 1", "extra"),
    ("[kiosk]\nresolution = [1280, 720]\ncolour = 'red'", "colour"),
    ("[journal]\npath = 'a'\nbackup = 'b'", "backup"),
    ("[buttons.pins]\nreact = [17, 17]", "react"),
    ("[buttons.pins]\nprev = 5\nnext = 'GPIO5'", "next"),
    ("[buttons.pins]\nprev = 'BCM17'", "react"),
    ("[buttons.pins]\nfire = 4", "fire"),
    ("[sound]\nvolume = 3", "sound"),
    ("backend = 'gpio'", "backend"),
]
MALFORMED = [
    "[camera\nbackend = 'x'", "[camera]\nbackend = ", "[camera]\nbackend = gpio",
    "[camera]\nsize = [1, 2", "[camera]\nbackend = 'a'\nbackend = 'b'", "[camera]\n[camera]",
    "= 5", "[camera]\nsize = [1280, 720]]", "\x00", "[journal]\npath = 'a\x00b'",
    "[camera]\nbackend = 'a\nb'", "[kiosk]\nfullscreen = True", "[kiosk]\nfullscreen = tru",
    "[camera]\nwarmup = 1.", "[camera]\nswap_rb = yes", "[camera]\nwarmup = .5",
    "[camera]\nwarmup = 0x1g",
    "[buttons.pins]\nreact = [17,,27]", "\ufeff[camera]\nbackend = 'none'",
]


def _refused(text: str, word: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config_text(text, source="/etc/companion/companion.toml")
    message = str(caught.value)
    assert word.lower() in message.lower(), f"{text!r}: {message}"
    assert "/etc/companion/companion.toml" in message


def test_wrong_values_are_refused_naming_the_key() -> None:
    count = 0
    for section, key, values in KEYS:
        for value in values:
            _refused(f"[{section}]\n{key} = {value}\n", key)
            count += 1
    for text, word in STRUCTURE:
        _refused(text, word)
        count += 1
    assert count > 150


def test_malformed_toml_is_refused_naming_the_file() -> None:
    for text in MALFORMED:
        _refused(text, "companion.toml")


def test_a_boolean_in_the_dice_area_is_refused() -> None:
    _refused("[camera]\ndice_area = [true, 0, 100, 100]", "dice_area")


def test_files_that_are_not_settings_files(tmp_path: Path) -> None:
    folder = tmp_path / "settings"
    folder.mkdir()
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"[camera]\nbackend = '\xff\xfe'\n")
    cases: list[tuple[dict[str, str], str | Path | None, str]] = [
        ({}, folder, "folder"),
        ({"COMPANION_CONFIG": str(folder)}, None, "folder"),
        ({}, tmp_path / "missing.toml", "does not exist"),
        ({"COMPANION_CONFIG": str(tmp_path / "nope" / "x.toml")}, None, "does not exist"),
        ({}, binary, "cannot read"),
        ({}, tmp_path / "missing.toml" / "x.toml", "does not exist"),
    ]
    for env, path, words in cases:
        with pytest.raises(ConfigError, match=words):
            load_config(path, env=env)
    with pytest.raises((ConfigError, ValueError)):  # a NUL in the path itself
        load_config(str(tmp_path / "a\x00b.toml"), env={})


def test_the_documented_file_mutated_at_random(campaign: Campaign) -> None:
    """Values of the documented settings file replaced by wrong ones, lines dropped or cut:
    a Config or a ConfigError, never another exception."""
    rng = campaign.rng("config mutants")
    lines = DEFAULT_FILE.read_text(encoding="utf-8").splitlines()
    values = [i for i, line in enumerate(lines) if re.match(r"^\s*[a-z_]+\s*=", line)]
    junk = [v for _, _, bad in KEYS for v in bad] + ['"x"', "0", "[1, 2]", "{a = 1}"]
    outcomes = {"config": 0, "ConfigError": 0}
    for _ in range(campaign.size(150, 3000)):
        out = list(lines)
        for _ in range(rng.randint(1, 3)):
            i = rng.choice(values)
            kind = rng.random()
            if kind < 0.6:
                out[i] = out[i].split("=", 1)[0] + "= " + rng.choice(junk)
            elif kind < 0.8:
                out[i] = out[i][:rng.randrange(len(out[i]) + 1)]
            else:
                out.insert(i, out[i])
        try:
            result = parse_config_text("\n".join(out), source="mutant.toml")
        except ConfigError:
            outcomes["ConfigError"] += 1
        else:
            assert isinstance(result, Config)
            outcomes["config"] += 1
    print(f"config mutants: {outcomes}")
    assert outcomes["ConfigError"] and outcomes["config"]
