"""The trial before the deliberation, stored as ``trial`` turns (round 0) in the deliberation's record.

A deliberation whose settings say ``trial: true`` holds its trial when the side is chosen, before
the first ballot (``lifecycle.side_choose`` calls ``trial_hold`` inside its transaction). The offline
trial needs no network, so it runs there; the turns it writes are what the transcript, the
exports, ``deliberate --json`` and the debrief read (``deliberation.trial.record``).
"""

from __future__ import annotations

from deliberation.engine.trial.course import TrialEvent, run_trial
from deliberation.engine.types import CaseFile
from deliberation.models import Deliberation, NarrationKind, Turn, TurnKind
from deliberation.services import narration as narration_services
from deliberation.services.broadcast import announce


def trial_enabled(deliberation: Deliberation) -> bool:
    return bool((deliberation.settings or {}).get("trial"))


def trial_hold(deliberation: Deliberation, case: CaseFile) -> list[TrialEvent]:
    """Hold the trial once and store every event as a turn; a second call returns the stored trial.

    Call it with the deliberation's row locked (``side_choose`` does). Announces "trial" (the
    trial's turns appended to every browser's chat) and asks for the judge's directions to be read
    aloud, when it holds a new trial.
    """
    stored = list(deliberation.turns.filter(kind=TurnKind.TRIAL).order_by("sequence"))
    if stored:
        return [TrialEvent.from_dict(turn.trial) for turn in stored]
    trial = run_trial(case, seed=deliberation.seed)
    last = deliberation.turns.order_by("-sequence").values_list("sequence", flat=True).first() or 0
    Turn.objects.bulk_create(
        Turn(
            deliberation=deliberation,
            round_number=0,
            sequence=last + 1 + event.index,
            kind=TurnKind.TRIAL,
            speaker_name=event.speaker[:100],
            strategy=event.kind,
            content=event.text,
            engine="offline",
            trial=event.to_dict(),
        )
        for event in trial.events
    )
    if deliberation.experiment_id is None:  # the judge's voice gives the directions
        narration_services.narration_request(
            deliberation_id=deliberation.pk, kind=NarrationKind.LINE, text=trial.events[-1].text
        )
    announce(deliberation.pk, "trial")
    return trial.events
