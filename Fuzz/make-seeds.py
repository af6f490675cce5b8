#!/usr/bin/env python3
"""Regenerates the checked-in seed corpora under Fuzz/Corpus/ (kept small on purpose).

Sources: the interop peer's keys and tokens (Tests/Interop/interop.py generate), the
Wycheproof JOSE vectors in Tests/TokenKitTests/Vectors/wycheproof, a few hand-written
JSON edge cases, JWEs from joserfc and jwcrypto (Tests/Interop/jwe_peer.py generate) with the
refused headers beside them, and x5c chains (Tests/Interop/x5c_chains.py generate).
Usage: Fuzz/make-seeds.py (from the repository root; needs `cryptography`, `joserfc`, `jwcrypto`).
"""
import base64, json, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")
VECTORS = os.path.join(ROOT, "Tests", "TokenKitTests", "Vectors", "wycheproof")
# Must match KeyLoadingHarness.pemLabels (first byte 0x80 | index selects the label).
PEM_LABELS = ["PUBLIC KEY", "PRIVATE KEY", "CERTIFICATE", "RSA PUBLIC KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"]


def b64url_decode(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode())


def main():
    shutil.rmtree(CORPUS, ignore_errors=True)
    peer = tempfile.mkdtemp(prefix="tokenkit-seeds-")
    try:
        subprocess.run([sys.executable, os.path.join(ROOT, "Tests", "Interop", "interop.py"), "generate", peer],
                       check=True, stdout=subprocess.DEVNULL)
        cases = json.load(open(os.path.join(peer, "manifest.json")))["cases"]
        seen_alg = set()
        for case in cases:
            # One token (and its forged twin) per JWS algorithm.
            if (case["jwsAlg"], case["valid"]) in seen_alg:
                continue
            seen_alg.add((case["jwsAlg"], case["valid"]))
            name = case["alg"] + ("" if case["valid"] else "-forged")
            write("jws-verify", f"interop-{name}", case["token"])
            header, payload, _ = case["token"].split(".")
            if name in ("HS256", "ES256", "EdDSA-Ed25519"):
                write("json-reader", f"interop-{name}-header", b64url_decode(header))
                write("json-reader", f"interop-{name}-payload", b64url_decode(payload))
        # Keys: every format of a few key types, as text; the PEM ones also as raw DER.
        for file in sorted(os.listdir(peer)):
            kind, _, fmt = file.partition(".")
            if kind not in ("ES256", "RS256", "EdDSA-Ed25519", "EdDSA-Ed448", "ES256K", "HS256"):
                continue
            if fmt == "raw" or (kind == "RS256" and fmt in ("jwks", "x509")):
                continue  # RSA private-key checks are slow under ASan: few RSA seeds
            text = open(os.path.join(peer, file), "rb").read()
            write("key-loading", f"interop-{file}", text)
            match = re.search(rb"-----BEGIN ([A-Z ]+)-----(.*?)-----END", text, re.S)
            if match and match.group(1).decode() in PEM_LABELS:
                der = base64.b64decode(b"".join(match.group(2).split()))
                write("key-loading", f"interop-{file}.der", bytes([0x80 | PEM_LABELS.index(match.group(1).decode())]) + der)
    finally:
        shutil.rmtree(peer, ignore_errors=True)

    # Wycheproof JOSE: every compact JWS (deduplicated), and the keys of each group.
    tokens, keys = [], []
    for vector in ("json_web_signature_test.json", "json_web_key_test.json"):
        document = json.load(open(os.path.join(VECTORS, vector)))
        for group in document["testGroups"]:
            for field in ("private", "public"):
                if isinstance(group.get(field), dict):
                    keys.append(json.dumps(group[field], sort_keys=True))
            for test in group["tests"]:
                if isinstance(test.get("jws"), str) and test["jws"].count(".") == 2 and test["jws"] not in tokens:
                    tokens.append(test["jws"])
    for index, token in enumerate(tokens[:40]):
        write("jws-verify", f"wycheproof-{index:02}", token)
        header = token.split(".")[0]
        try:
            write("json-reader", f"wycheproof-header-{index:02}", b64url_decode(header))
        except ValueError:
            pass
    for index, key in enumerate(list(dict.fromkeys(keys))[:12]):
        write("key-loading", f"wycheproof-jwk-{index:02}", key)
    write("key-loading", "wycheproof-jwks", json.dumps({"keys": [json.loads(k) for k in dict.fromkeys(keys)][:4]}))

    # JSON edge cases the views must agree on.
    edge = {
        "escapes": rb'{"iss":"a\u0041\n","sub":"\ud83d\ude00","aud":["x","y\/z"],"exp":1e3}',
        "escaped-name": rb'{"\u0069ss":"x","exp":1}',
        "non-ascii": '{"iss":"caf\u00e9","n\u00e4me":1,"aud":"\u212aapi"}'.encode(),
        "numbers": rb'{"exp":-0,"nbf":1.5e+300,"iat":123456789012345678901234567890,"x":[0.0,-1E-5,1e400]}',
        "nested": rb'{"a":{"b":{"c":[[[{"d":null}]]]}},"exp":true,"aud":[]}',
        "duplicate": rb'{"exp":1,"exp":2}',
        "duplicate-nested": rb'{"a":{"k":1,"k":2}}',
        "whitespace": b' \t\r\n{ "iss" : "x" , "aud" : [ "a" , 1 ] } \n',
        "many-members": ("{" + ",".join(f'"m{i}":{i}' for i in range(40)) + "}").encode(),
        "not-object": rb'["iss","x"]',
        "trailing": rb'{"iss":"x"} {}',
        "bad-utf8": b'{"iss":"\xc3\x28"}',
        "control": b'{"iss":"a\x01"}',
    }
    for name, data in edge.items():
        write("json-reader", f"edge-{name}", data)
    jwe_and_x5c_seeds()


def b64url_encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def jwe_and_x5c_seeds():
    """Seeds for fuzz-jwe-decrypt (one JWE per library, alg and enc, and each refused header)
    and fuzz-x5c-chain (every x5c scenario's token, and each chain's certificates as DER)."""
    interop = os.path.join(ROOT, "Tests", "Interop")
    peer = tempfile.mkdtemp(prefix="tokenkit-seeds-jwe-")
    try:
        subprocess.run([sys.executable, os.path.join(interop, "jwe_peer.py"), "generate", peer], check=True, stdout=subprocess.DEVNULL)
        seen = set()
        for case in json.load(open(os.path.join(peer, "manifest.json")))["cases"]:
            name = f"{case['lib']}-{case['alg']}-{case['enc']}"
            if name not in seen:
                seen.add(name)
                write("jwe-decrypt", f"interop-{name}", case["token"])
        parts = [b64url_encode(b"\x01" * 24), b64url_encode(b"\x02" * 12), b64url_encode(b"ciphertext"), b64url_encode(b"\x03" * 16)]
        refused = {
            "rsa1_5": {"alg": "RSA1_5", "enc": "A128CBC-HS256"},
            "pbes2": {"alg": "PBES2-HS256+A128KW", "enc": "A128GCM", "p2c": 100000000, "p2s": "AAAAAAAAAAA"},
            "zip": {"alg": "dir", "enc": "A256GCM", "zip": "DEF"},
            "crit": {"alg": "dir", "enc": "A256GCM", "crit": ["exp"], "exp": 1},
            "none": {"alg": "none", "enc": "A256GCM"},
            "a128ctr": {"alg": "dir", "enc": "A128CTR"},
            "epk-x25519": {"alg": "ECDH-ES", "enc": "A128GCM", "epk": {"kty": "OKP", "crv": "X25519", "x": b64url_encode(b"\x09" + b"\x00" * 31)}},
        }
        for name, header in refused.items():
            write("jwe-decrypt", f"refused-{name}", ".".join([b64url_encode(json.dumps(header).encode())] + parts))
    finally:
        shutil.rmtree(peer, ignore_errors=True)
    chains = tempfile.mkdtemp(prefix="tokenkit-seeds-x5c-")
    try:
        subprocess.run([sys.executable, os.path.join(interop, "x5c_chains.py"), "generate", chains], check=True, stdout=subprocess.DEVNULL)
        certificates = set()
        for case in json.load(open(os.path.join(chains, "manifest.json")))["cases"]:
            write("x5c-chain", f"token-{case['name']}", case["token"])
            header = json.loads(b64url_decode(case["token"].split(".")[0]))
            for entry in header.get("x5c", []) if isinstance(header.get("x5c"), list) else []:
                if isinstance(entry, str) and entry not in certificates and len(certificates) < 12:
                    try:
                        der = base64.b64decode(entry, validate=True)
                    except ValueError:
                        continue
                    if der[:1] == b"\x30":
                        certificates.add(entry)
                        write("x5c-chain", f"der-{len(certificates):02}", der)
    finally:
        shutil.rmtree(chains, ignore_errors=True)


if __name__ == "__main__":
    main()
