#!/usr/bin/env python3
"""Builds x5c certificate chains and JWS tokens for TokenKit's x5c tests, at test time.

Uses only the Python standard library and `cryptography`; the JWS signing is interop.py's
(hand-written, nothing from TokenKit). Every key is generated fresh and thrown away: nothing
secret is written except the throw-away private keys of the chains, inside OUTDIR.

Commands:
  x5c_chains.py check            exit 0 when `cryptography` is importable
  x5c_chains.py generate OUTDIR  chains + tokens for every scenario -> OUTDIR/manifest.json

manifest.json: {"now": UNIX, "cases": [{"name", "root" (PEM file), "token", "expect"}]}
where expect is "ok" or the text the refusal must contain. Verification time: "now".
"""
import base64
import datetime
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from interop import compact, x509  # noqa: E402  (x509 is None when cryptography is missing)

if x509 is not None:
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
    from cryptography.x509.oid import NameOID

NOW = int(time.time())  # the chains are valid now, so examples may use the system clock
APP_STORE_LEAF_OID = "1.2.840.113635.100.6.11.1"
APP_STORE_ISSUER_OID = "1.2.840.113635.100.6.2.1"
CLAIMS = {"iss": "x5c-issuer", "sub": "x5c-subject", "aud": "x5c-audience", "exp": NOW + 3600, "iat": NOW - 60}


def at(offset_seconds):
    return datetime.datetime.fromtimestamp(NOW + offset_seconds, tz=datetime.timezone.utc)


def new_key(kind):
    if kind == "ec":
        return ec.generate_private_key(ec.SECP256R1())
    if kind == "rsa":
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    if kind == "rsa1024":
        return rsa.generate_private_key(public_exponent=65537, key_size=1024)
    return ed25519.Ed25519PrivateKey.generate()


def sign_hash(key):
    return None if isinstance(key, ed25519.Ed25519PrivateKey) else hashes.SHA256()


class Cert:
    def __init__(self, name, key, der):
        self.name, self.key, self.der = name, key, der

    @property
    def pem(self):
        return x509.load_der_x509_certificate(self.der).public_bytes(serialization.Encoding.PEM)


def make_cert(name, key, issuer=None, ca=True, path_length=None, key_usage=None, not_before=-86400,
              not_after=365 * 86400, sha1=False, extra_oids=(), bc_critical=True):
    """A certificate for `key`, signed by `issuer` (a Cert) or self-signed."""
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "TokenKit Tests")])
    issuer_name = subject if issuer is None else x509.load_der_x509_certificate(issuer.der).subject
    signing_key = key if issuer is None else issuer.key
    if key_usage is None:
        key_usage = "ca" if ca else "leaf"
    usages = {
        "ca": dict(digital_signature=True, key_cert_sign=True, crl_sign=True),
        "leaf": dict(digital_signature=True),
        "no-cert-sign": dict(digital_signature=True, crl_sign=True),
        "no-digital-signature": dict(key_encipherment=True) if not isinstance(key, (ec.EllipticCurvePrivateKey, ed25519.Ed25519PrivateKey)) else dict(key_agreement=True),
    }[key_usage]
    flags = dict(digital_signature=False, content_commitment=False, key_encipherment=False, data_encipherment=False,
                 key_agreement=False, key_cert_sign=False, crl_sign=False, encipher_only=False, decipher_only=False)
    flags.update(usages)
    ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    aki = x509.AuthorityKeyIdentifier.from_issuer_public_key(signing_key.public_key())
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer_name).public_key(key.public_key())
               .serial_number(x509.random_serial_number()).not_valid_before(at(not_before)).not_valid_after(at(not_after))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=path_length if ca else None), critical=bc_critical)
               .add_extension(x509.KeyUsage(**flags), critical=True)
               .add_extension(ski, critical=False))
    if issuer is not None:
        builder = builder.add_extension(aki, critical=False)
    for oid in extra_oids:
        builder = builder.add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier(oid), b"\x05\x00"), critical=False)
    cert = builder.sign(signing_key, sign_hash(signing_key))
    der = cert.public_bytes(serialization.Encoding.DER)
    return Cert(name, key, resigned_with_sha1(cert, signing_key) if sha1 else der)


def der_length(n):
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def resigned_with_sha1(cert, rsa_key):
    """The certificate signed again with sha1WithRSAEncryption (cryptography refuses to make
    one): the TBS's signature algorithm OID is swapped (same length) and the TBS re-signed."""
    from cryptography.hazmat.primitives.asymmetric import padding
    sha256_rsa, sha1_rsa = bytes.fromhex("2a864886f70d01010b"), bytes.fromhex("2a864886f70d010105")
    tbs = cert.tbs_certificate_bytes
    assert tbs.count(sha256_rsa) == 1, "expected one sha256WithRSAEncryption in the TBS"
    tbs = tbs.replace(sha256_rsa, sha1_rsa)
    signature = rsa_key.sign(tbs, padding.PKCS1v15(), hashes.SHA1())
    algorithm = bytes.fromhex("300d0609") + sha1_rsa + bytes.fromhex("0500")
    bit_string = b"\x03" + der_length(len(signature) + 1) + b"\x00" + signature
    body = tbs + algorithm + bit_string
    return b"\x30" + der_length(len(body)) + body


def chain(kind="ec", **overrides):
    """root -> intermediate -> leaf, each of `kind`, with per-certificate overrides."""
    root = make_cert("Test Root", new_key(overrides.pop("root_kind", kind)), **overrides.pop("root", {}))
    inter = make_cert("Test Intermediate", new_key(overrides.pop("inter_kind", kind)), issuer=root, **overrides.pop("inter", {}))
    leaf = make_cert("Test Leaf", new_key(overrides.pop("leaf_kind", kind)), issuer=inter, ca=False, **overrides.pop("leaf", {}))
    return root, inter, leaf


def jws_alg(key):
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return "ES256"
    if isinstance(key, rsa.RSAPrivateKey):
        return "RS256"
    return "EdDSA"


def interop_alg(alg):
    return "EdDSA-Ed25519" if alg == "EdDSA" else alg


def b64(der):
    return base64.b64encode(der).decode("ascii")


def token(x5c, signer, alg=None, claims=None):
    alg = alg or jws_alg(signer)
    header = {"alg": alg, "typ": "JWT", "x5c": x5c}
    return compact(header, json.dumps(claims or CLAIMS, separators=(",", ":")).encode(), interop_alg(alg), signer)


def generate(outdir):
    os.makedirs(outdir, exist_ok=True)
    cases = []

    def add(name, root, tok, expect):
        path = os.path.join(outdir, name + ".root.pem")
        with open(path, "wb") as handle:
            handle.write(root.pem if isinstance(root, Cert) else root)
        cases.append({"name": name, "root": path, "token": tok, "expect": expect})

    for kind in ("ec", "rsa", "ed25519"):
        root, inter, leaf = chain(kind)
        add("valid-" + jws_alg(leaf.key), root, token([b64(leaf.der), b64(inter.der)], leaf.key), "ok")
    root, inter, leaf = chain()
    add("valid-with-root-copy", root, token([b64(leaf.der), b64(inter.der), b64(root.der)], leaf.key), "ok")
    add("wrong-signer", root, token([b64(leaf.der), b64(inter.der)], new_key("ec")), "bad signature")
    add("alg-not-leaf-type", root, token([b64(leaf.der), b64(inter.der)], new_key("rsa")), "cannot verify RS256")
    add("missing-intermediate", root, token([b64(leaf.der)], leaf.key), "certificate chain: the leaf certificate: unable to get local issuer certificate")
    other_root, _, _ = chain()
    add("unrelated-ca", other_root, token([b64(leaf.der), b64(inter.der)], leaf.key), "certificate chain:")
    # malformed x5c values
    add("x5c-not-array", root, token(b64(leaf.der), leaf.key), "certificate chain: \"x5c\" must be an array")
    add("x5c-empty", root, token([], leaf.key), "certificate chain: \"x5c\" is empty")
    add("x5c-not-string", root, token([b64(leaf.der), 7], leaf.key), "certificate chain: \"x5c\" entry 2 is not a string")
    add("x5c-base64url", root, token([b64(leaf.der).replace("+", "-").replace("/", "_").rstrip("="), b64(inter.der)], leaf.key),
        "certificate chain: \"x5c\" entry 1 is not canonical standard base64")
    add("x5c-not-der", root, token([b64(b"not a certificate at all"), b64(inter.der)], leaf.key),
        "certificate chain: \"x5c\" entry 1 is not a DER certificate")
    add("x5c-trailing-bytes", root, token([b64(leaf.der), b64(inter.der + b"\x00")], leaf.key),
        "certificate chain: \"x5c\" entry 2 is not a DER certificate")
    add("x5c-too-long", root, token([b64(leaf.der)] + [b64(inter.der)] * 5, leaf.key), "certificate chain: \"x5c\" holds 6 certificates")
    add("no-x5c", root, compact({"alg": "ES256"}, b"{}", "ES256", leaf.key), "certificate chain: the token's header has no \"x5c\"")
    # validity at the verification time
    root, inter, leaf = chain(leaf=dict(not_after=-10))
    add("leaf-expired", root, token([b64(leaf.der), b64(inter.der)], leaf.key), "certificate chain: the leaf certificate: certificate has expired")
    root, inter, leaf = chain(inter=dict(not_before=100))
    add("intermediate-not-yet-valid", root, token([b64(leaf.der), b64(inter.der)], leaf.key),
        "certificate chain: certificate 2 of the path: certificate is not yet valid")
    # basicConstraints, pathLen, key usage
    root, inter, leaf = chain(inter=dict(ca=False))
    add("intermediate-ca-false", root, token([b64(leaf.der), b64(inter.der)], leaf.key), "certificate chain:")
    root, inter, leaf = chain(root=dict(path_length=0))
    add("pathlen-exceeded", root, token([b64(leaf.der), b64(inter.der)], leaf.key), "path length constraint exceeded")
    root, inter, leaf = chain(inter=dict(key_usage="no-cert-sign"))
    add("intermediate-no-keycertsign", root, token([b64(leaf.der), b64(inter.der)], leaf.key), "certificate chain:")
    root, inter, leaf = chain(leaf=dict(key_usage="no-digital-signature"))
    add("leaf-no-digitalsignature", root, token([b64(leaf.der), b64(inter.der)], leaf.key),
        "certificate chain: the leaf certificate's key usage does not include digitalSignature")
    # weak algorithms and keys
    root, inter, leaf = chain("rsa", inter=dict(sha1=True))
    add("sha1-signature", root, token([b64(leaf.der), b64(inter.der)], leaf.key), "certificate chain:")
    root, inter, leaf = chain("rsa", leaf_kind="rsa1024")
    add("rsa1024-leaf", root, token([b64(leaf.der), b64(inter.der)], leaf.key), "certificate chain:")
    # App Store shape: marker OIDs on leaf and intermediate
    root, inter, leaf = chain(inter=dict(extra_oids=[APP_STORE_ISSUER_OID]), leaf=dict(extra_oids=[APP_STORE_LEAF_OID]))
    add("appstore-valid", root, token([b64(leaf.der), b64(inter.der), b64(root.der)], leaf.key), "ok")
    notification = {"notificationType": "DID_RENEW", "notificationUUID": "0f6c1a2e-2d4b-4c8e-9a57-7d1f0c9b3e21",
                    "version": "2.0", "signedDate": NOW * 1000, "data": {"bundleId": "com.example.app", "environment": "Sandbox"}}
    add("appstore-notification", root, token([b64(leaf.der), b64(inter.der), b64(root.der)], leaf.key, claims=notification), "ok")
    root, inter, leaf = chain()
    add("appstore-unmarked", root, token([b64(leaf.der), b64(inter.der), b64(root.der)], leaf.key), "ok")
    with open(os.path.join(outdir, "manifest.json"), "w") as handle:
        json.dump({"now": NOW, "cases": cases}, handle, indent=1)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "check":
        sys.exit(0 if x509 is not None else 1)
    if len(sys.argv) == 3 and sys.argv[1] == "generate":
        generate(sys.argv[2])
        return
    print(__doc__, file=sys.stderr)
    sys.exit(64)


if __name__ == "__main__":
    main()
