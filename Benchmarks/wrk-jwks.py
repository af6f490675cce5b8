#!/usr/bin/env python3
"""The issuer side of Benchmarks/wrk-resource-server and wrk-three-servers (127.0.0.1 only).

Usage: wrk-jwks.py DIR ISSUER AUDIENCE [POOL]
Makes a fresh ES256 key, writes DIR/token (a JWT for ISSUER/AUDIENCE, valid for one hour,
scope "read") and, with POOL, DIR/tokens: POOL distinct such tokens, one a line (each its own
`sub` and `jti`; the first is DIR/token), for wrk-token-pool.lua. Then serves the public JWKS
at /jwks.json with Cache-Control max-age=3600 (so each server fetches it once), and the number
of JWKS requests so far at /stats. Prints the chosen port on stdout, then serves until killed.
Uses jwcrypto (installed by scripts/install-prerequisites) as an independent signer.
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from jwcrypto import jwk, jwt

directory, issuer, audience = sys.argv[1:4]
pool = int(sys.argv[4]) if len(sys.argv) > 4 else 0
key = jwk.JWK.generate(kty="EC", crv="P-256", kid="wrk-bench", alg="ES256", use="sig")
jwks = json.dumps({"keys": [json.loads(key.export_public())]}).encode()
now = int(time.time())


def signed(subject, jti=None):
    claims = {"iss": issuer, "aud": audience, "sub": subject, "scope": "read", "iat": now, "exp": now + 3600}
    if jti is not None:
        claims["jti"] = jti
    token = jwt.JWT(header={"alg": "ES256", "kid": "wrk-bench", "typ": "JWT"}, claims=claims)
    token.make_signed_token(key)
    return token.serialize()


first = signed("wrk-user")
with open(f"{directory}/token", "w") as f:
    f.write(first)
if pool > 0:
    tokens = [first] + [signed(f"wrk-user-{i}", f"wrk-{i}") for i in range(1, pool)]
    with open(f"{directory}/tokens", "w") as f:
        f.write("\n".join(tokens) + "\n")

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
