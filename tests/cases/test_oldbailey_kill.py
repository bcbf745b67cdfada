"""An import killed with SIGKILL mid-way loses nothing it committed and, run again, resumes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cases.services import RESUMED
from tests.cases.oldbailey_sample import TRIALS

ROOT = Path(__file__).resolve().parents[2]


def _manage(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def _count(db: Path, table: str) -> int:
    with sqlite3.connect(db, timeout=30) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


@pytest.mark.slow
def test_an_import_killed_mid_way_keeps_whole_files_and_resumes_where_it_stopped(tmp_path):
    db = tmp_path / "library.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    # Evidence indexes built right after each commit make each file slow enough to be caught mid-way.
    env.update(SQLITE_PATH=str(db), ANGRY_INDEX_DIR=str(tmp_path / "index"), ANGRY_TASKS="sync")
    assert _manage(env, "migrate", "-v0").wait(timeout=300) == 0
    folder = tmp_path / "trials"
    folder.mkdir()
    for path in TRIALS:
        (folder / path.name).write_bytes(path.read_bytes())

    first = _manage(env, "import_oldbailey", str(folder), "--workers", "1")
    deadline = time.monotonic() + 300
    while _count(db, "cases_importedfile") < 3 and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    committed = _count(db, "cases_importedfile")
    if committed >= len(TRIALS):
        pytest.skip("the import finished before it could be killed")
    assert committed >= 3
    assert _count(db, "cases_case") == committed  # each file is whole or absent, never half-written

    again = _manage(env, "import_oldbailey", str(folder), "--workers", "1")
    out, _ = again.communicate(timeout=600)
    lines = out.strip().splitlines()
    assert again.returncode == 0
    assert lines[0] == RESUMED.format(n=committed)
    assert lines[-1] == f"imported {len(TRIALS) - committed}, updated 0, skipped {committed}"
    assert _count(db, "cases_case") == _count(db, "cases_importedfile") == len(TRIALS)
