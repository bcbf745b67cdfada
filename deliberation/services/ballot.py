"""The jury's first ballot, and the engine settings and jury rules a deliberation is played under.

Below ``lifecycle`` (a side chosen) and ``counsel`` (a trial closed), which both open the
deliberation with ``first_ballot``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError

from cases.casefile import case_file
from cases.models import Case
from deliberation import jury as jury_build
from deliberation.engine import ending, initial, phases
from deliberation.engine import rules as jury_rules
from deliberation.engine.state import DeliberationState, EngineSettings
from deliberation.engine.trial import jury as trial_jury
from deliberation.game_settings import GameSettings
from deliberation.models import BallotKind, Deliberation, Phase, PlayerSide, Seat, SeatKind, Vote
from deliberation.services import narration as narration_services
from deliberation.services.broadcast import announce
from deliberation.services.formats import format_settings
from deliberation.services.rounds import store_snapshots


def engine_settings(deliberation: Deliberation) -> EngineSettings:
    options = deliberation.settings or {}
    speakers = GameSettings.of(deliberation).speaker_range()  # the page's "AI speakers per round"
    speaker_options: dict[str, Any] = {"min_speakers": speakers[0], "max_speakers": speakers[1]} if speakers else {}
    # a lesson's length (rooms.lesson) keeps a jury whose votes stand still at it for longer
    stability: dict[str, Any] = (
        {"stability_rounds": int(options["stability_rounds"])} if options.get("stability_rounds") else {}
    )
    return EngineSettings(
        max_rounds=int(options.get("max_rounds", settings.ANGRY_MAX_ROUNDS)),
        **speaker_options,
        turns_before_verdict=int(options.get("turns_before_verdict", 0)),
        **stability,
        **jury_rules_settings(options),
        budget_tokens=options.get("budget_tokens") or settings.ANGRY_TOKEN_BUDGET or None,
        budget_cost_usd=options.get("budget_cost_usd") or settings.ANGRY_COST_BUDGET or None,
        **format_settings(options),
    )


RULE_OPTIONS = ("rules", "majority_after_rounds", "foreperson_summary_every", "poll", "no_new_rounds")
ERROR_RULES_UNKNOWN = "Choose the jury rules: unanimous, england-wales, us-allen or historical-old-bailey."
ERROR_POLL_UNKNOWN = "The foreperson polls by show of hands ('hands') or secret ballot ('secret')."
ERROR_RULE_NUMBER = "{name} must be a whole number between 0 and 100."


def jury_rules_settings(options: dict[str, Any]) -> dict[str, Any]:
    """The jury rules and the foreperson's settings a deliberation's options hold."""
    return {name: options[name] for name in RULE_OPTIONS if name in options}


def check_rule_options(options: dict[str, Any]) -> None:
    """Refuse unknown rules or a bad foreperson setting with a message a person can act on."""
    if "rules" in options and options["rules"] not in jury_rules.RULE_NAMES:
        raise ValidationError(ERROR_RULES_UNKNOWN)
    if "poll" in options and options["poll"] not in ("hands", "secret"):
        raise ValidationError(ERROR_POLL_UNKNOWN)
    for name in ("majority_after_rounds", "foreperson_summary_every", "no_new_rounds"):
        value = options.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100:
            raise ValidationError(ERROR_RULE_NUMBER.format(name=name.replace("_", " ").capitalize()))


def first_ballot(
    deliberation: Deliberation, *, side: str, vote: str | None, trial_events: list[Any] | None
) -> Deliberation:
    """The jury's first ballot and the deliberation opened; call it with the row locked.

    With ``trial_events`` the jurors' first view is formed from what the trial admitted (struck
    answers never reach them). Announces "phase" and asks the judge to read the tally.
    """
    seats = list(deliberation.seats.select_related("persona__archetype"))
    jury = jury_build.profiles(seats)
    case = Case.objects.with_file().get(pk=deliberation.case_id)
    state = initial.new_state(
        jury=jury, seed=deliberation.seed, player_side=side, settings=engine_settings(deliberation)
    )
    phases.advance(state, "presentation")
    if side != PlayerSide.NONE:
        phases.advance(state, "side_selection")
    phases.advance(state, "initial_vote")
    if vote is not None:
        ending.cast_vote(state, seat=deliberation.player_seat, value=vote)
    file = case_file(case)
    if trial_events is not None:  # the jury forms its first view from what the trial admitted
        trial_jury.cast_ballot_after_trial(state, case=file, jury=jury, events=trial_events)
    else:
        initial.cast_initial_ballot(state, case=file, jury=jury)
    phases.advance(state, "deliberation")

    deliberation.player_side = side
    deliberation.phase = Phase.DELIBERATION
    deliberation.engine_state = state.to_dict()
    deliberation.save(update_fields=["player_side", "phase", "engine_state"])
    people = [seat.number for seat in seats if seat.kind != SeatKind.AI]
    _store_ballot(deliberation, seats, state, round_number=0, ballot=BallotKind.INITIAL, left_out=people)
    tally = ending.tally_cast(state, people)
    if deliberation.experiment_id is None:
        narration_services.narration_request_vote(
            deliberation_id=deliberation.pk,
            round_number=0,
            guilty=tally["guilty"],
            not_guilty=tally["not_guilty"],
            waiting=tally["waiting"],
        )
    announce(deliberation.pk, "phase")
    return deliberation


def _store_ballot(
    deliberation: Deliberation,
    seats: list[Seat],
    state: DeliberationState,
    *,
    round_number: int,
    ballot: str,
    left_out: list[int],
) -> None:
    """The ballot's votes as cast: a participant who has not voted yet (``left_out`` lists the
    participants) has no vote in it, only the stand-in the engine keeps for their seat."""
    awaiting = set(ending.awaiting_vote(state, left_out))
    Vote.objects.bulk_create(
        Vote(deliberation=deliberation, round_number=round_number, seat_number=seat, value=value, ballot=ballot)
        for seat, value in sorted(state.votes.items())
        if seat not in awaiting
    )
    store_snapshots(deliberation, seats, state, round_number=round_number)
