"""The parser reads every shared Old Bailey file exactly as the stored digests say (see parsed_digests)."""

from __future__ import annotations

import json

import pytest

from tests.cases.importers.parsed_digests import STORED, file_digests, key, shared_files

STORED_DIGESTS = json.loads(STORED.read_text(encoding="utf-8"))
FILES = shared_files()


def test_every_stored_file_is_still_there_to_compare():
    assert {key(path) for path in FILES} == set(STORED_DIGESTS)


@pytest.mark.parametrize("path", FILES, ids=key)
def test_parser_output_unchanged(path):
    assert file_digests(path) == STORED_DIGESTS[key(path)]
