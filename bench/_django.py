"""Start Django for a benchmark on a throw-away SQLite database and index folder."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The shared Old Bailey data sits beside the checkout, or beside a folder above it (a git worktree
# kept under /work/wt/<name> finds /work/shared).
DATA = next(
    (f / "shared" / "data" / "oldbailey" for f in ROOT.parents if (f / "shared" / "data" / "oldbailey").is_dir()),
    ROOT.parent / "shared" / "data" / "oldbailey",
)


def setup() -> Path:
    sys.path.insert(0, str(ROOT))
    scratch = Path(tempfile.mkdtemp(prefix="angry-bench-"))
    os.environ.pop("DATABASE_URL", None)
    os.environ["SQLITE_PATH"] = str(scratch / "bench.sqlite3")
    os.environ["ANGRY_INDEX_DIR"] = str(scratch / "index")
    os.environ["ANGRY_TASKS"] = "sync"  # index rebuilds run right after each commit, in this process
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return scratch
