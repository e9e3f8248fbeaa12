"""The audit log a treasurer can use (issue 81, item 7): times to the second in the club's
time zone; filters by date, member, evening and kind; pages of 100 past the 500 it stopped
at; a CSV of what the filters choose; and the backups, each with when it was taken and
what has been recorded since."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

from django import forms
from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from club.models import AuditEntry, ClubSession, Member
from club.money.forms import StandingsForm
from club.pages.inputs import parse_id
from club.pages.web import session_or_404, staff_required
from club.washbooks.books import SafeWriter

PAGE = 100


class AuditFilter(StandingsForm):
    """What of the log to show: the dates (the standings' period form), a member, an
    evening, a kind; every field optional."""

    member = forms.ModelChoiceField(
        Member.objects.filter(is_bot=False).order_by("display_name"),
        required=False,
        label=_("Member"),
        empty_label=_("anyone"),
    )
    session = forms.ModelChoiceField(
        ClubSession.objects.order_by("-opened_at"),
        required=False,
        label=_("Evening"),
        empty_label=_("every evening"),
    )
    # An evening by its title, in the reader's language (issue 82).
    session.label_from_instance = lambda s: s.title  # type: ignore[attr-defined,method-assign]
    action = forms.ChoiceField(
        choices=[("", _("every kind")), *AuditEntry.ACTIONS], required=False, label=_("Kind")
    )


def chosen(form: AuditFilter) -> QuerySet[AuditEntry]:
    """The entries the form chooses, newest first (all when it chooses nothing or is
    wrong: its errors are shown beside their fields)."""
    entries = AuditEntry.objects.select_related("actor", "session", "table")
    if not (form.is_bound and form.is_valid()):
        return entries
    data = form.cleaned_data
    zone = timezone.get_current_timezone()
    if data["since"]:
        entries = entries.filter(at__gte=dt.datetime.combine(data["since"], dt.time(), zone))
    if data["until"]:
        end = dt.datetime.combine(data["until"] + dt.timedelta(days=1), dt.time(), zone)
        entries = entries.filter(at__lt=end)
    if data["member"]:
        m: Member = data["member"]
        # what the member did, or what was done that names him
        entries = entries.filter(Q(actor_id=m.user_id) | Q(what__icontains=m.display_name))
    if data["session"]:
        entries = entries.filter(session=data["session"])
    if data["action"]:
        entries = entries.filter(action=data["action"])
    return entries


@staff_required
def audit_log(request: HttpRequest) -> HttpResponse:
    """What was done, newest first: who, when (to the second, in the club's time zone),
    what, why and from where; filtered, paged, or as CSV (``?format=csv``)."""
    query = request.GET.copy()
    as_csv = query.pop("format", [""])[-1] == "csv"
    page_number = query.pop("page", ["1"])[-1]
    if query.get("session"):  # a link to one evening's entries: a missing one is a 404
        session_or_404(parse_id(query["session"]) or 0)
    form = AuditFilter(query or None)
    entries = chosen(form)
    if as_csv:
        response = HttpResponse(audit_csv(entries), content_type="text/csv; charset=utf-8")
        name = f"audit-{timezone.localdate():%Y-%m-%d}.csv"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    page = Paginator(entries, PAGE).get_page(page_number)
    session = form.cleaned_data.get("session") if form.is_bound and form.is_valid() else None
    status = 400 if form.is_bound and not form.is_valid() else 200
    return render(
        request,
        "club/office/audit.html",
        {"form": form, "page": page, "session": session, "query": query.urlencode()},
        status=status,
    )


def audit_csv(entries: QuerySet[AuditEntry]) -> str:
    """The chosen entries as CSV, oldest first: when (ISO 8601 to the second with the
    club's offset), who, the kind, what, why, from where, the evening and the table."""
    out = io.StringIO()
    w = SafeWriter(out)
    w.writerow(
        [
            pgettext("csv column", "when"),
            pgettext("csv column", "who"),
            pgettext("csv column", "kind"),
            pgettext("csv column", "what"),
            pgettext("csv column", "why"),
            pgettext("csv column", "from"),
            pgettext("csv column", "evening"),
            pgettext("csv column", "table"),
        ]
    )
    for e in entries.order_by("at", "pk").iterator(chunk_size=500):
        w.writerow(
            [timezone.localtime(e.at).isoformat(timespec="seconds"),
             e.actor.get_username() if e.actor else "", e.get_action_display(), e.what,
             e.why, e.address, str(e.session or ""), e.table.label if e.table else ""]
        )  # fmt: skip
    return out.getvalue()


def backup_files(folder: Path | None = None) -> list[tuple[Path, dt.datetime]]:
    """The club's backup files, newest first, each with when it was written."""
    folder = Path(folder or settings.BACKUP_DIR)
    if not folder.is_dir():
        return []
    found = [
        (p, dt.datetime.fromtimestamp(p.stat().st_mtime, tz=dt.UTC))
        for p in folder.glob("club-*.dump*")
        if not p.name.endswith(".part")
    ]
    return sorted(found, key=lambda pw: pw[1], reverse=True)


@staff_required
def backups_page(request: HttpRequest) -> HttpResponse:
    """The backups, newest first: when each was taken and how much has been recorded
    since (audit entries besides backups), linking to the log from then."""
    rows = []
    for path, when in backup_files():
        since = AuditEntry.objects.filter(at__gt=when).exclude(action=AuditEntry.BACKUP)
        rows.append(
            {
                "name": path.name,
                "when": when,
                "size": path.stat().st_size,
                "since": since.count(),
                "since_day": timezone.localdate(when),
            }
        )
    return render(
        request, "club/office/backups.html", {"rows": rows, "folder": settings.BACKUP_DIR}
    )
