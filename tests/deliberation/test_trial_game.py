"""A game with the trial: `deliberate --trial`, the start form, the record, the exports, experiments."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from cases.services import oldbailey_import_paths
from deliberation.models import Deliberation, Experiment, Turn, TurnKind
from tests.cases.oldbailey_sample import TRIALS

HEARSAY_TRIAL = "t18780806-741"  # a constable's "from information I received" is struck at this trial


def _run(*args: str) -> dict:
    out = io.StringIO()
    call_command("deliberate", *args, "--json", stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_deliberate_with_the_trial_adds_its_turns_objections_and_rulings_on_a_curated_case(library):
    record = _run("--case", "kessler-market-robbery", "--trial", "--seed", "3", "--max-rounds", "3")
    trial = record["trial"]
    kinds = [t["kind"] for t in trial["turns"]]
    assert kinds[0] == "speech" and trial["turns"][0]["stage"] == "openings"
    assert kinds[-1] == "directions" and "burden of proof" in trial["turns"][-1]["content"]
    assert {"call", "question", "answer"} <= set(kinds)
    assert trial["groundedness"] == 1.0 and trial["answers"] == kinds.count("answer")
    assert len(trial["objections"]) == len(trial["rulings"])
    assert all(r["reason"].startswith(("Sustained", "Overruled")) for r in trial["rulings"])
    assert set(trial["scores"]) == {"prosecution", "defense"}
    assert sum(record["first_ballot"].values()) == 12
    assert not any(t["content"] == trial["turns"][0]["content"] for t in record["turns"])


def test_deliberate_with_the_trial_on_an_old_bailey_trial_strikes_hearsay_and_keeps_it_from_the_jury(db, library):
    oldbailey_import_paths(paths=[p for p in TRIALS if p.stem == HEARSAY_TRIAL])
    record = _run("--case", f"ob-{HEARSAY_TRIAL}", "--trial", "--seed", "0", "--max-rounds", "2")
    trial = record["trial"]
    struck = [t for t in trial["turns"] if t["struck"]]
    assert struck and trial["struck"] == len(struck)
    assert any(r["ground"] == "hearsay" and r["sustained"] for r in trial["rulings"])
    state = json.dumps(Deliberation.objects.get(pk=record["deliberation_id"]).engine_state)
    for answer in struck:
        assert answer["content"] not in state
    admitted = [t for t in trial["turns"] if t["kind"] == "answer" and not t["struck"]]
    assert json.dumps(admitted[0]["content"])[1:-1] in state  # what was admitted is in the jurors' memory


def test_without_the_trial_the_game_goes_straight_to_the_first_ballot(library):
    record = _run("--case", "kessler-market-robbery", "--seed", "3", "--max-rounds", "2")
    assert "trial" not in record
    assert not Turn.objects.filter(kind=TurnKind.TRIAL).exists()


def test_the_trial_is_in_the_markdown_json_and_summary_exports(library):
    record = _run("--case", "alder-street-hit-and-run", "--trial", "--seed", "1", "--max-rounds", "2")
    pk = str(record["deliberation_id"])
    md, js = io.StringIO(), io.StringIO()
    call_command("export_deliberation", pk, "--format", "md", stdout=md, stderr=io.StringIO())
    call_command("export_deliberation", pk, "--format", "json", stdout=js, stderr=io.StringIO())
    assert "(trial: question)" in md.getvalue() and "(trial: answer)" in md.getvalue()
    assert record["trial"]["turns"][-1]["content"] in md.getvalue()
    exported = json.loads(js.getvalue())
    trial_turns = [t for t in _turns(exported) if t["kind"] == "trial"]
    assert len(trial_turns) == len(record["trial"]["turns"])
    assert trial_turns[-1]["trial"]["kind"] == "directions"
    summary = io.StringIO()
    call_command("export_deliberation", pk, "--format", "summary", stdout=summary, stderr=io.StringIO())
    answers, scores = record["trial"]["answers"] - record["trial"]["non_answers"], record["trial"]["scores"]
    assert f"Trial: {answers} witness answers (100% found in the witness's record) and " in summary.getvalue()
    prosecution = f"Counsel for the prosecution (AI counsel): questions asked {scores['prosecution']['questions']};"
    assert prosecution in summary.getvalue() and "Counsel for the defence (AI counsel)" in summary.getvalue()


def _turns(exported: dict) -> list[dict]:
    found: list[dict] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "sequence" in node and "kind" in node:
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(exported)
    return found


def test_the_start_form_holds_the_trial_once_the_side_is_chosen(client, robbery, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        # Each case's box names its case: the one beside the case started counts.
        client.post("/court/start/", {"case": robbery.slug, "trial": robbery.slug})
    deliberation = Deliberation.objects.get()
    assert deliberation.settings["trial"] is True
    assert not deliberation.turns.filter(kind=TurnKind.TRIAL).exists()  # not before the side is chosen
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/court/{deliberation.public_id}/side/", {"side": "defend", "vote": "not_guilty"})
    assert deliberation.turns.filter(kind=TurnKind.TRIAL).count() > 10
    directions = deliberation.turns.filter(kind=TurnKind.TRIAL).last()
    assert deliberation.narrations.filter(kind="line", text=" ".join(directions.content.split())).exists()
    page = client.get(f"/court/{deliberation.public_id}/").content.decode()
    assert 'class="msg msg-trial' in page and "Counsel for the defence" in page


def test_a_box_ticked_beside_another_case_holds_no_trial_for_the_case_started(client, robbery):
    client.post("/court/start/", {"case": robbery.slug, "trial": "some-other-case"})
    assert "trial" not in Deliberation.objects.get().settings


def test_a_game_started_without_the_box_ticked_has_no_trial(client, robbery, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/court/start/", {"case": robbery.slug})
    assert "trial" not in Deliberation.objects.get().settings


@pytest.mark.parametrize("flag", [True, False])
def test_an_experiment_holds_the_trial_in_its_runs_when_asked(library, flag):
    out = io.StringIO()
    args = ["--cases", "kessler-market-robbery", "--runs", "1", "--seed", "2", "--workers", "1", "--json"]
    call_command("experiment", *args, *(["--trial"] if flag else []), stdout=out, stderr=io.StringIO())
    experiment = Experiment.objects.get()
    assert experiment.trial is flag and experiment.deliberations.count() == 1


def test_the_debrief_scores_each_sides_counsel_from_the_trial_record(client, library):
    from django.urls import reverse

    record = _run("--case", "route-nine-fuel-stop-murder", "--trial", "--seed", "4", "--max-rounds", "2")
    page = client.get(reverse("review:debrief", args=[record["public_id"]])).content.decode()
    scores = record["trial"]["scores"]
    assert "Counsel at the trial" in page and "Counsel for the defence" in page
    row = f'<th scope="row">Questions asked</th><td>{scores["prosecution"]["questions"]}</td>'
    assert row in page


def test_the_debrief_of_a_game_without_a_trial_has_no_counsel_section(client, library):
    from django.urls import reverse

    record = _run("--case", "route-nine-fuel-stop-murder", "--seed", "4", "--max-rounds", "2")
    assert (
        "Counsel at the trial" not in client.get(reverse("review:debrief", args=[record["public_id"]])).content.decode()
    )


def test_holding_the_trial_pushes_its_turns_to_every_browsers_chat(
    robbery, django_capture_on_commit_callbacks, readable_layer
):
    import asyncio

    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from deliberation import services
    from deliberation.services.broadcast import group_name

    started = services.deliberation_start(case=robbery, host_session_key="k", options={"trial": True})
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group_name(started.pk), channel)
    with django_capture_on_commit_callbacks(execute=True):
        services.side_choose(deliberation_id=started.pk, side="prosecute", vote="guilty")

    async def heard() -> list[dict]:
        found = []
        while True:
            try:
                found.append(await asyncio.wait_for(layer.receive(channel), timeout=0.5))
            except TimeoutError:
                return found

    events = async_to_sync(heard)()
    names = [e["event"] for e in events]
    assert "trial" in names and names.index("trial") < names.index("phase")
    html = events[names.index("trial")]["html"]
    turns = Turn.objects.filter(deliberation=started, kind=TurnKind.TRIAL)
    assert 'hx-swap-oob="beforeend:#chat"' in html and html.count('class="msg msg-trial') == turns.count()


def test_the_transcript_page_marks_trial_turns_and_struck_answers(client, db, library):
    from django.urls import reverse

    oldbailey_import_paths(paths=[p for p in TRIALS if p.stem == HEARSAY_TRIAL])
    record = _run("--case", f"ob-{HEARSAY_TRIAL}", "--trial", "--seed", "0", "--max-rounds", "1")
    page = client.get(reverse("review:transcript", args=[record["public_id"]])).content.decode()
    assert "The case, the trial and the first ballot" in page
    assert page.count('class="turn turn-trial"') == len(record["trial"]["turns"])
    assert page.count("struck: disregarded") == record["trial"]["struck"] > 0


def test_the_replay_of_the_first_ballot_shows_what_the_court_heard_at_the_trial(client, db, library):
    from django.urls import reverse

    oldbailey_import_paths(paths=[p for p in TRIALS if p.stem == HEARSAY_TRIAL])
    record = _run("--case", f"ob-{HEARSAY_TRIAL}", "--trial", "--seed", "0", "--max-rounds", "1")
    url = reverse("review:transcript", args=[record["public_id"]])
    panel = client.get(url, {"round": 0}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="replay").content.decode()
    assert "Heard at the trial" in panel
    assert panel.count("struck: disregarded") == record["trial"]["struck"] > 0
    heard = panel.split("Heard at the trial", 1)[1]
    assert heard.count("<li") == len(record["trial"]["turns"])
    later = client.get(url, {"round": 1}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="replay").content.decode()
    assert "Heard at the trial" not in later  # the trial is the first ballot's, not every round's
