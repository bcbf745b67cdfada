"""What a trial costs with a model witness: calls and tokens per trial, against a local OpenAI-compatible server.

Run: .venv/bin/python bench/trial_model_cost.py
The server (tests/deliberation/minds/openai_server.py) answers with the first passage it was given
(a witness that keeps to the rule); token counts are estimated as characters / 4 of the messages
actually sent and of the answer, since the local server does not tokenize. Counsel, objections and
rulings stay offline: only witness answers call the model.
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _django import DATA, setup


def main() -> None:
    setup()
    from django.core.management import call_command

    from cases.casefile import case_file
    from cases.models import Case
    from cases.services import oldbailey_import_paths
    from deliberation.engine.trial.course import groundedness, run_trial
    from deliberation.minds.trial_model import ModelWitness
    from tests.deliberation.minds.openai_server import Reply, ScriptedOpenAIServer

    def first_passage(body: dict[str, Any]) -> Reply:
        user = body["messages"][1]["content"]
        line = user.split("\n- ", 1)[1].split("\n", 1)[0] if "\n- " in user else "I couldn't say."
        return Reply(text=line, prompt_tokens=len(json.dumps(body["messages"])) // 4, completion_tokens=len(line) // 4)

    call_command("load_cases", stdout=io.StringIO())
    oldbailey_import_paths(paths=sorted((DATA / "trials").glob("*.xml")))
    with ScriptedOpenAIServer() as server:
        server.responder = first_passage
        for source in ("curated", "oldbailey"):
            calls, prompt, completion, seconds, grounded = [], [], [], [], []
            for case in Case.objects.with_file().playable().filter(source=source):
                model = ModelWitness("openai/witness", api_base=server.api_base, api_key="sk-local", retries=0)
                start = time.perf_counter()
                trial = run_trial(case_file(case), seed=0, answerer=model)
                seconds.append(time.perf_counter() - start)
                totals = model.totals
                calls.append(totals["calls"])
                prompt.append(totals["prompt_tokens"])
                completion.append(totals["completion_tokens"])
                grounded.append(groundedness(trial.events))
            print(
                f"{source}: {len(calls)} trials; per trial: calls median {statistics.median(calls):.0f} "
                f"(max {max(calls)}), prompt tokens median {statistics.median(prompt):.0f} (max {max(prompt)}), "
                f"completion tokens median {statistics.median(completion):.0f}; "
                f"grounded {statistics.mean(grounded):.1%}; wall time median {statistics.median(seconds):.2f} s "
                "(local server, no model latency)"
            )


if __name__ == "__main__":
    main()
