"""The local runner of `make run`, apart from the club's domain: the command itself
(``python -m club.runner.run``), its process supervisor, the embedded PostgreSQL (and the
bundled Redis it finds), the safe defaults of a club on a laptop, and the one list of the
club's processes that docker-compose.yml repeats. It may use the Django project's settings
and management commands; nothing of the club's domain imports it."""
