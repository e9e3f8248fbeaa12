"""The benchmark's yardstick: a minimal view that reads and updates one row.

Served only when GAMES_BENCH=1 (the benchmark's own server processes); 404 otherwise.
"""

from __future__ import annotations

import os

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from .models import Deal


@login_required
@require_POST
def ping(request: HttpRequest, deal_id: int) -> HttpResponse:
    if os.environ.get("GAMES_BENCH") != "1":
        raise Http404
    with transaction.atomic():
        deal = Deal.objects.select_for_update().only("id", "to_move").get(pk=deal_id)
        Deal.objects.filter(pk=deal.pk).update(to_move=deal.to_move)
    return HttpResponse("ok")
