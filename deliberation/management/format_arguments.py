"""The format flags ``deliberate`` and ``experiment`` share: --turn-mode, --context-scope, --last-n."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from deliberation.engine.formats import CONTEXT_SCOPES, TURN_MODES


def add_format_arguments(parser: CommandParser) -> None:
    parser.add_argument("--turn-mode", choices=TURN_MODES, default=None, help="how the speakers are chosen")
    parser.add_argument(
        "--context-scope", choices=CONTEXT_SCOPES, default=None, help="what a model juror's prompt carries"
    )
    parser.add_argument("--last-n", type=int, default=None, help="turns kept by the last-n context scope")


def format_options(options: dict[str, Any]) -> dict[str, Any]:
    """The deliberation settings the flags ask for (only those given)."""
    picked = {"turn_mode": options.get("turn_mode"), "context_scope": options.get("context_scope")}
    picked["last_n"] = options.get("last_n")
    return {key: value for key, value in picked.items() if value is not None}
