"""Narration audio is served with DEBUG off; nothing else under MEDIA_ROOT ever is."""

from __future__ import annotations

from django.test import Client


def test_a_narration_file_is_served(settings):
    folder = settings.MEDIA_ROOT / "narration"
    folder.mkdir(parents=True)
    (folder / "abc123.wav").write_bytes(b"RIFF....WAVEfmt ")

    response = Client().get("/media/narration/abc123.wav")

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"RIFF....WAVEfmt "
    assert response["Content-Type"] in {"audio/x-wav", "audio/wav"}
    assert "max-age" in response["Cache-Control"]


def test_uploaded_import_files_and_paths_out_of_the_folder_are_never_served(settings):
    (settings.MEDIA_ROOT / "imports").mkdir(parents=True)
    (settings.MEDIA_ROOT / "imports" / "upload.xml").write_text("<private/>")
    (settings.MEDIA_ROOT / "narration").mkdir()
    client = Client(raise_request_exception=False)

    assert client.get("/media/imports/upload.xml").status_code == 404
    for climb in ("/media/narration/../imports/upload.xml", "/media/narration/%2e%2e/imports/upload.xml"):
        refused = client.get(climb)  # Django's safe_join refuses to leave the folder: a bad request
        assert refused.status_code == 400 and b"<private/>" not in refused.content
    assert client.get("/media/narration/").status_code == 404  # no folder listing
    assert client.get("/media/narration/missing.wav").status_code == 404


def test_a_post_is_refused(settings):
    (settings.MEDIA_ROOT / "narration").mkdir(parents=True)
    (settings.MEDIA_ROOT / "narration" / "a.wav").write_bytes(b"RIFF")
    assert Client().post("/media/narration/a.wav").status_code == 405


def test_a_name_too_long_for_the_file_system_is_not_found(settings):
    (settings.MEDIA_ROOT / "narration").mkdir(parents=True)
    client = Client(raise_request_exception=False)

    assert client.get("/media/narration/" + "A" * 300).status_code == 404
    assert client.get("/media/narration/" + "A" * 300 + ".wav").status_code == 404
