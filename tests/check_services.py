"""Fail at once, with the commands to start them, when PostgreSQL or Redis is down."""

from __future__ import annotations

import os
import sys

import dj_database_url
import psycopg
import redis

HOW = {
    "PostgreSQL": "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "Redis": 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
}


def main() -> int:
    problems = []
    db = dj_database_url.parse(os.environ["TEST_DATABASE_URL"])
    try:
        psycopg.connect(
            host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname="postgres",
            password=db["PASSWORD"] or None, connect_timeout=3,
        ).close()  # fmt: skip
    except Exception as e:  # noqa: BLE001
        problems.append(("PostgreSQL", f"{db['HOST']}:{db['PORT'] or 5432}", e))
    try:
        redis.Redis.from_url(os.environ["TEST_REDIS_URL"], socket_connect_timeout=3).ping()
    except Exception as e:  # noqa: BLE001
        problems.append(("Redis", os.environ["TEST_REDIS_URL"], e))
    for name, where, err in problems:
        print(f"ERROR: {name} is not reachable at {where}: {err}", file=sys.stderr)
        print(f"  start it with:  {HOW[name]}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
