// The raw OpenSSL primitive for each JWS algorithm, with everything that can be prepared
// once prepared once: the parsed key, the fetched digest, and (for HMAC and the prehashed
// algorithms) an initialised context, re-initialised per operation. Per operation: hash the signing input and sign or
// verify the digest (EVP_PKEY_sign/verify on a reused EVP_PKEY_CTX), or for EdDSA one
// EVP_DigestSign/Verify (Ed25519 has no prehash form), or for HMAC one EVP_MAC over the
// message. No base64, no JSON, no signature-format conversion.
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/rsa.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "CBenchSupport.h"

struct cbench_raw {
    int alg;
    EVP_PKEY *pkey;
    EVP_MD *md;
    EVP_PKEY_CTX *sign_ctx, *verify_ctx;
    EVP_MD_CTX *mdctx;       // EdDSA
    EVP_MAC *mac;
    EVP_MAC_CTX *mac_template;
    unsigned char sig[1024];
    size_t sig_len;
};

static int setup_pkey_ctx(cbench_raw *r, EVP_PKEY_CTX *ctx) {
    if (EVP_PKEY_CTX_set_signature_md(ctx, r->md) != 1) return 0;
    if (r->alg == CBENCH_PS256) {
        if (EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) != 1) return 0;
        if (EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, RSA_PSS_SALTLEN_DIGEST) != 1) return 0;
        if (EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, r->md) != 1) return 0;
    } else if (r->alg == CBENCH_RS256) {
        if (EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) != 1) return 0;
    }
    return 1;
}

cbench_raw *cbench_raw_new(int alg, const uint8_t *key, size_t key_len) {
    cbench_raw *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->alg = alg;
    r->md = EVP_MD_fetch(NULL, alg == CBENCH_ES384 ? "SHA384" : "SHA256", NULL);
    if (alg == CBENCH_HS256) {
        r->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
        r->mac_template = EVP_MAC_CTX_new(r->mac);
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0),
            OSSL_PARAM_construct_end(),
        };
        if (EVP_MAC_init(r->mac_template, key, key_len, params) != 1) goto fail;
        return r;
    }
    BIO *bio = BIO_new_mem_buf(key, (int)key_len);
    r->pkey = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (!r->pkey) goto fail;
    if (alg == CBENCH_EDDSA) {
        r->mdctx = EVP_MD_CTX_new();
        return r;
    }
    r->sign_ctx = EVP_PKEY_CTX_new_from_pkey(NULL, r->pkey, NULL);
    r->verify_ctx = EVP_PKEY_CTX_new_from_pkey(NULL, r->pkey, NULL);
    if (EVP_PKEY_sign_init(r->sign_ctx) != 1 || !setup_pkey_ctx(r, r->sign_ctx)) goto fail;
    if (EVP_PKEY_verify_init(r->verify_ctx) != 1 || !setup_pkey_ctx(r, r->verify_ctx)) goto fail;
    return r;
fail:
    cbench_raw_free(r);
    return NULL;
}

void cbench_raw_free(cbench_raw *r) {
    if (!r) return;
    EVP_PKEY_CTX_free(r->sign_ctx);
    EVP_PKEY_CTX_free(r->verify_ctx);
    EVP_MD_CTX_free(r->mdctx);
    EVP_MAC_CTX_free(r->mac_template);
    EVP_MAC_free(r->mac);
    EVP_MD_free(r->md);
    EVP_PKEY_free(r->pkey);
    free(r);
}

int cbench_raw_run(cbench_raw *r, int op, const uint8_t *msg, size_t msg_len) {
    if (r->alg == CBENCH_HS256) {
        // Re-initialising with no key restarts from the stored key schedule (no allocation).
        EVP_MAC_CTX *ctx = r->mac_template;
        unsigned char out[64];
        size_t out_len = 0;
        int ok = EVP_MAC_init(ctx, NULL, 0, NULL) == 1 && EVP_MAC_update(ctx, msg, msg_len) == 1
            && EVP_MAC_final(ctx, out, &out_len, sizeof out) == 1;
        if (!ok) return 0;
        if (op == CBENCH_SIGN) { memcpy(r->sig, out, out_len); r->sig_len = out_len; return 1; }
        return out_len == r->sig_len && CRYPTO_memcmp(out, r->sig, out_len) == 0;
    }
    if (r->alg == CBENCH_EDDSA) {
        if (op == CBENCH_SIGN) {
            size_t len = sizeof r->sig;
            if (EVP_DigestSignInit_ex(r->mdctx, NULL, NULL, NULL, NULL, r->pkey, NULL) != 1) return 0;
            if (EVP_DigestSign(r->mdctx, r->sig, &len, msg, msg_len) != 1) return 0;
            r->sig_len = len;
            return 1;
        }
        if (EVP_DigestVerifyInit_ex(r->mdctx, NULL, NULL, NULL, NULL, r->pkey, NULL) != 1) return 0;
        return EVP_DigestVerify(r->mdctx, r->sig, r->sig_len, msg, msg_len) == 1;
    }
    unsigned char digest[64];
    unsigned int digest_len = 0;
    if (EVP_Digest(msg, msg_len, digest, &digest_len, r->md, NULL) != 1) return 0;
    if (op == CBENCH_SIGN) {
        size_t len = sizeof r->sig;
        if (EVP_PKEY_sign(r->sign_ctx, r->sig, &len, digest, digest_len) != 1) return 0;
        r->sig_len = len;
        return 1;
    }
    return EVP_PKEY_verify(r->verify_ctx, r->sig, r->sig_len, digest, digest_len) == 1;
}
