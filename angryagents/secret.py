"""The per-install secret key: made once on first start, kept in the var folder (out of git).

``make run`` on a fresh machine needs no variables, yet sessions and CSRF tokens must be signed
with a secret nobody else has: a key hard-coded in the repository is shared by every install.
So when ``SECRET_KEY`` is not set, the first process to start writes a random key to
``var/secret_key`` (readable by its owner only) and every later start, and every other process
on the machine, reads the same file. Several machines serving one site must share
``SECRET_KEY`` through the environment instead.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

SECRET_FILE = "secret_key"
KEY_BYTES = 50  # check --deploy wants at least 50 characters
READ_ATTEMPTS = 40  # a process that lost the race waits up to 2 s for the winner's write
ERROR_UNREADABLE = "The secret key file {path} could not be read or written ({error}); set SECRET_KEY instead."
ERROR_EMPTY = "The secret key file {path} is empty; delete it to make a new one, or set SECRET_KEY."


def install_secret(var_dir: Path) -> str:
    """This install's secret key, created atomically on first use (two processes get the same key)."""
    path = var_dir / SECRET_FILE
    try:
        var_dir.mkdir(parents=True, exist_ok=True)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            key = _read(path)
        else:
            key = secrets.token_urlsafe(KEY_BYTES)
            with os.fdopen(descriptor, "w") as handle:
                handle.write(key + "\n")
    except OSError as exc:
        raise ImproperlyConfigured(ERROR_UNREADABLE.format(path=path, error=exc)) from None
    if not key:
        raise ImproperlyConfigured(ERROR_EMPTY.format(path=path))
    return key


def _read(path: Path) -> str:
    """The key another process wrote; it may not have landed yet when both started together."""
    for _ in range(READ_ATTEMPTS):
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.05)
    return ""
