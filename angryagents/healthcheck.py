"""``python -m angryagents.healthcheck``: exit 0 when the web process on this machine answers ``/healthz``.

The image's HEALTHCHECK and docker-compose.yml's web service run it inside the container. It asks as
a browser of the site would: with the first of ``ALLOWED_HOSTS`` as its Host (a site that allows
only ``jury.example.org`` refuses a bare 127.0.0.1), on ``HEALTHCHECK_PORT`` (8000). ``/healthz``
itself is exempt from the HTTPS redirect (settings: ``SECURE_REDIRECT_EXEMPT``) and answers
``{"ok": true}`` after one query, nothing more. Standard library only, no Django: it runs every few
seconds and must stay cheap.
"""

from __future__ import annotations

import os
import sys
import urllib.request

TIMEOUT_SECONDS = 4.0


def host_header() -> str:
    """A host the site accepts: the first of ALLOWED_HOSTS, without a wildcard's leading dot."""
    first = (os.environ.get("ALLOWED_HOSTS") or "localhost").split(",")[0].strip()
    if first in {"", "*"}:
        return "localhost"
    return first.lstrip(".")


def healthy(port: int) -> bool:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": host_header()})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            return response.status == 200
    except OSError:
        return False


def main() -> int:
    return 0 if healthy(int(os.environ.get("HEALTHCHECK_PORT", "8000"))) else 1


if __name__ == "__main__":
    sys.exit(main())
