"""One experiment run on the pure engine: deliberate to the verdict and return everything.

The parent process reads the case and the jury; ``simulate`` touches no database at all, so any
number of worker processes can deliberate at once (SQLite allows only one writer at a time) and
the process that stores the runs does every write.
A run is the same deliberation the services would hold with the same seed: the same engine
settings, the same evidence retriever, the offline engine as the fallback mind, the "Juror 7"
persona in seat 7 and no player. With the trial and a model engine, the witnesses answer through
the model (``minds.trial_model``), the offline answer standing in for any it could not give.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

from deliberation.engine.results import RoundResult


@dataclass(frozen=True)
class RunJob:
    case_id: int
    seed: int
    engine: str
    trial: bool = False  # hold the trial before the first ballot


@dataclass(frozen=True)
class CaseInput:
    """What a worker needs about one case: the model instance (with its evidence and witnesses
    prefetched, for the retriever) and the jury's case file."""

    case: Any
    file: Any


@dataclass(frozen=True)
class WorkerContext:
    """The parent's view of the world, handed to every worker: the jury, the engine settings
    and the ``ANGRY_*`` settings (index folder, model options), so a worker needs no database."""

    jury: tuple[Any, ...]
    engine_settings: Any
    angry_settings: dict[str, Any]


@dataclass
class RunOutcome:
    """Everything a stored run needs; plain data, so it crosses process boundaries."""

    job: RunJob
    initial_votes: dict[int, str] = field(default_factory=dict)
    initial_convictions: dict[int, float] = field(default_factory=dict)
    rounds: list[RoundResult] = field(default_factory=list)
    final_state: dict[str, Any] = field(default_factory=dict)
    verdict: str = ""
    started: float = 0.0  # seconds since the epoch
    finished: float = 0.0
    error: str = ""
    trial_witness: dict[str, int] = field(default_factory=dict)  # a model witness's calls, tokens, fallbacks


def worker_setup(angry_settings: dict[str, Any]) -> None:
    """Initialiser of a worker process: start Django there and take the parent's settings."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")
    import django
    from django.conf import settings

    django.setup()
    for name, value in angry_settings.items():
        setattr(settings, name, value)
    # Import the engine and the retriever now, so the first run's wall time is the run's own.
    import llama_index.retrievers.bm25  # noqa: F401

    import deliberation.engine.session
    import deliberation.minds.offline.mind  # noqa: F401


def current_context(rules: str = "unanimous", options: dict[str, Any] | None = None) -> WorkerContext:
    """The jury and settings a run uses now (read in the parent, from the database), under the
    experiment's jury rules and with its own engine ``options`` (turn mode, context scope)."""
    from django.conf import settings

    # Imported here: a worker process imports this module before its initializer sets Django up.
    from deliberation import jury as jury_build
    from deliberation.models import Deliberation
    from deliberation.services.ballot import engine_settings
    from jurors.models import Persona

    seats = jury_build.new_seats(personas=list(Persona.objects.jury()), player_in_seat_7=False)
    return WorkerContext(
        jury=tuple(jury_build.profile(seat) for seat in seats),
        # The same settings a fresh deliberation with no options of its own gets.
        engine_settings=engine_settings(Deliberation(settings={**dict(options or {}), "rules": rules})),
        angry_settings={name: getattr(settings, name) for name in dir(settings) if name.startswith("ANGRY_")},
    )


def case_input(case_id: int) -> CaseInput:
    # Imported here, as above: Django is set up in the worker only by its initializer.
    from cases.casefile import case_file
    from cases.models import Case

    case = Case.objects.with_file().get(pk=case_id)
    return CaseInput(case=case, file=case_file(case))


def simulate(job: RunJob, case: CaseInput, context: WorkerContext) -> RunOutcome:
    """Deliberate one run to its verdict. No database access: safe in any worker process."""
    # Imported here, as above (Django set up by the worker's initializer).
    from cases.retrieval import CaseRetriever
    from deliberation.engine.session import begin, run_to_end
    from deliberation.minds.factory import mind_for
    from deliberation.minds.offline.mind import OfflineMind
    from deliberation.minds.stand_ins import argued_points

    outcome = RunOutcome(job=job, started=time.time())
    jury = list(context.jury)
    if job.trial:
        # Imported here, as above (and the model witness loads LiteLLM only for a trial run).
        from deliberation.engine.trial.jury import begin_after_trial
        from deliberation.minds.trial_model import witness_for

        witness = witness_for(job.engine)  # a model's witnesses, the offline answer their fallback
        state = begin_after_trial(
            case=case.file, jury=jury, seed=job.seed, settings=context.engine_settings, answerer=witness
        )
        if witness is not None:
            outcome.trial_witness = witness.totals
    else:
        state = begin(case=case.file, jury=jury, seed=job.seed, player_side="none", settings=context.engine_settings)
    outcome.initial_votes = dict(state.vote_history[0])
    outcome.initial_convictions = {seat: m.conviction_history[0] for seat, m in sorted(state.memories.items())}
    outcome.rounds = asyncio.run(
        run_to_end(
            state,
            case=case.file,
            jury=jury,
            mind=mind_for(job.engine),
            retriever=CaseRetriever(case.case),
            fallback=OfflineMind(),
            reader=argued_points,
        )
    )
    outcome.verdict = state.verdict
    outcome.final_state = state.to_dict()
    outcome.finished = time.time()
    return outcome


def simulate_safely(job: RunJob, case: CaseInput, context: WorkerContext) -> RunOutcome:
    """``simulate``, with a failure returned as an outcome that names the error (never raised,
    so one failing run does not stop the others)."""
    try:
        return simulate(job, case, context)
    except Exception as exc:  # reported on the experiment as a note
        # The experiment's page is public: it names the kind of error; the log keeps the rest.
        logging.getLogger(__name__).exception("experiment run of case %s seed %s failed", job.case_id, job.seed)
        return RunOutcome(job=job, error=type(exc).__name__)
