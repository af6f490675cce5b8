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

#endif
