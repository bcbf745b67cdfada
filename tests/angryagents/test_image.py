"""The image's build context carries what the image runs and nothing a build must not carry.

No Docker engine runs here, so the context is computed as the Docker client computes it: the
``.dockerignore`` read as the client reads it, matched by the Docker SDK's own implementation of
Docker's rules (``docker.utils.build.exclude_paths``, ported from moby's fileutils). The check is
proved on a copy of the checkout with a secret, a database, a virtualenv and the rest planted in
it: without the ignore file it finds every one of them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from docker.utils.build import exclude_paths

ROOT = Path(__file__).resolve().parents[2]

# What the Dockerfile copies and runs: it must be in the context.
NEEDED = (
    "Dockerfile",
    "requirements.txt",
    "manage.py",
    "angryagents/settings.py",
    "angryagents/healthcheck.py",
    "deliberation/migrations/0001_initial.py",
    "cases/curated",
    "jurors/data/jurors.yaml",
    "templates/base.html",
    "static/favicon.svg",
)
# Planted in a copy of the checkout, as a developer's machine or a server has them: each must stay out.
PLANTED = {
    ".venv/lib/python3.11/site-packages/django/__init__.py": "virtualenv",
    "venv/bin/python": "virtualenv",
    "deliberation/.venv/pyvenv.cfg": "virtualenv",
    "db.sqlite3": "database",
    "db.sqlite3-wal": "database",
    "cases/library.sqlite3": "database",
    "var/secret_key": "secret",
    "var/media/narration/abc.wav": "media",
    "var/index/kessler/docstore.json": "index",
    ".env": "secret",
    "angryagents/.env.production": "secret",
    "deploy/server.key": "secret",
    "id_rsa": "secret",
    ".git/config": "git",
    "node_modules/axe-core/axe.js": "node_modules",
    "test-artifacts/room-390.png": "test artifact",
    "screenshot-1280.png": "screenshot",
    "deliberation/__pycache__/models.cpython-311.pyc": "cache",
    ".pytest_cache/v/cache/lastfailed": "cache",
    ".ruff_cache/0.17.6/123": "cache",
}
FORBIDDEN = re.compile(
    r"(^|/)(\.venv|venv|\.git|node_modules|var|__pycache__|\.pytest_cache|\.ruff_cache|test-artifacts)(/|$)"
    r"|\.sqlite3(-\w+)?$|(^|/)\.env(\.|$)|\.(key|pem)$|(^|/)id_rsa|secret_key$|\.pyc$|\.png$"
)


def dockerignore_patterns(root: Path) -> list[str]:
    """The ignore file's patterns as the Docker client reads them (blank lines and comments out)."""
    ignore = root / ".dockerignore"
    if not ignore.exists():
        return []
    lines = [line.strip() for line in ignore.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def build_context(root: Path) -> set[str]:
    """Every path (files and folders) the client would send to the builder."""
    return set(exclude_paths(str(root), dockerignore_patterns(root), dockerfile="Dockerfile"))


def forbidden(context: set[str]) -> set[str]:
    return {path for path in context if FORBIDDEN.search(path)}


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the repository's tracked files (and this worktree's ignore file and Dockerfile)."""
    tracked = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    copy = tmp_path / "checkout"
    for name in [*tracked.splitlines(), ".dockerignore", "Dockerfile"]:
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    for name in PLANTED:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_text("planted")
    return copy


def test_the_context_leaves_out_every_secret_database_and_virtualenv_planted_in_a_checkout(checkout):
    context = build_context(checkout)
    assert not {name for name in PLANTED if name in context}
    assert not forbidden(context), sorted(forbidden(context))


def test_without_the_ignore_file_the_check_finds_every_planted_file(checkout):
    (checkout / ".dockerignore").unlink()
    context = build_context(checkout)
    assert set(PLANTED) <= context
    assert {name for name in PLANTED if FORBIDDEN.search(name)} == set(PLANTED)  # the check names each kind
    assert forbidden(context) >= set(PLANTED)


def test_the_context_holds_what_the_image_runs(checkout):
    context = build_context(checkout)
    assert not [name for name in NEEDED if name not in context]
    assert not [p for p in context if p.startswith(("tests/", "bench/", "docs/", ".ci/"))]  # not run by the image


def test_this_checkout_sends_nothing_it_must_not():
    """The working tree itself: its .venv, db.sqlite3 and var/ (when present) stay out."""
    assert not forbidden(build_context(ROOT))


def test_the_dockerfile_runs_as_an_unprivileged_user_with_a_healthcheck_and_collected_static_files():
    dockerfile = (ROOT / "Dockerfile").read_text()
    users = re.findall(r"^USER\s+(\S+)", dockerfile, re.MULTILINE)
    assert users and users[-1] not in {"root", "0"}
    assert re.search(r"^HEALTHCHECK .*angryagents\.healthcheck", dockerfile, re.MULTILINE)
    collect = dockerfile.index("collectstatic")
    assert dockerfile.index("COPY . .") < collect < dockerfile.index("USER ")
    assert "SECRET_KEY=" in dockerfile[dockerfile.rindex("RUN", 0, collect) : collect]  # no var/secret_key baked in
    assert re.search(r"pip install -r requirements\.txt", dockerfile)  # the runtime only, not the dev tools
