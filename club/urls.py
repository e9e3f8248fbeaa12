from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import auth, health
from .members import logins as member_logins
from .setup import views as setup

admin.site.login_form = auth.AdminLoginForm

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    # Play first: every phone's refresh and every move resolves here, and each include
    # tried before the one that matches lists all its patterns on the way (Django keeps
    # them for a 404's page): 5.6% of the web's samples at 150 tables (py-spy) when play
    # came after the admin and the club. No path of play is one of theirs
    # (tests/foundation/test_urls.py).
    path("", include("games.urls")),
    path("login/", auth.LoginView.as_view(), name="login"),
    path("setup/", setup.setup, name="setup"),
    path("signin/<str:token>/", member_logins.signin, name="signin"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("", include("club.club_urls")),
]
