"""Infrastructure (issue 80): Redis (redis), the cache, the broker, the database's checks
(db, pgcheck) and row helpers (rows), logs, middleware, login sessions
(login_sessions: a browser's sign-in, not an evening), after-response work, and the
health check (health: /healthz and the containers' `python -m club.infra.health`).
Nothing here knows the club's books."""
