from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Club"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import live

        live.connect()  # an evening's changes reach its console (club/live.py)
