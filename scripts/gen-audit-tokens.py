#!/usr/bin/env python3
"""Writes N typical JWTs (~300 bytes, HS256-shaped, unsigned dummy signature), one a line,
for benchmarking `tokenkit audit`. Usage: gen-audit-tokens.py N > tokens.txt

Mix: ~90% ok, 5% expired, 2% without exp, 1% malformed, 2% alg none. Deterministic."""
import base64, json, sys

def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    now = 1_700_000_000
    header = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "key-2026-11"}, separators=(",", ":")).encode())
    none_header = b64(b'{"alg":"none","typ":"JWT"}')
    signature = b64(bytes(range(32)))
    out = sys.stdout
    lines = []
    for i in range(n):
        claims = {"iss": "https://auth.example.com/realms/main", "sub": f"user-{i:08d}",
                  "aud": ["api.example.com", "billing"], "iat": now - 600 - i % 3600 - (i % 20 == 7) * 7200,
                  "exp": now + 3000 - (i % 20 == 7) * 7200, "jti": f"{i:012x}"}
        if i % 50 == 3:
            del claims["exp"]
        line = header + "." + b64(json.dumps(claims, separators=(",", ":")).encode()) + "." + signature
        if i % 100 == 11:
            line = line[:40] + "!" + line[41:]
        if i % 50 == 13:
            line = none_header + "." + line.split(".")[1] + "."
        lines.append(line)
        if len(lines) == 10000:
            out.write("\n".join(lines) + "\n")
            lines = []
    if lines:
        out.write("\n".join(lines) + "\n")

main()
