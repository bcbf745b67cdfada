from __future__ import annotations

import pytest
from django.core.management import call_command


@pytest.fixture
def library(db):
    """The shipped jury and curated cases."""
    call_command("load_cases", stdout=open("/dev/null", "w"))


@pytest.fixture
def robbery(library):
    from cases.models import Case

    return Case.objects.get(slug="kessler-market-robbery")
