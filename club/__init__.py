"""Cooncan Club: the Django project package and the club-management app."""

from club.celery import app as celery_app

__all__ = ("celery_app",)
