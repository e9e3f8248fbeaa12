"""Login with a rate limit: after LOGIN_RATE_LIMIT failures from one address (or for one
username) within the window, further attempts get 429 until the window passes."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse


def _keys(request: HttpRequest) -> list[str]:
    ip = request.META.get("REMOTE_ADDR", "?")
    user = str(request.POST.get("username", "")).strip().lower()[:150]
    return [f"login-fail:ip:{ip}", f"login-fail:user:{user}"]


def _blocked(request: HttpRequest) -> bool:
    limit, _ = settings.LOGIN_RATE_LIMIT
    try:
        counts = cache.get_many(_keys(request))
    except Exception:  # noqa: BLE001 - with Redis down, logins still work (no limit)
        return False
    return any(v >= limit for v in counts.values())


def _record_failure(request: HttpRequest) -> None:
    _, window = settings.LOGIN_RATE_LIMIT
    for k in _keys(request):
        try:
            cache.add(k, 0, window)
            cache.incr(k)
        except Exception:  # noqa: BLE001
            return


class RateLimitedLoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if _blocked(request):
            response = self.render_to_response(
                self.get_context_data(
                    form=self.get_form(),
                    rate_limited=True,
                )
            )
            response.status_code = 429
            return response
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form was re-shown: a failed attempt
            _record_failure(request)
        return response
