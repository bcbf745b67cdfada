"""The list of past deliberations: what each row says, filters, pages, and curators deleting."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse

from deliberation.access import Viewer
from deliberation.models import Deliberation, Experiment, RoundStatus, Turn
from deliberation.review.selectors import PER_PAGE, deliberations_listed
from deliberation.services.review import ERROR_DELETE_RUNNING, deliberation_delete
from tests.deliberation.review.conftest import write_deliberation
from tests.factories import CaseFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def curator(client):
    user = get_user_model().objects.create_user("curator", password="pw", is_staff=True)
    client.force_login(user)
    return user


def _listed_ids(response) -> set[int]:
    return {d.pk for d, _ in response.context["rows"]}


def test_a_row_shows_case_engine_participants_rounds_verdict_and_historical_verdict(client, curator):
    case = CaseFactory(title="The State v. Row Shown", historical_verdict="not_guilty")
    write_deliberation(rounds=3, case=case, participants=2, verdict="guilty", sessions={1: "ann", 2: "bo"})
    html = client.get(reverse("review:list")).content.decode()
    body = html[html.index("<tbody>") :]
    row = body[body.index("The State v. Row Shown") :].split("</tr>")[0]
    cells = [c.split("</td>")[0].strip() for c in row.split("<td>")[1:]]
    assert cells[1] == "the offline engine"
    assert cells[2] == "2"  # two people took part
    assert cells[3] == "3"
    assert "Guilty" in cells[4] and cells[5] == "Not guilty"


def test_a_model_engine_is_shown_by_its_model_string(client):
    write_deliberation(rounds=1, engine="openai/gpt-4o-mini")
    assert "openai/gpt-4o-mini" in client.get(reverse("review:list")).content.decode()


def test_experiment_runs_are_left_to_their_experiment(client):
    experiment = Experiment.objects.create(case_selector="all")
    kept = write_deliberation(rounds=1)
    run = write_deliberation(rounds=1, experiment=experiment)
    listed = _listed_ids(client.get(reverse("review:list")))
    assert kept.pk in listed and run.pk not in listed


def test_filters_narrow_the_list_by_case_verdict_and_engine(client):
    case = CaseFactory()
    wanted = write_deliberation(rounds=1, case=case, verdict="hung", engine="ollama/llama3")
    write_deliberation(rounds=1, case=case, verdict="guilty", engine="ollama/llama3")
    write_deliberation(rounds=1, case=case, verdict="hung", engine="offline")
    write_deliberation(rounds=1, verdict="hung", engine="ollama/llama3")
    url = reverse("review:list") + f"?case={case.slug}&verdict=hung&engine=ollama/llama3"
    assert _listed_ids(client.get(url)) == {wanted.pk}


def test_unfinished_deliberations_can_be_picked_out(client):
    running = write_deliberation(rounds=2, verdict="")
    write_deliberation(rounds=2, verdict="guilty")
    assert _listed_ids(client.get(reverse("review:list") + "?verdict=unfinished")) == {running.pk}


def test_the_list_is_paginated_newest_first(client):
    case = CaseFactory()
    made = [write_deliberation(rounds=1, case=case) for _ in range(PER_PAGE + 3)]
    first = client.get(reverse("review:list"))
    second = client.get(reverse("review:list") + "?page=2")
    assert len(first.context["rows"]) == PER_PAGE
    assert _listed_ids(second) == {d.pk for d in made[:3]}
    assert 'href="?page=2"' in first.content.decode()


def test_the_filter_choices_offer_only_cases_and_engines_that_were_deliberated(client):
    write_deliberation(rounds=1, case=CaseFactory(title="Deliberated case"), engine="ollama/phi3")
    CaseFactory(title="Never deliberated")
    html = client.get(reverse("review:list")).content.decode()
    assert "Deliberated case" in html and "Never deliberated" not in html
    assert '<option value="ollama/phi3"' in html


def test_a_curator_confirms_then_deletes_a_deliberation(client, curator):
    deliberation = write_deliberation(rounds=2)
    url = reverse("review:delete", args=[deliberation.public_id])
    confirm = client.get(url)
    assert confirm.status_code == 200 and "cannot be undone" in confirm.content.decode()
    assert Deliberation.objects.filter(pk=deliberation.pk).exists()
    response = client.post(url)
    assert response.status_code == 302 and response.url == reverse("review:list")
    assert not Deliberation.objects.filter(pk=deliberation.pk).exists()
    assert not Turn.objects.filter(deliberation_id=deliberation.pk).exists()


@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_anyone_but_a_curator_is_refused_with_403(client, who):
    if who == "member":
        client.force_login(get_user_model().objects.create_user("member", password="pw"))
    deliberation = write_deliberation(rounds=1)
    url = reverse("review:delete", args=[deliberation.public_id])
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    assert Deliberation.objects.filter(pk=deliberation.pk).exists()


def test_only_curators_see_the_delete_link(client, curator):
    deliberation = write_deliberation(rounds=1)
    url = reverse("review:transcript", args=[deliberation.public_id])
    assert reverse("review:delete", args=[deliberation.public_id]) in client.get(url).content.decode()
    client.logout()
    assert reverse("review:delete", args=[deliberation.public_id]) not in client.get(url).content.decode()


def test_a_deliberation_is_not_deleted_while_a_round_runs():
    deliberation = write_deliberation(rounds=1, verdict="")
    Deliberation.objects.filter(pk=deliberation.pk).update(round_status=RoundStatus.RUNNING)
    with pytest.raises(ValidationError) as caught:
        deliberation_delete(deliberation_id=deliberation.pk)
    assert caught.value.messages == [ERROR_DELETE_RUNNING]
    assert Deliberation.objects.filter(pk=deliberation.pk).exists()


def test_the_listed_rows_count_people_and_agents_only():
    deliberation = write_deliberation(rounds=1, participants=3, sessions={1: "ann", 2: "bo"}, tokens={3: "hash"})
    row = deliberations_listed(viewer=Viewer(is_staff=True)).get(pk=deliberation.pk)
    assert (row.participants, row.automated) == (3, 0)


def test_the_command_lines_automated_player_is_not_counted_as_a_person(client):
    case = CaseFactory(title="The State v. Automated")
    deliberation = write_deliberation(rounds=1, case=case, participants=1)
    row = deliberations_listed(viewer=Viewer()).get(pk=deliberation.pk)
    assert (row.participants, row.automated) == (0, 1)
    html = client.get(reverse("review:list")).content.decode()
    body = html[html.index("<tbody>") :]
    cell = body[body.index("The State v. Automated") :].split("</tr>")[0].split("<td>")[3]
    assert cell.startswith("0 ") and "+ automated player" in cell
