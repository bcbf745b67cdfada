"""A CPU profile of a web process's event loop during a benchmark's measured part (py-spy is not here).

Put this directory on ``PYTHONPATH`` and set ``ANGRY_CPU_SAMPLE_DIR``: each web process (Daphne)
then waits for the file ``<dir>/go`` and from then on runs ``cProfile`` on its event-loop thread,
where the websockets are fed, the channel layer is read and HTTP is parsed, with the thread's own
CPU clock as timer (waiting costs nothing, so the profile depends little on the machine's load),
until ``<dir>/stop`` appears; it then writes ``<dir>/loop-<pid>.txt``: CPU-seconds by function,
inclusive and self. Views and renders run on other threads (see ``bench/render_cost.py``).
Profiling the whole process from the start made Daphne too slow to start on a loaded machine, and
walking other threads' frames from a sampler thread crashes Python 3.11.
"""

from __future__ import annotations

import collections
import cProfile
import os
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep  # the checkout


def _label(code: object) -> str:
    if isinstance(code, str):
        return code
    filename = code.co_filename.split("site-packages/")[-1].removeprefix(ROOT)  # type: ignore[attr-defined]
    return f"{code.co_name} ({filename}:{code.co_firstlineno})"  # type: ignore[attr-defined]


def _write(profile: cProfile.Profile, path: str, seconds: float) -> None:
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    calls: collections.Counter[str] = collections.Counter()
    for entry in profile.getstats():
        key = _label(entry.code)
        inclusive[key] += entry.totaltime
        own[key] += entry.inlinetime
        calls[key] += entry.callcount
    lines = [" ".join(sys.orig_argv)[:200], f"event loop profiled for {seconds:.0f} s"]
    lines.append(f"CPU-seconds on the event-loop thread: {sum(own.values()):.1f}")
    lines.append("\n## inclusive CPU-seconds (calls)")
    lines += [f"{v:8.2f}  {k}  ({calls[k]})" for k, v in inclusive.most_common(150)]
    lines.append("\n## self CPU-seconds (calls)")
    lines += [f"{v:8.2f}  {k}  ({calls[k]})" for k, v in own.most_common(80)]
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


def _watch(folder: str) -> None:
    go, stop = os.path.join(folder, "go"), os.path.join(folder, "stop")
    while not os.path.exists(go):
        time.sleep(0.5)
    background = sys.modules.get("angryagents.background")
    loop = getattr(background, "_web_loop", None)
    if loop is None:
        return
    profile = cProfile.Profile(time.thread_time)
    loop.call_soon_threadsafe(profile.enable)
    # Django runs each HTTP request in a thread of its own (asgiref's ThreadSensitiveContext), so
    # every thread started from now on gets a profile too: views, renders, broadcasts.
    threads: list[cProfile.Profile] = []

    def _hook(frame: object, event: str, arg: object) -> None:
        own = cProfile.Profile(time.thread_time)
        threads.append(own)
        own.enable()  # replaces this hook in this thread

    threading.setprofile(_hook)
    started = time.monotonic()
    while not os.path.exists(stop):
        time.sleep(0.5)
    threading.setprofile(None)  # type: ignore[arg-type]
    done = threading.Event()

    def finish() -> None:
        profile.disable()
        done.set()

    loop.call_soon_threadsafe(finish)
    done.wait(30)
    seconds = time.monotonic() - started
    _write(profile, os.path.join(folder, f"loop-{os.getpid()}.txt"), seconds)
    _write_all(threads, os.path.join(folder, f"threads-{os.getpid()}.txt"), seconds)


def _write_all(profiles: list[cProfile.Profile], path: str, seconds: float) -> None:
    """The other threads' profiles (HTTP requests), merged."""
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    calls: collections.Counter[str] = collections.Counter()
    for one in profiles:
        for entry in one.getstats():
            key = _label(entry.code)
            inclusive[key] += entry.totaltime
            own[key] += entry.inlinetime
            calls[key] += entry.callcount
    lines = [f"{len(profiles)} other threads profiled for {seconds:.0f} s"]
    lines.append(f"CPU-seconds on those threads: {sum(own.values()):.1f}")
    lines.append("\n## inclusive CPU-seconds (calls)")
    lines += [f"{v:8.2f}  {k}  ({calls[k]})" for k, v in inclusive.most_common(200)]
    lines.append("\n## self CPU-seconds (calls)")
    lines += [f"{v:8.2f}  {k}  ({calls[k]})" for k, v in own.most_common(100)]
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


def _start() -> None:
    folder = os.environ.get("ANGRY_CPU_SAMPLE_DIR")
    if folder and "daphne" in " ".join(sys.orig_argv):
        threading.Thread(target=_watch, args=(folder,), name="cpu-profile", daemon=True).start()


_start()
