"""Rooms: classroom play and external agents.

A room is a deliberation with a short code. People join it from a browser, external agents through
the MCP server (``deliberation.mcp.server``); AI jurors fill every seat nobody takes. Writes live in
``services`` (joining, speaking, voting, hosting) and ``clock`` (turn order, timeouts, AI rounds);
reads for pages and tools in ``selectors``.
"""
