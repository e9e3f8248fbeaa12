"""WSGI entry point: gunicorn serves every page (ASGI is only for the event stream)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
application = get_wsgi_application()
