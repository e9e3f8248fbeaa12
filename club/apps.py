from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Club"
    default_auto_field = "django.db.models.BigAutoField"
