"""The club's pages. ``home`` keeps its global name; the rest live under ``club:``."""

from django.urls import include, path

from . import streams, views

club_patterns = [
    path("sessions/", views.sessions, name="sessions"),
    path("sessions/open/", views.session_open, name="session_open"),
    path("sessions/<int:pk>/", views.session_detail, name="session"),
    path("sessions/<int:pk>/console/", views.console, name="console"),
    path("sessions/<int:pk>/check-in/", views.session_check_in, name="check_in"),
    path("sessions/<int:pk>/check-out/", views.session_check_out, name="check_out"),
    path("sessions/<int:pk>/arrivals/", views.arrival_add, name="arrival_add"),
    path(
        "sessions/<int:pk>/arrivals/<int:member_pk>/leave/",
        views.arrival_leave,
        name="arrival_leave",
    ),
    path("sessions/<int:pk>/arrivals/<int:member_pk>/fee/", views.arrival_fee, name="arrival_fee"),
    path("sessions/<int:pk>/close/", views.session_close, name="session_close"),
    path(
        "sessions/<int:pk>/close/confirm/",
        views.session_close_confirm,
        name="session_close_confirm",
    ),
    path("sessions/<int:pk>/cancel/", views.session_cancel, name="session_cancel"),
    path("sessions/<int:pk>/void/", views.session_void, name="session_void"),
    path("sessions/<int:pk>/tables/new/", views.table_create, name="table_create"),
    path("sessions/<int:pk>/washbook/", views.session_washbook, name="session_washbook"),
    path("sessions/<int:pk>/print/", views.session_print, name="session_print"),
    path("sessions/<int:pk>/settlement/", views.settlement, name="settlement"),
    path("club/tables/<int:pk>/", views.table_detail, name="table"),
    path("club/tables/<int:pk>/redraw/", views.table_demand_redraw, name="table_redraw"),
    path("club/tables/<int:pk>/queue/", views.table_join, name="table_join"),
    path("club/tables/<int:pk>/substitute/", views.table_substitute, name="table_substitute"),
    path("club/tables/<int:pk>/result/", views.table_result, name="table_result"),
    path("club/tables/<int:pk>/cancel/", views.table_cancel, name="table_cancel"),
    path("club/tables/<int:pk>/void/", views.table_void, name="table_void"),
    path("club/tables/<int:pk>/washbook/", views.washbook, name="washbook"),
    path("club/substitutes/<int:pk>/consent/", views.substitute_consent, name="sub_consent"),
    path("club/lines/<int:pk>/correct/", views.line_correct, name="line_correct"),
    path("club/cuts/<int:pk>/", views.cut_detail, name="cut"),
    path("club/transfers/<int:pk>/pay/", views.transfer_pay, name="transfer_pay"),
    path("members/", views.members, name="members"),
    path("audit/", views.audit_log, name="audit"),
    path("house-rules/", views.house_rules_list, name="house_rules"),
    path("members/<int:pk>/", views.member_detail, name="member"),
    path("members/<int:pk>/statement/", views.member_statement, name="member_statement"),
    path("members/<int:pk>/payments/", views.member_payment, name="member_payment"),
    path("members/<int:pk>/refunds/", views.member_refund, name="member_refund"),
    path("club/payments/<int:pk>/reverse/", views.payment_reverse, name="payment_reverse"),
    path("members/<int:pk>/sessions/<int:session_pk>/", views.statement, name="statement"),
    path("standings/", views.standings, name="standings"),
    path("events/sessions/<int:session_id>/", streams.session_events, name="session_events"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("", include((club_patterns, "club"))),
]
