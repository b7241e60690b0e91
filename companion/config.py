"""The companion's settings: one TOML file, in layers, checked before anything starts.

Files are read in this order, each overriding single keys of the ones before:

1. /etc/azul-companion/config.toml (the kiosk's own settings),
2. $XDG_CONFIG_HOME/azul-companion/config.toml (~/.config/... by default),
3. the file given with --config (which must then exist).

A file holds TOML tables named after the sections below ([camera], [buttons], ...).
Unknown sections or keys, wrong types and bad values are errors that name the
file, the key and the problem: a typo must never be silently ignored on a kiosk.
Pins are BCM numbers; ``false`` leaves an optional device (a button, LED, buzzer) out.
File names in a file (``[game] kids_boards``) are taken from that file's folder unless absolute.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tomllib
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.i18n import LANGUAGES, _

SYSTEM_PATH = Path("/etc/azul-companion/config.toml")
APP_DIR = "azul-companion"

GAME_VARIANTS = {
    "azul": ("colored", "grey"),
    "azul-kids": ("apprentice", "master"),
    "azul-duel": ("standard",),
}
PLAYER_COUNTS = {"azul": (2, 4), "azul-kids": (2, 4), "azul-duel": (2, 2)}


class ConfigError(ValueError):
    """A configuration file that cannot be used; says which file, which key, and why."""

    def __init__(self, file: Path | str, key: str | None, problem: str) -> None:
        self.file = str(file)
        self.key = key
        self.problem = problem
        if key is None:
            message = _("{file}: {problem}").format(file=file, problem=problem)
        else:
            message = _("{file}: {key}: {problem}").format(file=file, key=key, problem=problem)
        super().__init__(message)


Check = Callable[[Any], str | None]


def _setting(default: Any, check: Check | None = None, *, files: bool = False) -> Any:
    """``files``: the value names files, found from the configuration file's folder."""
    return field(default=default, metadata={"check": check, "files": files})


def _range(low: float, high: float) -> Check:
    def check(value: float) -> str | None:
        if low <= value <= high:
            return None
        return _("must be between {low} and {high}, not {value}").format(
            low=low, high=high, value=value)
    return check


def _pin(value: int | None) -> str | None:
    if value is None or 0 <= value <= 27:
        return None
    return _("must be a BCM GPIO number from 0 to 27 (or false for none), not {value}").format(
        value=value)


def _one_of(*choices: str) -> Check:
    def check(value: str) -> str | None:
        if value in choices:
            return None
        return _("must be one of {choices}, not {value!r}").format(
            choices=", ".join(choices), value=value)
    return check


_CAMERA = re.compile(r"auto|picamera2|synthetic|opencv(:.+)?|replay:.+")


def _camera_backend(value: str) -> str | None:
    if _CAMERA.fullmatch(value):
        return None
    return _("must be auto, picamera2, opencv, opencv:DEVICE, replay:PATH or synthetic, "
             "not {value!r}").format(value=value)


def _not_empty(value: str) -> str | None:
    return None if value.strip() else _("must not be empty")


def _names(value: tuple[str, ...]) -> str | None:
    if not 2 <= len(value) <= 4:
        return _("must list 2 to 4 players, not {count}").format(count=len(value))
    if any(not name.strip() for name in value):
        return _("player names must not be empty")
    return None


def _board_files(value: tuple[str, ...]) -> str | None:
    from companion.rules.kids_board import BoardError, load_board  # noqa: PLC0415  (only when set)

    for path in value:
        try:
            load_board(path)
        except BoardError as error:
            return str(error)
    return None


@dataclass(frozen=True)
class CameraConfig:
    backend: str = _setting("auto", _camera_backend)
    width: int = _setting(2304, _range(64, 10000))
    height: int = _setting(1296, _range(48, 10000))
    # Lock exposure, white balance and focus after a calibration shot (Pi camera).
    lock: bool = _setting(True)
    # Frames per second when the backend is replay:PATH.
    replay_fps: float = _setting(2.0, _range(0.01, 120))


@dataclass(frozen=True)
class ButtonsConfig:
    enabled: bool = _setting(True)
    confirm: int | None = _setting(17, _pin)
    next: int | None = _setting(27, _pin)
    undo: int | None = _setting(22, _pin)
    debounce: float = _setting(0.03, _range(0.0, 0.5))
    long_press: float = _setting(0.8, _range(0.2, 5.0))
    ready_led: int | None = _setting(None, _pin)
    attention_led: int | None = _setting(None, _pin)
    buzzer: int | None = _setting(None, _pin)


@dataclass(frozen=True)
class DisplayConfig:
    width: int = _setting(800, _range(320, 7680))
    height: int = _setting(480, _range(240, 4320))
    fullscreen: bool = _setting(True)
    language: str = _setting("en", _one_of(*LANGUAGES))


@dataclass(frozen=True)
class GameConfig:
    game: str = _setting("azul", _one_of(*GAME_VARIANTS))
    variant: str = _setting("colored")
    players: tuple[str, ...] = _setting(("Player 1", "Player 2"), _names)
    # A family's own Azul Kids boards (docs/kids-boards.md), one file a side; empty: the examples.
    kids_boards: tuple[str, ...] = _setting((), _board_files, files=True)


@dataclass(frozen=True)
class VisionConfig:
    # The table carries the kit's ArUco markers (`azul-companion kit`, docs/aruco-kit.md):
    # Azul's boards are also looked for where they say (Azul Kids reads without them).
    # Only an aid: the default needs none.
    markers: bool = _setting(False)


@dataclass(frozen=True)
class StateConfig:
    # Empty: $STATE_DIRECTORY under systemd, else $XDG_STATE_HOME/azul-companion.
    directory: str = _setting("")


@dataclass(frozen=True)
class MqttConfig:
    enabled: bool = _setting(False)
    host: str = _setting("localhost", _not_empty)
    port: int = _setting(1883, _range(1, 65535))
    topic: str = _setting("azul-companion", _not_empty)
    username: str = _setting("")
    password: str = _setting("")


@dataclass(frozen=True)
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    game: GameConfig = field(default_factory=GameConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    state: StateConfig = field(default_factory=StateConfig)
    mqtt: MqttConfig = field(default_factory=MqttConfig)
    # The files this configuration was read from, in order; not a setting.
    sources: tuple[Path, ...] = field(default=(), compare=False)

    @property
    def state_dir(self) -> Path:
        return Path(self.state.directory)

    def to_toml(self) -> str:
        """The settings as a config.toml that loads back to the same settings."""
        lines = []
        for section in SECTIONS:
            lines.append(f"[{section}]")
            values = getattr(self, section)
            for item in dataclasses.fields(values):
                lines.append(f"{item.name} = {_toml_value(getattr(values, item.name))}")
            lines.append("")
        return "\n".join(lines)


SECTIONS: dict[str, type] = {
    "camera": CameraConfig,
    "buttons": ButtonsConfig,
    "display": DisplayConfig,
    "game": GameConfig,
    "vision": VisionConfig,
    "state": StateConfig,
    "mqtt": MqttConfig,
}
PIN_KEYS = ("confirm", "next", "undo", "ready_led", "attention_led", "buzzer")


def _toml_value(value: Any) -> str:
    if value is None:
        return "false"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    # JSON's string escapes are all valid in TOML basic strings.
    return json.dumps(value, ensure_ascii=False)


def config_paths(explicit: Path | None = None, env: Mapping[str, str] | None = None,
                 system_path: Path | None = None) -> list[Path]:
    """The files to read, lowest priority first (missing ones other than ``explicit`` skipped)."""
    env = os.environ if env is None else env
    system_path = SYSTEM_PATH if system_path is None else system_path
    config_home = Path(env.get("XDG_CONFIG_HOME") or Path(env.get("HOME", "~")) / ".config")
    paths = [path for path in (system_path, config_home.expanduser() / APP_DIR / "config.toml")
             if path.is_file()]
    if explicit is not None:
        paths.append(explicit)
    return paths


def default_state_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where games are kept unless the config says otherwise."""
    env = os.environ if env is None else env
    # systemd's StateDirectory= sets this (a colon-separated list when there are several).
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    state_home = env.get("XDG_STATE_HOME") or str(Path(env.get("HOME", "~")) / ".local" / "state")
    return Path(state_home).expanduser() / APP_DIR


def load_config(explicit: Path | None = None, *, env: Mapping[str, str] | None = None,
                system_path: Path | None = None) -> Config:
    """Read, check and merge the configuration files; ConfigError on the first problem."""
    paths = config_paths(explicit, env, system_path)
    values: dict[str, dict[str, Any]] = {section: {} for section in SECTIONS}
    origin: dict[str, Path] = {}
    for path in paths:
        for section, key, value in _read(path):
            values[section][key] = value
            origin[f"{section}.{key}"] = path
    sections = {section: cls(**values[section]) for section, cls in SECTIONS.items()}
    config = Config(**sections, sources=tuple(paths))
    _check_together(config, origin)
    if not config.state.directory:
        config = dataclasses.replace(
            config, state=StateConfig(directory=str(default_state_dir(env))))
    return config


def _read(path: Path) -> list[tuple[str, str, Any]]:
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except FileNotFoundError:
        raise ConfigError(path, None, _("the file does not exist")) from None
    except OSError as error:
        raise ConfigError(path, None, error.strerror or str(error)) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(path, None, _("not valid TOML: {error}").format(error=error)) from None
    settings = []
    for section, table in data.items():
        if section not in SECTIONS:
            raise ConfigError(path, section, _("unknown section; the sections are {known}").format(
                known=", ".join(SECTIONS)))
        if not isinstance(table, dict):
            raise ConfigError(path, section, _("must be a table: [{section}]").format(
                section=section))
        fields = {item.name: item for item in dataclasses.fields(SECTIONS[section])}
        hints = typing.get_type_hints(SECTIONS[section])
        for key, raw in table.items():
            name = f"{section}.{key}"
            if key not in fields:
                raise ConfigError(path, name, _("unknown key; [{section}] has {known}").format(
                    section=section, known=", ".join(fields)))
            value, problem = _convert(raw, hints[key])
            if problem is None and fields[key].metadata["files"]:
                value = tuple(str(path.parent / Path(item).expanduser()) for item in value)
            if problem is None and fields[key].metadata["check"] is not None:
                problem = fields[key].metadata["check"](value)
            if problem is not None:
                raise ConfigError(path, name, problem)
            settings.append((section, key, value))
    return settings


def _convert(raw: Any, hint: Any) -> tuple[Any, str | None]:
    """``raw`` (as TOML gave it) as a value of type ``hint``, or a problem."""
    if hint == int | None:
        if raw is False:
            return None, None
        hint = int
    if hint == tuple[str, ...]:
        if isinstance(raw, list) and all(isinstance(item, str) for item in raw):
            return tuple(raw), None
        return None, _("must be a list of strings, not {value}").format(value=_shown(raw))
    # bool is an int in Python, but `width = true` is surely a mistake.
    ok = isinstance(raw, hint) and not (hint is not bool and isinstance(raw, bool))
    if hint is float and isinstance(raw, int) and not isinstance(raw, bool):
        return float(raw), None
    if ok:
        return raw, None
    return None, _("must be {kind}, not {value}").format(kind=_type_name(hint), value=_shown(raw))


def _type_name(hint: type) -> str:
    if hint is int:
        return _("an integer")
    if hint is float:
        return _("a number")
    if hint is bool:
        return _("true or false")
    return _("a string")


def _shown(raw: Any) -> str:
    return _toml_value(raw) if isinstance(raw, bool | int | float | str) else type(raw).__name__


def _check_together(config: Config, origin: Mapping[str, Path]) -> None:
    """Rules between settings; a clash is charged to whichever of its keys was set last."""

    def rank(key: str) -> int:
        return config.sources.index(origin[key]) if key in origin else -1

    def fail(keys: tuple[str, ...], problem: str) -> typing.NoReturn:
        key = max(keys, key=rank)
        raise ConfigError(origin.get(key, _("built-in defaults")), key, problem)

    game = config.game
    if game.variant not in GAME_VARIANTS[game.game]:
        fail(("game.variant", "game.game"),
             _("{game} has the variants {choices}, not {value!r}").format(
                 game=game.game, choices=", ".join(GAME_VARIANTS[game.game]), value=game.variant))
    low, high = PLAYER_COUNTS[game.game]
    if not low <= len(game.players) <= high:
        fail(("game.players", "game.game"),
             _("{game} is for {low} to {high} players, not {count}").format(
                 game=game.game, low=low, high=high, count=len(game.players)))
    buttons = config.buttons
    if buttons.long_press <= buttons.debounce:
        fail(("buttons.long_press", "buttons.debounce"),
             _("buttons.long_press ({long} s) must be longer than buttons.debounce ({short} s)")
             .format(long=buttons.long_press, short=buttons.debounce))
    used: dict[int, str] = {}
    for key in sorted(PIN_KEYS, key=lambda k: rank(f"buttons.{k}")):
        pin = getattr(buttons, key)
        if pin is None:
            continue
        if pin in used:
            fail((f"buttons.{key}",), _("GPIO {pin} is already used by buttons.{other}").format(
                pin=pin, other=used[pin]))
        used[pin] = key
