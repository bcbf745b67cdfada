"""The library's full-text index: a GIN-indexed tsvector in PostgreSQL, an FTS5 table in SQLite.

Only a case's title and summary are indexed: never its historical verdict or original record,
so a search cannot tell a player how the real trial ended. The index is kept by the database
itself (a trigger in PostgreSQL, external-content triggers in SQLite), so bulk imports, the
admin and the importers all keep it current without a line of Python.

``ensure_search_index`` is idempotent. The migration calls it, and so does ``post_migrate``:
SQLite rebuilds a table to alter it, which drops its triggers, so they are put back (and the
FTS table rebuilt) after every migrate.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper

FTS_TABLE = "cases_case_fts"

_POSTGRES = [
    "ALTER TABLE cases_case ADD COLUMN IF NOT EXISTS search_vector tsvector",
    """
    CREATE OR REPLACE FUNCTION cases_case_search_vector() RETURNS trigger AS $$
    BEGIN
      NEW.search_vector :=
        setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(NEW.summary, '')), 'B');
      RETURN NEW;
    END $$ LANGUAGE plpgsql
    """,
    "DROP TRIGGER IF EXISTS cases_case_search_vector ON cases_case",
    """
    CREATE TRIGGER cases_case_search_vector BEFORE INSERT OR UPDATE OF title, summary ON cases_case
    FOR EACH ROW EXECUTE FUNCTION cases_case_search_vector()
    """,
    "UPDATE cases_case SET title = title WHERE search_vector IS NULL",
    "CREATE INDEX IF NOT EXISTS case_search_vector ON cases_case USING GIN (search_vector)",
]

_SQLITE_TRIGGERS = [
    f"""CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_ai AFTER INSERT ON cases_case BEGIN
      INSERT INTO {FTS_TABLE}(rowid, title, summary) VALUES (new.id, new.title, new.summary);
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_ad AFTER DELETE ON cases_case BEGIN
      INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, title, summary) VALUES ('delete', old.id, old.title, old.summary);
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_au AFTER UPDATE OF title, summary ON cases_case BEGIN
      INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, title, summary) VALUES ('delete', old.id, old.title, old.summary);
      INSERT INTO {FTS_TABLE}(rowid, title, summary) VALUES (new.id, new.title, new.summary);
    END""",
]


def ensure_search_index(connection: BaseDatabaseWrapper) -> None:
    """Create (or repair) the full-text index of the case library on this connection."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for statement in _POSTGRES:
                cursor.execute(statement)
        elif connection.vendor == "sqlite":
            cursor.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5("
                "title, summary, content='cases_case', content_rowid='id', tokenize='porter unicode61')"
            )
            cursor.execute(
                "SELECT count(*) FROM sqlite_master WHERE type='trigger' AND name LIKE %s", [f"{FTS_TABLE}_%"]
            )
            missing = cursor.fetchone()[0] < len(_SQLITE_TRIGGERS)
            for statement in _SQLITE_TRIGGERS:
                cursor.execute(statement)
            if missing:  # rows written while the triggers were absent: index them all again
                cursor.execute(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')")


def drop_search_index(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("DROP TRIGGER IF EXISTS cases_case_search_vector ON cases_case")
            cursor.execute("DROP FUNCTION IF EXISTS cases_case_search_vector()")
            cursor.execute("ALTER TABLE cases_case DROP COLUMN IF EXISTS search_vector")
        elif connection.vendor == "sqlite":
            for suffix in ("ai", "ad", "au"):
                cursor.execute(f"DROP TRIGGER IF EXISTS {FTS_TABLE}_{suffix}")
            cursor.execute(f"DROP TABLE IF EXISTS {FTS_TABLE}")


def on_post_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    from django.db import connections

    connection = connections[using]
    tables = connection.introspection.table_names()
    if "cases_case" in tables:
        ensure_search_index(connection)
