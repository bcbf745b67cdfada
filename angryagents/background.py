"""Run background work where the running mode says, always after the transaction commits.

- ``celery``: the task is sent to the Celery broker (service mode).
- ``inprocess``: the task's function runs on a small thread pool of the web process, so a
  request never waits for a round, a narration or an import (embedded mode).
- ``sync``: the task runs in the caller's thread right after commit (tests, command line).

Callers name a Celery task by its registered name (``@shared_task(name=...)``) and pass primary
keys only, so a service never imports the tasks module that calls it back. The apps register their
tasks when Django starts (``AppConfig.ready``); a task object is accepted too.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import close_old_connections, transaction

from angryagents.celery import app as celery_app

logger = logging.getLogger(__name__)

_web_loop: asyncio.AbstractEventLoop | None = None
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
_pending: set[Future[Any]] = set()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="angry-bg")
        return _pool


def _run_in_thread(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    close_old_connections()
    try:
        func(*args, **kwargs)
    except Exception:  # a background failure must never take the web process down
        logger.exception("background task %s failed", getattr(func, "__name__", func))
    finally:
        close_old_connections()


def remember_web_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Record the web server's event loop (embedded mode sends channel messages on it)."""
    global _web_loop
    _web_loop = loop


def web_loop() -> asyncio.AbstractEventLoop | None:
    """The web server's loop, if known, running, and not the caller's own loop."""
    loop = _web_loop
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    try:
        if asyncio.get_running_loop() is loop:
            return None
    except RuntimeError:
        pass
    return loop


def mode() -> str:
    return str(settings.ANGRY_TASKS)


def task_named(name: str) -> Any:
    """The registered Celery task called ``name`` (a ``KeyError`` names a task nobody registered)."""
    return celery_app.tasks[name]


def enqueue(
    task: str | Any, *args: Any, countdown: float | None = None, expires: float | None = None, **kwargs: Any
) -> None:
    """Schedule the task named ``task`` (or a task object) with ``(*args, **kwargs)`` after the
    current transaction commits.

    ``expires`` (seconds, Celery only) drops a message no worker took in time: a sweep that asks
    again later must not pile up copies while the workers are down.
    """
    target = task_named(task) if isinstance(task, str) else task

    def dispatch() -> None:
        current = mode()
        if current == "celery":
            options: dict[str, Any] = {"countdown": countdown} if countdown else {}
            if expires:
                options["expires"] = (countdown or 0) + expires
            target.apply_async(args=args, kwargs=kwargs, **options)
            return
        func = getattr(target, "run", target)  # the plain function behind a Celery task
        if current == "sync":
            func(*args, **kwargs)
            return
        if countdown:
            timer = threading.Timer(countdown, lambda: _submit(func, args, kwargs))
            timer.daemon = True
            timer.start()
        else:
            _submit(func, args, kwargs)

    transaction.on_commit(dispatch, robust=mode() != "sync")


def _submit(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    future = _executor().submit(_run_in_thread, func, args, kwargs)
    _pending.add(future)
    future.add_done_callback(_pending.discard)


def wait_idle(timeout: float = 30.0) -> bool:
    """Wait for in-process background work to finish (tests and shutdown). True if idle."""
    for future in list(_pending):
        try:
            future.result(timeout=timeout)
        except Exception:  # already logged by the worker
            pass
    return not _pending
