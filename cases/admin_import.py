"""Admin pages to upload Old Bailey files and follow their background import.

Wire into ``CaseAdmin.get_urls`` with ``oldbailey_import_urls(self.admin_site)`` (before the
default URLs) and link from the change list with
``{% url 'admin:cases_case_import_oldbailey' %}``. The upload page stores the files under
``MEDIA_ROOT/imports/``, records an ``ImportJob`` and queues it through
``angryagents.background.enqueue``; the progress page refreshes itself every two seconds and,
once the job has finished, hands its summary over as a Django message on the change list.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin import AdminSite
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.text import get_valid_filename

from angryagents.forms import MultipleFileField
from cases.models import Case, ImportJob, ImportStatus
from cases.services import import_job_create
from cases.uploads import UPLOAD_DIR

ERROR_TOO_LARGE = "{name} is {size:,} bytes, over the import limit of {limit:,} bytes."
ERROR_NOT_XML = "{name} is not an .xml file."
MESSAGE_FINISHED = "The import finished."
REFRESH_SECONDS = 2


class OldBaileyUploadForm(forms.Form):
    files = MultipleFileField(help_text="Old Bailey session files, single trials or OBC2 files (.xml).")

    def clean_files(self) -> list:
        files = self.cleaned_data["files"]
        limit = settings.ANGRY_IMPORT_MAX_BYTES
        for upload in files:
            if not (upload.name or "").lower().endswith(".xml"):
                raise forms.ValidationError(ERROR_NOT_XML.format(name=upload.name))
            if upload.size > limit:
                raise forms.ValidationError(ERROR_TOO_LARGE.format(name=upload.name, size=upload.size, limit=limit))
        return files


def _store(upload: forms.Field) -> str:
    """Save one upload under MEDIA_ROOT/imports/ and return its path relative to MEDIA_ROOT."""
    name = f"{uuid.uuid4().hex[:12]}-{get_valid_filename(upload.name or 'upload.xml')}"
    target = Path(settings.MEDIA_ROOT) / UPLOAD_DIR / name
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)
    return f"{UPLOAD_DIR}/{name}"


def oldbailey_upload_view(request: HttpRequest, admin_site: AdminSite) -> HttpResponse:
    form = OldBaileyUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        stored = [_store(upload) for upload in form.cleaned_data["files"]]
        job = import_job_create(files=stored, user_id=request.user.pk)
        return redirect(f"{job.pk}/")
    context = {
        **admin_site.each_context(request),
        "form": form,
        "title": "Import Old Bailey files",
        "opts": Case._meta,
        "recent": ImportJob.objects.all()[:5],
    }
    return render(request, "admin/cases/case/import_oldbailey.html", context)


def oldbailey_progress_view(request: HttpRequest, job_id: int, admin_site: AdminSite) -> HttpResponse:
    job = ImportJob.objects.filter(pk=job_id).first()
    if job is None:
        raise Http404("No such import.")
    if job.finished and request.GET.get("stay") != "1":
        for line in job.summary.splitlines() or [MESSAGE_FINISHED]:
            messages.add_message(request, _level(line, job), line)
        return redirect("admin:cases_case_changelist")
    context = {
        **admin_site.each_context(request),
        "job": job,
        "percent": int(100 * job.done / job.total) if job.total else 0,
        "refresh": REFRESH_SECONDS,
        "title": f"Importing Old Bailey files (job {job.pk})",
        "opts": Case._meta,
    }
    return render(request, "admin/cases/case/import_progress.html", context)


def _level(line: str, job: ImportJob) -> int:
    """Each summary line is its own message: a file's error in red, the totals as the job went."""
    if ": error" in line or line.startswith(("error: ", "The import stopped")) or any(e in line for e in job.errors):
        return messages.ERROR
    if line.startswith(("kept but not playable", "skipped")):
        return messages.WARNING
    if line.startswith("imported ") and job.status == ImportStatus.FAILED:
        return messages.ERROR
    return messages.SUCCESS


def oldbailey_import_urls(admin_site: AdminSite) -> list[URLPattern]:
    """URL patterns to add to ``CaseAdmin.get_urls`` (names: cases_case_import_oldbailey[_progress])."""

    def upload(request: HttpRequest) -> HttpResponse:
        return oldbailey_upload_view(request, admin_site)

    def progress(request: HttpRequest, job_id: int) -> HttpResponse:
        return oldbailey_progress_view(request, job_id, admin_site)

    return [
        path("import-oldbailey/", admin_site.admin_view(upload), name="cases_case_import_oldbailey"),
        path(
            "import-oldbailey/<int:job_id>/",
            admin_site.admin_view(progress),
            name="cases_case_import_oldbailey_progress",
        ),
    ]
