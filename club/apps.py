from typing import Any

from django.apps import AppConfig


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = "Club"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_in, user_logged_out
        from django.db.models.signals import post_migrate, pre_save

        from club.live import notices as live
        from club.pages import roles

        live.connect()  # an evening's changes reach its console (club/live/notices.py)
        # A login's live streams end with it, and with a change of the user's rights
        # (club/live/streams.py: grants).
        user_logged_out.connect(_logged_out, dispatch_uid="club.live.streams.logout")
        # Members' phones stay signed in for a season, the staff's logins less (issue 78).
        user_logged_in.connect(_session_length, dispatch_uid="club.infra.login_sessions.length")
        # A member's own language follows his login (issue 82: club/infra/locale.py).
        from club.members.language import remember_member_language

        user_logged_in.connect(remember_member_language, dispatch_uid="club.members.language")
        pre_save.connect(_rights, sender=get_user_model(), dispatch_uid="club.live.streams.rights")
        # The Secretary group keeps its permissions after a migrate or a flush (club/pages/roles.py).
        post_migrate.connect(roles.keep_in_step, sender=self, dispatch_uid="club.pages.roles")
        # The club's name, time zone and currency, kept in the process (issue 78).
        from django.db.models.signals import post_delete, post_save

        from club.models import Club
        from club.services.profile import forget

        post_save.connect(forget, sender=Club, dispatch_uid="club.profile.save")
        post_delete.connect(forget, sender=Club, dispatch_uid="club.profile.delete")


def _session_length(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    from django.conf import settings

    if request is not None and hasattr(request, "session"):
        hours = settings.STAFF_SESSION_HOURS if user.is_staff else settings.MEMBER_SESSION_DAYS * 24
        request.session.set_expiry(int(hours * 3600))


def _logged_out(sender: Any, request: Any, **kwargs: Any) -> None:
    from club.live.streams import end_grant

    end_grant(request)


def _rights(sender: Any, instance: Any, **kwargs: Any) -> None:
    from django.db import transaction

    from club.live.streams import revoke_user

    fields = kwargs.get("update_fields")
    if instance.pk is None or (fields is not None and not {"is_staff", "is_active"} & set(fields)):
        return  # a new user, or a save of other fields (each login's last_login)
    before = sender.objects.filter(pk=instance.pk).values("is_staff", "is_active").first()
    if before and (before["is_staff"], before["is_active"]) != (
        instance.is_staff,
        instance.is_active,
    ):
        user_id = instance.pk
        transaction.on_commit(lambda: revoke_user(user_id))
