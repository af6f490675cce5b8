#!/usr/bin/env python3
"""JWE interop peer for TokenKit's tests: joserfc and jwcrypto (PyPI), two independent
implementations, each encrypting to and decrypting from TokenKit.

Commands:
  jwe_peer.py check                   exit 0 when joserfc, jwcrypto and cryptography import
  jwe_peer.py generate OUTDIR         fresh keys for every JWE alg (private and public files,
                                      PEM/JWK/raw), and tokens made by both libraries for every
                                      alg and a spread of enc -> OUTDIR/manifest.json
  jwe_peer.py decrypt MANIFEST RESULT decrypt the tokens MANIFEST lists with the library each
                                      names -> RESULT {"results":[{"ok":…,"plaintext":b64,"error":…}]}

manifest.json: {"keys": [{"alg","curve","private","public","format"}],
                "cases": [{"lib","alg","enc","key" (private file),"token","plaintext" (b64)}]}
Keys are generated per run and thrown away with OUTDIR.
"""
import base64
import json
import os
import sys

try:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, rsa, x25519
    from joserfc import jwe as rfc_jwe
    from joserfc.jwk import ECKey, OctKey, OKPKey, RSAKey
    from jwcrypto import jwe as jc_jwe
    from jwcrypto import jwk as jc_jwk
except ImportError:  # reported by `check`
    rfc_jwe = None

ENCS = ["A128GCM", "A192GCM", "A256GCM", "A128CBC-HS256", "A192CBC-HS384", "A256CBC-HS512"]
# (alg, curve or key size, key file format): every alg, every ECDH curve at least once.
KEYS = [
    ("RSA-OAEP", 2048, "pem"), ("RSA-OAEP-256", 3072, "jwk"),
    ("ECDH-ES", "P-256", "pem"), ("ECDH-ES", "X25519", "jwk"), ("ECDH-ES", "P-521", "pem"),
    ("ECDH-ES+A128KW", "P-384", "jwk"), ("ECDH-ES+A192KW", "X25519", "pem"), ("ECDH-ES+A256KW", "P-256", "jwk"),
    ("ECDH-ES+A256KW", "P-521", "jwk"),
    ("A128KW", 16, "raw"), ("A192KW", 24, "raw"), ("A256KW", 32, "raw"),
    ("dir", 16, "raw"), ("dir", 32, "raw"), ("dir", 64, "raw"),
]
DIR_ENC = {16: "A128GCM", 24: "A192GCM", 32: "A128CBC-HS256", 48: "A192CBC-HS384", 64: "A256CBC-HS512"}


def b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def new_private_key(alg, size):
    if alg.startswith("RSA"):
        return rsa.generate_private_key(public_exponent=65537, key_size=size)
    if size == "X25519":
        return x25519.X25519PrivateKey.generate()
    return ec.generate_private_key({"P-256": ec.SECP256R1(), "P-384": ec.SECP384R1(), "P-521": ec.SECP521R1()}[size])


def write(outdir, name, data):
    path = os.path.join(outdir, name)
    with open(path, "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode())
    os.chmod(path, 0o600)
    return path


def key_files(outdir, index, alg, size, fmt):
    """(private file, public file, the private key for both libraries as a PEM or raw bytes)."""
    if fmt == "raw":
        secret = os.urandom(size)
        path = write(outdir, f"key{index}.raw", secret)
        return path, path, secret
    key = new_private_key(alg, size)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    public_pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    if fmt == "pem":
        return write(outdir, f"key{index}.pem", pem), write(outdir, f"key{index}.pub.pem", public_pem), pem
    private_jwk = jc_jwk.JWK.from_pem(pem)
    public_jwk = jc_jwk.JWK.from_pem(public_pem)
    return (write(outdir, f"key{index}.jwk", private_jwk.export(private_key=True)),
            write(outdir, f"key{index}.pub.jwk", public_jwk.export(private_key=False)), pem)


def load_private(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if path.endswith(".raw"):
        return data
    if path.endswith(".jwk"):
        return jc_jwk.JWK.from_json(data.decode()).export_to_pem(private_key=True, password=None)
    return data


def rfc_key(alg, material):
    """A joserfc key from PEM (or raw bytes for A*KW/dir)."""
    if isinstance(material, bytes) and not material.startswith(b"-----"):
        return OctKey.import_key(material)
    if alg.startswith("RSA"):
        return RSAKey.import_key(material)
    try:
        return ECKey.import_key(material)
    except Exception:
        return OKPKey.import_key(material)


def jc_key(material):
    if isinstance(material, bytes) and not material.startswith(b"-----"):
        return jc_jwk.JWK(kty="oct", k=b64e(material))
    return jc_jwk.JWK.from_pem(material)


def encrypt(lib, alg, enc, material, plaintext):
    if lib == "joserfc":
        return rfc_jwe.encrypt_compact({"alg": alg, "enc": enc}, plaintext, rfc_key(alg, material), algorithms=[alg, enc])
    key = jc_key(material)
    token = jc_jwe.JWE(plaintext, protected=json.dumps({"alg": alg, "enc": enc}))
    token.add_recipient(key)
    return token.serialize(compact=True)


def decrypt(lib, alg, enc, material, token):
    if lib == "joserfc":
        return rfc_jwe.decrypt_compact(token, rfc_key(alg, material), algorithms=[alg, enc]).plaintext
    parsed = jc_jwe.JWE(algs=[alg, enc])
    parsed.deserialize(token, key=jc_key(material))
    return parsed.payload


def generate(outdir):
    os.makedirs(outdir, exist_ok=True)
    keys, cases = [], []
    for index, (alg, size, fmt) in enumerate(KEYS):
        private, public, material = key_files(outdir, index, alg, size, fmt)
        keys.append({"alg": alg, "curve": size if isinstance(size, str) else None, "private": private, "public": public, "format": fmt})
        encs = [DIR_ENC[size]] if alg == "dir" else [ENCS[(index + k) % len(ENCS)] for k in range(3)]
        for lib in ("joserfc", "jwcrypto"):
            for enc in encs:
                plaintext = f"from {lib}: {alg} {enc} \u2013 caf\u00e9".encode() + os.urandom(5)
                cases.append({"lib": lib, "alg": alg, "enc": enc, "key": private,
                              "token": encrypt(lib, alg, enc, material, plaintext), "plaintext": b64e(plaintext)})
    with open(os.path.join(outdir, "manifest.json"), "w") as handle:
        json.dump({"keys": keys, "cases": cases}, handle, indent=1)


def decrypt_all(manifest_path, result_path):
    with open(manifest_path) as handle:
        cases = json.load(handle)["cases"]
    results = []
    for case in cases:
        try:
            plaintext = decrypt(case["lib"], case["alg"], case["enc"], load_private(case["key"]), case["token"])
            results.append({"ok": True, "plaintext": b64e(plaintext)})
        except Exception as error:  # any refusal is reported, not raised
            results.append({"ok": False, "error": type(error).__name__})
    with open(result_path, "w") as handle:
        json.dump({"results": results}, handle)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "check":
        sys.exit(0 if rfc_jwe is not None else 1)
    if len(sys.argv) == 3 and sys.argv[1] == "generate":
        generate(sys.argv[2])
        return
    if len(sys.argv) == 4 and sys.argv[1] == "decrypt":
        decrypt_all(sys.argv[2], sys.argv[3])
        return
    print(__doc__, file=sys.stderr)
    sys.exit(64)


if __name__ == "__main__":
    main()
