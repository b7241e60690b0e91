import argparse
import dataclasses
import json
from pathlib import Path

import pytest

from companion import config as config_module
from companion.commands import config as config_command
from companion.config import (
    ButtonsConfig,
    Config,
    ConfigError,
    GameConfig,
    StateConfig,
    VisionConfig,
    config_paths,
    default_state_dir,
    load_config,
)


@pytest.fixture
def place(tmp_path):
    """Files at the system, user and explicit places, and the environment that finds them."""

    class Place:
        system = tmp_path / "etc" / "config.toml"
        user = tmp_path / "xdg" / "azul-companion" / "config.toml"
        explicit = tmp_path / "mine.toml"

        def __init__(self):
            self.env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"),
                        "HOME": str(tmp_path / "home"),
                        "XDG_STATE_HOME": str(tmp_path / "state")}

        def write(self, path, text):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return path

        def load(self, explicit=None):
            return load_config(explicit, env=self.env, system_path=self.system)

    return Place()


def test_no_files_gives_the_defaults(place, tmp_path):
    config = place.load()
    assert config == dataclasses.replace(
        Config(), state=StateConfig(directory=str(tmp_path / "state" / "azul-companion")))
    assert config.sources == ()
    assert config.buttons.confirm == 17 and config.display.language == "en"


def test_layers_override_single_keys_in_order(place):
    place.write(place.system, '[camera]\nbackend = "opencv:1"\n[buttons]\nconfirm = 5\n'
                              'undo = 6\n')
    place.write(place.user, "[buttons]\nconfirm = 12\n")
    place.write(place.explicit, '[display]\nlanguage = "de"\n[buttons]\nundo = false\n')
    config = place.load(place.explicit)
    assert config.sources == (place.system, place.user, place.explicit)
    assert config.camera.backend == "opencv:1"
    assert config.buttons.confirm == 12
    assert config.buttons.undo is None
    assert config.buttons.next == 27
    assert config.display.language == "de"


def test_user_file_defaults_to_dot_config(tmp_path):
    user = tmp_path / "home" / ".config" / "azul-companion" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text("")
    env = {"HOME": str(tmp_path / "home")}
    assert config_paths(env=env, system_path=tmp_path / "none.toml") == [user]


def test_state_directory_from_systemd_then_xdg_then_config(place, tmp_path):
    assert default_state_dir({"STATE_DIRECTORY": "/var/lib/azul-companion:/var/lib/other"}) \
        == Path("/var/lib/azul-companion")
    assert default_state_dir({"XDG_STATE_HOME": "/x/state"}) == Path("/x/state/azul-companion")
    assert default_state_dir({"HOME": "/home/ann"}) == Path("/home/ann/.local/state/azul-companion")
    place.write(place.user, f'[state]\ndirectory = "{tmp_path / "games"}"\n')
    assert place.load().state_dir == tmp_path / "games"


def test_a_float_setting_takes_an_integer(place):
    place.write(place.user, "[buttons]\ndebounce = 0\n")
    assert place.load().buttons.debounce == 0.0


BAD = [
    ('[camera]\nbackend = "webcam"\n', "camera.backend", "must be auto, picamera2, opencv"),
    ("[camera]\nwidht = 3\n", "camera.widht", "unknown key; [camera] has backend, width"),
    ("[screen]\nwidth = 3\n", "screen", "unknown section; the sections are camera, buttons"),
    ("camera = 3\n", "camera", "must be a table: [camera]"),
    ('[display]\nwidth = "800"\n', "display.width", 'must be an integer, not "800"'),
    ("[display]\nwidth = true\n", "display.width", "must be an integer, not true"),
    ("[display]\nfullscreen = 1\n", "display.fullscreen", "must be true or false, not 1"),
    ("[display]\nwidth = 100\n", "display.width", "must be between 320 and 7680, not 100"),
    ('[display]\nlanguage = "fr"\n', "display.language", "must be one of en, da, de"),
    ("[buttons]\nconfirm = 40\n", "buttons.confirm", "BCM GPIO number from 0 to 27"),
    ("[buttons]\nconfirm = true\n", "buttons.confirm", "must be an integer, not true"),
    ("[buttons]\nconfirm = 4.0\n", "buttons.confirm", "must be an integer, not 4.0"),
    ("[buttons]\nnext = 17\n", "buttons.next", "GPIO 17 is already used by buttons.confirm"),
    ("[buttons]\nbuzzer = 22\n", "buttons.buzzer", "GPIO 22 is already used by buttons.undo"),
    ("[buttons]\ndebounce = 0.5\nlong_press = 0.4\n", "buttons.long_press",
     "buttons.long_press (0.4 s) must be longer than buttons.debounce (0.5 s)"),
    ('[buttons]\ndebounce = "fast"\n', "buttons.debounce", 'must be a number, not "fast"'),
    ('[game]\nplayers = ["Ann"]\n', "game.players", "must list 2 to 4 players, not 1"),
    ('[game]\nplayers = "Ann, Bo"\n', "game.players", "must be a list of strings"),
    ('[game]\nplayers = ["Ann", ""]\n', "game.players", "player names must not be empty"),
    ('[game]\ngame = "azul-kids"\n', "game.game",
     "azul-kids has the variants apprentice, master, not 'colored'"),
    ('[game]\ngame = "chess"\n', "game.game", "must be one of azul, azul-kids, azul-duel"),
    ('[game]\ngame = "azul-duel"\nvariant = "standard"\nplayers = ["A", "B", "C"]\n',
     "game.players", "azul-duel is for 2 to 2 players, not 3"),
    ('[vision]\nmarkers = "yes"\n', "vision.markers", 'must be true or false, not "yes"'),
    ("[mqtt]\nport = 70000\n", "mqtt.port", "must be between 1 and 65535, not 70000"),
    ('[mqtt]\nhost = " "\n', "mqtt.host", "must not be empty"),
    ("[camera]\nreplay_fps = 0\n", "camera.replay_fps", "must be between 0.01 and 120"),
    ('[game]\nkids_boards = "ours.json"\n', "game.kids_boards", "must be a list of strings"),
    ('[game]\nkids_boards = ["nowhere.json"]\n', "game.kids_boards", "nowhere.json: cannot read"),
]


@pytest.mark.parametrize(("text", "key", "problem"), BAD)
def test_bad_settings_name_file_key_and_problem(place, text, key, problem):
    place.write(place.explicit, text)
    with pytest.raises(ConfigError) as caught:
        place.load(place.explicit)
    error = caught.value
    assert (error.file, error.key) == (str(place.explicit), key)
    assert problem in error.problem
    assert str(error) == f"{place.explicit}: {key}: {error.problem}"


@pytest.mark.parametrize("content", [b"[camera\nbackend = 1\n", b"x = \xff\n"])
def test_a_file_that_is_not_toml_is_named(place, content):
    place.system.parent.mkdir(parents=True)
    place.system.write_bytes(content)
    with pytest.raises(ConfigError, match="not valid TOML") as caught:
        place.load()
    assert caught.value.file == str(place.system) and caught.value.key is None


def test_a_missing_explicit_file_is_an_error(place):
    with pytest.raises(ConfigError, match=r"mine\.toml: the file does not exist"):
        place.load(place.explicit)


def test_a_clash_is_charged_to_the_file_that_made_it(place):
    place.write(place.system, "[buttons]\nready_led = 5\n")
    place.write(place.user, "[buttons]\nundo = 5\n")
    with pytest.raises(ConfigError) as caught:
        place.load()
    assert (caught.value.file, caught.value.key) == (str(place.user), "buttons.undo")
    assert "GPIO 5 is already used by buttons.ready_led" in caught.value.problem


def test_a_variant_clash_is_charged_to_the_later_key(place):
    place.write(place.system, '[game]\nvariant = "grey"\n')
    place.write(place.user, '[game]\ngame = "azul-kids"\n')
    with pytest.raises(ConfigError) as caught:
        place.load()
    assert (caught.value.file, caught.value.key) == (str(place.user), "game.game")


def test_settings_print_as_toml_that_loads_back(place, tmp_path):
    config = Config(
        buttons=ButtonsConfig(confirm=5, undo=None, buzzer=13, debounce=0.02),
        game=GameConfig(game="azul-kids", variant="master",
                        players=("Zoë", 'Bo "the bold"', "C\\D"),
                        kids_boards=(str(write_board(tmp_path / "ours.json", "master")),)),
        vision=VisionConfig(markers=True),
        state=StateConfig(directory=str(tmp_path / "games")),
    )
    place.write(place.explicit, config.to_toml())
    assert place.load(place.explicit) == config


def write_board(path: Path, which: str, **changes) -> Path:
    from companion.ui.kids.settings import kids_boards

    board = {**kids_boards(which, 1)[0].to_json(), **changes}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(board), encoding="utf-8")
    return path


def test_our_kids_boards_are_found_beside_the_file_that_names_them(place, tmp_path):
    master = write_board(place.user.parent / "boards" / "ours.json", "master", name="Sea (ours)")
    apprentice = write_board(tmp_path / "elsewhere" / "apprentice.json", "apprentice")
    place.write(place.user, f'[game]\nkids_boards = ["boards/ours.json", "{apprentice}"]\n')
    config = place.load()
    assert config.game.kids_boards == (str(master), str(apprentice))
    assert Config().game.kids_boards == ()  # the example boards


def test_a_kids_board_file_that_breaks_the_format_is_named_with_its_problem(place):
    write_board(place.explicit.parent / "ours.json", "master", side="sideways")
    place.write(place.explicit, '[game]\nkids_boards = ["ours.json"]\n')
    with pytest.raises(ConfigError) as caught:
        place.load(place.explicit)
    assert caught.value.key == "game.kids_boards"
    assert "ours.json" in caught.value.problem and "sideways" in caught.value.problem


# --- the `config` subcommand ----------------------------------------------------------


def run_command(argv, place, monkeypatch):
    monkeypatch.setattr(config_module, "SYSTEM_PATH", place.system)
    for name, value in place.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    parser = argparse.ArgumentParser(prog="azul-companion")
    config_command.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["config", *argv])
    return args.func(args)


def test_config_check_prints_the_merged_settings(place, monkeypatch, capsys):
    place.write(place.system, '[display]\nlanguage = "nl"\n')
    place.write(place.explicit, "[buttons]\nconfirm = 4\n")
    status = run_command(["--check", "--config", str(place.explicit)], place, monkeypatch)
    out = capsys.readouterr().out
    assert status == 0
    assert f"# read {place.system}\n# read {place.explicit}\n" in out
    assert 'language = "nl"' in out and "confirm = 4" in out and "undo = 22" in out


def test_config_check_reports_an_error_with_status_2(place, monkeypatch, capsys):
    place.write(place.explicit, "[buttons]\nconfirm = 99\n")
    status = run_command(["--check", "--config", str(place.explicit)], place, monkeypatch)
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    assert captured.err.startswith(
        f"azul-companion: configuration error: {place.explicit}: buttons.confirm: ")


def test_config_without_files_says_so(place, monkeypatch, capsys):
    assert run_command([], place, monkeypatch) == 0
    assert capsys.readouterr().out.startswith("# no configuration file found")


def test_config_defaults_is_a_starting_file(place, monkeypatch, capsys):
    assert run_command(["--defaults"], place, monkeypatch) == 0
    place.write(place.explicit, capsys.readouterr().out)
    assert place.load(place.explicit).buttons == ButtonsConfig()
