#ifndef CBENCH_SUPPORT_H
#define CBENCH_SUPPORT_H
#include <stddef.h>
#include <stdint.h>

// ---- Allocation counting (malloc interposition in this executable) ----
/// Number of malloc/calloc/realloc/aligned allocations since the process started
/// (counted only while enabled).
uint64_t cbench_alloc_count(void);
void cbench_alloc_counting(int enabled);

// ---- Raw OpenSSL primitive (no JWT work): the limit ----
enum cbench_alg { CBENCH_HS256 = 0, CBENCH_RS256, CBENCH_PS256, CBENCH_ES256, CBENCH_ES384, CBENCH_EDDSA };
enum cbench_op { CBENCH_SIGN = 0, CBENCH_VERIFY = 1 };

typedef struct cbench_raw cbench_raw;
/// Prepares a raw signer/verifier: `key` is a PEM private key (asymmetric) or the HMAC secret.
cbench_raw *cbench_raw_new(int alg, const uint8_t *key, size_t key_len);
void cbench_raw_free(cbench_raw *raw);
/// One operation over `msg` (the JWS signing input). For VERIFY, the signature made by the
/// first SIGN is checked. Returns 1 on success.
int cbench_raw_run(cbench_raw *raw, int op, const uint8_t *msg, size_t msg_len);

// ---- Raw OpenSSL primitives of issue 28's rows (raw_jose.c) ----
enum cbench_jwe_kind { CBENCH_JWE_ECDH_ES = 0, CBENCH_JWE_RSA_OAEP_256 = 1 };
typedef struct cbench_jwe cbench_jwe;
/// A prepared A256GCM decryption of one JWE's parts: `pem` is the recipient's private key;
/// ECDH-ES takes the epk's P-256 coordinates `x`, `y` (32 bytes each) and the Concat KDF's
/// OtherInfo, RSA-OAEP-256 the encrypted key `ek`. `aad` is the protected header's base64url.
cbench_jwe *cbench_jwe_new(int kind, const uint8_t *pem, size_t pem_len, const uint8_t *x, const uint8_t *y,
                           const uint8_t *otherinfo, size_t otherinfo_len, const uint8_t *ek, size_t ek_len,
                           const uint8_t *iv, const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t ct_len, const uint8_t *tag);
void cbench_jwe_free(cbench_jwe *r);
/// One decryption; 1 when the content authenticates.
int cbench_jwe_run(cbench_jwe *r);

typedef struct cbench_x5c cbench_x5c;
/// A prepared x5c check: a store trusting `root`; per run, `leaf` and `inter` (DER) are parsed,
/// the path verified at `time`, and the DER ECDSA signature `der_sig` over `input` verified.
cbench_x5c *cbench_x5c_new(const uint8_t *root, size_t root_len, const uint8_t *inter, size_t inter_len,
                           const uint8_t *leaf, size_t leaf_len, const uint8_t *input, size_t input_len,
                           const uint8_t *der_sig, size_t sig_len, long long time);
void cbench_x5c_free(cbench_x5c *r);
int cbench_x5c_run(cbench_x5c *r);
/// A fresh root -> intermediate -> leaf chain of P-256 keys valid around `now` (DER each, in
/// buffers whose capacities the length arguments give), and the leaf's private key as PEM.
int cbench_make_es256_chain(long long now, uint8_t *root, size_t *root_len, uint8_t *inter, size_t *inter_len,
                            uint8_t *leaf, size_t *leaf_len, uint8_t *leaf_pem, size_t *leaf_pem_len);
#endif
