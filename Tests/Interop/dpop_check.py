#!/usr/bin/env python3
"""An independent DPoP proof checker (RFC 9449 section 4.3), built on jwcrypto.

Nothing is shared with TokenKit: parsing, the signature check (jwcrypto) and every claim
rule are written here from the RFC.

    python3 dpop_check.py check     exit 0 when jwcrypto is importable
    python3 dpop_check.py verify    reads {"cases": [CASE, ...]} on stdin, writes
                                    {"results": [{"ok": bool, "reason": str}, ...]} on stdout

CASE: {"proof": compact JWS, "method": "GET", "url": the request URL (query and fragment
allowed: they are not part of htu), "now": seconds since the epoch, "access_token": the
token the request carries (resource requests: ath required), "nonce": the nonce the server
gave (then required)}. The last two are optional.
"""
import base64
import hashlib
import json
import sys
from urllib.parse import urlsplit, urlunsplit

# RFC 9449 4.3 point 5: an asymmetric algorithm (JWA), not "none", no MAC.
ASYMMETRIC_ALGS = {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519", "Ed448"}
# Members of a private JWK (RFC 7518 6.2.2, 6.3.2; RFC 8037 2) and of a symmetric one.
PRIVATE_MEMBERS = {"d", "p", "q", "dp", "dq", "qi", "oth", "k"}
IAT_WINDOW = 60  # seconds, either side (RFC 9449 11.1: "a reasonable window")


class Invalid(Exception):
    pass


def b64url_decode(text):
    if not isinstance(text, str) or "=" in text:
        raise Invalid("not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except Exception:
        raise Invalid("not base64url")


def normalized(url):
    """RFC 3986 6.2.2/6.2.3 normalization of scheme and authority, without query and fragment."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    port = parts.port
    if (scheme, port) in (("https", 443), ("http", 80)):
        port = None
    netloc = host if port is None else "%s:%d" % (host, port)
    return urlunsplit((scheme, netloc, parts.path or "/", "", ""))


def check(case):
    from jwcrypto import jwk, jws

    proof = case["proof"]
    segments = proof.split(".")
    # 1. exactly one well-formed JWT (compact JWS, three parts)
    if len(segments) != 3:
        raise Invalid("not a compact JWS")
    header = json.loads(b64url_decode(segments[0]))
    claims = json.loads(b64url_decode(segments[1]))
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise Invalid("header or claims not a JSON object")
    # 4. typ
    if header.get("typ") != "dpop+jwt":
        raise Invalid("typ is not dpop+jwt")
    # 5. alg asymmetric
    if header.get("alg") not in ASYMMETRIC_ALGS:
        raise Invalid("alg %r is not an asymmetric algorithm" % header.get("alg"))
    # 7. jwk: a public key only
    key_members = header.get("jwk")
    if not isinstance(key_members, dict):
        raise Invalid("no jwk header")
    if PRIVATE_MEMBERS & set(key_members) or key_members.get("kty") == "oct":
        raise Invalid("jwk holds private or symmetric key material")
    # 6. the signature verifies with the header's key
    try:
        key = jwk.JWK(**key_members)
        token = jws.JWS()
        token.deserialize(proof)
        token.verify(key, alg=header["alg"])
    except Exception as error:
        raise Invalid("signature: %s" % type(error).__name__)
    # 3. required claims
    for name in ("jti", "htm", "htu", "iat"):
        if name not in claims:
            raise Invalid("missing %s" % name)
    if not isinstance(claims["jti"], str) or not claims["jti"]:
        raise Invalid("jti is not a non-empty string")
    # 8. htm
    if claims["htm"] != case["method"]:
        raise Invalid("htm %r != %r" % (claims["htm"], case["method"]))
    # 9. htu: the request URI without query and fragment
    htu = claims["htu"]
    if not isinstance(htu, str) or urlsplit(htu).query or urlsplit(htu).fragment or "?" in htu or "#" in htu:
        raise Invalid("htu carries a query or fragment")
    if normalized(htu) != normalized(case["url"]):
        raise Invalid("htu %r does not match %r" % (htu, case["url"]))
    # 10. nonce, when the server provided one
    if case.get("nonce") is not None and claims.get("nonce") != case["nonce"]:
        raise Invalid("nonce")
    # 11. iat within the window
    iat = claims["iat"]
    if not isinstance(iat, (int, float)) or isinstance(iat, bool) or abs(iat - case["now"]) > IAT_WINDOW:
        raise Invalid("iat outside the acceptable window")
    # 12. ath with an access token
    token_value = case.get("access_token")
    if token_value is not None:
        expected = base64.urlsafe_b64encode(hashlib.sha256(token_value.encode("ascii")).digest()).rstrip(b"=").decode()
        if claims.get("ath") != expected:
            raise Invalid("ath is not the hash of the access token")


def main(argv):
    if len(argv) != 2 or argv[1] not in ("check", "verify"):
        sys.stderr.write("usage: dpop_check.py check|verify\n")
        return 64
    try:
        import jwcrypto  # noqa: F401
    except ImportError:
        sys.stderr.write("dpop_check.py: the jwcrypto package is missing (scripts/install-prerequisites installs it)\n")
        return 3
    if argv[1] == "check":
        return 0
    results = []
    for case in json.load(sys.stdin)["cases"]:
        try:
            check(case)
            results.append({"ok": True, "reason": ""})
        except Invalid as error:
            results.append({"ok": False, "reason": str(error)})
        except Exception as error:  # a malformed proof must fail, never pass
            results.append({"ok": False, "reason": "malformed: %s" % type(error).__name__})
    json.dump({"results": results}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
