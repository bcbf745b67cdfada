"""A per-thread CPU profile of the server processes a benchmark starts (py-spy is not here).

Put this directory on ``PYTHONPATH`` and set ``ANGRY_CPU_SAMPLE_DIR``: every Python process that
starts then runs ``cProfile`` in each of its threads with the thread's own CPU clock as timer, so
time a thread spends waiting (on a socket, a lock, the GIL) costs nothing and the profile depends
little on how loaded the machine is. Profiling slows the process (every call reads the clock), so
use it to see where the CPU goes, not for the benchmark's latencies. ``<dir>/<name>-<pid>.txt`` is
rewritten every 5 s and at exit: CPU-seconds by function, inclusive and self. (Walking other
threads' frames from a sampler thread, as py-spy does from outside, crashes Python 3.11.)
"""

from __future__ import annotations

import atexit
import collections
import cProfile
import os
import sys
import threading
import time

_profiles: list[cProfile.Profile] = []


def _label(code: object) -> str:
    if isinstance(code, str):
        return code
    filename = code.co_filename.split("site-packages/")[-1].split("/work/wt/")[-1]  # type: ignore[attr-defined]
    return f"{code.co_name} ({filename}:{code.co_firstlineno})"  # type: ignore[attr-defined]


def _write(path: str, started: float) -> None:
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    calls: collections.Counter[str] = collections.Counter()
    for profile in list(_profiles):
        for entry in profile.getstats():  # reads the counters without stopping the profile
            key = _label(entry.code)
            inclusive[key] += entry.totaltime
            own[key] += entry.inlinetime
            calls[key] += entry.callcount
    lines = [" ".join(sys.orig_argv)[:200], f"profiled for {time.monotonic() - started:.0f} s"]
    lines.append(f"threads profiled: {len(_profiles)}; CPU-seconds (self, all functions): {sum(own.values()):.1f}")
    lines.append("\n## inclusive CPU-seconds (calls)")
    lines += [f"{v:8.2f}  {k}  ({calls[k]})" for k, v in inclusive.most_common(150)]
    lines.append("\n## self CPU-seconds (calls)")
    lines += [f"{v:8.2f}  {k}  ({calls[k]})" for k, v in own.most_common(80)]
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


def _profile_this_thread(*_: object) -> None:
    sys.setprofile(None)
    profile = cProfile.Profile(time.thread_time)
    _profiles.append(profile)
    profile.enable()


def _start() -> None:
    folder = os.environ.get("ANGRY_CPU_SAMPLE_DIR")
    if not folder:
        return
    argv = sys.orig_argv
    name = argv[argv.index("-m") + 1] if "-m" in argv else os.path.basename(argv[1] if len(argv) > 1 else "python")
    os.makedirs(folder, exist_ok=True)
    path, started = os.path.join(folder, f"{name}-{os.getpid()}.txt"), time.monotonic()

    def keep_writing() -> None:
        while True:
            time.sleep(5)
            _write(path, started)

    threading.Thread(target=keep_writing, name="cpu-profile-writer", daemon=True).start()  # not profiled
    threading.setprofile(_profile_this_thread)
    atexit.register(_write, path, started)
    _profile_this_thread()


_start()
