"""A round streams its speeches only while a browser is watching the room."""

from __future__ import annotations

import pytest

from deliberation import services
from deliberation.engine.rounds import run_round as engine_round
from deliberation.services import rounds
from deliberation.services.watching import is_watched, watch_ended, watch_started

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def test_a_room_is_watched_while_at_least_one_browser_is_open() -> None:
    watch_started(deliberation_id=41)
    watch_started(deliberation_id=41)
    watch_ended(deliberation_id=41)
    assert is_watched(41) and not is_watched(42)

    watch_ended(deliberation_id=41)
    assert not is_watched(41)


def test_a_goodbye_without_a_hello_leaves_the_room_unwatched() -> None:
    watch_ended(deliberation_id=43)
    assert not is_watched(43)
    watch_started(deliberation_id=43)
    assert is_watched(43)


def _sinks(robbery, monkeypatch, *, watched: bool) -> list[object]:
    deliberation = services.deliberation_start(case=robbery, seed=11, player_side="none", host_plays=False)
    if watched:
        watch_started(deliberation_id=deliberation.pk)
    seen: list[object] = []

    async def spy(*args, **kwargs):
        seen.append(kwargs.get("on_text"))
        return await engine_round(*args, **kwargs)

    monkeypatch.setattr(rounds, "run_round", spy)
    assert services.round_run(deliberation_id=deliberation.pk)
    return seen


def test_an_unwatched_round_is_not_streamed(robbery, monkeypatch) -> None:
    assert _sinks(robbery, monkeypatch, watched=False) == [None]


def test_a_watched_round_streams_to_the_room(robbery, monkeypatch) -> None:
    [sink] = _sinks(robbery, monkeypatch, watched=True)
    assert sink is not None and callable(sink)
