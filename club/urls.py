from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse_lazy

from club.infra import health
from club.members import language
from club.members import logins as member_logins
from club.pages import auth
from club.setup import views as setup

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
    path("language/", language.set_language, name="set_language"),
    path("signin/<str:token>/", member_logins.signin, name="signin"),
    # A member's own password (issue 78): changed, or reset by mail where the club has it.
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(
            template_name="registration/password_change.html",
            success_url=reverse_lazy("password_changed"),
        ),
        name="password_change",
    ),
    path(
        "password/changed/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="registration/password_changed.html"
        ),
        name="password_changed",
    ),
    path("password/forgot/", member_logins.password_forgot, name="password_forgot"),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="registration/password_reset.html",
            success_url=reverse_lazy("password_reset_done"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="registration/password_reset_done.html"
        ),
        name="password_reset_done",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("", include("club.club_urls")),
]
