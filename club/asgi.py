"""ASGI entry point, used only for the live-update event stream (/events/...).

Ordinary pages are served by gunicorn (WSGI): Django under ASGI is several times
slower for synchronous views.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
application = get_asgi_application()
