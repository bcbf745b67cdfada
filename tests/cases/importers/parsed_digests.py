"""A digest of every trial record the Old Bailey parser makes from the shared files.

Performance work on the parser must not change what it reads: ``test_parser_output_unchanged``
parses the sample and the more-sessions files and compares each trial record with the digest
stored in ``parsed_digests.json``. When a change to the parser is *meant* to change its output
(a new rule, a fixed witness name), write the digests again from the new code and commit them
with that change:

    .venv/bin/python -m tests.cases.importers.parsed_digests --write
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
from pathlib import Path

from cases.importers.oldbailey import TrialRecord, parse_file
from tests.cases.oldbailey_sample import shared_data

DATA = shared_data(Path(__file__))
STORED = Path(__file__).with_name("parsed_digests.json")
FOLDERS = ("trials", "sessions", "more-sessions")
LIMIT = 50 * 1024 * 1024


def shared_files() -> list[Path]:
    return [path for folder in FOLDERS for path in sorted((DATA / folder).glob("*.xml"))]


def digest(record: TrialRecord) -> str:
    """Every field of the record, nested records included, in one short hash."""
    body = json.dumps(dataclasses.asdict(record), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def file_digests(path: Path) -> dict[str, str]:
    """Trial id -> digest for one file, in the parser's order."""
    parsed = parse_file(path.read_bytes(), name=path.name, max_bytes=LIMIT)
    return {record.trial_id: digest(record) for record in parsed.trials}


def key(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store the digests of the current parser")
    args = parser.parse_args()
    found = {key(path): file_digests(path) for path in shared_files()}
    if args.write:
        STORED.write_text(json.dumps(found, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{sum(map(len, found.values()))} trials in {len(found)} files written to {STORED}")
        return
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    changed = [
        f"{name} {trial_id}"
        for name, trials in found.items()
        for trial_id, value in trials.items()
        if stored.get(name, {}).get(trial_id) != value
    ]
    print("\n".join(changed) or "unchanged")


if __name__ == "__main__":
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")
    django.setup()
    main()
