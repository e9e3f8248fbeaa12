from django.urls import path

from . import events, views, views_bench, views_more

app_name = "games"

urlpatterns = [
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/state/", views.state, name="state"),
    path("tables/<int:table_id>/club/", views.club_panel, name="club_panel"),
    path("tables/<int:table_id>/act/", views.act, name="act"),
    path("events/tables/<int:table_id>/", events.table_events, name="events"),
    path("bench/ping/<int:deal_id>/", views_bench.ping, name="bench_ping"),
    path("practice/", views_more.practice, name="practice"),
    path("rules/", views_more.rules_index, name="rules"),
    path("rules/<slug:variant>/", views_more.rules_variant, name="rules_variant"),
]
