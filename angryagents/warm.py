"""Load the heavy libraries before the first round needs them.

A process that starts (a worker or web process restarted after a crash, a new worker added to a
busy site) may be handed a round at once: the round of a process that died. Importing the
retrieval library and the model client took 6 s and 12 s of a round's first run on a loaded
machine (BENCHMARKS.md, recovery); done while the process starts, they overlap the time the dead
process's round takes to go stale instead of adding to it.
"""

from __future__ import annotations

import importlib
import logging
import threading
import time

from django.conf import settings

logger = logging.getLogger(__name__)

ALWAYS = ("llama_index.core", "llama_index.retrievers.bm25")  # every round looks up the case file
MODEL = "deliberation.minds.litellm.mind"  # only where a model may deliberate


def modules() -> list[str]:
    offline_only = settings.ANGRY_LLM_MODEL == "offline" and not settings.ANGRY_LLM_MODELS
    return [*ALWAYS, *([] if offline_only else [MODEL])]


def warm() -> None:
    """Import them now (a failure only costs the round its own import later)."""
    started = time.perf_counter()
    for name in modules():
        try:
            importlib.import_module(name)
        except Exception:
            logger.exception("warming up %s failed", name)
    logger.info("libraries loaded in %.1f s", time.perf_counter() - started)


_started = False
_lock = threading.Lock()


def warm_in_background() -> None:
    """On a thread, once per process, so the process serves meanwhile (a round's own import waits for it)."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
    threading.Thread(target=warm, name="angry-warm", daemon=True).start()
