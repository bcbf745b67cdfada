"""The path converter for the product's random addresses: a deliberation's or class's public id, a
room or seat code, a share token. They are all URL-safe (letters, digits, ``-`` and ``_``), so a
path holding anything else (a NUL, say, which PostgreSQL text cannot hold) is a plain 404 before
any view or query sees it."""

from __future__ import annotations

from django.urls import register_converter


class TokenConverter:
    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")
