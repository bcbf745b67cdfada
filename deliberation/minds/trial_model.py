"""A witness answered by a model: the prompt holds only the rule and the retrieved lines of its record.

``ModelWitness`` takes ``ModelCalls``' settings. Each answer is one call with
``trial_witness.witness_prompt`` (the witness's rule and the ``passages_for`` the question, nothing
else of the case). An answer that fails, comes back empty or names a fact the record does not hold
(``trial_witness.ungrounded``) is replaced by the offline answer, and counted as a fallback, so a
trial never puts an invented name, time or place before the jury. Each fallback is logged (a
warning naming the witness and the reason) and kept in ``usages``; ``last`` is the latest call's,
so the services can mark the stored answer (``Turn.is_fallback``, ``fallback_reason``).
"""

from __future__ import annotations

import asyncio
import logging

from deliberation.engine.trial.witness import (
    Answer,
    passages_for,
    ungrounded,
    witness_prompt,
)
from deliberation.engine.trial.witness import answer as offline_answer
from deliberation.engine.types import Usage, WitnessItem
from deliberation.minds.litellm.calls import ModelCalls

WITNESS_TEMPERATURE = 0.0  # a witness on oath is not creative
NOTE_EMPTY = "empty answer"
NOTE_INVENTED = "a fact not in the record: {facts}"
logger = logging.getLogger(__name__)


class ModelWitness(ModelCalls):
    """Witness answers through a model, with the offline answer as the guard rail."""

    def __init__(self, model: str, **settings: object) -> None:
        super().__init__(model, **settings)  # type: ignore[arg-type]
        self.usages: list[Usage] = []

    async def answer_async(self, witness: WitnessItem, question: str, *, part: str, said: set[str]) -> Answer:
        passages = passages_for(witness, question)
        outcome = await self._complete(
            witness_prompt(witness, question, passages), model=self.model, temperature=WITNESS_TEMPERATURE
        )
        text = (outcome.text or "").strip()
        invented = ungrounded(text, witness) if text and not outcome.error else []
        if outcome.error or not text or invented:
            note = outcome.error or (NOTE_INVENTED.format(facts=", ".join(invented[:5])) if text else NOTE_EMPTY)
            self.usages.append(outcome.usage(fallback=True, note=note))
            logger.warning(
                "The model witness %s (%s) was replaced by the offline answer: %s", witness.name, self.model, note
            )
            return offline_answer(witness, question, part=part, said=said)
        self.usages.append(outcome.usage())
        return Answer(text, (), part)

    def __call__(self, witness: WitnessItem, question: str, *, part: str, said: set[str]) -> Answer:
        """The engine's ``Answerer``: one blocking call (run the trial off the request and transaction)."""
        return asyncio.run(self.answer_async(witness, question, part=part, said=said))

    @property
    def last(self) -> Usage | None:
        """The latest call's usage (its ``fallback`` and ``note`` say whether the model's answer stood)."""
        return self.usages[-1] if self.usages else None

    @property
    def totals(self) -> dict[str, int]:
        return {
            "calls": sum(u.calls for u in self.usages),
            "prompt_tokens": sum(u.prompt_tokens for u in self.usages),
            "completion_tokens": sum(u.completion_tokens for u in self.usages),
            "fallbacks": sum(1 for u in self.usages if u.fallback),
        }


def witness_for(engine: str) -> ModelWitness | None:
    """The model witness of a game played with ``engine`` (None offline: the rule answers)."""
    from django.conf import settings

    from deliberation.minds.factory import OFFLINE  # with Django and the offline mind: only once a witness is built

    if engine == OFFLINE:
        return None
    return ModelWitness(
        engine,
        api_base=settings.ANGRY_LLM_API_BASE or None,
        timeout=settings.ANGRY_LLM_TIMEOUT,
        retries=settings.ANGRY_LLM_RETRIES,
    )
