from django.urls import path

urlpatterns: list = []  # type: ignore[type-arg]
