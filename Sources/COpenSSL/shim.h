#ifndef TOKENKIT_COPENSSL_SHIM_H
#define TOKENKIT_COPENSSL_SHIM_H

// The only C header TokenKit's OpenSSL wrapper (TokenKitCrypto) imports.
// Nothing but the wrapper may import this module.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

// Macros and variadics Swift cannot call directly.
static inline long tokenkit_BIO_get_mem_data(BIO *bio, char **out) {
    return BIO_get_mem_data(bio, out);
}
static inline void tokenkit_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }
static inline int tokenkit_EVP_PKEY_CTX_set_rsa_padding(EVP_PKEY_CTX *ctx, int pad) {
    return EVP_PKEY_CTX_set_rsa_padding(ctx, pad);
}
static inline int tokenkit_EVP_PKEY_CTX_set_rsa_pss_saltlen(EVP_PKEY_CTX *ctx, int len) {
    return EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, len);
}
static inline int tokenkit_EVP_PKEY_CTX_set_rsa_mgf1_md(EVP_PKEY_CTX *ctx, const EVP_MD *md) {
    return EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, md);
}
static inline int tokenkit_EVP_CIPHER_CTX_ctrl(EVP_CIPHER_CTX *ctx, int type, int arg, void *ptr) {
    return EVP_CIPHER_CTX_ctrl(ctx, type, arg, ptr);
}
static inline const int tokenkit_EVP_CTRL_GCM_SET_IVLEN(void) { return EVP_CTRL_GCM_SET_IVLEN; }
static inline const int tokenkit_EVP_CTRL_GCM_GET_TAG(void) { return EVP_CTRL_GCM_GET_TAG; }
static inline const int tokenkit_EVP_CTRL_GCM_SET_TAG(void) { return EVP_CTRL_GCM_SET_TAG; }

static inline int tokenkit_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }
static inline int tokenkit_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline int tokenkit_RSA_PKCS1_PSS_PADDING(void) { return RSA_PKCS1_PSS_PADDING; }
static inline int tokenkit_RSA_PSS_SALTLEN_DIGEST(void) { return RSA_PSS_SALTLEN_DIGEST; }
static inline BIO *tokenkit_BIO_new_mem(void) { return BIO_new(BIO_s_mem()); }
static inline int tokenkit_RSA_PKCS1_OAEP_PADDING(void) { return RSA_PKCS1_OAEP_PADDING; }
static inline int tokenkit_EVP_PKEY_CTX_set_rsa_oaep_md(EVP_PKEY_CTX *ctx, const EVP_MD *md) {
    return EVP_PKEY_CTX_set_rsa_oaep_md(ctx, md);
}

// X.509 chain verification (x5c, issue 28): the STACK_OF(X509) accessors are macros.
static inline STACK_OF(X509) *tokenkit_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int tokenkit_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
static inline int tokenkit_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *tokenkit_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
/// Frees the stack only: the certificates it points to belong to their owners.
static inline void tokenkit_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }
/// Frees the stack and drops one reference to each certificate (for X509_STORE_CTX_get1_chain).
static inline void tokenkit_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }
static inline unsigned long tokenkit_X509_V_FLAG_X509_STRICT(void) { return X509_V_FLAG_X509_STRICT; }
static inline uint32_t tokenkit_KU_DIGITAL_SIGNATURE(void) { return KU_DIGITAL_SIGNATURE; }
static inline uint32_t tokenkit_EXFLAG_KUSAGE(void) { return EXFLAG_KUSAGE; }
static inline unsigned long tokenkit_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

// Lock-free slots for TokenKitCrypto's per-key context pools: take empties a slot,
// put fills an empty one (returns 0 when the slot was occupied).
static inline void *tokenkit_slot_take(void **slot) {
    return __atomic_exchange_n(slot, (void *)0, __ATOMIC_ACQ_REL);
}
static inline void *tokenkit_slot_load(void **slot) {
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}
static inline int tokenkit_slot_put(void **slot, void *value) {
    void *expected = (void *)0;
    return __atomic_compare_exchange_n(slot, &expected, value, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

#endif
