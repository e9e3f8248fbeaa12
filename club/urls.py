from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import auth, health

admin.site.login_form = auth.AdminLoginForm

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("login/", auth.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("", include("club.club_urls")),
    path("", include("games.urls")),
]
