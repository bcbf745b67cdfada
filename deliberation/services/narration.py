"""Asking for the judge's words to be spoken: a pending narration, rendered in the background.

The game services call these inside their own transaction; the rendering itself (engines, audio
storage, the courtroom's push) is ``deliberation.narration.services``, run by the
``deliberation.narration_render`` task, which this module enqueues by name.
"""

from __future__ import annotations

from collections.abc import Sequence

from angryagents.background import enqueue
from deliberation.engine import judge
from deliberation.game_settings import KEY_NARRATION
from deliberation.models import Deliberation, Narration, NarrationKind

NARRATION_RENDER = "deliberation.narration_render"


def narration_request(
    *,
    deliberation_id: int | None,
    kind: str,
    text: str,
    round_number: int = 0,
    held: Deliberation | None = None,
) -> Narration | None:
    """Create a pending narration and render it in the background once the transaction commits.

    Cheap and synchronous: no engine is called here, so game services may call it inside their
    own transaction. Raises ``ValidationError`` for an empty text or an unknown kind. A
    deliberation started with narration off (``game_settings``) gets none: returns None.
    ``held``: the deliberation's row, when the caller has it locked (its settings are then read from
    it and its existence is not asked again: two queries less on every vote).
    """
    if held is not None and held.pk != deliberation_id:
        raise ValueError("held must be the deliberation the narration belongs to")
    if deliberation_id is not None and not _narrated(deliberation_id, held):
        return None
    narration = Narration(
        deliberation_id=deliberation_id, kind=kind, text=" ".join(text.split()), round_number=round_number
    )
    narration.full_clean(exclude=["deliberation"] if held is not None else None)
    narration.save()
    enqueue(NARRATION_RENDER, narration.pk)
    return narration


def _narrated(deliberation_id: int, held: Deliberation | None = None) -> bool:
    if held is not None:
        return bool((held.settings or {}).get(KEY_NARRATION, True))
    stored = Deliberation.objects.filter(pk=deliberation_id).values_list("settings", flat=True).first() or {}
    return bool(stored.get(KEY_NARRATION, True))


def narration_request_presentation(
    *, deliberation_id: int | None, defendants: Sequence[str], charges: Sequence[str], summary: str
) -> Narration | None:
    text = judge.case_presentation(defendants=defendants, charges=charges, summary=summary)
    return narration_request(deliberation_id=deliberation_id, kind=NarrationKind.PRESENTATION, text=text)


def narration_request_vote(
    *,
    deliberation_id: int | None,
    round_number: int,
    guilty: int,
    not_guilty: int,
    waiting: int = 0,
    held: Deliberation | None = None,
    ended: bool = False,
) -> Narration | None:
    text = judge.vote_announcement(guilty=guilty, not_guilty=not_guilty, waiting=waiting, ended=ended)
    return narration_request(
        deliberation_id=deliberation_id, kind=NarrationKind.VOTE, text=text, round_number=round_number, held=held
    )


def narration_request_verdict(
    *,
    deliberation_id: int | None,
    round_number: int,
    verdict: str,
    guilty: int,
    not_guilty: int,
    end_reason: str = "",
    defendants: Sequence[str] = (),
    required: str = "a unanimous verdict",
) -> Narration | None:
    text = judge.verdict_announcement(
        verdict=verdict,
        guilty=guilty,
        not_guilty=not_guilty,
        end_reason=end_reason,
        defendants=defendants,
        required=required,
    )
    return narration_request(
        deliberation_id=deliberation_id, kind=NarrationKind.VERDICT, text=text, round_number=round_number
    )
