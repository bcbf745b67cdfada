"""The part of an import that runs in worker processes: bytes in, trial records (or an error) out.

Imports nothing from Django, so a freshly spawned worker starts quickly and never touches the
database; the records travel back to the writing process pickled.
"""

from __future__ import annotations

from cases.importers.oldbailey import ImportFileError, ParsedFile, parse_file


def parse_or_error(data: bytes, name: str, max_bytes: int) -> ParsedFile | str:
    """The parsed file, or the message of the ``ImportFileError`` that refused it."""
    try:
        return parse_file(data, name=name, max_bytes=max_bytes)
    except ImportFileError as exc:
        return str(exc)
