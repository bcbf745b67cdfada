"""Every write of the deliberation app, and its one broadcaster (``broadcast``).

Views, tasks, consumers, the MCP server and commands call these; none writes models itself.
"""

from deliberation.services.lifecycle import (
    deliberation_start,
    player_speak,
    side_choose,
    turn_pass,
    vote_call,
    vote_cast,
)
from deliberation.services.rounds import round_run

__all__ = [
    "deliberation_start",
    "player_speak",
    "round_run",
    "side_choose",
    "turn_pass",
    "vote_call",
    "vote_cast",
]
