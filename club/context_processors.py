from typing import Any

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, Any]:
    from club.services.profile import profile

    return {"EVENTS_URL": settings.EVENTS_URL, "SITE_NAME": profile().name}
