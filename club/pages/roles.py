"""The secretary's role (issue 42, item 7): the ``Secretary`` group, with the admin's
permissions for the club's models. Made by migration 0012, kept in step after every
migrate and flush (``post_migrate``: a model added later is granted too), and given to
every staff user `create_member` makes. Members are in no group and have no permission.
"""

from __future__ import annotations

from typing import Any

SECRETARY = "Secretary"
# The club's models the secretary may also add and change in the admin; every other club
# model (the books above all) is his to view only: the services write them.
CHANGED = frozenset({"member", "clubsession", "table"})


def grant(group_model: Any, permission_model: Any) -> Any:
    """The group, made if need be, holding exactly the secretary's permissions. Takes the
    models so that a migration can pass its historical ones."""
    group, _ = group_model.objects.get_or_create(name=SECRETARY)
    club = permission_model.objects.filter(content_type__app_label="club")
    group.permissions.set(
        club.filter(codename__startswith="view_")
        | club.filter(content_type__model__in=CHANGED, codename__regex=r"^(add|change)_")
    )
    return group


def secretary_group() -> Any:
    from django.contrib.auth.models import Group, Permission

    return grant(Group, Permission)


def keep_in_step(sender: Any, apps: Any = None, **kwargs: Any) -> None:
    """``post_migrate`` for the club app (after auth has made its permissions). A migrate
    passes its models' state as ``apps``; a flush passes none: the models as they are."""
    if apps is None:
        from django.apps import apps as installed

        apps = installed
    try:
        grant(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))
    except LookupError:  # auth not installed: nothing to grant
        return
