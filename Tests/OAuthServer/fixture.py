"""The users and clients every sign-in test can rely on. Client ids are fixed; secrets and the
user's password are random per run and written to 0600 files in the work dir (never in argv or
the environment)."""
import secrets

from django.contrib.auth import get_user_model
from oauth2_provider.models import get_application_model

LOOPBACK_REDIRECT = "http://127.0.0.1/callback"  # any port matches (RFC 8252 section 7.3)


def create_fixture(issuer, workdir, write_secret):
    Application = get_application_model()
    User = get_user_model()

    password = secrets.token_urlsafe(18)
    alice = User.objects.create_user("alice", "alice@example.test", password)
    bob_password = secrets.token_urlsafe(18)
    User.objects.create_user("bob", "bob@example.test", bob_password)

    def app(client_id, name, client_type, grant, secret=None, algorithm="", redirect=""):
        kwargs = dict(
            client_id=client_id,
            name=name,
            user=alice,
            client_type=client_type,
            authorization_grant_type=grant,
            algorithm=algorithm,
            redirect_uris=redirect,
        )
        if secret is not None:
            kwargs["client_secret"] = secret
        else:
            kwargs["client_secret"] = ""
        Application.objects.create(**kwargs)

    # Desktop app: public client, authorization code + PKCE, OIDC ID tokens signed RS256.
    app("tokenkit-native", "TokenKit desktop", Application.CLIENT_PUBLIC,
        Application.GRANT_AUTHORIZATION_CODE, algorithm=Application.RS256_ALGORITHM,
        redirect=LOOPBACK_REDIRECT)
    # A second public client: its ID tokens have another audience (swapped-ID-token tests).
    app("tokenkit-other", "Another app", Application.CLIENT_PUBLIC,
        Application.GRANT_AUTHORIZATION_CODE, algorithm=Application.RS256_ALGORITHM,
        redirect=LOOPBACK_REDIRECT)
    # A shell on a box without a browser: public client, device authorization grant.
    app("tokenkit-device", "TokenKit device", Application.CLIENT_PUBLIC,
        Application.GRANT_DEVICE_CODE)
    # A confidential client doing the code flow (client_secret_basic / client_secret_post).
    web_secret = secrets.token_urlsafe(32)
    app("tokenkit-web", "TokenKit confidential", Application.CLIENT_CONFIDENTIAL,
        Application.GRANT_AUTHORIZATION_CODE, secret=web_secret,
        algorithm=Application.RS256_ALGORITHM, redirect=LOOPBACK_REDIRECT)
    # A service: confidential client, client credentials grant.
    service_secret = secrets.token_urlsafe(32)
    app("tokenkit-service", "TokenKit service", Application.CLIENT_CONFIDENTIAL,
        Application.GRANT_CLIENT_CREDENTIALS, secret=service_secret)

    return {
        "issuer": issuer,
        "native_client_id": "tokenkit-native",
        "other_client_id": "tokenkit-other",
        "device_client_id": "tokenkit-device",
        "web_client_id": "tokenkit-web",
        "web_secret_file": write_secret(workdir, "web-client-secret", web_secret),
        "service_client_id": "tokenkit-service",
        "service_secret_file": write_secret(workdir, "service-client-secret", service_secret),
        "user": "alice",
        "password_file": write_secret(workdir, "alice-password", password),
        "other_user": "bob",
        "other_password_file": write_secret(workdir, "bob-password", bob_password),
    }
