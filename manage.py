#!/usr/bin/env python
"""Django's command-line utility for 12 Angry Agents."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    # In embedded mode a command's background work (index rebuilds, narrations) runs before it
    # exits, not on a thread the exiting interpreter would cut short. The web process (Daphne)
    # and service mode (REDIS_URL: Celery) are unaffected.
    if "REDIS_URL" not in os.environ and sys.argv[1:2] != ["runserver"]:
        os.environ.setdefault("ANGRY_TASKS", "sync")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
