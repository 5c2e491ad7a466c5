"""Settings from a TOML file: buttons, camera, kiosk screen, the saved-game journal and the
table's default game.

Every key is optional; a missing key keeps the default (the same values as the documented file
``assets/config/companion.toml``). A wrong key or value raises :class:`ConfigError` whose message
names the file, the ``[section] key``, what was wrong and what to do.

Which file is read (first found): the ``path`` argument, ``$COMPANION_CONFIG``,
``~/.config/companion/companion.toml``, ``/etc/companion/companion.toml``; none -> defaults.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

NAV_INPUTS = ("prev", "next", "confirm", "back")
MAX_SEATS = 8
BUTTON_BACKENDS = ("gpio", "keyboard")
USER_CONFIG = Path("~/.config/companion/companion.toml")
SYSTEM_CONFIG = Path("/etc/companion/companion.toml")
DEFAULT_FILE = Path(__file__).resolve().parents[1] / "assets" / "config" / "companion.toml"

PinName = int | str


class ConfigError(ValueError):
    """A settings file is missing, unreadable or holds a wrong value; the message says the fix."""


@dataclass(frozen=True)
class ButtonsConfig:
    backend: str = "gpio"
    pins: Mapping[str, PinName] = field(
        default_factory=lambda: {"prev": 5, "next": 6, "confirm": 13, "back": 26}
    )
    react_pins: tuple[PinName, ...] = (17, 27, 22, 23, 24, 25, 12, 16)
    bounce_time: float = 0.05
    hold_time: float = 1.0
    hold_actions: frozenset[str] = frozenset({"back", "react"})


@dataclass(frozen=True)
class CameraConfig:
    backend: str = "picamera2"
    size: tuple[int, int] = (2304, 1296)  # the Camera Module 3's full-view mode: dice ~30 px
    swap_rb: bool = False
    warmup: float = 2.0
    lock_controls: bool = True
    stall_timeout: float = 1.5
    closer_look: bool = True  # a roll with an unsure die is read again in a full-sensor still
    dice_area: str | tuple[float, float, float, float] = "board_centre"


@dataclass(frozen=True)
class KioskConfig:
    resolution: tuple[int, int] = (1280, 720)
    fullscreen: bool = True


@dataclass(frozen=True)
class TableConfig:
    game: str = "dungeonopoly"  # the game a new table starts with (``companion play``)


@dataclass(frozen=True)
class JournalConfig:
    path: Path = Path("game.sqlite")


@dataclass(frozen=True)
class DiceLearnConfig:
    """The table's own dice (``vision.dice.tune``): keep confirmed rolls as examples (``learn``),
    in ``examples`` (relative: in the state folder), at most ``max_mb`` megabytes of them."""

    learn: bool = True
    examples: Path = Path("dice-examples")
    max_mb: float = 100.0


@dataclass(frozen=True)
class Config:
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    kiosk: KioskConfig = field(default_factory=KioskConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    table: TableConfig = field(default_factory=TableConfig)
    dice: DiceLearnConfig = field(default_factory=DiceLearnConfig)
    source: str = "built-in defaults"


def find_config_file(env: Mapping[str, str] | None = None) -> Path | None:
    """The settings file that :func:`load_config` would read without an explicit path."""
    env = os.environ if env is None else env
    if env.get("COMPANION_CONFIG"):
        return Path(env["COMPANION_CONFIG"]).expanduser()
    for candidate in (USER_CONFIG.expanduser(), SYSTEM_CONFIG):
        if candidate.is_file():
            return candidate
    return None


def load_config(path: str | Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Read the settings file (see the module docstring for which one) and check every value."""
    env = os.environ if env is None else env
    chosen = Path(path).expanduser() if path is not None else find_config_file(env)
    if chosen is None:
        return parse_config({}, source="built-in defaults", env=env)
    if chosen.is_dir():
        raise ConfigError(
            f"settings file {chosen} is a folder, not a file: point COMPANION_CONFIG (or the "
            "path given) at the .toml file itself, e.g. companion.toml inside that folder"
        )
    if not chosen.is_file():
        raise ConfigError(
            f"settings file {chosen} does not exist: create it (copy "
            "assets/config/companion.toml) or point COMPANION_CONFIG at an existing file"
        )
    try:
        text = chosen.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read settings file {chosen}: {exc}") from exc
    return parse_config_text(text, source=str(chosen), env=env)


def parse_config_text(
    text: str, source: str = "<text>", env: Mapping[str, str] | None = None
) -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{source} is not valid TOML ({exc}): fix the line shown, e.g. quote text values "
            'like backend = "picamera2"'
        ) from exc
    return parse_config(data, source=source, env=env)


def parse_config(
    data: Mapping[str, Any], source: str = "<dict>", env: Mapping[str, str] | None = None
) -> Config:
    """Check a decoded TOML document and build a :class:`Config`."""
    env = os.environ if env is None else env
    r = _Reader(source)
    r.only_keys(data, "", ("buttons", "camera", "kiosk", "journal", "table", "dice"))
    buttons = _parse_buttons(r, r.table(data, "buttons"))
    camera = _parse_camera(r, r.table(data, "camera"))
    kiosk_t = r.table(data, "kiosk")
    r.only_keys(kiosk_t, "kiosk", ("resolution", "fullscreen"))
    kiosk = KioskConfig(
        resolution=r.size(kiosk_t, "kiosk", "resolution", KioskConfig.resolution),
        fullscreen=r.boolean(kiosk_t, "kiosk", "fullscreen", KioskConfig.fullscreen),
    )
    journal_t = r.table(data, "journal")
    r.only_keys(journal_t, "journal", ("path",))
    raw_path = journal_t.get("path", str(JournalConfig.path))
    if not isinstance(raw_path, str) or not raw_path.strip() or "\x00" in raw_path:
        raise r.error("journal", "path", raw_path,
                      'a file path in quotes without NUL characters, e.g. "game.sqlite"')
    journal = JournalConfig(path=resolve_state_path(raw_path, env))
    table_t = r.table(data, "table")
    r.only_keys(table_t, "table", ("game",))
    game = table_t.get("game", TableConfig.game)
    if not isinstance(game, str) or not game.strip():
        raise r.error("table", "game", game, 'a game\'s name in quotes, e.g. "monopoly"')
    dice_t = r.table(data, "dice")
    r.only_keys(dice_t, "dice", ("learn", "examples", "max_mb"))
    raw_dir = dice_t.get("examples", str(DiceLearnConfig.examples))
    if not isinstance(raw_dir, str) or not raw_dir.strip() or "\x00" in raw_dir:
        raise r.error("dice", "examples", raw_dir, 'a folder path in quotes, e.g. "dice-examples"')
    max_mb = dice_t.get("max_mb", DiceLearnConfig.max_mb)
    if isinstance(max_mb, bool) or not isinstance(max_mb, int | float) or not 0 <= max_mb <= 10_000:
        raise r.error("dice", "max_mb", max_mb, "a size in megabytes from 0 to 10000, e.g. 100")
    dice = DiceLearnConfig(learn=r.boolean(dice_t, "dice", "learn", DiceLearnConfig.learn),
                           examples=resolve_state_path(raw_dir, env), max_mb=float(max_mb))
    return Config(buttons=buttons, camera=camera, kiosk=kiosk, journal=journal,
                  table=TableConfig(game=game.strip()), dice=dice, source=source)


def resolve_state_path(raw: str, env: Mapping[str, str]) -> Path:
    """A relative journal path lives in systemd's $STATE_DIRECTORY, else ~/.local/state/companion."""
    path = Path(raw).expanduser()
    if path.is_absolute():
        return path
    state = env.get("STATE_DIRECTORY", "").split(":")[0]
    base = Path(state) if state else Path("~/.local/state/companion").expanduser()
    return base / path


def _parse_buttons(r: _Reader, t: Mapping[str, Any]) -> ButtonsConfig:
    d = ButtonsConfig()
    r.only_keys(t, "buttons", ("backend", "bounce_time", "hold_time", "hold_actions", "pins"))
    backend = t.get("backend", d.backend)
    if backend not in BUTTON_BACKENDS:
        raise r.error("buttons", "backend", backend, 'one of "gpio" or "keyboard"')
    bounce = r.number(t, "buttons", "bounce_time", d.bounce_time, 0.0, 1.0)
    hold = r.number(t, "buttons", "hold_time", d.hold_time, 0.1, 10.0)
    actions = t.get("hold_actions", sorted(d.hold_actions))
    allowed = (*NAV_INPUTS, "react")
    if not isinstance(actions, list) or any(a not in allowed for a in actions):
        raise r.error(
            "buttons", "hold_actions", actions, f'a list drawn from {list(allowed)}, e.g. ["back"]'
        )
    pins_t = r.table(t, "pins", section="buttons")
    r.only_keys(pins_t, "buttons.pins", (*NAV_INPUTS, "react"))
    pins: dict[str, PinName] = {}
    for name in NAV_INPUTS:
        pins[name] = r.pin(pins_t.get(name, d.pins[name]), "buttons.pins", name)
    react_raw = pins_t.get("react", list(d.react_pins))
    if not isinstance(react_raw, list) or len(react_raw) > MAX_SEATS:
        raise r.error(
            "buttons.pins",
            "react",
            react_raw,
            f"a list of at most {MAX_SEATS} pins, seat 1 first, e.g. [17, 27, 22]",
        )
    react = tuple(r.pin(p, "buttons.pins", f"react[{i}]") for i, p in enumerate(react_raw))
    seen: dict[str, str] = {}
    for key, pin in [*pins.items(), *((f"react[{i}]", p) for i, p in enumerate(react))]:
        norm = _normal_pin(pin)
        if norm in seen:
            raise ConfigError(
                f"{r.source}: [buttons.pins] {key} and {seen[norm]} both use pin {pin!r}: "
                "give every button its own GPIO pin"
            )
        seen[norm] = key
    return ButtonsConfig(
        backend=backend,
        pins=pins,
        react_pins=react,
        bounce_time=bounce,
        hold_time=hold,
        hold_actions=frozenset(actions),
    )


def _parse_camera(r: _Reader, t: Mapping[str, Any]) -> CameraConfig:
    d = CameraConfig()
    r.only_keys(
        t, "camera",
        ("backend", "size", "swap_rb", "warmup", "lock_controls", "stall_timeout", "closer_look",
         "dice_area"),
    )
    backend = t.get("backend", d.backend)
    if not isinstance(backend, str) or not backend.strip():
        raise r.error(
            "camera",
            "backend",
            backend,
            '"picamera2", "device:0", "folder:PATH", "synthetic" or "none"',
        )
    return CameraConfig(
        backend=backend.strip(),
        size=r.size(t, "camera", "size", d.size),
        swap_rb=r.boolean(t, "camera", "swap_rb", d.swap_rb),
        warmup=r.number(t, "camera", "warmup", d.warmup, 0.0, 30.0),
        lock_controls=r.boolean(t, "camera", "lock_controls", d.lock_controls),
        stall_timeout=r.number(t, "camera", "stall_timeout", d.stall_timeout, 0.2, 10.0),
        closer_look=r.boolean(t, "camera", "closer_look", d.closer_look),
        dice_area=_dice_area(r, t.get("dice_area", d.dice_area)),
    )


def _dice_area(r: _Reader, value: Any) -> str | tuple[float, float, float, float]:
    from companion.kiosk.dice_area import DiceArea

    try:
        area = DiceArea.parse(value)
    except ValueError as exc:
        raise r.error("camera", "dice_area", value,
                      f'"board_centre", "whole_view" or [x, y, w, h] in millimetres ({exc})'
                      ) from None
    if isinstance(value, str):
        return value
    assert area.mm is not None
    return area.mm


def _normal_pin(pin: PinName) -> str:
    if isinstance(pin, int):
        return f"GPIO{pin}"
    text = pin.strip().upper()
    if text.startswith("BCM"):
        text = "GPIO" + text[3:]
    return text


class _Reader:
    """Small typed getters that raise ConfigError naming the file, section and key."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, section: str, key: str, value: object, wanted: str) -> ConfigError:
        return ConfigError(
            f"{self.source}: [{section}] {key} = {value!r} is not valid: use {wanted}, "
            "or delete the line to use the default"
        )

    def table(self, data: Mapping[str, Any], key: str, section: str = "") -> Mapping[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            where = f"[{section}] {key}" if section else key
            raise ConfigError(
                f"{self.source}: {where} must be a table like [{section + '.' if section else ''}"
                f"{key}], not a single value {value!r}"
            )
        return value

    def only_keys(self, data: Mapping[str, Any], section: str, known: tuple[str, ...]) -> None:
        for key in data:
            if key not in known:
                where = f"[{section}] " if section else "top-level "
                raise ConfigError(
                    f"{self.source}: unknown {where}key {key!r} (a typo?): the known keys are "
                    f"{', '.join(known)}"
                )

    def number(
        self, t: Mapping[str, Any], section: str, key: str, default: float, lo: float, hi: float
    ) -> float:
        value = t.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
            raise self.error(section, key, value, f"a number of seconds from {lo} to {hi}")
        return float(value)

    def boolean(self, t: Mapping[str, Any], section: str, key: str, default: bool) -> bool:
        value = t.get(key, default)
        if not isinstance(value, bool):
            raise self.error(section, key, value, "true or false (no quotes)")
        return value

    def size(
        self, t: Mapping[str, Any], section: str, key: str, default: tuple[int, int]
    ) -> tuple[int, int]:
        value = t.get(key, list(default))
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            or not all(16 <= v <= 8192 for v in value)
        ):
            raise self.error(section, key, value, "[width, height] in pixels, e.g. [1280, 720]")
        return (value[0], value[1])

    def pin(self, value: object, section: str, key: str) -> PinName:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 27:
            return value
        if isinstance(value, str) and value.strip():
            return value.strip()
        raise self.error(
            section, key, value, 'a BCM GPIO number 0-27 or a gpiozero pin name like "GPIO17"'
        )
