import sys
import types

import cv2
import numpy as np
import pytest

from hardware.camera import (
    AutoCamera,
    Camera,
    CameraError,
    ContextCamera,
    ReconnectingCamera,
    make_camera,
    open_camera,
)
from hardware.camera_opencv import OpenCVCamera
from hardware.camera_picamera2 import (
    AF_MODE_AUTO,
    AF_MODE_MANUAL,
    AF_STATE_FAILED,
    AF_STATE_FOCUSED,
    AF_TRIGGER_START,
    Picamera2Camera,
)
from hardware.camera_replay import ReplayCamera
from hardware.camera_synthetic import SyntheticCamera, TestCard


class FakeClock:
    def __init__(self, t=0.0):
        self.t = t

    def __call__(self):
        return self.t


# --- a fake picamera2 module that records what the backend asks of it ---------------

SCANNING = 1


def fake_picamera2(model="imx708", autofocus=True, af_states=(SCANNING, SCANNING, AF_STATE_FOCUSED),
                   cameras=1, fail=None):
    """A stand-in for the picamera2 module; ``module.calls`` lists every call in order."""
    calls = []

    class Picamera2:
        def __init__(self, camera_num=0):
            calls.append(("Picamera2", camera_num))
            self.camera_controls = {"ExposureTime": (100, 1_000_000, 20_000)}
            if autofocus:
                self.camera_controls["AfMode"] = (0, 2, 0)
            self.size = None
            self.frames = 0
            self.af_states = list(af_states)

        @staticmethod
        def global_camera_info():
            return [{"Model": model, "Num": i} for i in range(cameras)]

        def create_video_configuration(self, main=None, **kwargs):
            calls.append(("create_video_configuration", main))
            return {"main": dict(main)}

        def configure(self, config):
            calls.append(("configure", config))
            self.size = config["main"]["size"]

        def start(self):
            calls.append(("start",))
            if fail == "start":
                raise RuntimeError("Failed to start camera")

        def set_controls(self, controls):
            calls.append(("set_controls", dict(controls)))

        def capture_metadata(self):
            calls.append(("capture_metadata",))
            self.frames += 1
            metadata = {
                "ExposureTime": 10_000 + self.frames,
                "AnalogueGain": 1.5,
                "ColourGains": (1.9, 1.6),
                "LensPosition": 2.0 + self.frames,
            }
            if autofocus:
                metadata["AfState"] = self.af_states.pop(0) if self.af_states else AF_STATE_FOCUSED
            return metadata

        def capture_array(self, name="main", wait=None):
            calls.append(("capture_array", name, wait))
            return ("job", name)

        def wait(self, job, timeout=None):
            calls.append(("wait", job, timeout))
            if fail == "capture":
                raise RuntimeError("Device or resource busy")
            if fail == "stall":
                raise TimeoutError
            width, height = self.size
            frame = np.zeros((height, width, 3), np.uint8)
            frame[..., 0] = 200  # picamera2's RGB888 is B, G, R in memory
            return frame

        def stop(self):
            calls.append(("stop",))
            if fail == "capture":
                raise RuntimeError("camera vanished")

        def close(self):
            calls.append(("close",))

    module = types.ModuleType("picamera2")
    module.Picamera2 = Picamera2
    module.calls = calls
    return module


@pytest.fixture
def picamera2(monkeypatch):
    module = fake_picamera2()
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return module


def controls_set(calls):
    return [args[0] for name, *args in calls if name == "set_controls"]


# --- a scripted fake, for the reconnecting wrapper ---------------------------------


class FlakyCamera(ContextCamera):
    """Opens on the attempts listed in ``opens`` (True/False), fails reads listed in ``fail_reads``."""

    def __init__(self, opens=(), fail_reads=()):
        self.description = "flaky"
        self.opens = list(opens)
        self.fail_reads = set(fail_reads)
        self.open_attempts = 0
        self.reads = 0
        self.closes = 0
        self.is_open = False

    def open(self):
        self.open_attempts += 1
        if self.opens and not self.opens.pop(0):
            raise CameraError("not plugged in")
        self.is_open = True

    def read(self):
        if not self.is_open:
            raise CameraError("the camera is not open")
        self.reads += 1
        if self.reads in self.fail_reads:
            raise CameraError("cable pulled")
        return np.full((4, 6, 3), self.reads, np.uint8)

    def close(self):
        if self.is_open:
            self.closes += 1
        self.is_open = False


# --- the contract every camera keeps ---------------------------------------------


def write_images(folder, count=3, size=(32, 24)):
    folder.mkdir(exist_ok=True)
    for i in range(count):
        frame = np.zeros((size[1], size[0], 3), np.uint8)
        frame[:] = (i * 40, 10, 250 - i * 40)
        assert cv2.imwrite(str(folder / f"frame{i:02d}.png"), frame)
    return folder


def write_video(path, count=4, size=(64, 48)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, size)
    assert writer.isOpened()
    for i in range(count):
        frame = np.full((size[1], size[0], 3), 60 * i, np.uint8)
        writer.write(frame)
    writer.release()
    return path


@pytest.fixture(params=["picamera2", "opencv", "replay-images", "replay-video", "synthetic",
                        "synthetic-source", "auto", "reconnecting", "flaky"])
def any_camera(request, tmp_path, monkeypatch):
    kind = request.param
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2())
    if kind == "picamera2":
        return Picamera2Camera(size=(64, 48), settle_frames=2)
    if kind == "opencv":
        return OpenCVCamera(str(write_video(tmp_path / "table.avi")))
    if kind == "replay-images":
        return make_camera(f"replay:{write_images(tmp_path / 'frames')}")
    if kind == "replay-video":
        return make_camera(f"replay:{write_video(tmp_path / 'table.avi')}")
    if kind == "synthetic":
        return make_camera("synthetic", size=(80, 60))
    if kind == "synthetic-source":
        return SyntheticCamera(source=lambda: np.zeros((10, 20, 3), np.uint8))
    if kind == "auto":
        return make_camera("auto", size=(64, 48), report=lambda message: None)
    if kind == "reconnecting":
        return ReconnectingCamera(SyntheticCamera())
    return FlakyCamera()


def test_every_camera_keeps_the_contract(any_camera):
    camera = any_camera
    assert isinstance(camera, Camera)
    assert isinstance(camera.description, str) and camera.description
    with pytest.raises(CameraError):
        camera.read()  # built, not opened: no device was touched
    for _round in range(2):  # closed cameras open again (reconnecting relies on it)
        with camera as opened:
            assert opened is camera
            frames = [camera.read() for _ in range(3)]
            frame = next(f for f in frames if f is not None)
            assert frame.dtype == np.uint8
            assert frame.ndim == 3 and frame.shape[2] == 3
            assert frame.flags["C_CONTIGUOUS"]
        camera.close()  # twice is fine
        if not isinstance(camera, ReconnectingCamera):
            with pytest.raises(CameraError):
                camera.read()


# --- Picamera2 ----------------------------------------------------------------------


def test_picamera2_locks_exposure_white_balance_and_focus_after_calibration(picamera2):
    camera = Picamera2Camera(size=(64, 48), settle_frames=3)
    assert picamera2.calls == []  # building the camera touches nothing
    camera.open()
    calls = picamera2.calls
    names = [call[0] for call in calls]
    assert calls[0] == ("Picamera2", 0)
    assert ("create_video_configuration", {"size": (64, 48), "format": "RGB888"}) in calls
    assert names.index("configure") < names.index("start") < names.index("set_controls")
    autofocus, lock = controls_set(calls)
    assert autofocus == {"AfMode": AF_MODE_AUTO, "AfTrigger": AF_TRIGGER_START}
    # 3 settle frames, by which the fake is focused; the lock uses the last frame's values.
    assert names.count("capture_metadata") == 3
    assert lock == {
        "AeEnable": False, "AwbEnable": False, "ExposureTime": 10_003, "AnalogueGain": 1.5,
        "ColourGains": (1.9, 1.6), "AfMode": AF_MODE_MANUAL, "LensPosition": 5.0,
    }
    assert camera.locked == lock
    assert "imx708" in camera.description
    frame = camera.read()
    assert calls[-2:] == [("capture_array", "main", False), ("wait", ("job", "main"), 2.0)]
    assert frame.shape == (48, 64, 3)
    assert (frame[..., 0] == 200).all() and (frame[..., 2] == 0).all()  # no channel swap
    camera.close()
    assert calls[-2:] == [("stop",), ("close",)]
    camera.close()
    assert calls[-2:] == [("stop",), ("close",)]


def test_picamera2_waits_for_autofocus_beyond_the_settle_frames(monkeypatch):
    module = fake_picamera2(af_states=[SCANNING] * 6 + [AF_STATE_FOCUSED])
    monkeypatch.setitem(sys.modules, "picamera2", module)
    camera = Picamera2Camera(settle_frames=2, focus_frames=20)
    camera.open()
    assert [c[0] for c in module.calls].count("capture_metadata") == 7
    assert camera.locked["LensPosition"] == 9.0


def test_picamera2_locks_the_lens_where_it_is_when_autofocus_fails(monkeypatch):
    module = fake_picamera2(af_states=[SCANNING, AF_STATE_FAILED])
    monkeypatch.setitem(sys.modules, "picamera2", module)
    camera = Picamera2Camera(settle_frames=1, focus_frames=20)
    camera.open()
    assert [c[0] for c in module.calls].count("capture_metadata") == 2
    assert camera.locked["AfMode"] == AF_MODE_MANUAL
    assert camera.locked["LensPosition"] == 4.0


def test_picamera2_without_autofocus_never_touches_focus(monkeypatch):
    module = fake_picamera2(model="imx219", autofocus=False)
    monkeypatch.setitem(sys.modules, "picamera2", module)
    camera = Picamera2Camera(settle_frames=2)
    camera.open()
    (lock,) = controls_set(module.calls)
    assert lock == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 10_002,
                    "AnalogueGain": 1.5, "ColourGains": (1.9, 1.6)}
    assert camera.read().shape == (1296, 2304, 3)


def test_picamera2_without_lock_leaves_controls_alone(picamera2):
    camera = Picamera2Camera(lock=False)
    camera.open()
    assert controls_set(picamera2.calls) == []
    assert "capture_metadata" not in [c[0] for c in picamera2.calls]


def test_picamera2_missing_module_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        Picamera2Camera().open()


def test_picamera2_without_a_camera_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2(cameras=0))
    with pytest.raises(CameraError, match="no Raspberry Pi camera 0 found"):
        Picamera2Camera().open()


def test_picamera2_start_failure_releases_the_camera(monkeypatch):
    module = fake_picamera2(fail="start")
    monkeypatch.setitem(sys.modules, "picamera2", module)
    camera = Picamera2Camera()
    with pytest.raises(CameraError, match="cannot start: Failed to start camera"):
        camera.open()
    assert module.calls[-2:] == [("stop",), ("close",)]
    assert not camera.is_open


def test_picamera2_capture_failure_is_a_camera_error_and_close_still_works(monkeypatch):
    module = fake_picamera2(fail="capture")
    monkeypatch.setitem(sys.modules, "picamera2", module)
    camera = open_camera("picamera2", settle_frames=1)
    with pytest.raises(CameraError, match="stopped: Device or resource busy"):
        camera.read()
    camera.close()  # stop() raises on a vanished camera; close() goes on
    assert module.calls[-1] == ("close",)
    assert not camera.is_open


def test_picamera2_that_stops_delivering_is_an_error_not_a_hang(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2(fail="stall"))
    camera = open_camera("picamera2", lock=False, frame_timeout=0.5)
    with pytest.raises(CameraError, match=r"delivered no frame for 0\.5 s \(cable loose\?\)"):
        camera.read()


# --- OpenCV ---------------------------------------------------------------------------


class FakeCapture:
    def __init__(self, opened=True, frames=()):
        self.opened = opened
        self.frames = list(frames)
        self.released = False
        self.props = {}

    def isOpened(self):
        return self.opened

    def set(self, prop, value):
        self.props[prop] = value
        return True

    def read(self):
        if self.frames:
            return True, self.frames.pop(0)
        return False, None

    def release(self):
        self.released = True


def test_opencv_camera_that_cannot_open_names_the_device():
    capture = FakeCapture(opened=False)
    camera = OpenCVCamera(0, capture_factory=lambda device: capture)
    with pytest.raises(CameraError, match="/dev/video0 cannot be opened"):
        camera.open()
    assert capture.released


def test_opencv_unplugged_camera_gives_none_then_an_error():
    grey = np.full((4, 5), 7, np.uint8)
    capture = FakeCapture(frames=[grey])
    camera = OpenCVCamera(2, size=(640, 480), max_failures=3, capture_factory=lambda d: capture)
    camera.open()
    assert capture.props == {cv2.CAP_PROP_FRAME_WIDTH: 640, cv2.CAP_PROP_FRAME_HEIGHT: 480}
    frame = camera.read()
    assert frame.shape == (4, 5, 3) and (frame == 7).all()
    assert camera.read() is None
    assert camera.read() is None
    with pytest.raises(CameraError, match=r"/dev/video2 stopped delivering frames \(unplugged\?\)"):
        camera.read()


# --- replay ---------------------------------------------------------------------------


def test_replay_images_in_name_order_and_looping(tmp_path):
    camera = open_camera(f"replay:{write_images(tmp_path / 'f', count=3)}")
    blues = [int(camera.read()[0, 0, 0]) for _ in range(4)]
    assert blues == [0, 40, 80, 0]


def test_replay_without_loop_ends_with_none(tmp_path):
    camera = ReplayCamera(write_images(tmp_path / "f", count=2), loop=False)
    camera.open()
    assert camera.read() is not None and camera.read() is not None
    assert not camera.exhausted
    assert camera.read() is None
    assert camera.exhausted


def test_replay_keeps_its_rate(tmp_path):
    clock = FakeClock()
    camera = ReplayCamera(write_images(tmp_path / "f", count=3), fps=2.0, clock=clock)
    camera.open()
    assert camera.read()[0, 0, 0] == 0
    clock.t = 0.3
    assert camera.read() is None
    clock.t = 0.5
    assert camera.read()[0, 0, 0] == 40
    clock.t = 0.99
    assert camera.read() is None
    clock.t = 1.0
    assert camera.read()[0, 0, 0] == 80


def test_replay_survives_an_undecodable_image(tmp_path):
    folder = write_images(tmp_path / "f", count=2)
    (folder / "frame00b.png").write_bytes(b"not a png at all")
    camera = open_camera(f"replay:{folder}")
    results = [camera.read() for _ in range(3)]
    assert results[0][0, 0, 0] == 0
    assert results[1] is None
    assert results[2][0, 0, 0] == 40


def test_replay_video_frames_and_loop(tmp_path):
    camera = open_camera(f"replay:{write_video(tmp_path / 'v.avi', count=3)}")
    levels = [int(np.median(camera.read())) for _ in range(4)]
    assert levels[0] < 10 and 50 < levels[1] < 70 and 110 < levels[2] < 130 and levels[3] < 10


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p / "missing", "does not exist"),
    (lambda p: p, "holds no images"),
    (lambda p: (p / "x.avi").write_bytes(b"junk") and p / "x.avi", "not a video"),
])
def test_replay_bad_paths_are_clear_errors(tmp_path, make, message):
    with pytest.raises(CameraError, match=message):
        ReplayCamera(make(tmp_path)).open()


# --- synthetic ------------------------------------------------------------------------


def test_synthetic_default_frames_move():
    camera = open_camera("synthetic", size=(120, 90))
    first, second = camera.read(), camera.read()
    assert first.shape == (90, 120, 3)
    assert not np.array_equal(first, second)


def test_synthetic_takes_any_frame_source_and_rejects_bad_frames():
    frames = iter([np.full((2, 3, 3), 9, np.uint8), np.zeros((2, 3), np.float32)])
    camera = open_camera("synthetic", source=lambda: next(frames))
    assert (camera.read() == 9).all()
    with pytest.raises(CameraError, match=r"shape \(2, 3\) and type float32"):
        camera.read()


def test_test_card_has_the_tile_colours():
    frame = TestCard((200, 100))()
    colours = {tuple(int(v) for v in pixel) for pixel in frame.reshape(-1, 3)}
    assert (171, 134, 29) in colours and (69, 60, 239) in colours


# --- choosing a camera ------------------------------------------------------------------


def test_make_camera_parses_names(tmp_path):
    assert isinstance(make_camera("synthetic"), SyntheticCamera)
    assert make_camera("opencv").device == 0
    assert make_camera("opencv:2").device == 2
    assert make_camera("opencv:/dev/video4").device == "/dev/video4"
    assert isinstance(make_camera("picamera2"), Picamera2Camera)
    assert make_camera(f"replay:{tmp_path}").path == tmp_path
    assert isinstance(make_camera("auto"), AutoCamera)


@pytest.mark.parametrize("name", ["webcam", "synthetic:x", "auto:1", "picamera2:0"])
def test_unknown_camera_names_list_the_choices(name):
    with pytest.raises(CameraError, match="choose one of: auto, picamera2, opencv, replay:PATH"):
        make_camera(name)


@pytest.mark.parametrize("name", ["replay", "replay:"])
def test_replay_without_a_path_says_what_is_missing(name):
    with pytest.raises(CameraError, match="needs a folder or video: replay:PATH"):
        make_camera(name)


def test_auto_takes_the_pi_camera_and_says_so(picamera2):
    messages = []
    camera = open_camera("auto", size=(64, 48), report=messages.append)
    assert messages == ["Camera: Raspberry Pi camera 0 (imx708)"]
    assert camera.description == "Raspberry Pi camera 0 (imx708)"
    assert camera.read().shape == (48, 64, 3)


def test_auto_falls_through_and_reports_each_reason():
    messages = []
    camera = AutoCamera([lambda: FlakyCamera(opens=[False]), FlakyCamera],
                        report=messages.append)
    camera.open()
    assert messages == ["flaky: not used: not plugged in", "Camera: flaky"]
    assert camera.read() is not None


def test_auto_without_any_camera_names_every_problem(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    camera = make_camera("auto", report=lambda message: None)

    def no_webcam(self):
        raise CameraError("no /dev/video0")

    # No webcam in the test machine either: make sure of it rather than assume it.
    monkeypatch.setattr(OpenCVCamera, "open", no_webcam)
    expected = r"no camera found: picamera2 is not installed.*; no /dev/video0"
    with pytest.raises(CameraError, match=expected):
        camera.open()


# --- reconnecting ---------------------------------------------------------------------


def test_missing_camera_is_retried_with_backoff_and_never_raises():
    clock = FakeClock()
    flaky = FlakyCamera(opens=[False, False, False, True])
    statuses = []
    camera = ReconnectingCamera(flaky, clock=clock, first_delay=1, max_delay=3,
                                on_status=statuses.append)
    camera.open()
    assert flaky.open_attempts == 1
    assert camera.status == "Camera not available: not plugged in. Trying again in 1 s."
    attempts = []
    for step in range(80):
        clock.t = step / 10
        before = flaky.open_attempts
        frame = camera.read()
        if flaky.open_attempts > before:
            attempts.append(clock.t)
        if frame is not None:
            break
    assert attempts == [1.0, 3.0, 6.0]  # delays 1, 2, then 3 (capped)
    assert frame is not None
    assert camera.status is None
    assert statuses[-1] is None
    assert "Trying again in 3 s." in statuses[-2]


def test_camera_lost_while_reading_is_closed_and_reopened():
    clock = FakeClock()
    flaky = FlakyCamera(fail_reads={2})
    camera = ReconnectingCamera(flaky, clock=clock, first_delay=2)
    with camera:
        assert camera.read() is not None
        assert camera.read() is None
        assert camera.status == "Camera lost: cable pulled. Trying again in 2 s."
        assert flaky.closes == 1 and not flaky.is_open
        clock.t = 1.9
        assert camera.read() is None
        assert flaky.open_attempts == 1
        clock.t = 2.0
        assert camera.read() is not None
        assert flaky.open_attempts == 2
        assert camera.status is None
    assert not flaky.is_open


def test_bad_frames_from_a_source_become_none_and_a_status():
    camera = ReconnectingCamera(SyntheticCamera(source=lambda: np.zeros(3)), clock=FakeClock())
    camera.open()
    assert camera.read() is None
    assert camera.status.startswith("Camera lost: synthetic table gave a frame of shape (3,)")
