"""Members' logins (issue 78): the secretary adds a member and gives him a sign-in link,
shown as a QR code to scan at the venue or printed as a card; the member opens it,
chooses his password and is signed in. The services (club.services.logins) own the
transactions and the audit entries; these views parse and render."""

from __future__ import annotations

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from club.members.forms import AddMemberForm, ChoosePasswordForm
from club.models import ClubSession, Member
from club.pages.auth import SIGNIN_TRIES, client_ip
from club.pages.web import form_error, sentence, staff_required
from club.services import logins
from club.services.base import ClubError

BACKEND = "club.pages.auth.ClubBackend"


@staff_required
@require_POST
def member_add(request: HttpRequest) -> HttpResponse:
    from club.members.views import members_page

    form = AddMemberForm(request.POST)
    if form.is_valid():
        try:
            member = logins.add_member(
                form.cleaned_data["display_name"],
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                by=request.user,
            )
        except ClubError as e:
            form_error(form, e)
        else:
            messages.success(
                request,
                gettext("Added %(member)s. Give a sign-in link so that they can sign in.")
                % {"member": member},
            )
            return redirect(member)
    return members_page(request, add_form=form, status=400)


def _link_address(request: HttpRequest, token: str) -> str:
    path = reverse("signin", args=[token])
    return f"{settings.SITE_URL}{path}" if settings.SITE_URL else request.build_absolute_uri(path)


@staff_required
@require_POST
def member_signin_link(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member.objects.select_related("user"), pk=pk, is_bot=False)
    try:
        link, token = logins.give_link(member, by=request.user, address=client_ip(request))
    except ClubError as e:
        messages.error(request, sentence(e))
        return redirect(member)
    address = _link_address(request, token)
    mailed = _mail_link(member, address, link.expires_at)
    qr = segno.make(address, error="m")
    svg = qr.svg_inline(scale=6, dark="#111", light="#fff", omitsize=True)
    loopback = "//127.0.0.1" in address or "//localhost" in address
    return render(
        request,
        "club/members/signin_link.html",
        {
            "member": member,
            "link": link,
            "address": address,
            "qr": mark_safe(svg),  # segno's own SVG of the address: no member text in it
            "loopback": loopback,
            "mailed": mailed,
        },
    )


def _mail_link(member: Member, address: str, until: object) -> str:
    """The link mailed to the member where he has an address: to SMTP where the club has
    it, else to a file in RUN_DIR/mail. What to say of it on the page ("" if not sent)."""
    to = member.user.email
    if not to:
        return ""
    from django.core.mail import send_mail

    body = (
        f"{member}, the card club has made you a login.\n\nOpen this link to choose your "
        f"password (it works once, until {until:%d %b %Y %H:%M} UTC):\n{address}\n"
    )
    try:
        send_mail("Your sign-in link", body, None, [to])
    except Exception:  # a mail server down: the QR code still works
        import logging

        logging.getLogger(__name__).warning("the sign-in link was not mailed", exc_info=True)
        return f"It could not be mailed to {to}: show the QR code."
    if mail_configured():
        return f"Also mailed to {to}."
    folder = settings.MAILERS["default"].get("OPTIONS", {}).get("file_path", "")
    return f"Mail is not set up: what would have been sent to {to} is in {folder}."


@require_http_methods(["GET", "POST"])
def signin(request: HttpRequest, token: str) -> HttpResponse:
    # Tries are throttled as logins are (issue 78, item 6): after SIGNIN_FAILURE_LIMIT
    # refused links from an address, every link is refused there for the cool-off, the
    # right one too, and the link is not looked at.
    if SIGNIN_TRIES.locked_out(request):
        return render(
            request,
            "club/members/signin_refused.html",
            {"why": "locked", "said": "Too many sign-in links that do not work were tried from "
             f"here. Wait {SIGNIN_TRIES.cooloff_minutes} minutes and try again."},
            status=429,
        )  # fmt: skip
    try:
        link = logins.open_link(token)
    except logins.LinkRefused as e:
        SIGNIN_TRIES.failed(request)
        return render(
            request, "club/members/signin_refused.html", {"why": e.why, "said": str(e)}, status=410
        )
    member = link.member
    form = ChoosePasswordForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            member = logins.use_link(
                token,
                form.cleaned_data["password"],
                form.cleaned_data["password_again"],
                address=client_ip(request),
            )
        except logins.LinkRefused as e:
            return render(
                request,
                "club/members/signin_refused.html",
                {"why": e.why, "said": str(e)},
                status=410,
            )
        except ClubError as e:
            form_error(form, e)
        else:
            login(request, member.user, backend=BACKEND)
            tonight = ClubSession.objects.filter(status=ClubSession.OPEN).first()
            messages.success(
                request,
                gettext("Welcome, %(member)s: you are signed in on this phone.")
                % {"member": member},
            )
            return redirect(tonight or member)
    elif request.method == "POST":
        # Django's validators too, with the form's own mistakes, all at once.
        password = str(request.POST.get("password", ""))
        said = logins.password_problems(member, password, password)
        for message in said if "password" not in form.errors else []:
            form_error(form, ClubError(message, field="password"))
    status = 400 if request.method == "POST" else 200
    return render(
        request, "club/members/signin.html", {"form": form, "member": member}, status=status
    )


@staff_required
@require_POST
def member_sign_out(request: HttpRequest, pk: int) -> HttpResponse:
    """A lost phone: the member is signed out on every device, his live pages with it."""
    member = get_object_or_404(Member.objects.select_related("user"), pk=pk, is_bot=False)
    ended = logins.sign_out_everywhere(member, by=request.user, address=client_ip(request))
    messages.success(
        request,
        ngettext(
            "%(member)s is signed out everywhere (%(count)s sign-in ended).",
            "%(member)s is signed out everywhere (%(count)s sign-ins ended).",
            ended,
        )
        % {"member": member, "count": ended},
    )
    return redirect(member)


@staff_required
@require_POST
def member_login_enabled(request: HttpRequest, pk: int) -> HttpResponse:
    """Disable a member's login (he left: his history and money stay), or enable it."""
    member = get_object_or_404(Member.objects.select_related("user"), pk=pk, is_bot=False)
    enabled = request.POST.get("enabled") == "1"
    try:
        logins.set_login_enabled(member, enabled, by=request.user, address=client_ip(request))
    except ClubError as e:
        messages.error(request, sentence(e))
    else:
        messages.success(
            request,
            (
                gettext("%(member)s's login is enabled again.")
                if enabled
                else gettext("%(member)s's login is disabled; signed out everywhere.")
            )
            % {"member": member},
        )
    return redirect(member)


@staff_required
@require_POST
def member_join(request: HttpRequest, pk: int) -> HttpResponse:
    """A guest becomes a member, keeping his history and money (issue 78)."""
    guest = get_object_or_404(Member, pk=pk, is_bot=False)
    try:
        member = logins.make_member(guest, by=request.user, address=client_ip(request))
    except ClubError as e:
        messages.error(request, sentence(e))
        return redirect(guest)
    messages.success(
        request,
        gettext("%(member)s is a member now: history and balance kept.") % {"member": member},
    )
    return redirect(member)


def mail_configured() -> bool:
    """Whether the club sends real mail (a server named), not files in RUN_DIR/mail."""
    return not str(settings.MAILERS["default"]["BACKEND"]).endswith("filebased.EmailBackend")


@require_http_methods(["GET", "POST"])
def password_forgot(request: HttpRequest) -> HttpResponse:
    """Forgot one's password: a reset link by mail where the club sends mail (Django's
    reset view and token, one use); where it does not, the page says to ask the
    secretary for a new sign-in link (issue 78)."""
    if not mail_configured():
        return render(request, "registration/password_forgot_ask.html")
    from django.contrib.auth import views as auth_views

    view = auth_views.PasswordResetView.as_view(
        template_name="registration/password_forgot.html",
        email_template_name="registration/password_reset_email.txt",
        subject_template_name="registration/password_reset_subject.txt",
        success_url=reverse("password_forgot") + "?sent=1",
    )
    if request.GET.get("sent"):
        return render(request, "registration/password_forgot.html", {"sent": True})
    return view(request)


@staff_required
@require_POST
def member_import(request: HttpRequest) -> HttpResponse:
    """A roster from CSV: every mistake of every row at once, nothing imported until the
    file has none (issue 78)."""
    from club.members.views import members_page

    upload = request.FILES.get("roster")
    problems: list[str] = []
    if upload is None:
        problems = ["Choose the roster's CSV file."]
    elif upload.size and upload.size > 1_000_000:
        problems = ["The file is larger than 1 MB: a roster is a few hundred rows."]
    else:
        try:
            added = logins.import_roster(logins.read_roster(upload.read()), by=request.user)
        except ClubError as e:
            problems = [str(p)[:1].upper() + str(p)[1:] + "." for p in e.each()]
        else:
            messages.success(
                request,
                ngettext(
                    "Imported %(count)s member: give each a sign-in link from their page.",
                    "Imported %(count)s members: give each a sign-in link from their page.",
                    len(added),
                )
                % {"count": len(added)},
            )
            return redirect(reverse("club:members") + "?login=not+invited")
    return members_page(request, import_problems=problems, status=400)
