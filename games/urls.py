"""The URLs of play: a table's page, its state, its club panel and its actions, its live
stream, practice and the rules pages; the benchmark's yardstick only where GAMES_BENCH is
on."""

from django.conf import settings
from django.urls import path

from .play import bench, events, pages, views

app_name = "games"

urlpatterns = [
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/state/", views.state, name="state"),
    path("tables/<int:table_id>/club/", views.club_panel, name="club_panel"),
    path("tables/<int:table_id>/act/", views.act, name="act"),
    path("events/tables/<int:table_id>/", events.table_events, name="events"),
    path("practice/", pages.practice, name="practice"),
    path("rules/", pages.rules_index, name="rules"),
    path("rules/<slug:variant>/", pages.rules_variant, name="rules_variant"),
]
if settings.GAMES_BENCH:
    urlpatterns.append(path("bench/ping/<int:deal_id>/", bench.ping, name="bench_ping"))
