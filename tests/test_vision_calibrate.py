"""vision.calibrate's command line: bad input is named and leaves the shipped models as they are."""

from __future__ import annotations

import pytest

from vision import calibrate


@pytest.mark.parametrize("argv, named", [
    (["--jobs", "0"], "--jobs 0"),
    (["--set", "1000:0"], "'1000:0' is not SEED:FIRST:COUNT"),
])
def test_bad_arguments_are_named_and_write_nothing(argv, named, capsys):
    before = calibrate.OUT.read_bytes()
    with pytest.raises(SystemExit) as exit_:
        calibrate.main(argv)
    assert exit_.value.code == 2
    assert named in capsys.readouterr().err
    assert calibrate.OUT.read_bytes() == before
    assert not calibrate.OUT.with_suffix(".json.part").exists()
