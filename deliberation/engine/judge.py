"""What the judge says: the case presentation, vote announcements and the verdict.

Pure functions over plain values (names, charges, tallies), so the engine's dataclasses,
the models or a test can feed them alike. The scripts are written to be read aloud: short
sentences, numbers spelled as a listener hears them, no markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from deliberation.engine.trial.phrases import charges_phrase

JURY_SIZE = 12

GUILTY = "guilty"
NOT_GUILTY = "not_guilty"
HUNG = "hung"

BURDEN_OF_PROOF = (
    "You will hear the evidence. You will deliberate. And you will reach a verdict. "
    "The burden of proof lies with the prosecution, who must prove guilt beyond a reasonable doubt."
)
LET_US_BEGIN = "Let us begin."
JURY_DIVIDED = "The jury remains divided."
JURY_UNANIMOUS = "A unanimous verdict has been reached."
# Every vote alike, but the jury has not finished (its people still have their turns, or it was not
# close a round ago): no verdict is reached yet, and the judge must not say one is.
JURY_AGREED_FOR_NOW = "Every juror now votes the same way, but the jury has not returned its verdict yet."

# Why the deliberation ended, as the judge puts it; keys are the EndReason values.
END_REASON_PHRASES = {
    "unanimous": "The jury reached a unanimous decision.",
    "stable": "The votes no longer moved, round after round.",
    "round_limit": "The jury reached the limit of its deliberation.",
    "called": "The vote was called.",
    "majority": "The jury reached a majority verdict, which the court may now accept.",
    "no_new_arguments": "Nothing new was said, round after round.",
    "deadlock": "The jury reported a second time that it cannot agree.",
    "time": "The lesson's time was nearly up, so the judge directed the jury to return its verdict.",
}

ERROR_NO_DEFENDANT = "The judge needs at least one defendant's name."
ERROR_NO_CHARGE = "The judge needs at least one charge."
ERROR_BAD_TALLY = "A tally must be two counts that are not negative, got {guilty} guilty and {not_guilty} not guilty."
ERROR_UNKNOWN_VERDICT = "Unknown verdict {verdict!r}; expected guilty, not_guilty or hung."


def join_names(items: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C': how a list sounds when spoken."""
    cleaned = [item.strip() for item in items if item and item.strip()]
    if len(cleaned) <= 1:
        return "".join(cleaned)
    return f"{', '.join(cleaned[:-1])} and {cleaned[-1]}"


def counted(count: int, noun: str) -> str:
    """'1 round', '2 rounds': a count as a person writes it (a noun that takes "s")."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def tally(votes: Iterable[str]) -> tuple[int, int]:
    """Count (guilty, not guilty) from vote values; blank or unknown values are not counted."""
    guilty = not_guilty = 0
    for vote in votes:
        if vote == GUILTY:
            guilty += 1
        elif vote == NOT_GUILTY:
            not_guilty += 1
    return guilty, not_guilty


def _check_tally(guilty: int, not_guilty: int) -> None:
    if guilty < 0 or not_guilty < 0:
        raise ValueError(ERROR_BAD_TALLY.format(guilty=guilty, not_guilty=not_guilty))


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    if text and text[-1] not in ".!?":
        text += "."
    return text


def case_presentation(*, defendants: Sequence[str], charges: Sequence[str], summary: str) -> str:
    """The opening address: who stands accused of what, the facts, and the burden of proof."""
    names = join_names(defendants)
    if not names:
        raise ValueError(ERROR_NO_DEFENDANT)
    if not any(charge.strip().rstrip(".") for charge in charges):
        raise ValueError(ERROR_NO_CHARGE)
    accused = charges_phrase(charges)  # "robbery with violence", not the record's "Violent theft: robbery"
    verb = "stands" if len([d for d in defendants if d.strip()]) == 1 else "stand"
    paragraphs = [
        f"Members of the jury. You are here today to determine the fate of {names}, who {verb} accused of {accused}.",
        _sentence(summary),
        BURDEN_OF_PROOF,
        LET_US_BEGIN,
    ]
    return "\n\n".join(paragraph for paragraph in paragraphs if paragraph)


def _count_phrase(guilty: int, not_guilty: int) -> str:
    return f"{guilty} for guilty, {not_guilty} for not guilty"


def is_unanimous(guilty: int, not_guilty: int) -> bool:
    return guilty + not_guilty > 0 and (guilty == 0 or not_guilty == 0)


def vote_announcement(*, guilty: int, not_guilty: int, waiting: int = 0, ended: bool = False) -> str:
    """'The current vote stands at 7 for guilty, 5 for not guilty. The jury remains divided.'

    ``waiting`` jurors have not voted yet (a person who has not cast theirs): they are named in the
    count, and a jury with one of them is not unanimous, however the others stand. A unanimous
    count is a verdict reached only when the deliberation ``ended`` on it; before that the jury
    deliberates on (the people in it have turns to come) and the judge says so."""
    _check_tally(guilty, not_guilty)
    _check_tally(waiting, 0)
    count = _count_phrase(guilty, not_guilty)
    if waiting:
        count += f", with {waiting} {'juror' if waiting == 1 else 'jurors'} yet to vote"
    if is_unanimous(guilty, not_guilty) and not waiting:
        closing = JURY_UNANIMOUS if ended else JURY_AGREED_FOR_NOW
    else:
        closing = JURY_DIVIDED
    return f"The current vote stands at {count}. {closing}"


def verdict_announcement(
    *,
    verdict: str,
    guilty: int,
    not_guilty: int,
    end_reason: str = "",
    defendants: Sequence[str] = (),
    required: str = "a unanimous verdict",
) -> str:
    """The verdict as the judge reads it: why the deliberation ended, the final count, the finding.

    ``required`` is the verdict the jury's rules asked for (``engine.rules.required_verdict``), which
    a hung jury could not reach; a verdict that is not unanimous is read as a majority verdict."""
    _check_tally(guilty, not_guilty)
    names = join_names(defendants) or "the defendant"
    count = f"The final vote stands at {_count_phrase(guilty, not_guilty)}."
    reason = END_REASON_PHRASES.get(end_reason, "")
    majority = ""
    if guilty and not_guilty:
        most = max(guilty, not_guilty)
        majority = f", by a majority of {most} to {guilty + not_guilty - most}"
    if verdict == GUILTY:
        finding = f"On the charges before you, the jury finds {names} guilty{majority}."
    elif verdict == NOT_GUILTY:
        finding = f"On the charges before you, the jury finds {names} not guilty{majority}."
    elif verdict == HUNG and end_reason == "deadlock":
        finding = (
            f"The jury could not reach {required}. I discharge the jury and declare a mistrial. "
            f"No verdict is returned against {names}."
        )
    elif verdict == HUNG:
        finding = (
            f"The jury could not reach {required}. I declare a hung jury, and no verdict is returned against {names}."
        )
    else:
        raise ValueError(ERROR_UNKNOWN_VERDICT.format(verdict=verdict))
    closing = "Members of the jury, thank you for your service. This court is adjourned."
    return " ".join(part for part in ("The deliberation is over.", reason, count, finding, closing) if part)
