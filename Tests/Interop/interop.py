#!/usr/bin/env python3
"""Independent JWS implementation for TokenKit's interop tests.

Uses only the Python standard library and `cryptography` (install with
`python3 -m pip install --quiet cryptography`). Nothing here comes from TokenKit: JWS
signing and verification (RFC 7515/7518/8037/8812) are written out by hand on top of
cryptography's primitives, so agreement with TokenKit is evidence of interoperability.

Commands:
  interop.py check                   exit 0 when `cryptography` is importable
  interop.py generate OUTDIR         keys in every format + tokens -> OUTDIR/manifest.json
  interop.py verify MANIFEST RESULT  verify the tokens listed in MANIFEST -> RESULT (JSON)
"""
import base64
import datetime
import hashlib
import hmac
import json
import os
import sys

try:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
    from cryptography.x509.oid import NameOID
except ImportError:  # reported by `check`
    x509 = None

ALGORITHMS = ["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
              "ES256", "ES384", "ES512", "ES256K", "EdDSA-Ed25519", "EdDSA-Ed448"]
HASHES = {"256": "SHA256", "384": "SHA384", "512": "SHA512"}
CURVES = {"ES256": ("P-256", 32), "ES384": ("P-384", 48), "ES512": ("P-521", 66), "ES256K": ("secp256k1", 32)}
HMAC_LENGTHS = {"HS256": 32, "HS384": 48, "HS512": 64}


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def int_bytes(value: int, size: int = 0) -> bytes:
    length = max(size, (value.bit_length() + 7) // 8, 1)
    return value.to_bytes(length, "big")


def digest(alg: str):
    return getattr(hashes, HASHES[alg[-3:]])()


def curve_of(alg: str):
    return {"ES256": ec.SECP256R1(), "ES384": ec.SECP384R1(), "ES512": ec.SECP521R1(), "ES256K": ec.SECP256K1()}[alg]


# --- signing and verification, by hand ---------------------------------------------

def sign(alg: str, key, signing_input: bytes) -> bytes:
    if alg.startswith("HS"):
        return hmac.new(key, signing_input, getattr(hashlib, HASHES[alg[-3:]].lower())).digest()
    if alg.startswith("RS"):
        return key.sign(signing_input, padding.PKCS1v15(), digest(alg))
    if alg.startswith("PS"):
        h = digest(alg)
        return key.sign(signing_input, padding.PSS(mgf=padding.MGF1(h), salt_length=h.digest_size), h)
    if alg.startswith("ES"):
        r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(digest("ES" + {"ES256K": "256"}.get(alg, alg[-3:])))))
        size = CURVES[alg][1]
        return int_bytes(r, size) + int_bytes(s, size)
    return key.sign(signing_input)  # EdDSA


def verify(alg: str, key, signing_input: bytes, signature: bytes) -> bool:
    try:
        if alg.startswith("HS"):
            return hmac.compare_digest(sign(alg, key, signing_input), signature)
        if alg.startswith("RS"):
            key.verify(signature, signing_input, padding.PKCS1v15(), digest(alg))
        elif alg.startswith("PS"):
            h = digest(alg)
            key.verify(signature, signing_input, padding.PSS(mgf=padding.MGF1(h), salt_length=h.digest_size), h)
        elif alg.startswith("ES"):
            size = CURVES[alg][1]
            if len(signature) != 2 * size:
                return False
            r, s = int.from_bytes(signature[:size], "big"), int.from_bytes(signature[size:], "big")
            if r == 0 or s == 0:
                return False
            key.verify(encode_dss_signature(r, s), signing_input, ec.ECDSA(digest("ES" + {"ES256K": "256"}.get(alg, alg[-3:]))))
        else:
            key.verify(signature, signing_input)
        return True
    except Exception:  # InvalidSignature and malformed input alike mean "refused"
        return False


def compact(header: dict, payload: bytes, alg: str, key) -> str:
    signing_input = b64e(json.dumps(header, separators=(",", ":")).encode()) + "." + b64e(payload)
    return signing_input + "." + b64e(sign(alg, key, signing_input.encode("ascii")))


def verify_compact(token: str, alg: str, key):
    """Returns the payload bytes when the token is a valid compact JWS for alg, else None."""
    parts = token.split(".")
    if len(parts) != 3:
        return None
    try:
        header = json.loads(b64d(parts[0]))
        payload, signature = b64d(parts[1]), b64d(parts[2])
    except Exception:
        return None
    if header.get("alg") != ("EdDSA" if alg.startswith("EdDSA") else alg):
        return None
    if not verify(alg, key, (parts[0] + "." + parts[1]).encode("ascii"), signature):
        return None
    return payload


# --- keys and their formats --------------------------------------------------------

def generate_key(alg: str):
    if alg.startswith("HS"):
        return os.urandom(HMAC_LENGTHS[alg])
    if alg[:2] in ("RS", "PS"):
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    if alg.startswith("ES"):
        return ec.generate_private_key(curve_of(alg))
    return ed448.Ed448PrivateKey.generate() if alg.endswith("Ed448") else ed25519.Ed25519PrivateKey.generate()


def jwk(alg: str, key, private: bool, kid=None) -> dict:
    if alg.startswith("HS"):
        out = {"kty": "oct", "k": b64e(key)}
    elif alg[:2] in ("RS", "PS"):
        numbers = key.private_numbers()
        pub = numbers.public_numbers
        out = {"kty": "RSA", "n": b64e(int_bytes(pub.n)), "e": b64e(int_bytes(pub.e))}
        if private:
            out.update(d=b64e(int_bytes(numbers.d)), p=b64e(int_bytes(numbers.p)), q=b64e(int_bytes(numbers.q)),
                       dp=b64e(int_bytes(numbers.dmp1)), dq=b64e(int_bytes(numbers.dmq1)), qi=b64e(int_bytes(numbers.iqmp)))
    elif alg.startswith("ES"):
        crv, size = CURVES[alg]
        numbers = key.private_numbers()
        out = {"kty": "EC", "crv": crv, "x": b64e(int_bytes(numbers.public_numbers.x, size)),
               "y": b64e(int_bytes(numbers.public_numbers.y, size))}
        if private:
            out["d"] = b64e(int_bytes(numbers.private_value, size))
    else:
        raw = serialization.Encoding.Raw
        out = {"kty": "OKP", "crv": "Ed448" if alg.endswith("Ed448") else "Ed25519",
               "x": b64e(key.public_key().public_bytes(raw, serialization.PublicFormat.Raw))}
        if private:
            out["d"] = b64e(key.private_bytes(raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()))
    if kid:
        out["kid"] = kid
    return out


def certificate(alg: str, key) -> bytes:
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "tokenkit interop " + alg)])
    now = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
               .serial_number(x509.random_serial_number()).not_valid_before(now)
               .not_valid_after(now + datetime.timedelta(days=3650)))
    algorithm = None if alg.startswith("EdDSA") else hashes.SHA256()
    return builder.sign(key, algorithm).public_bytes(serialization.Encoding.PEM)


def key_files(alg: str, key):
    """(format name, file bytes, whether it is a verification-only public form)."""
    pem, der = serialization.Encoding.PEM, serialization.Encoding.DER
    none = serialization.NoEncryption()
    if alg.startswith("HS"):
        return [("raw", key), ("jwk", json.dumps(jwk(alg, key, True)).encode()),
                ("jwks", json.dumps({"keys": [jwk(alg, os.urandom(len(key)), True, "decoy"), jwk(alg, key, True, "interop")]}).encode())]
    files = [
        ("pkcs8", key.private_bytes(pem, serialization.PrivateFormat.PKCS8, none)),
        ("spki", key.public_key().public_bytes(pem, serialization.PublicFormat.SubjectPublicKeyInfo)),
        ("x509", certificate(alg, key)),
        ("jwk-public", json.dumps(jwk(alg, key, False)).encode()),
        ("jwk-private", json.dumps(jwk(alg, key, True)).encode()),
        ("jwks", json.dumps({"keys": [jwk(alg, generate_key(alg), False, "decoy"), jwk(alg, key, False, "interop")]}).encode()),
    ]
    if alg[:2] in ("RS", "PS"):
        files.append(("pkcs1", key.private_bytes(pem, serialization.PrivateFormat.TraditionalOpenSSL, none)))
        files.append(("pkcs1-public", key.public_key().public_bytes(pem, serialization.PublicFormat.PKCS1)))
    if alg.startswith("ES"):
        files.append(("sec1", key.private_bytes(pem, serialization.PrivateFormat.TraditionalOpenSSL, none)))
    return files


# The key-file formats that hold a private key (every HS format holds the secret).
PRIVATE_FORMATS = {"pkcs8", "jwk-private", "pkcs1", "sec1"}


def generate(outdir: str) -> None:
    os.makedirs(outdir, exist_ok=True)
    cases = []
    for alg in ALGORITHMS:
        key = generate_key(alg)
        jws_alg = "EdDSA" if alg.startswith("EdDSA") else alg
        for index, (fmt, data) in enumerate(key_files(alg, key)):
            path = os.path.join(outdir, f"{alg}.{fmt}")
            # A file with a private key or an HMAC secret must not be readable by other users
            # (tokenkit refuses it otherwise); public forms are world-readable, as they may be.
            private = alg.startswith("HS") or fmt in PRIVATE_FORMATS
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
            os.fchmod(descriptor, 0o600 if private else 0o644)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
            claims = {"iss": "interop-python", "sub": f"{alg}/{fmt}", "exp": 4102444800, "n": index,
                      "text": "caf\u00e9 \u20ac \U0001F600", "nested": {"list": [1, 2.5, True, None]}}
            payload = json.dumps(claims, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            header = {"alg": jws_alg, "typ": "JWT"}
            if fmt == "jwks":
                header["kid"] = "interop"
            token = compact(header, payload, alg, key)
            cases.append({"alg": alg, "jwsAlg": jws_alg, "format": fmt, "keyFile": path, "token": token,
                          "payload": payload.decode("utf-8"), "valid": True})
            # A negative control: the same token with its payload changed must be refused.
            parts = token.split(".")
            forged = parts[0] + "." + b64e(payload.replace(b"interop-python", b"interop-pythoN")) + "." + parts[2]
            cases.append({"alg": alg, "jwsAlg": jws_alg, "format": fmt, "keyFile": path, "token": forged,
                          "payload": "", "valid": False})
    with open(os.path.join(outdir, "manifest.json"), "w") as handle:
        json.dump({"cases": cases}, handle, ensure_ascii=False, indent=1)


def load_verification_key(alg: str, fmt: str, data: bytes, kid=None):
    """Loads a key TokenKit exported, with cryptography's own parsers (a JWKS: by kid)."""
    if fmt == "jwks":
        chosen = [k for k in json.loads(data)["keys"] if k.get("kid") == kid]
        if len(chosen) != 1:
            return None
        return load_verification_key(alg, "jwk", json.dumps(chosen[0]).encode())
    if alg.startswith("HS"):
        return b64d(json.loads(data)["k"]) if fmt.startswith("jwk") else data
    if fmt in ("spki", "pkcs1-public", "x509", "pkcs8", "pkcs1", "sec1"):
        if fmt == "x509":
            return x509.load_pem_x509_certificate(data).public_key()
        if fmt in ("pkcs8", "pkcs1", "sec1"):
            return serialization.load_pem_private_key(data, password=None).public_key()
        return serialization.load_pem_public_key(data)
    obj = json.loads(data)
    if obj["kty"] == "RSA":
        return rsa.RSAPublicNumbers(int.from_bytes(b64d(obj["e"]), "big"), int.from_bytes(b64d(obj["n"]), "big")).public_key()
    if obj["kty"] == "EC":
        return ec.EllipticCurvePublicNumbers(int.from_bytes(b64d(obj["x"]), "big"), int.from_bytes(b64d(obj["y"]), "big"),
                                             curve_of({"P-256": "ES256", "P-384": "ES384", "P-521": "ES512", "secp256k1": "ES256K"}[obj["crv"]])).public_key()
    cls = ed448.Ed448PublicKey if obj["crv"] == "Ed448" else ed25519.Ed25519PublicKey
    return cls.from_public_bytes(b64d(obj["x"]))


def verify_manifest(manifest: str, result: str) -> None:
    with open(manifest, encoding="utf-8") as handle:
        cases = json.load(handle)["cases"]
    results = []
    for case in cases:
        try:
            kid = json.loads(b64d(case["token"].split(".")[0])).get("kid")
        except Exception:
            kid = None
        with open(case["keyFile"], "rb") as handle:
            key = load_verification_key(case["alg"], case["format"], handle.read(), kid)
        payload = verify_compact(case["token"], case["alg"], key) if key is not None else None
        results.append({"ok": payload is not None, "payload": payload.decode("utf-8", "replace") if payload is not None else None})
    with open(result, "w", encoding="utf-8") as handle:
        json.dump({"results": results}, handle, ensure_ascii=False)


def main(argv) -> int:
    if len(argv) >= 2 and argv[1] == "check":
        return 0 if x509 is not None else 3
    if x509 is None:
        print("interop.py: the Python package 'cryptography' is not installed", file=sys.stderr)
        return 3
    if len(argv) == 3 and argv[1] == "generate":
        generate(argv[2])
        return 0
    if len(argv) == 4 and argv[1] == "verify":
        verify_manifest(argv[2], argv[3])
        return 0
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
