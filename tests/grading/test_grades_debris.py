"""A grade file's write killed half-way leaves nothing that stays in ``grades_dir``.

The grading service wrote each grade through a ``tempfile.mkstemp`` file renamed into
place; a ``kill -9`` in between left ``.<episode_id>.json.XXXXXXXX`` there for good
(stop 26's code read, LOW). Now the temporary file is locked by its writer
(`mcpgym_server.bundles.write_file_atomic`) and the service sweeps the dead writers' ones
when it starts (`sweep_grades_debris`), never a live writer's (in another process).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from mcpgym_grading.service import create_app, sweep_grades_debris

ROOT = Path(__file__).resolve().parents[2]
EID = "ep_" + "a" * 32

_WRITER = """
import os, signal, sys
from pathlib import Path

from mcpgym_grading import service

mode, grades = sys.argv[1], Path(sys.argv[2])
real = os.replace


def stop_before_the_rename(src, dst):
    print("written", flush=True)
    if mode == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    sys.stdin.readline()  # a live writer: wait to be told to go on
    real(src, dst)


os.replace = stop_before_the_rename
service._write_atomic(grades / sys.argv[3], '{"grade": 1}')
print("renamed", flush=True)
"""


def _writer(mode: str, grades: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _WRITER, mode, str(grades), f"{EID}.json"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def _temporary(grades: Path) -> list[str]:
    return sorted(p.name for p in grades.iterdir() if p.name != f"{EID}.json")


def test_a_grade_write_killed_before_its_rename_leaves_no_file_once_the_service_starts(
    tmp_path: Path,
) -> None:
    grades, store = tmp_path / "grades", tmp_path / "episodes"
    store.mkdir()
    writer = _writer("kill", grades)
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "written"
    assert writer.wait(timeout=60) == -9
    assert len(_temporary(grades)) == 1  # what the kill left

    create_app(store, "token", grades_dir=grades)

    assert _temporary(grades) == [], "a killed grade write's temporary file stayed"
    assert not (grades / f"{EID}.json").exists()


def test_a_live_writers_temporary_grade_file_is_not_swept(tmp_path: Path) -> None:
    grades, store = tmp_path / "grades", tmp_path / "episodes"
    store.mkdir()
    writer = _writer("wait", grades)
    try:
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline().strip() == "written"

        create_app(store, "token", grades_dir=grades)  # a second service on the same dir

        assert len(_temporary(grades)) == 1
        writer.stdin.write("\n")
        writer.stdin.flush()
        assert writer.stdout.readline().strip() == "renamed"
        assert writer.wait(timeout=60) == 0
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
    assert (grades / f"{EID}.json").read_text() == '{"grade": 1}'
    assert _temporary(grades) == []


def test_older_temporary_names_are_swept_once_a_minute_old(tmp_path: Path) -> None:
    grades = tmp_path / "grades"
    grades.mkdir()
    old, new = grades / f".{EID}.json.k1ll3d_x", grades / f".{EID}.json.a1b2c3d4"
    for path in (old, new):
        path.write_text("{")
    then = time.time() - 120
    os.utime(old, (then, then))
    (grades / f"{EID}.json").write_text("{}")  # a grade: never touched

    assert sweep_grades_debris(grades) == [old.name]
    assert sorted(p.name for p in grades.iterdir()) == sorted([new.name, f"{EID}.json"])
