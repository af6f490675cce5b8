#!/usr/bin/env python3
"""Prints an EC key and a genuine JWS ECDSA signature whose s is small.

Usage: ecdsa_small_s.py CURVE ORDER_HEX SIGNING_INPUT

ECDSA verification computes u1 = z/s, u2 = r/s and checks x(u1*G + u2*Q) mod n == r. Choosing
the nonce k first (so r = x(k*G) mod n), then a small s, and solving for the private key
d = (s*k - z) / r mod n gives a key pair for which (r, s) is a valid signature of the input.
With s small, s + n still fits the curve's field width, so a test can present the aliased
signature (r, s + n): a verifier that reduces s modulo n would accept it; TokenKit must not.
(For r the same aliasing is only reachable for P-521, whose field is wider than its order.)

Output: one JSON object with hex strings d, x, y, r, s (each padded to the curve's size).
"""
import hashlib
import json
import secrets
import sys

from cryptography.hazmat.primitives.asymmetric import ec

CURVES = {
    "P-256": (ec.SECP256R1(), hashlib.sha256, 32),
    "P-384": (ec.SECP384R1(), hashlib.sha384, 48),
    "P-521": (ec.SECP521R1(), hashlib.sha512, 66),
    "secp256k1": (ec.SECP256K1(), hashlib.sha256, 32),
}


def main() -> None:
    name, order_hex, signing_input = sys.argv[1], sys.argv[2], sys.argv[3]
    curve, digest, size = CURVES[name]
    n = int(order_hex, 16)
    z = int.from_bytes(digest(signing_input.encode()).digest(), "big")
    excess = digest().digest_size * 8 - n.bit_length()
    if excess > 0:
        z >>= excess
    while True:
        k = 1 + secrets.randbelow(n - 1)
        r = ec.derive_private_key(k, curve).public_key().public_numbers().x % n
        s = 1 + secrets.randbelow(1 << 16)
        if r == 0:
            continue
        d = ((s * k - z) * pow(r, -1, n)) % n
        if d != 0:
            break
    public = ec.derive_private_key(d, curve).public_key().public_numbers()
    print(json.dumps({key: format(value, "0%dx" % (2 * size)) for key, value in
                      {"d": d, "x": public.x, "y": public.y, "r": r, "s": s}.items()}))


if __name__ == "__main__":
    main()
