"""Deliberation formats as settings: turn mode, context scope, and the discharge of a juror.

The engine owns the rules (``engine.formats``, ``engine.discharge``); this module turns a
deliberation's or an experiment's ``settings`` into engine settings and refuses bad values with
the engine's own messages, before anything is stored.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from deliberation.engine import formats

FORMAT_KEYS = ("turn_mode", "context_scope", "last_n")


def format_settings(options: dict[str, Any]) -> dict[str, Any]:
    """The format keys present in ``options``, typed for ``EngineSettings``."""
    picked: dict[str, Any] = {}
    if options.get("turn_mode"):
        picked["turn_mode"] = str(options["turn_mode"])
    if options.get("context_scope"):
        picked["context_scope"] = str(options["context_scope"])
    if options.get("last_n") not in (None, ""):
        picked["last_n"] = int(options["last_n"])
    return picked


def check_format_options(options: dict[str, Any]) -> None:
    """Raise ``ValidationError`` with the engine's message for an unknown mode or scope, or a bad n."""
    try:
        picked = format_settings(options)
    except (TypeError, ValueError):
        raise ValidationError(formats.ERROR_LAST_N) from None
    try:
        formats.check_turn_mode(picked.get("turn_mode", formats.DEFAULT_TURN_MODE))
        formats.check_context_scope(picked.get("context_scope", formats.DEFAULT_CONTEXT_SCOPE))
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    if not 1 <= picked.get("last_n", formats.DEFAULT_LAST_N) <= 50:
        raise ValidationError(formats.ERROR_LAST_N)
