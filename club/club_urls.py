"""The club's pages. ``home`` keeps its global name; the rest live under ``club:``."""

from django.urls import include, path

from club.evenings import console
from club.evenings import views as evenings
from club.live import streams
from club.members import logins as member_logins
from club.members import period as member_period
from club.members import views as members
from club.money import exports, treasurer
from club.money import views as money
from club.office import audit as office_audit
from club.office import views as office
from club.tables import views as tables
from club.washbooks import views as washbooks

club_patterns = [
    path("sessions/", evenings.sessions, name="sessions"),
    path("sessions/open/", evenings.session_open, name="session_open"),
    path("sessions/<int:pk>/", evenings.session_detail, name="session"),
    path("sessions/<int:pk>/console/", console.console, name="console"),
    path(
        "sessions/<int:pk>/console/tables/<int:table_pk>/progress/",
        console.table_progress,
        name="table_progress",
    ),
    path("sessions/<int:pk>/check-in/", evenings.session_check_in, name="check_in"),
    path("sessions/<int:pk>/check-out/", evenings.session_check_out, name="check_out"),
    path("sessions/<int:pk>/arrivals/", console.arrival_add, name="arrival_add"),
    path(
        "sessions/<int:pk>/arrivals/<int:member_pk>/leave/",
        console.arrival_leave,
        name="arrival_leave",
    ),
    path(
        "sessions/<int:pk>/arrivals/<int:member_pk>/fee/", console.arrival_fee, name="arrival_fee"
    ),
    path("sessions/<int:pk>/close/", evenings.session_close, name="session_close"),
    path(
        "sessions/<int:pk>/close/confirm/",
        evenings.session_close_confirm,
        name="session_close_confirm",
    ),
    path("sessions/<int:pk>/cancel/", evenings.session_cancel, name="session_cancel"),
    path("sessions/<int:pk>/void/", console.session_void, name="session_void"),
    path("sessions/<int:pk>/tables/new/", console.table_create, name="table_create"),
    path("sessions/<int:pk>/washbook/", washbooks.session_washbook, name="session_washbook"),
    path("sessions/<int:pk>/print/", washbooks.session_print, name="session_print"),
    path("sessions/<int:pk>/settlement/", money.settlement, name="settlement"),
    path("club/tables/<int:pk>/", tables.table_detail, name="table"),
    path("club/tables/<int:pk>/redraw/", tables.table_demand_redraw, name="table_redraw"),
    path("club/tables/<int:pk>/queue/", tables.table_join, name="table_join"),
    path("club/tables/<int:pk>/substitute/", tables.table_substitute, name="table_substitute"),
    path("club/tables/<int:pk>/result/", tables.table_result, name="table_result"),
    path("club/tables/<int:pk>/cancel/", console.table_cancel, name="table_cancel"),
    path("club/tables/<int:pk>/void/", console.table_void, name="table_void"),
    path("club/tables/<int:pk>/computer/", console.table_computer, name="table_computer"),
    path("club/tables/<int:pk>/washbook/", washbooks.washbook, name="washbook"),
    path("club/substitutes/<int:pk>/consent/", tables.substitute_consent, name="sub_consent"),
    path("club/lines/<int:pk>/correct/", washbooks.line_correct, name="line_correct"),
    path("club/cuts/<int:pk>/", tables.cut_detail, name="cut"),
    path("club/transfers/<int:pk>/pay/", money.transfer_pay, name="transfer_pay"),
    path("members/", members.members, name="members"),
    path("members/add/", member_logins.member_add, name="member_add"),
    path("members/import/", member_logins.member_import, name="member_import"),
    path(
        "members/<int:pk>/signin-link/",
        member_logins.member_signin_link,
        name="member_signin_link",
    ),
    path("members/<int:pk>/sign-out/", member_logins.member_sign_out, name="member_sign_out"),
    path("members/<int:pk>/login/", member_logins.member_login_enabled, name="member_login"),
    path("members/<int:pk>/join/", member_logins.member_join, name="member_join"),
    path("audit/", office_audit.audit_log, name="audit"),
    path("backups/", office_audit.backups_page, name="backups"),
    path("house-rules/", office.house_rules_list, name="house_rules"),
    path("members/<int:pk>/", members.member_detail, name="member"),
    path("members/<int:pk>/statement/", members.member_statement, name="member_statement"),
    path(
        "members/<int:pk>/statement/period/",
        member_period.member_period_statement,
        name="member_period_statement",
    ),
    path("members/<int:pk>/payments/", money.member_payment, name="member_payment"),
    path("members/<int:pk>/refunds/", money.member_refund, name="member_refund"),
    path("club/payments/<int:pk>/reverse/", money.payment_reverse, name="payment_reverse"),
    path("members/<int:pk>/sessions/<int:session_pk>/", members.statement, name="statement"),
    path("standings/", money.standings, name="standings"),
    path("club/account/", treasurer.account, name="club_account"),
    path("club/owed/", treasurer.owed, name="owed"),
    path("club/export/<slug:what>/", exports.export, name="export"),
    path("events/sessions/<int:session_id>/", streams.session_events, name="session_events"),
]

urlpatterns = [
    path("", evenings.home, name="home"),
    path("", include((club_patterns, "club"))),
]
