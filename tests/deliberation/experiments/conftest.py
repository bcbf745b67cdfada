from __future__ import annotations

import io

import pytest
from django.core.management import call_command


@pytest.fixture
def library(db):
    """The shipped jury and the five curated cases, two of them with a known real verdict."""
    from cases.models import Case

    call_command("load_cases", stdout=io.StringIO())
    Case.objects.filter(slug="kessler-market-robbery").update(historical_verdict="guilty")
    Case.objects.filter(slug="pruitt-basement-killing").update(historical_verdict="not_guilty")
    Case.objects.filter(slug="copper-kettle-fire").update(playable=False)
