"""Render one line in the judge's voice to a WAV file with the active engine.

    python manage.py narrate "Members of the jury." --out line.wav

Prints the engine used and the duration. Exits 1 when no engine can speak (text-only mode).
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from deliberation.narration.engines import ERROR_TOO_LONG, MAX_SPOKEN_CHARS, engine_chain, render

ERROR_TEXT_ONLY = "Text-only mode: no speech engine is available. Set ELEVENLABS_API_KEY or install espeak-ng."
ERROR_ALL_FAILED = "No speech engine could render the line; see the attempts above."
ERROR_EMPTY_TEXT = "Give a non-empty line to narrate."


class Command(BaseCommand):
    help = "Render one line in the judge's voice to a WAV file and print the engine and duration."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("text", help="The line to speak.")
        parser.add_argument("--out", required=True, type=Path, help="Where to write the WAV file.")

    def handle(self, *args: Any, text: str, out: Path | str, **options: Any) -> None:
        out = Path(out)  # call_command passes keyword options through unconverted
        text = " ".join(text.split())
        if not text:
            raise CommandError(ERROR_EMPTY_TEXT)
        if len(text) > MAX_SPOKEN_CHARS:
            raise CommandError(ERROR_TOO_LONG.format(length=len(text), limit=MAX_SPOKEN_CHARS))
        engines = engine_chain()
        if not engines:
            raise CommandError(ERROR_TEXT_ONLY)
        rendering = render(text, engines)
        for attempt in rendering.attempts:
            if not attempt.ok:
                self.stderr.write(f"{attempt.engine} failed: {attempt.error}")
        if rendering.wav is None:
            raise CommandError(ERROR_ALL_FAILED if rendering.attempts else ERROR_TEXT_ONLY)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(rendering.wav)
        self.stdout.write(f"engine: {rendering.engine} ({rendering.voice})")
        self.stdout.write(f"duration: {rendering.duration_seconds:.2f} s")
        self.stdout.write(f"wrote: {out}")
