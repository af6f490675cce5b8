#!/usr/bin/env python3
"""The issuer side of Benchmarks/wrk-resource-server (127.0.0.1 only).

Usage: wrk-jwks.py DIR ISSUER AUDIENCE
Makes a fresh ES256 key, writes DIR/token (a JWT for ISSUER/AUDIENCE, valid for one hour,
scope "read"), then serves the public JWKS at /jwks.json with Cache-Control max-age=3600
(so the resource server fetches it once). Prints the chosen port on stdout, then serves until
killed. Uses jwcrypto (installed by scripts/install-prerequisites) as an independent signer.
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from jwcrypto import jwk, jwt

directory, issuer, audience = sys.argv[1:4]
key = jwk.JWK.generate(kty="EC", crv="P-256", kid="wrk-bench", alg="ES256", use="sig")
jwks = json.dumps({"keys": [json.loads(key.export_public())]}).encode()
now = int(time.time())
token = jwt.JWT(
    header={"alg": "ES256", "kid": "wrk-bench", "typ": "JWT"},
    claims={"iss": issuer, "aud": audience, "sub": "wrk-user", "scope": "read", "iat": now, "exp": now + 3600},
)
token.make_signed_token(key)
with open(f"{directory}/token", "w") as f:
    f.write(token.serialize())

fetches = 0


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        global fetches
        if self.path == "/stats":
            body = json.dumps({"fetches": fetches}).encode()
        elif self.path == "/jwks.json":
            fetches += 1
            body = jwks
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "max-age=3600")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
