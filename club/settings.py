"""One settings module, read from the environment (see README "Configuration").

Safe production defaults: DEBUG is off unless DEBUG=1, a real SECRET_KEY is required
when it is off, cookies are secure, HSTS and a strict Content Security Policy are on.
`make run` keeps DEBUG off too, with a generated secret key, the embedded defaults
(an embedded PostgreSQL and a bundled Redis) and plain http on the local network (club/runner/local.py).
"""

from __future__ import annotations

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from club.infra import pgcheck

BASE_DIR = Path(__file__).resolve().parent.parent
RUN_DIR = Path(os.environ.get("RUN_DIR", BASE_DIR / ".run"))


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [v.strip() for v in os.environ.get(name, default).split(",") if v.strip()]


DEBUG = env_bool("DEBUG")
TESTING = env_bool("TESTING")
# `make run` on a local network: plain http, so nothing that needs TLS (club/runner/local.py).
PLAIN_HTTP = env_bool("PLAIN_HTTP")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not (DEBUG or TESTING):
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-dev-only-key-not-for-production-0123456789abcdef"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG or TESTING else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "axes",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "club",
    "games",
]

MIDDLEWARE = [
    "club.infra.after_response.AfterResponseMiddleware",  # outermost: holds the response sent
    "club.infra.middleware.OpenerPolicyWhereItAppliesMiddleware",  # before Security: sees COOP
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "club.infra.middleware.NoStoreMiddleware",  # after WhiteNoise: static files stay cacheable
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "club.infra.middleware.ClubTimeZoneMiddleware",  # the club's own time zone (issue 78)
    "club.infra.locale.ClubLocaleMiddleware",  # the reader's language (issue 82): after auth
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last: answers a lockout with club.pages.auth.locked_out
]

ROOT_URLCONF = "club.urls"
WSGI_APPLICATION = "club.wsgi.application"
ASGI_APPLICATION = "club.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",  # LANGUAGE_CODE, LANGUAGES
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "club.context_processors.site",
            ],
        },
    },
    {
        # The live part of a table only (games/play/live_template.py: its hottest render,
        # compiled to Python once); the pages are Django's templates above.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.play.live_template.environment"},
    },
]

# --- Database: DATABASE_URL, or the embedded PostgreSQL of `make run` (club/runner/postgres.py:
# its socket under RUN_DIR, so `manage.py` reaches it while `make run` runs) -----------
DATABASE_URL = os.environ.get("DATABASE_URL") or (
    f"postgres://postgres@{quote(str(RUN_DIR / 'pg-socket'), safe='')}/cooncan"
)
_db = dj_database_url.parse(DATABASE_URL)
if _db["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured(
        f"DATABASE_URL must name a PostgreSQL database (postgres://...), not {_db['ENGINE']}: "
        "the club relies on PostgreSQL's locks, snapshots and constraint triggers"
    )
if env_bool("DB_POOL", default=not TESTING):
    # psycopg's pool keeps connections open across requests (persistent connections).
    # Each pooled connection is checked before use: after a PostgreSQL restart the pool
    # would otherwise hand out dead connections (tests/reliability/test_faults.py). The
    # check looks at the connection's socket, not a round trip each request (club/infra/pgcheck.py).
    _db["OPTIONS"] = {
        "pool": {
            "min_size": 1,
            "max_size": int(os.environ.get("DB_POOL_MAX", "8")),
            "check": pgcheck.check,
        }
    }
    _db["CONN_MAX_AGE"] = 0
    _db["CONN_HEALTH_CHECKS"] = True
else:
    _db["CONN_MAX_AGE"] = None
    _db["CONN_HEALTH_CHECKS"] = True
if os.environ.get("TEST_DB_NAME"):
    _db["TEST"] = {"NAME": os.environ["TEST_DB_NAME"]}
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: broker, pub/sub for live updates, cache -----------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
# Tests get a per-run prefix so they never touch a developer's keys (subprocesses are
# given the same prefix explicitly).
REDIS_PREFIX = os.environ.get(
    "REDIS_PREFIX", f"cooncan-test-{os.getpid()}" if TESTING else "cooncan"
)
CACHES = {
    "default": {
        "BACKEND": "club.infra.cache.KeptClientRedisCache",  # Django's, its client kept
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": REDIS_PREFIX,
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}

# --- Celery (club/celery.py reads CELERY_*) --------------------------------------------
CELERY_BROKER_URL = REDIS_URL
# kombu's Redis transport with the one fix that keeps the worker alive when Redis drops
# (club/infra/broker.py says why a subclass, not a pinned release).
CELERY_BROKER_TRANSPORT = "club.infra.broker:Transport"
CELERY_RESULT_BACKEND = None
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Keep retrying a lost broker for ever (the default gives up after 100 tries, about 50
# minutes, and the worker exits); kombu's tries are at most 30 s apart.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "global_keyprefix": f"{REDIS_PREFIX}:",
}
# The beat schedule lives in code (django-celery-beat does not support Django 6.1);
# apps add their entries in club/celery.py.
HEARTBEAT_SECONDS = 10
# The sweeps that find due work whose message was lost with the broker (docs/reliability.md):
# due redraw windows, and sessions left "closing" for CLUB_BALANCE_GRACE_SECONDS; deals
# waiting on a computer player and quiet for GAMES_BOT_QUIET_SECONDS. After Redis returns
# the worker reconnects within 30 s and the next sweep is at most 15 s later: due work
# resumes within a minute.
# The club's currency (club/services/money.py): every amount of money is kept in its
# decimal places (0, 1 or 2: the ledger's columns hold two), every stake a whole number
# of its smallest unit.
CLUB_CURRENCY_SYMBOL = os.environ.get("CLUB_CURRENCY_SYMBOL", "£")
CLUB_CURRENCY_PLACES = int(os.environ.get("CLUB_CURRENCY_PLACES", "2"))
# Table fees (issue 42, item 3): what a member and a guest pay the club an evening, unless
# the secretary sets other fees when opening it. "0" charges nothing.
CLUB_TABLE_FEE_MEMBER = os.environ.get("CLUB_TABLE_FEE_MEMBER", "0")
CLUB_TABLE_FEE_GUEST = os.environ.get("CLUB_TABLE_FEE_GUEST", "0")
CLUB_SWEEP_SECONDS = float(os.environ.get("CLUB_SWEEP_SECONDS", "15"))
CLUB_BALANCE_GRACE_SECONDS = float(os.environ.get("CLUB_BALANCE_GRACE_SECONDS", "60"))
# Backups (issue 57): `make backup` and the worker after each balancing write a dump of the
# club here; the worker keeps its newest BACKUP_KEEP (a backup made by hand is never
# removed). The suite's go to a folder of their own, never a club's.
BACKUP_DIR = Path(
    os.environ.get("BACKUP_DIR")
    or (RUN_DIR / "test-services" / "backups" if TESTING else RUN_DIR / "backups")
)
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "30"))
GAMES_BOT_SWEEP_SECONDS = float(os.environ.get("GAMES_BOT_SWEEP_SECONDS", "15"))
GAMES_BOT_QUIET_SECONDS = float(os.environ.get("GAMES_BOT_QUIET_SECONDS", "10"))
# A practice table nobody has moved at for this long is closed by the sweep (issue 37);
# a member has at most PRACTICE_TABLES_MAX open at once.
GAMES_PRACTICE_IDLE = timedelta(hours=float(os.environ.get("GAMES_PRACTICE_IDLE_HOURS", "6")))
PRACTICE_TABLES_MAX = int(os.environ.get("PRACTICE_TABLES_MAX", "5"))

# --- Computer players (games/play/services.py) --------------------------------------------
GAMES_BOT_LEVEL = os.environ.get("GAMES_BOT_LEVEL", "greedy")  # a level of games.bots.LEVELS
# A computer player's pace: it waits a random time in [lo, hi] seconds before each move,
# long enough for the screens to show the move before it, short enough that a round of
# five-hand Foster with four of them takes a few seconds.
GAMES_BOT_DELAY = os.environ.get("GAMES_BOT_DELAY", "0.2,0.5")
# Tonk's call round (TO5, issue 58): open to every player at once for this many seconds
# after the deal, the same for every hand, whether or not it may call.
GAMES_CALL_ROUND_SECONDS = float(os.environ.get("GAMES_CALL_ROUND_SECONDS", "5"))
# How long the end of a deal (who went out, every hand, the points) stays on the table's
# screens unless the player continues sooner.
GAMES_DEAL_END_SECONDS = float(os.environ.get("GAMES_DEAL_END_SECONDS", "90"))
# Browser tests only: a Redis key whose counter gives each new deal its seed, in whichever
# process deals it (the pages' server or a worker), so that a whole deal's length is known
# (issue 55; tests/e2e/conftest.py). Never outside TESTING: a club's shuffles are secret.
GAMES_TEST_SEEDS = os.environ.get("GAMES_TEST_SEEDS", "") if TESTING else ""

# --- Auth ----------------------------------------------------------------------------
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    # The suite makes members by the hundred and hashing is not what it tests: PBKDF2 at
    # Django's work factor took 0.73 s a password here, 1.5 s of setup for a two-seat table
    # (issue 55). A club's `make run` (no TESTING) keeps Django's default hashers; PBKDF2
    # stays listed so a password hashed either way is still checked.
    PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
# Login lockouts (django-axes), for the members' login and the admin's alike: after
# LOGIN_FAILURE_LIMIT failures for one username from one address, that pair is locked out
# for LOGIN_COOLOFF_MINUTES. Keyed on both together, so an attacker in one place cannot
# lock a member out everywhere. The address is REMOTE_ADDR, or X-Forwarded-For's when the
# request came through one of TRUSTED_PROXIES (club/pages/auth.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "club.pages.auth.ClubBackend",  # Django's ModelBackend, its user read cheaper (club/infra/login_sessions.py)
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
# Wrong setup codes (issue 78: an empty club's setup page) from one address before it is
# refused for the cool-off, as logins are.
SETUP_FAILURE_LIMIT = int(os.environ.get("SETUP_FAILURE_LIMIT", "10"))
SETUP_COOLOFF_MINUTES = int(os.environ.get("SETUP_COOLOFF_MINUTES", "15"))
# A member's sign-in link (issue 78) works once, for this many days.
SIGNIN_LINK_DAYS = float(os.environ.get("SIGNIN_LINK_DAYS", "7"))
# Links refused (unknown, used, expired, replaced) from one address before it is refused
# every link for the cool-off, as logins are.
SIGNIN_FAILURE_LIMIT = int(os.environ.get("SIGNIN_FAILURE_LIMIT", "10"))
SIGNIN_COOLOFF_MINUTES = int(os.environ.get("SIGNIN_COOLOFF_MINUTES", "15"))
# How long a login lasts (issue 78): members' phones for a season, the staff's (who can
# change the books) for an evening's length.
MEMBER_SESSION_DAYS = float(os.environ.get("MEMBER_SESSION_DAYS", "30"))
STAFF_SESSION_HOURS = float(os.environ.get("STAFF_SESSION_HOURS", "12"))

# Mail (issue 78), the way Django 6.1 does it (MAILERS): SMTP where EMAIL_HOST names a
# server (EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL
# in the environment); otherwise each message is written to a file in RUN_DIR/mail
# (make run: the secretary can read what would have been sent), and nothing fails for want
# of a server. The test runner puts Django's in-memory outbox in its place.
_mail_host = os.environ.get("EMAIL_HOST", "")
MAILERS = {
    "default": (
        {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": _mail_host,
                "port": int(os.environ.get("EMAIL_PORT", "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True) and not env_bool("EMAIL_USE_SSL"),
                "use_ssl": env_bool("EMAIL_USE_SSL"),
                "timeout": 10,
            },
        }
        if _mail_host
        else {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": str(RUN_DIR / "mail")},
        }
    )
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Cooncan Club <cooncan@localhost>")
# Without a mail server the club writes its mail to files on purpose (the pages say so and
# offer the QR code instead), so Django's check for a development-only backend is quiet.
SILENCED_SYSTEM_CHECKS = [] if _mail_host else ["mail.E001"]
# The club's address as members' phones reach it, for the links it gives (a sign-in
# link's QR code): make run sets it to the address it prints; unset, a page's own address.
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "club.pages.auth.client_ip"
AXES_LOCKOUT_CALLABLE = "club.pages.auth.locked_out"
AXES_VERBOSE = False
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")  # addresses or networks, e.g. 10.0.0.0/8
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError as _e:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_e}") from None

# --- I18N / static -------------------------------------------------------------------
# Issue 82: English and Spanish (Mexican usage where it differs). LANGUAGE_CODE is the
# club's default until the setup page chooses one (`Club.language`); a member's own
# choice, else his browser's first supported language, comes before it
# (club/infra/locale.py). The catalogs: club/locale/ (make messages; club/infra/catalogs.py).
LANGUAGE_CODE = os.environ.get("CLUB_LANGUAGE", "en-gb")
LANGUAGES = [("en-gb", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "club" / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG or TESTING
WHITENOISE_AUTOREFRESH = DEBUG or TESTING

# --- Live updates: the SSE endpoint (ASGI) may live on another origin ----------------
# The benchmark's yardstick view (tests/bench_games.py) is a URL only where this is on.
GAMES_BENCH = env_bool("GAMES_BENCH")
EVENTS_URL = os.environ.get("EVENTS_URL", "")  # e.g. https://events.example.org; "" = same origin
# Or, with no EVENTS_URL: the stream is on this port of the host the page was loaded from
# (`make run`: a phone that opened http://192.168.1.20:8000/ streams from :8001).
EVENTS_PORT = os.environ.get("EVENTS_PORT", "")
# The events process's Redis pool: one connection holds every stream's subscription
# (club.live.streams._Hub, issue 59); the others serve the streams' admissions, grant checks
# and last notices, a few at a time, and a burst waits for one (a blocking pool:
# docs/scaling.md). It was one a stream, and a pool's ceiling refused the rest (503).
EVENTS_REDIS_CONNECTIONS = int(os.environ.get("EVENTS_REDIS_CONNECTIONS", "64"))
# A table's stream pushes each phone its live part after a move (games.play.events),
# rendered in the events process by this many threads (each holds a database connection
# while it renders); off, the stream only tells the phones to fetch it (issue 59).
GAMES_PUSH_PARTS = env_bool("GAMES_PUSH_PARTS", True)
EVENTS_RENDER_THREADS = int(os.environ.get("EVENTS_RENDER_THREADS", "2"))

# --- Security (production defaults; DEBUG relaxes only what local http needs) ---------
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Sessions read from Redis, kept in PostgreSQL, Redis's failures survived (club/infra/login_sessions.py).
SESSION_ENGINE = "club.infra.login_sessions"
_secure = not (DEBUG or TESTING or PLAIN_HTTP)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", _secure)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", _secure)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _secure)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # container healthchecks speak plain http
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if _secure else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = _secure
SECURE_HSTS_PRELOAD = _secure
if env_bool("BEHIND_PROXY"):
    # Behind a proxy every request's REMOTE_ADDR is the proxy's: unless it is named, each
    # login seems to come from it, and ten wrong passwords for the secretary lock him out
    # for everyone (issue 53, item 4). The app will not start so.
    if not TRUSTED_PROXIES:
        raise ImproperlyConfigured(
            "BEHIND_PROXY is set but TRUSTED_PROXIES is empty: every login would seem to "
            "come from the proxy, and ten wrong passwords for one member would lock "
            "that member out for everyone. Set TRUSTED_PROXIES to the proxy's address or network "
            "(docker-compose.yml's proxy is 172.30.53.2)."
        )
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
_connect = [CSP.SELF]
if EVENTS_URL:
    _connect.append(EVENTS_URL)
elif EVENTS_PORT:  # that port on each host the pages may be loaded from
    # A policy's host cannot be an IPv6 literal (CSP's host-source has no brackets):
    # Chromium rejects "http://[::1]:8401" with an error on every page (issue 56), so such
    # hosts are left out; a page loaded by one could not reach the stream either way.
    _connect += [
        f"{'https' if _secure else 'http'}://{h}:{EVENTS_PORT}"
        for h in ALLOWED_HOSTS
        if h and not h.startswith((".", "[")) and "*" not in h
    ]
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": _connect,
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals": {"()": "club.infra.logs.RefusalsInOneLine"}},
    # On the handler, so that every logger's records pass it: a bad Host header is logged
    # by django.security.DisallowedHost, a child the django.request filter never saw.
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        "axes": {"level": "WARNING"},
    },
}
