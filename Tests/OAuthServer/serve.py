"""Runs the test authorization server: binds 127.0.0.1 (port 0 = ephemeral unless
TOKENKIT_OAUTH_PORT is set), migrates a fresh SQLite database in WORKDIR, creates the fixture's
users and clients, writes WORKDIR/ready.json (issuer, client ids, secret files), then serves
until SIGTERM/SIGINT.

Usage: python serve.py WORKDIR   (normally started by scripts/with-oauth-server)
"""
import json
import os
import secrets
import signal
import socketserver
import sys
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

HERE = os.path.dirname(os.path.abspath(__file__))


class ThreadingServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True


class QuietHandler(WSGIRequestHandler):
    """Writes the access log to the work dir's log (no query strings: they carry codes)."""

    def log_request(self, code="-", size="-"):
        path = self.path.split("?", 1)[0]
        sys.stderr.write(f"{self.command} {path} {code}\n")


def write_secret(workdir, name, value):
    path = os.path.join(workdir, name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(value)
    return path


def make_rsa_key(workdir):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    return write_secret(workdir, "oidc-rsa.pem", pem)


def main():
    workdir = sys.argv[1]
    port = int(os.environ.get("TOKENKIT_OAUTH_PORT", "0"))
    server = ThreadingServer(("127.0.0.1", port), QuietHandler)
    port = server.server_address[1]
    issuer = f"http://127.0.0.1:{port}"

    os.environ["TOKENKIT_OAUTH_ISSUER"] = issuer
    os.environ["TOKENKIT_OAUTH_DB"] = os.path.join(workdir, "db.sqlite3")
    os.environ["TOKENKIT_OAUTH_DJANGO_SECRET"] = secrets.token_urlsafe(32)
    os.environ["TOKENKIT_OAUTH_RSA_KEY_FILE"] = make_rsa_key(workdir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tokenkit_oauth.settings")
    sys.path.insert(0, HERE)

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)

    from fixture import create_fixture

    ready = create_fixture(issuer, workdir, write_secret)

    from django.core.wsgi import get_wsgi_application

    server.set_app(get_wsgi_application())
    tmp = os.path.join(workdir, "ready.json.tmp")
    with open(tmp, "w") as f:
        json.dump(ready, f)
    os.rename(tmp, os.path.join(workdir, "ready.json"))

    def stop(signum, frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
