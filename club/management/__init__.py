"""The club's management commands."""
