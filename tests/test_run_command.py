"""`azul-companion run` takes its settings from the configuration, checked at start."""

from __future__ import annotations

from companion.cli import main
from companion.commands.run import camera_options
from companion.config import Config, load_config


def test_a_broken_configuration_stops_run_with_the_file_and_key(tmp_path, capsys):
    bad = tmp_path / "config.toml"
    bad.write_text('[display]\nwidth = "wide"\n')
    assert main(["run", "--config", str(bad), "--camera", "synthetic"]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "width" in err


def test_the_configured_camera_is_used_unless_the_command_line_says_otherwise(tmp_path, monkeypatch, capsys):
    import hardware.camera

    asked = []

    def make_camera(name, **options):
        asked.append((name, options))
        raise hardware.camera.CameraError(f"no {name} here")  # stop before a window opens

    monkeypatch.setattr(hardware.camera, "make_camera", make_camera)
    config = tmp_path / "config.toml"
    config.write_text('[camera]\nbackend = "replay:/frames"\nreplay_fps = 4.0\n')
    assert main(["run", "--config", str(config)]) == 2
    assert main(["run", "--config", str(config), "--camera", "opencv:1"]) == 2
    assert asked == [("replay:/frames", {"fps": 4.0}), ("opencv:1", {"size": (2304, 1296)})]
    assert "no opencv:1 here" in capsys.readouterr().err


def test_camera_options_follow_the_backend(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[camera]\nwidth = 1920\nheight = 1080\nlock = false\nreplay_fps = 5.0\n")
    config = load_config(path, env={"HOME": str(tmp_path)}, system_path=tmp_path / "none.toml")
    assert camera_options(config, "picamera2") == {"size": (1920, 1080), "lock": False}
    assert camera_options(config, "opencv:1") == {"size": (1920, 1080)}
    assert camera_options(config, "replay:/frames") == {"fps": 5.0}
    assert camera_options(Config(), "auto") == {"size": (2304, 1296)}


def test_the_automatic_camera_choice_is_reported(monkeypatch, capsys):
    import hardware.camera

    def make_camera(name, **options):
        options["report"]("Camera: a test camera")
        raise hardware.camera.CameraError("stop here")

    monkeypatch.setattr(hardware.camera, "make_camera", make_camera)
    assert main(["run", "--camera", "auto"]) == 2
    assert "Camera: a test camera" in capsys.readouterr().err


def test_each_game_has_its_own_recogniser():
    import vision.kids
    import vision.recognize
    from companion.commands.run import find_recogniser

    assert find_recogniser("azul") is vision.recognize.recognize
    assert find_recogniser("azul-kids") is vision.kids.recognise_kids


def test_a_game_run_cannot_follow_yet_is_refused_by_name(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('[game]\ngame = "azul-duel"\nvariant = "standard"\n')
    assert main(["run", "--config", str(config), "--camera", "synthetic", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "azul-duel" in err and "azul-kids" in err
    assert not list(tmp_path.glob("current*"))
