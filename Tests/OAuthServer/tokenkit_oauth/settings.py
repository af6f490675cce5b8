"""Settings of the throw-away django-oauth-toolkit server used by TokenKit's sign-in tests.

Everything that differs per run comes from the environment set by serve.py: the issuer URL
(127.0.0.1 and the port it bound), the SQLite file and the RSA key (both in a private temp dir).
Not a production configuration: DEBUG is off only so error pages stay small.
"""
import os
import pathlib

BASE_DIR = pathlib.Path(__file__).resolve().parent

ISSUER = os.environ["TOKENKIT_OAUTH_ISSUER"]
SECRET_KEY = os.environ["TOKENKIT_OAUTH_DJANGO_SECRET"]
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "tokenkit_oauth.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ["TOKENKIT_OAUTH_DB"],
        # IMMEDIATE: every transaction takes the write lock up front and waits for it (up to
        # `timeout`). With SQLite's default (deferred), a read that upgrades to a write while
        # another thread writes fails at once with "database is locked" -> HTTP 500 on
        # /token/ when the threaded server runs several tests' exchanges together.
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
    }
}
# Fast hashing: the fixture's passwords and client secrets are throw-away.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
LOGIN_URL = "/accounts/login/"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
}

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_ISS_ENDPOINT": ISSUER,
    "OIDC_RSA_PRIVATE_KEY": pathlib.Path(os.environ["TOKENKIT_OAUTH_RSA_KEY_FILE"]).read_text(),
    "OIDC_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["client_secret_basic", "client_secret_post", "none"],
    "SCOPES": {
        "openid": "OpenID Connect",
        "profile": "Your profile",
        "email": "Your e-mail address",
        "read": "Read",
        "write": "Write",
    },
    "DEFAULT_SCOPES": ["read"],
    "PKCE_REQUIRED": True,
    # S256 only (RFC 9700): plain code challenges are refused.
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    # RFC 9207: the authorization response carries `iss`.
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("TOKENKIT_OAUTH_ACCESS_TOKEN_SECONDS", "3600")),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "OAUTH_DEVICE_VERIFICATION_URI": ISSUER + "/device/",
    "DEVICE_FLOW_INTERVAL": int(os.environ.get("TOKENKIT_OAUTH_DEVICE_INTERVAL", "1")),
    "REQUEST_APPROVAL_PROMPT": "force",
}
