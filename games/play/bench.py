"""The benchmark's yardstick: a minimal view that reads and updates one row.

Mounted only when the setting GAMES_BENCH is on (``GAMES_BENCH=1``, the benchmark's own
server processes, :mod:`games.urls`); nowhere else is it a URL.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from ..models import Deal


@login_required
@require_POST
def ping(request: HttpRequest, deal_id: int) -> HttpResponse:
    with transaction.atomic():
        deal = Deal.objects.select_for_update().only("id", "to_move").get(pk=deal_id)
        Deal.objects.filter(pk=deal.pk).update(to_move=deal.to_move)
    return HttpResponse("ok")
