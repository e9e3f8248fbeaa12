"""Other databases on the suite's server, for the backup and upgrade tests (issue 57):
read through this process's connection for a block, and dropped after."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from django.db import connection

from club.office import backups


@contextmanager
def reading(database: str) -> Iterator[None]:
    """This process's queries go to ``database`` (on the same server) for the block."""
    name = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = database
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = name


def drop(database: str) -> None:
    connection.close()
    with psycopg.connect(**backups._admin()) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def url(database: str) -> str:
    db = connection.settings_dict
    return (
        f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{database}"
    )
