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
#endif
