"""A CPU-weighted stack sampler for the server processes a benchmark starts (py-spy is not here).

Put this directory on ``PYTHONPATH`` and set ``ANGRY_CPU_SAMPLE_DIR``: every Python process that
starts then samples its threads' stacks every ``ANGRY_CPU_SAMPLE_MS`` (10) milliseconds and
charges each thread's *CPU time* since the last sample (its own POSIX CPU clock) to the stack it
is in, so a thread waiting on a socket or a lock costs nothing and the profile does not depend on
how loaded the machine is. ``<dir>/<argv-name>-<pid>.txt`` is rewritten every 5 s and at exit:
CPU-seconds by function (self and inclusive) and by source area.
"""

from __future__ import annotations

import atexit
import collections
import os
import sys
import threading
import time


def _area(filename: str) -> str:
    if "site-packages/" in filename:
        return "lib:" + filename.split("site-packages/", 1)[1].split("/", 1)[0]
    if "/python3." in filename:
        return "stdlib"
    for part in ("deliberation", "angryagents", "cases", "jurors", "templates"):
        if f"/{part}/" in filename:
            return "app:" + part
    return "other"


class Sampler:
    def __init__(self, out: str, interval: float) -> None:
        self.out, self.interval = out, interval
        self.self_cpu: collections.Counter[str] = collections.Counter()
        self.total_cpu: collections.Counter[str] = collections.Counter()
        self.area_cpu: collections.Counter[str] = collections.Counter()
        self.thread_cpu: collections.Counter[str] = collections.Counter()
        self.last: dict[int, float] = {}
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.me = 0

    def run(self) -> None:
        self.me = threading.get_ident()
        written = time.monotonic()
        while True:
            time.sleep(self.interval)
            self.sample()
            if time.monotonic() - written > 5:
                self.write()
                written = time.monotonic()

    def sample(self) -> None:
        names = {t.ident: t.name for t in threading.enumerate()}
        with self.lock:
            for ident, frame in sys._current_frames().items():
                if ident == self.me:
                    continue
                try:
                    now = time.clock_gettime(time.pthread_getcpuclockid(ident))
                except OSError:
                    continue
                spent = now - self.last.get(ident, now)
                self.last[ident] = now
                if spent <= 0:
                    continue
                name = names.get(ident, "?")
                self.thread_cpu[name.split("_")[0].rstrip("0123456789-")] += spent
                seen: set[str] = set()
                top = True
                while frame is not None:
                    code = frame.f_code
                    key = f"{code.co_name} ({code.co_filename.split('site-packages/')[-1]}:{code.co_firstlineno})"
                    if top:
                        self.self_cpu[key] += spent
                        self.area_cpu[_area(code.co_filename)] += spent
                        top = False
                    if key not in seen:
                        self.total_cpu[key] += spent
                        seen.add(key)
                    frame = frame.f_back

    def write(self) -> None:
        with self.lock:
            lines = [f"{' '.join(sys.argv)[:200]}", f"sampled for {time.monotonic() - self.started:.0f} s"]
            lines.append(f"CPU-seconds sampled: {sum(self.area_cpu.values()):.1f}")
            lines.append("\n## by thread")
            lines += [f"{v:8.2f}  {k}" for k, v in self.thread_cpu.most_common(15)]
            lines.append("\n## by area (self)")
            lines += [f"{v:8.2f}  {k}" for k, v in self.area_cpu.most_common(25)]
            lines.append("\n## inclusive")
            lines += [f"{v:8.2f}  {k}" for k, v in self.total_cpu.most_common(120)]
            lines.append("\n## self")
            lines += [f"{v:8.2f}  {k}" for k, v in self.self_cpu.most_common(60)]
        with open(self.out, "w") as handle:
            handle.write("\n".join(lines) + "\n")


def _start() -> None:
    folder = os.environ.get("ANGRY_CPU_SAMPLE_DIR")
    if not folder:
        return
    name = os.path.basename(sys.argv[0] if sys.argv and sys.argv[0] else "python")
    if name in {"-c", ""}:
        name = "python"
    if "-m" in sys.orig_argv:
        name = sys.orig_argv[sys.orig_argv.index("-m") + 1]
    os.makedirs(folder, exist_ok=True)
    interval = float(os.environ.get("ANGRY_CPU_SAMPLE_MS", "10")) / 1000
    sampler = Sampler(os.path.join(folder, f"{name}-{os.getpid()}.txt"), interval)
    threading.Thread(target=sampler.run, name="cpu-sampler", daemon=True).start()
    atexit.register(sampler.write)


_start()
