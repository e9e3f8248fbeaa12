"""manage.py commands: the demo club, the import of a club kept in SQLite."""
