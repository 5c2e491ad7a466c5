from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import (
    DEFAULT_FILE,
    Config,
    ConfigError,
    load_config,
    parse_config,
    parse_config_text,
)

ENV = {"STATE_DIRECTORY": "/var/lib/companion"}


def test_shipped_file_matches_built_in_defaults() -> None:
    shipped = load_config(DEFAULT_FILE, env=ENV)
    defaults = parse_config({}, env=ENV)
    assert shipped.buttons == defaults.buttons
    assert shipped.camera == defaults.camera
    assert shipped.kiosk == defaults.kiosk
    assert shipped.journal == defaults.journal
    assert shipped.journal.path == Path("/var/lib/companion/game.sqlite")
    assert len(shipped.buttons.react_pins) == 8
    assert shipped.dice == defaults.dice
    assert shipped.dice.examples == Path("/var/lib/companion/dice-examples")


def test_the_table_can_opt_out_of_keeping_its_dice() -> None:
    cfg = parse_config_text('[dice]\nlearn = false\nmax_mb = 5\nexamples = "/data/dice"\n', env=ENV)
    assert cfg.dice.learn is False
    assert cfg.dice.max_mb == 5.0
    assert cfg.dice.examples == Path("/data/dice")


def test_values_are_read(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(
        """
[buttons]
backend = "keyboard"
bounce_time = 0.02
hold_time = 0.8
hold_actions = ["back", "confirm"]
[buttons.pins]
prev = "GPIO4"
react = [20, 21]
[camera]
backend = "device:0"
size = [640, 480]
swap_rb = true
closer_look = false
[kiosk]
resolution = [800, 480]
fullscreen = false
[journal]
path = "/tmp/x/game.sqlite"
""",
        encoding="utf-8",
    )
    cfg = load_config(path, env={})
    assert cfg.source == str(path)
    assert cfg.buttons.backend == "keyboard"
    assert cfg.buttons.pins["prev"] == "GPIO4"
    assert cfg.buttons.pins["next"] == 6
    assert cfg.buttons.react_pins == (20, 21)
    assert cfg.buttons.hold_actions == {"back", "confirm"}
    assert cfg.camera.size == (640, 480) and cfg.camera.swap_rb and not cfg.camera.closer_look
    assert cfg.kiosk.resolution == (800, 480) and not cfg.kiosk.fullscreen
    assert cfg.journal.path == Path("/tmp/x/game.sqlite")


def test_relative_journal_path_without_systemd_goes_to_home_state() -> None:
    cfg = parse_config({}, env={})
    assert cfg.journal.path == Path("~/.local/state/companion/game.sqlite").expanduser()


def test_environment_variable_chooses_file(tmp_path: Path) -> None:
    path = tmp_path / "other.toml"
    path.write_text("[kiosk]\nfullscreen = false\n", encoding="utf-8")
    cfg = load_config(env={"COMPANION_CONFIG": str(path)})
    assert cfg.kiosk.fullscreen is False


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ('[camera]\nswap_rb = "yes"\n', ["[camera] swap_rb", "true or false"]),
        ("[camera]\nsize = [640]\n", ["[camera] size", "[width, height]"]),
        ("[buttons]\nbounce_time = -1\n", ["[buttons] bounce_time", "seconds"]),
        ('[buttons]\nbackend = "usb"\n', ["[buttons] backend", "keyboard"]),
        ("[buttons.pins]\nprev = 99\n", ["[buttons.pins] prev", "GPIO"]),
        ("[buttons.pins]\nreact = [1,2,3,4,5,6,7,8,9]\n", ["react", "at most 8"]),
        ("[buttons.pins]\nprev = 17\n", ["prev", "react[0]", "own GPIO pin"]),
        ("[camera]\nswapRB = true\n", ["unknown [camera] key 'swapRB'", "swap_rb"]),
        ("[kiosk]\nresolution = 5\n", ["[kiosk] resolution"]),
        ("camera = 3\n", ["camera must be a table"]),
        ('[journal]\npath = ""\n', ["[journal] path"]),
        ("[camera\nbackend = 1\n", ["not valid TOML", "line"]),
        ("[table]\ngame = 3\n", ["[table] game", "in quotes"]),
        ('[table]\nvariant = "monopoly"\n', ["unknown [table] key 'variant'"]),
        ("[dice]\nmax_mb = -1\n", ["[dice] max_mb", "megabytes"]),
        ('[dice]\nlearn = "no"\n', ["[dice] learn", "true or false"]),
    ],
)
def test_bad_values_name_the_key(text: str, needles: list[str]) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config_text(text, source="my.toml", env={})
    message = str(info.value)
    assert message.startswith("my.toml")
    for needle in needles:
        assert needle in message


def test_missing_explicit_file_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist: create it"):
        load_config(tmp_path / "nope.toml")


def test_the_table_game_is_read() -> None:
    assert parse_config({}).table.game == "dungeonopoly"
    cfg = parse_config_text('[table]\ngame = " monopoly "\n', env={})
    assert cfg.table.game == "monopoly"


def test_defaults_object() -> None:
    assert isinstance(parse_config({}), Config)


def test_a_folder_given_as_the_settings_file_is_named_a_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder, not a file"):
        load_config(env={"COMPANION_CONFIG": str(tmp_path)})


def test_a_journal_path_with_a_nul_byte_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="without NUL characters"):
        parse_config({"journal": {"path": "game\x00.sqlite"}}, env=ENV)


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_dice_area_of_nan_or_inf_is_refused(bad: float) -> None:
    with pytest.raises(ConfigError, match="not nan or inf"):
        parse_config({"camera": {"dice_area": [bad, 0, 100, 100]}}, env=ENV)
