"""ASGI entry point: HTTP pages, the deliberation websockets and the MCP server at exactly ``/mcp``.

Websockets carry the session and the user (``AuthMiddlewareStack``): a socket is let in by the same
access rule as the pages (``deliberation.access``).
"""

import asyncio
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "angryagents.settings")
django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402

sys.setswitchinterval(settings.WEB_SWITCH_INTERVAL_MS / 1000)  # the web process only (settings.py)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from angryagents.background import remember_web_loop  # noqa: E402
from angryagents.retention import RetentionSweeps  # noqa: E402
from angryagents.warm import warm_in_background  # noqa: E402
from deliberation.mcp.server import MCP_PATH, MCPApp  # noqa: E402
from deliberation.rooms.driver import RoomDriver  # noqa: E402
from deliberation.routing import websocket_urlpatterns  # noqa: E402


class RememberLoop:
    """Records the server's event loop on the first connection (see ``background.web_loop``)."""

    def __init__(self, app):  # type: ignore[no-untyped-def]
        self.app = app

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        remember_web_loop(asyncio.get_running_loop())
        return await self.app(scope, receive, send)


class MCPMount:
    """``/mcp`` exactly (no trailing-slash redirect) goes to the MCP server, the rest to Django."""

    def __init__(self, mcp, django):  # type: ignore[no-untyped-def]
        self.mcp, self.django = mcp, django

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        app = self.mcp if scope.get("path") == MCP_PATH else self.django
        return await app(scope, receive, send)


router = ProtocolTypeRouter(
    {
        "http": MCPMount(MCPApp(), django_asgi_app),
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
application = RememberLoop(RetentionSweeps(RoomDriver(router)))
if settings.ANGRY_TASKS == "inprocess":  # this process runs the rounds (workers warm themselves)
    warm_in_background()
