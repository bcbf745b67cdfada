"""Jury rules through the services, the command line and the pages: a game follows the rule set it
was started with, the judge's directions are turns of the judge and narrated, the foreperson's
summaries are in the transcript."""

from __future__ import annotations

import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.html import escape

from cases.models import Case
from deliberation import services
from deliberation.engine.reflection import WITHDRAW_NOTE
from deliberation.engine.rules import ALLEN_EXTRA_ROUNDS, ALLEN_INSTRUCTION, OLD_BAILEY_ROUNDS
from deliberation.experiments import services as experiment_services
from deliberation.models import Deliberation, Experiment, Narration, NarrationKind, TurnKind
from deliberation.services.lifecycle import ERROR_RULES_UNKNOWN


def _run(*args: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    call_command("deliberate", *args, "--json", stdout=out, stderr=err)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_an_allen_charge_gives_a_deadlocked_jury_more_rounds_and_only_the_second_deadlock_hangs(library):
    record = _run("--case", "copper-kettle-fire", "--rules", "us-allen", "--max-rounds", "2", "--seed", "2")
    assert record["rules"] == "us-allen"
    assert record["directions"] == [ALLEN_INSTRUCTION]
    assert record["rounds"] == 2 + ALLEN_EXTRA_ROUNDS
    assert record["end_reason"] == "deadlock" and record["verdict"] == "hung"
    assert sum(record["final_ballot"].values()) == 12


def test_the_same_jury_under_unanimous_rules_hangs_at_the_round_limit(library):
    record = _run("--case", "copper-kettle-fire", "--rules", "unanimous", "--max-rounds", "2", "--seed", "2")
    assert record["rules"] == "unanimous" and record["directions"] == []
    assert record["rounds"] == 2 and record["verdict"] == "hung"


def test_the_judges_direction_is_a_judge_turn_and_is_narrated(library):
    record = _run("--case", "copper-kettle-fire", "--rules", "us-allen", "--max-rounds", "2", "--seed", "2")
    deliberation = Deliberation.objects.get(pk=record["deliberation_id"])
    judge_turns = list(deliberation.turns.filter(kind=TurnKind.JUDGE).values_list("content", flat=True))
    assert judge_turns == [ALLEN_INSTRUCTION]
    spoken = Narration.objects.filter(deliberation=deliberation, kind=NarrationKind.LINE)
    assert list(spoken.values_list("text", flat=True)) == [" ".join(ALLEN_INSTRUCTION.split())]
    reports = deliberation.turns.filter(kind=TurnKind.PROCESS, content__startswith="Your Honour")
    assert reports.count() == 2  # the first deadlock and the second


def test_an_unknown_rule_set_is_refused_on_the_command_line(library):
    with pytest.raises(CommandError, match="invalid choice: 'scottish'"):
        _run("--case", "copper-kettle-fire", "--rules", "scottish")


def test_an_unknown_rule_set_is_refused_by_the_service(library):
    case = Case.objects.get(slug="copper-kettle-fire")
    with pytest.raises(ValidationError) as caught:
        services.deliberation_start(case=case, player_side="none", options={"rules": "scottish"})
    assert caught.value.messages == [ERROR_RULES_UNKNOWN]


def test_the_start_form_starts_a_game_under_the_chosen_rules(library, client):
    response = client.post(reverse("court_start"), {"case": "copper-kettle-fire", "rules": "england-wales"})
    deliberation = Deliberation.objects.get()
    assert response.status_code == 302 and deliberation.settings["rules"] == "england-wales"
    page = client.get(response["Location"]).content.decode()
    assert "England and Wales (majority direction)" in page


def test_the_start_form_refuses_unknown_rules_with_a_message(library, client):
    response = client.post(reverse("court_start"), {"case": "copper-kettle-fire", "rules": "scottish"}, follow=True)
    assert ERROR_RULES_UNKNOWN in response.content.decode()
    assert not Deliberation.objects.exists()


def test_the_library_offers_every_rule_set(library, client):
    page = client.get(reverse("home")).content.decode()
    for name in ("unanimous", "england-wales", "us-allen", "historical-old-bailey"):
        assert f'value="{name}"' in page


def _experiment(rules: str) -> Experiment:
    experiment = experiment_services.experiment_create(
        case_selector="alder-street-hit-and-run", runs_per_case=2, seed=3, rules=rules
    )
    return experiment_services.experiment_execute(experiment_id=experiment.pk, workers=1)


def test_an_experiment_runs_every_deliberation_under_its_rules(library):
    experiment = _experiment("historical-old-bailey")
    assert experiment.rules == "historical-old-bailey"
    runs = list(experiment.deliberations.all())
    assert len(runs) == 2 and all(run.settings["rules"] == "historical-old-bailey" for run in runs)
    assert all(run.round_number <= OLD_BAILEY_ROUNDS for run in runs)


def test_the_experiment_page_compares_rule_sets_run_on_the_same_cases(library, client):
    unanimous = _experiment("unanimous")
    allen = _experiment("us-allen")
    page = client.get(reverse("experiments:detail", args=[allen.pk])).content.decode()
    assert "Rule sets side by side" in page
    assert "United States (Allen charge) (this page)" in page
    assert reverse("experiments:detail", args=[unanimous.pk]) in page


def test_an_experiment_added_in_the_admin_takes_its_rules(library, admin_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(
            reverse("admin:deliberation_experiment_add"),
            {"name": "majority", "case_selector": "alder-street-hit-and-run", "runs_per_case": 1,
             "engine": "offline", "seed": 3, "rules": "england-wales"},
        )  # fmt: skip
    assert Experiment.objects.get(name="majority").rules == "england-wales"


def test_an_unknown_rule_set_is_refused_for_an_experiment(library):
    with pytest.raises(ValidationError) as caught:
        experiment_services.experiment_create(case_selector="alder-street-hit-and-run", runs_per_case=1, rules="x")
    assert caught.value.messages == [experiment_services.ERROR_RULES_UNKNOWN]


def test_a_room_is_created_under_the_chosen_rules(library, client):
    case = Case.objects.get(slug="copper-kettle-fire")
    client.post(reverse("room_new"), {"case": case.pk, "open_seats": ["2"], "rules": "us-allen"})
    room = Deliberation.objects.get(room_code__isnull=False)
    assert room.settings["rules"] == "us-allen"
    assert "United States (Allen charge)" in client.get(reverse("room", args=[room.room_code])).content.decode()


def test_an_agents_view_of_a_room_names_its_rules(library):
    from deliberation.rooms import services as room_services
    from deliberation.rooms.selectors import room_state

    room = room_services.room_create(
        case=Case.objects.get(slug="copper-kettle-fire"), open_seats=(2,), rules="england-wales"
    )
    state = room_state(room, for_agent=True)
    assert state["rules"]["name"] == "england-wales"
    assert "10-2" in state["rules"]["summary"]


def test_an_offline_juror_who_withdraws_is_noted_in_the_transcript_and_marked_in_the_jury_box(library, client):
    # A seed whose room has a juror withdraw and stay withdrawn to the end (the badge marks only those).
    record = _run("--case", "copper-kettle-fire", "--seed", "6")  # withdraws in round 10 of 12
    deliberation = Deliberation.objects.get(pk=record["deliberation_id"])
    note = deliberation.turns.get(kind=TurnKind.PROCESS, content__contains="withdraws from the discussion")
    seat = next(s for s in deliberation.seats.all() if note.content == WITHDRAW_NOTE.format(name=s.display_name))
    assert seat.vote in ("guilty", "not_guilty") and sum(record["final_ballot"].values()) == 12
    later = deliberation.turns.filter(kind=TurnKind.SPEECH, seat_number=seat.number, round_number__gt=note.round_number)
    assert not later.exists()
    transcript = client.get(reverse("review:transcript", args=[deliberation.public_id])).content.decode()
    assert note.content in transcript
    court = client.get(reverse("court", args=[deliberation.public_id])).content.decode()
    assert f'id="seat-{seat.number}"' in court and "withdrawn-badge" in court


def test_a_hung_jury_under_majority_rules_is_described_by_that_rule_on_every_page_and_export(library, client):
    record = _run(
        "--case", "copper-kettle-fire", "--rules", "england-wales", "--majority-after", "1",
        "--max-rounds", "2", "--seed", "1",
    )  # fmt: skip
    assert record["verdict"] == "hung" and record["directions"]
    deliberation = Deliberation.objects.get(pk=record["deliberation_id"])
    words = "could not reach a verdict of at least 10 to 2"
    pages = {
        "courtroom": reverse("court", args=[deliberation.public_id]),
        "verdict": reverse("court_verdict", args=[deliberation.public_id]),
        "transcript": reverse("review:transcript", args=[deliberation.public_id]),
        "debrief": reverse("review:debrief", args=[deliberation.public_id]),
        "markdown": reverse("review:export_md", args=[deliberation.public_id]),
        "json": reverse("review:export_json", args=[deliberation.public_id]),
        "summary": reverse("review:export_summary", args=[deliberation.public_id]),
    }
    for name, url in pages.items():
        body = client.get(url).content.decode()
        assert words in body, name
        assert "unanimous verdict" not in body, name
    verdict_line = Narration.objects.get(deliberation=deliberation, kind=NarrationKind.VERDICT).text
    assert "The jury could not reach a verdict of at least 10 to 2." in verdict_line


def test_the_foreperson_summary_is_in_the_transcript_and_both_exports(library, client):
    record = _run("--case", "copper-kettle-fire", "--summary-every", "1", "--poll", "secret", "--seed", "1")
    deliberation = Deliberation.objects.get(pk=record["deliberation_id"])
    summary = deliberation.turns.filter(kind=TurnKind.PROCESS, content__startswith="Let me sum up").first()
    assert summary is not None and "On a secret ballot:" in summary.content
    page = client.get(reverse("review:transcript", args=[deliberation.public_id])).content.decode()
    assert escape(summary.content) in page
    markdown = client.get(reverse("review:export_md", args=[deliberation.public_id])).content.decode()
    assert summary.content in markdown
    exported = client.get(reverse("review:export_json", args=[deliberation.public_id])).json()
    assert summary.content in json.dumps(exported, ensure_ascii=False)
