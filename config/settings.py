"""One settings module, driven by the environment.

Embedded default: SQLite (IMMEDIATE transactions, WAL) and the in-memory
channel layer, no services needed. ``DATABASE_URL`` switches to PostgreSQL,
``REDIS_URL`` to channels_redis. ``DJANGO_ENV=production`` turns on the
production hardening (and demands a real ``DJANGO_SECRET_KEY``).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = os.environ.get("DJANGO_ENV", "development") == "production"
DEBUG = env_bool("DJANGO_DEBUG", False) and not PRODUCTION

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set in production.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "accounts",
    "games",
    "lobby",
    "frontend",
    "moderation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A body over its endpoint's limit is 413 before anything reads it.
    "config.body_limit.body_limit_middleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.odd_requests.NulBytesMiddleware",
    # One write at a time per personal token (429 beyond).
    "accounts.token_lock.TokenWriteLock",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.GuestSeenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a lock-out into its answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database -------------------------------------------------------------
SQLITE_PATH = os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
if os.environ.get("DATABASE_URL"):
    # A bounded pool per process (Django's own, on psycopg_pool): under ASGI each
    # request runs on a thread of its own, and persistent per-thread connections
    # piled up until PostgreSQL refused more. Connections go back to the pool at
    # the end of each request or thread call (games/threads.py; CONN_MAX_AGE=0);
    # health checks replace a connection the server dropped before it is used.
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=0)}
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DB_OPTIONS = DATABASES["default"].setdefault("OPTIONS", {})
    if env_bool("DB_POOL", True):
        DB_OPTIONS["pool"] = {
            "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
            "max_size": int(os.environ.get("DB_POOL_MAX", "8")),
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
        }
    # Measured in docs/performance-history.md ("The move path on documented APIs"):
    # neither pays on this site, so both stay at Django's and psycopg's
    # defaults (client-side binding; nothing prepared). For bench/bars.py.
    if env_bool("DB_SERVER_SIDE_BINDING", False):
        DB_OPTIONS["server_side_binding"] = True
    if os.environ.get("DB_PREPARE_THRESHOLD"):
        threshold = os.environ["DB_PREPARE_THRESHOLD"]
        DB_OPTIONS["prepare_threshold"] = None if threshold == "none" else int(threshold)
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("TEST_DATABASE_NAME", "test_brettspiele")
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            "CONN_MAX_AGE": 600,  # reuse the connection; opening one runs the PRAGMAs
            # SQLite has no row locks: IMMEDIATE takes the write lock at BEGIN,
            # so a race ends in "stale version", never "database is locked".
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file, not :memory:, so a live Daphne subprocess can share it.
            "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH", str(BASE_DIR / "test_db.sqlite3"))},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- channel layer and cache ----------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_PREFIX = os.environ.get("CHANNEL_PREFIX", "bsp")
CHANNEL_LAYER_URLS = [u for u in os.environ.get("CHANNEL_LAYER_URLS", "").split(",") if u.strip()]
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # The pub/sub layer measured more than twice as fast as the core
            # layer here; groups are all this site needs from the layer.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # CHANNEL_LAYER_URLS (comma-separated) shards the layer's channels
            # and groups over several Redis servers; everything else the site
            # keeps in Redis stays on REDIS_URL (docs/deploy.md).
            "CONFIG": {"hosts": CHANNEL_LAYER_URLS or [REDIS_URL], "prefix": REDIS_PREFIX},
        }
    }
    # Rate limits and login failures are counted here, shared by every process.
    CACHES: dict[str, dict[str, Any]] = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
        },
        # Position pictures (frontend/positions.py), each with an expiry.
        "pictures": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_PREFIX,
        },
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # One process: an in-process cache counts for all of it. Room for many
    # users' counters: past MAX_ENTRIES it would drop some (300 by default).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        },
        # Position pictures (frontend/positions.py): up to a few hundred kB
        # each, so few of them in the process's memory.
        "pictures": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "pictures",
            "OPTIONS": {"MAX_ENTRIES": 300},
        },
    }

# --- auth -----------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out account or address before any password is hashed.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# --- i18n -----------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- static ---------------------------------------------------------------
STATIC_URL = "/static/"
# collectstatic writes here (bin/serve runs it; the tests collect into a temporary one).
STATIC_ROOT = os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Every static URL carries a hash of the file's content (from collectstatic's
    # manifest), so browsers may keep the files for good; the modules find each
    # other's hashed URLs through the page's import map (frontend/templatetags/).
    # Without DEBUG a page needs the manifest: run collectstatic first.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# --- client address, login and sign-up limits -------------------------------
# How many proxies in front of Daphne append the address they saw to
# X-Forwarded-For: 1 for the nginx of docs/deploy.md. With 0 (no proxy) the
# peer of the socket is the client, and X-Forwarded-For, which the client
# wrote itself, is ignored. With N the client is the Nth address from the
# right: entries further left were written by the client and never trusted.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")

# django-axes counts failed logins (form, /api/token/, admin) per (account,
# address) and, separately, per address in the cache above; either one over
# the limit refuses that address's tries, the right password too, until it
# has been quiet for the cool-off time: a stranger locks out only the
# stranger's own address. The whole account locks only when
# LOGIN_SPREAD_LIMIT addresses fail for it within LOGIN_SPREAD_MINUTES
# (accounts/spread.py); its owner then gets in by a one-time log-in link
# mailed to the account (accounts/login_links.py).
AXES_HANDLER = "accounts.spread.SpreadLockHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
LOGIN_SPREAD_LIMIT = int(os.environ.get("LOGIN_SPREAD_LIMIT", "20"))
LOGIN_SPREAD_MINUTES = int(os.environ.get("LOGIN_SPREAD_MINUTES", "15"))
LOGIN_LINK_MINUTES = int(os.environ.get("LOGIN_LINK_MINUTES", "15"))
LOGIN_LINKS_PER_HOUR = int(os.environ.get("LOGIN_LINKS_PER_HOUR", "5"))  # per asking address
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# The client address: games/addresses.py decides it for every limit (these
# lock-outs, sign-ups, the API's throttles, the cap on sockets per address).
AXES_CLIENT_IP_CALLABLE = "games.addresses.request_key"
# A browser that logged in to the account before (a signed device cookie,
# accounts/devices.py) is not refused by a lock-out that strangers caused; it
# has its own budget of failures, past which it is a stranger again.
AXES_WHITELIST_CALLABLE = "accounts.devices.trusted_attempt"
DEVICE_COOKIE_NAME = "device"
DEVICE_COOKIE_DAYS = int(os.environ.get("DEVICE_COOKIE_DAYS", "365"))
DEVICE_FAILURE_LIMIT = int(os.environ.get("DEVICE_FAILURE_LIMIT", "5"))
# Covering indexes (Index(include=...)) serve PostgreSQL's index-only reads;
# SQLite builds them as plain indexes, which is all it needs.
SILENCED_SYSTEM_CHECKS = ["models.W040"]
if not REDIS_URL:
    # axes warns about a per-process cache; the embedded default is one process.
    SILENCED_SYSTEM_CHECKS += ["axes.W001"]

# Accounts created per client address and hour (accounts/views.py).
SIGNUPS_PER_HOUR = int(os.environ.get("SIGNUPS_PER_HOUR", "10"))
# Guests (accounts/services/guests.py): created within SIGNUPS_PER_HOUR (one
# count with sign-ups), cleaned up after this long without a visit.
GUEST_IDLE_HOURS = float(os.environ.get("GUEST_IDLE_HOURS", "24"))
GUEST_CLEANUP_SECONDS = float(os.environ.get("GUEST_CLEANUP_SECONDS", "600"))
# Open sockets per client address, across every process (games/realtime/socket_cap.py).
SOCKETS_PER_ADDRESS = int(os.environ.get("SOCKETS_PER_ADDRESS", "50"))
# Graceful restarts (config/drain.py): on SIGTERM, how long to keep listening
# (refusing) before closing the port, and the most a drain may take.
DRAIN_LISTEN_SECONDS = float(os.environ.get("DRAIN_LISTEN_SECONDS", "0"))
DRAIN_SECONDS = float(os.environ.get("DRAIN_SECONDS", "10"))
# How fast a draining process asks its sockets to go (the rest play on here
# meanwhile), and the longest that spread may take (at most half the drain).
DRAIN_CLOSES_PER_SECOND = float(os.environ.get("DRAIN_CLOSES_PER_SECOND", "50"))
DRAIN_SPREAD_SECONDS = float(os.environ.get("DRAIN_SPREAD_SECONDS", "5"))
# Socket handshakes (config/openings.py): how many of a process's run at once
# (the rest wait in turn), and how long one may wait before it is refused
# (below the page's 6 s, after which it gives a handshake up).
SOCKET_OPENINGS = int(os.environ.get("SOCKET_OPENINGS", "8"))
SOCKET_OPEN_WAIT_SECONDS = float(os.environ.get("SOCKET_OPEN_WAIT_SECONDS", "4"))
# How long a socket stays counted after its process last renewed it (each
# process renews its own every third of this): a killed process's sockets
# free their places within it.
SOCKET_COUNT_SECONDS = int(os.environ.get("SOCKET_COUNT_SECONDS", "90"))
# API streams (games/realtime/stream_base.py): open at once per account and
# per address (across processes), and the longest silence between lines.
STREAMS_PER_ACCOUNT = int(os.environ.get("STREAMS_PER_ACCOUNT", "8"))
STREAMS_PER_ADDRESS = int(os.environ.get("STREAMS_PER_ADDRESS", "32"))
STREAM_KEEPALIVE_SECONDS = float(os.environ.get("STREAM_KEEPALIVE_SECONDS", "10"))

# --- REST API -------------------------------------------------------------
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        # Personal tokens with scopes (accounts/token_auth.py): "Authorization: Bearer".
        "accounts.token_auth.BearerAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.PlainJSONParser"],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Every write (POST, PUT, PATCH, DELETE) is throttled unless a view says
    # otherwise: per user (else per address), counted atomically in the shared
    # cache (games/api/throttles.py); socket frames spend the same
    # budgets (games/ratelimit.py API_SCOPES).
    "DEFAULT_THROTTLE_CLASSES": ["games.api.throttles.WriteThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        # Writes without a scope of their own: seat commands (resign, draw
        # offers, rematch), joining tables, notifications read, remis requests.
        "writes": "60/min",
        "tables": "30/min",
        # Creating tournaments, per user across processes (lobby/api.py).
        "tournaments": os.environ.get("TOURNAMENT_RATE", "10/hour"),
        # Clubs: creating, joining, leaving, invite codes (lobby/club_api.py); a
        # club's roles are changed under "writes".
        "clubs": os.environ.get("CLUB_RATE", "60/hour"),
        # Challenging another club to a match (lobby/club_match_api.py); the
        # answers, lineups and starts count under "writes".
        "club_matches": os.environ.get("CLUB_MATCH_RATE", "20/hour"),
        "acts": "300/min",
        "chat": "60/min",
        "push": "30/min",
        # Replays, match records, remis candidates: per user, else per address.
        "reads": "120/min",
        # A game's state and its events since a version (GET /api/games/<id>/
        # and .../events/): pages use the socket; tools poll at most 5 a second.
        "game_reads": "300/min",
        # Imports queue a replay (games/services/import_jobs.py).
        "imports": os.environ.get("IMPORT_RATE", "10/hour"),
        # Position pictures (frontend/positions.py), per address: every
        # request, and the drawings not found in the cache (a PNG costs CPU).
        "pictures": "120/min",
        "picture_renders": os.environ.get("PICTURE_RENDER_RATE", "20/min"),
    },
    # Anonymous clients are told apart by the address games/addresses.py
    # resolves (games/api/throttles.py, AddressIdent), not by DRF's get_ident.
}
# Threads per process that rasterise position pictures (frontend/positions.py):
# drawings asked for at once queue for these (docs/performance.md).
PICTURE_WORKERS = int(os.environ.get("PICTURE_WORKERS", "1"))
# "process": worker processes of a lower priority, outside the server's
# interpreter lock (production's default); "thread" (tests count the drawings).
PICTURE_POOL = os.environ.get("PICTURE_POOL", "process" if PRODUCTION else "thread")
# Finished games an account needs before it creates a tournament (docs/tournaments.md).
TOURNAMENT_CREATOR_MIN_GAMES = int(os.environ.get("TOURNAMENT_CREATOR_MIN_GAMES", "0"))
# A result marks a tournament's stored standings due this many seconds later:
# every result until then is counted in one computation (docs/tournaments.md).
TOURNAMENT_STANDINGS_SECONDS = float(os.environ.get("TOURNAMENT_STANDINGS_SECONDS", "10"))
# Live clubs one account may have created (lobby/clubs/creation.py, docs/clubs.md).
CLUBS_PER_USER = int(os.environ.get("CLUBS_PER_USER", "3"))
# Clubs one account may be a member of (lobby/clubs/membership.py).
CLUB_MEMBERSHIPS_PER_USER = int(os.environ.get("CLUB_MEMBERSHIPS_PER_USER", "100"))
SPECTACULAR_SETTINGS = {
    "TITLE": "Brettspiele API",
    "DESCRIPTION": "Tables, games and moves. See docs/protocol.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Several answers have a "status" of their own choices: named, not hashed.
    "ENUM_NAME_OVERRIDES": {"ClubMatchStatusEnum": "lobby.models.ClubMatch.Status"},
}

# --- e-mail ---------------------------------------------------------------
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
# Where Django's file backend writes (development and tests read mail there).
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or None
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "brettspiele@localhost")
# Mail goes out from an outbox in the background (games/services/mail.py); a hung
# server holds up only that, and only this long per message.
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "30"))
# The site's address as players reach it: the links in e-mails (turn digests).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
# Production must not start with settings that silently lose what players are
# told: links to localhost in every e-mail, or mail written to the console.
if PRODUCTION:
    site = urlsplit(SITE_URL)
    if site.scheme != "https" or site.hostname in (None, "localhost", "127.0.0.1", "::1"):
        raise ImproperlyConfigured(
            "SITE_URL must be the site's public https:// address in production "
            f"(it is {SITE_URL!r}): every e-mail links to it."
        )
    if EMAIL_BACKEND in {
        f"django.core.mail.backends.{kind}.EmailBackend"
        for kind in ("console", "locmem", "dummy", "filebased")
    }:
        raise ImproperlyConfigured(
            f"EMAIL_BACKEND {EMAIL_BACKEND!r} sends no mail; set an SMTP (or other real) "
            "backend in production."
        )

# --- web push (VAPID) --------------------------------------------------------
# The key pair that signs pushes; without it, one is generated once into
# VAPID_FILE (beside the SQLite database; git ignores it), which suits one
# machine only: production demands the pair (several hosts each generating
# their own would break every subscription). See docs/deploy.md.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
vapid_how_to = (
    "python -c 'from games.services.push_keys import push_keys_generate; "
    'print("VAPID_PUBLIC_KEY=%s\\nVAPID_PRIVATE_KEY=%s" % push_keys_generate())\''
)
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured(
        "Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither (generate a pair with: "
        + vapid_how_to
        + ")."
    )
if PRODUCTION and not VAPID_PUBLIC_KEY:
    raise ImproperlyConfigured(
        "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set in production, the same pair "
        "for every process (docs/deploy.md); generate a pair once with: " + vapid_how_to
    )
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:" + DEFAULT_FROM_EMAIL)
VAPID_FILE = os.environ.get("VAPID_FILE", str(Path(SQLITE_PATH).parent / ".vapid.json"))
PUSH_TIMEOUT = float(os.environ.get("PUSH_TIMEOUT", "10"))  # seconds one push may take
GAME_PUSH_SECONDS = float(os.environ.get("GAME_PUSH_SECONDS", "1.0"))  # outbox poll
# Push services are https; plain http only for tests that serve their own.
PUSH_ALLOW_HTTP = env_bool("PUSH_ALLOW_HTTP", False)
# The push services the site posts to (a host or any subdomain of it): those
# of Chrome/Edge/Opera/Samsung (FCM), Firefox, Edge on Windows and Safari. A
# subscription elsewhere is refused, so no visitor can make the server post to
# an address of their choosing (an internal one, say). "*" allows any host.
PUSH_SERVICE_HOSTS = env_list(
    "PUSH_SERVICE_HOSTS",
    "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com",
)

# --- logging --------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# --- production hardening -------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the page's modules read it for API posts
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
if PRODUCTION and TRUSTED_PROXY_COUNT:
    # Believed only from the proxy (nginx sets it, replacing the client's);
    # without one the client would write it and claim https over http.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Content-Security-Policy (django-csp) ------------------------------------
# Everything comes from the site itself; no inline script but the import map,
# which carries the request's nonce (frontend/templatetags/importmap.py). 'self'
# covers the sockets' ws:/wss: of the same host (CSP Level 3). The API docs
# page loosens only its styles (games/api/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],  # nothing embeds the site's pages yet
    }
}

# --- the games platform ---------------------------------------------------
GAME_PING_SECONDS = 10
GAME_SWEEPER = env_bool("GAME_SWEEPER", True)  # the in-process deadline sweeper
GAME_SWEEP_SECONDS = float(os.environ.get("GAME_SWEEP_SECONDS", "0.5"))
# The longest a background loop sleeps with nothing due and no wake
# (games/wakeups.py): work queued through the services wakes it sooner.
LOOP_IDLE_SECONDS = float(os.environ.get("LOOP_IDLE_SECONDS", "30"))
# On PostgreSQL, plain moves run on the event loop (games/services/moves_on_loop.py).
MOVES_ON_LOOP = env_bool("MOVES_ON_LOOP", True)
# Connections of each process's event-loop move pool (games/store/loop_pool.py).
MOVES_POOL_SIZE = int(os.environ.get("MOVES_POOL_SIZE", "4"))
# Pings are answered from what each process knows (games/realtime/watch.py);
# this often at most it checks that against the database, in one read.
PING_REFRESH_SECONDS = float(os.environ.get("PING_REFRESH_SECONDS", "10"))
# A game's sockets hear its watcher count at most once this often, across
# processes (games/realtime/watchers.py): joins and leaves are batched.
WATCHERS_BATCH_SECONDS = float(os.environ.get("WATCHERS_BATCH_SECONDS", "1.0"))
# Bots (games/services/bots.py): a human-like pause before a bot's move
# (uniform in [MIN, MAX] seconds, 0 in tests), the worker's poll, the bot
# processes each server process thinks in, and how long one process's claim on
# a bot turn holds.
BOT_DELAY_MIN = float(os.environ.get("BOT_DELAY_MIN", "0.5"))
BOT_DELAY_MAX = float(os.environ.get("BOT_DELAY_MAX", "1.5"))
BOT_POLL_SECONDS = float(os.environ.get("BOT_POLL_SECONDS", "1.0"))
BOT_PROCESSES = int(os.environ.get("BOT_PROCESSES", "1"))
BOT_CLAIM_SECONDS = 30.0
# The pause before the sweeper plays a forced turn for a player who opted in
# (games/services/forced.py): long enough to see the roll.
FORCED_TURN_SECONDS = float(os.environ.get("FORCED_TURN_SECONDS", "1.5"))
CHAT_RATE = (5, 10)  # at most 5 messages per 10 seconds per user and game
CHAT_MAX_LENGTH = 500

# Fair play (moderation/): reports per reporter, their text, play-bans.
REPORT_RATE = (10, 86400)  # at most 10 reports a day per user
REPORT_TEXT_MAX = 1000
PLAYBAN_OFFENCES = (3, 24)  # this many realtime aborts, leaves or time-outs within these hours
PLAYBAN_EARLY_MOVES = 3  # resigning before one's own third move counts as leaving
PLAYBAN_FIRST_MINUTES = 15  # doubling with each ban of the last PLAYBAN_MEMORY_DAYS
PLAYBAN_MAX_MINUTES = 1440
PLAYBAN_MEMORY_DAYS = 7
# Boosting: a pair with this many rated games in this many days, one side winning this share.
BOOSTING_GAMES = (5, 7)
BOOSTING_SHARE = 0.8
MANY_REPORTS = 3  # open reports from this many people file a signal
RATING_JUMP = 400  # shown points gained in one game and speed within 24 hours
# Request bodies (config/body_limit.py answers 413 beyond): the API takes what
# the game socket takes in one frame (64 KiB), an import more, a page's form
# (sign-up, the admin's) what Django takes by default.
API_MAX_BODY_BYTES = 64 * 1024
API_IMPORT_MAX_BYTES = int(os.environ.get("API_IMPORT_MAX_BYTES", str(8 * 1024 * 1024)))
FORM_MAX_BODY_BYTES = 2_621_440
# Django's own check stays at the largest of them: below, it made a big import a 500.
DATA_UPLOAD_MAX_MEMORY_SIZE = max(API_IMPORT_MAX_BYTES, FORM_MAX_BODY_BYTES)
# Imports (games/services/import_jobs.py) are replayed by one worker thread per
# process, each within this much CPU (else `too_costly`); a claim on one expires
# after IMPORT_CLAIM_SECONDS (its process died), and after IMPORT_MAX_ATTEMPTS
# claims it fails. A user has at most IMPORT_PENDING_PER_USER waiting.
IMPORT_CPU_SECONDS = float(os.environ.get("IMPORT_CPU_SECONDS", "60"))
IMPORT_CLAIM_SECONDS = int(os.environ.get("IMPORT_CLAIM_SECONDS", "600"))
IMPORT_MAX_ATTEMPTS = 3
IMPORT_PENDING_PER_USER = int(os.environ.get("IMPORT_PENDING_PER_USER", "2"))

# Analyses by the computer (games/services/analysis.py): each user may ask for
# ANALYSIS_PER_DAY a day; a worker's claim lapses ANALYSIS_CLAIM_SECONDS after
# its last stored ply (its process died: another goes on from there), and an
# analysis whose claims lapsed ANALYSIS_MAX_ATTEMPTS times in a row fails.
ANALYSIS_PER_DAY = int(os.environ.get("ANALYSIS_PER_DAY", "10"))
ANALYSIS_LEVEL = os.environ.get("ANALYSIS_LEVEL", "strong")
ANALYSIS_CLAIM_SECONDS = int(os.environ.get("ANALYSIS_CLAIM_SECONDS", "120"))
ANALYSIS_MAX_ATTEMPTS = 3
GAME_IMPORT_SECONDS = float(os.environ.get("GAME_IMPORT_SECONDS", "1.0"))  # the worker's poll
