"""Rounds are claimed once, survive a dead worker, and lose nothing when the engine fails."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.utils import timezone

from deliberation import services
from deliberation.models import Deliberation, RoundStatus, TurnKind
from deliberation.services import claims, rounds
from deliberation.services.broadcast import group_name


def _started(case, seed=11):
    return services.deliberation_start(case=case, seed=seed, player_side="none", host_plays=False)


def _running(deliberation, *, beat_seconds_ago: float) -> None:
    """The round is claimed by a process that last gave a sign of life that long ago."""
    beat = timezone.now() - timedelta(seconds=beat_seconds_ago)
    Deliberation.objects.filter(pk=deliberation.pk).update(
        round_status=RoundStatus.RUNNING, round_claimed_at=beat, round_heartbeat_at=beat
    )


def test_a_round_whose_process_is_alive_is_not_run_twice(robbery):
    deliberation = _started(robbery)
    _running(deliberation, beat_seconds_ago=1)
    assert services.round_run(deliberation_id=deliberation.pk) is False
    assert not deliberation.turns.exists()


def test_a_round_whose_heartbeat_is_stale_is_taken_over_and_stored_once(robbery, settings):
    settings.ANGRY_ROUND_STALE_SECONDS = 30
    deliberation = _started(robbery)
    _running(deliberation, beat_seconds_ago=31)
    assert services.round_run(deliberation_id=deliberation.pk, round_number=1) is True
    deliberation.refresh_from_db()
    assert deliberation.round_number == 1 and deliberation.round_status == RoundStatus.IDLE
    assert deliberation.round_heartbeat_at is None
    assert list(deliberation.round_stats.values_list("round_number", flat=True)) == [1]


def test_the_stale_limit_is_a_setting(robbery, settings):
    deliberation = _started(robbery)
    _running(deliberation, beat_seconds_ago=10)
    settings.ANGRY_ROUND_STALE_SECONDS = 30
    assert services.round_run(deliberation_id=deliberation.pk) is False
    settings.ANGRY_ROUND_STALE_SECONDS = 5
    assert services.round_run(deliberation_id=deliberation.pk) is True


def test_a_late_or_repeated_delivery_of_a_stored_round_adds_no_round(robbery):
    deliberation = _started(robbery)
    assert services.round_run(deliberation_id=deliberation.pk, round_number=1) is True
    assert services.round_run(deliberation_id=deliberation.pk, round_number=1) is False
    deliberation.refresh_from_db()
    assert deliberation.round_number == 1
    assert list(deliberation.round_stats.values_list("round_number", flat=True)) == [1]


def test_a_round_asked_for_ahead_of_its_turn_is_not_run(robbery):
    deliberation = _started(robbery)
    assert services.round_run(deliberation_id=deliberation.pk, round_number=2) is False
    deliberation.refresh_from_db()
    assert deliberation.round_number == 0 and deliberation.round_status == RoundStatus.IDLE


def test_the_heartbeat_beats_while_the_engine_thinks(robbery, monkeypatch, settings, transactional_db):
    """A round slower than the beat refreshes its heartbeat from another thread, with no
    transaction held (the beat commits while the engine is still thinking)."""
    settings.ANGRY_ROUND_STALE_SECONDS = 1.2  # a beat every 0.4 s
    deliberation = _started(robbery)
    seen: list[object] = []
    real_run = rounds.run_round

    def heartbeat():
        try:
            return Deliberation.objects.values_list("round_heartbeat_at", flat=True).get(pk=deliberation.pk)
        finally:
            connection.close()  # this helper thread's own connection

    async def slow(*args, **kwargs):
        claimed = await asyncio.to_thread(heartbeat)
        await asyncio.sleep(1.5)
        seen.append((claimed, await asyncio.to_thread(heartbeat)))
        return await real_run(*args, **kwargs)

    monkeypatch.setattr(rounds, "run_round", slow)
    assert services.round_run(deliberation_id=deliberation.pk) is True
    [(at_claim, later)] = seen
    assert later > at_claim


def test_a_heartbeat_stops_when_another_process_took_the_round_over(robbery):
    deliberation = _started(robbery)
    _running(deliberation, beat_seconds_ago=0)
    ours = Deliberation.objects.get(pk=deliberation.pk).round_claimed_at
    assert claims.Heartbeat(deliberation.pk, ours).beat() is True
    Deliberation.objects.filter(pk=deliberation.pk).update(round_claimed_at=timezone.now())  # taken over
    assert claims.Heartbeat(deliberation.pk, ours).beat() is False


def test_an_engine_failure_releases_the_round_and_says_so(robbery, monkeypatch):
    deliberation = _started(robbery)
    state_before = dict(deliberation.engine_state)

    async def broken(*args, **kwargs):
        raise TimeoutError("model did not answer")

    monkeypatch.setattr(rounds, "run_round", broken)
    assert services.round_run(deliberation_id=deliberation.pk) is False
    deliberation.refresh_from_db()
    assert deliberation.round_status == RoundStatus.IDLE and deliberation.round_number == 0
    assert deliberation.engine_state == state_before
    note = deliberation.turns.get(kind=TurnKind.NOTE)
    assert "TimeoutError" in note.content


def test_a_stored_round_has_turns_snapshots_figures_and_flips_as_votes(robbery):
    deliberation = _started(robbery, seed=21)
    for _ in range(4):
        services.round_run(deliberation_id=deliberation.pk)
    deliberation.refresh_from_db()
    rounds_run = deliberation.round_number
    assert deliberation.snapshots.count() == 12 * (rounds_run + 1)
    assert deliberation.round_stats.count() == rounds_run
    flips_in_turns = sum(len(t.flips) for t in deliberation.turns.all())
    assert flips_in_turns == deliberation.votes.filter(ballot="flip").count()
    seven = deliberation.seats.get(number=7)
    last = deliberation.snapshots.get(round_number=rounds_run, seat_number=7)
    assert (seven.conviction, seven.vote) == (last.conviction, last.vote)


def test_every_stored_round_is_broadcast_to_the_deliberations_group(
    robbery, django_capture_on_commit_callbacks, readable_layer
):
    deliberation = _started(robbery)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group_name(deliberation.pk), channel)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_run(deliberation_id=deliberation.pk)

    async def drain() -> list[str]:
        events = []
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout=1)
            except TimeoutError:
                return events
            events.append(message["event"])

    events = async_to_sync(drain)()
    assert events[0] == "thinking"
    assert events[-1] == "round"


def test_a_slow_worker_whose_round_was_taken_over_stores_nothing_twice(robbery, monkeypatch):
    deliberation = _started(robbery)
    real_store = rounds._store_round

    def overtaken(deliberation_id, state, result, **kwargs):
        # While this worker was thinking, its claim went stale and another worker stored round 1.
        Deliberation.objects.filter(pk=deliberation_id).update(round_number=1)
        real_store(deliberation_id, state, result, **kwargs)

    monkeypatch.setattr(rounds, "_store_round", overtaken)
    services.round_run(deliberation_id=deliberation.pk)
    assert not deliberation.turns.exists()
    assert not deliberation.round_stats.exists()


def test_a_fallback_turn_records_why(robbery, monkeypatch):
    from deliberation.engine.types import Usage

    deliberation = _started(robbery)
    real_run = rounds.run_round

    async def with_fallback(state, **kwargs):
        result = await real_run(state, **kwargs)
        speech = result.speeches[0]
        speech.is_fallback = True
        speech.usage = Usage(fallback=True, note="The model did not answer within 30 s.")
        return result

    monkeypatch.setattr(rounds, "run_round", with_fallback)
    services.round_run(deliberation_id=deliberation.pk)
    turn = deliberation.turns.filter(kind=TurnKind.SPEECH).first()
    assert turn.is_fallback and turn.fallback_reason == "The model did not answer within 30 s."


def test_a_change_of_vote_is_stored_under_the_speech_that_moved_it(robbery):
    from deliberation.engine.results import Flip, RoundResult
    from deliberation.engine.types import Speech

    deliberation = _started(robbery)
    result = RoundResult(round_number=1, engine="offline")
    result.speeches = [Speech(seat, f"Juror {seat}", f"Speech {seat}.") for seat in (1, 2, 3)]
    result.flips = [
        Flip(4, "guilty", "not_guilty", "moved by Juror 1's argument", 0),
        Flip(5, "not_guilty", "guilty", "on reflection, from what the jury has heard so far"),
    ]
    turns = [t for t in rounds.round_turns(deliberation, result, 1) if t.kind == TurnKind.SPEECH]
    assert [[f["seat"] for f in t.flips] for t in turns] == [[4], [], [5]]
