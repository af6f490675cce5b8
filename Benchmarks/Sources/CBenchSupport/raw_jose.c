// The raw OpenSSL primitives under issue 28's rows, with everything that can be prepared once
// prepared once, no base64 and no JSON:
// - ECDH-ES + A256GCM decrypt: the peer key from its coordinates (on a copy of the recipient's
//   group, EVP_PKEY_set1_encoded_public_key, which puts the point on the curve), EVP_PKEY_derive, the Concat KDF as one SHA-256, AES-256-GCM
//   open on a reused context;
// - RSA-OAEP-256 + A256GCM decrypt: EVP_PKEY_decrypt on a prepared context, AES-256-GCM open;
// - x5c: parse leaf and intermediate (d2i_X509), X509_verify_cert against a prepared store at a
//   fixed time, then the JWS's ECDSA verify with the leaf's key (EVP_DigestVerify).
// Also the benchmark's 3-level ES256 chain, made here with OpenSSL (no Python needed).
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/rsa.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include "CBenchSupport.h"

#define CB_MAX 4096

struct cbench_jwe {
    int kind;
    EVP_PKEY *key;
    EVP_PKEY_CTX *rsa_ctx;
    EVP_CIPHER *gcm;
    EVP_CIPHER_CTX *cctx;
    EVP_MD *sha256;
    unsigned char x[32], y[32], ek[1024], iv[12], tag[16], aad[CB_MAX], ct[CB_MAX], otherinfo[256], out[CB_MAX];
    size_t ek_len, aad_len, ct_len, otherinfo_len;
};

static EVP_PKEY *read_private(const uint8_t *pem, size_t len) {
    BIO *bio = BIO_new_mem_buf(pem, (int)len);
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    BIO_free(bio);
    return key;
}

cbench_jwe *cbench_jwe_new(int kind, const uint8_t *pem, size_t pem_len, const uint8_t *x, const uint8_t *y,
                           const uint8_t *otherinfo, size_t otherinfo_len, const uint8_t *ek, size_t ek_len,
                           const uint8_t *iv, const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t ct_len, const uint8_t *tag) {
    if (aad_len > CB_MAX || ct_len > CB_MAX || ek_len > 1024 || otherinfo_len > 256) return NULL;
    cbench_jwe *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->kind = kind;
    r->key = read_private(pem, pem_len);
    r->gcm = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    r->cctx = EVP_CIPHER_CTX_new();
    r->sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (!r->key || !r->gcm || !r->cctx || !r->sha256) { cbench_jwe_free(r); return NULL; }
    if (kind == CBENCH_JWE_RSA_OAEP_256) {
        r->rsa_ctx = EVP_PKEY_CTX_new_from_pkey(NULL, r->key, NULL);
        if (!r->rsa_ctx || EVP_PKEY_decrypt_init(r->rsa_ctx) != 1 ||
            EVP_PKEY_CTX_set_rsa_padding(r->rsa_ctx, RSA_PKCS1_OAEP_PADDING) != 1 ||
            EVP_PKEY_CTX_set_rsa_oaep_md(r->rsa_ctx, r->sha256) != 1 || EVP_PKEY_CTX_set_rsa_mgf1_md(r->rsa_ctx, r->sha256) != 1) {
            cbench_jwe_free(r);
            return NULL;
        }
    }
    if (x) memcpy(r->x, x, 32);
    if (y) memcpy(r->y, y, 32);
    memcpy(r->otherinfo, otherinfo, otherinfo_len); r->otherinfo_len = otherinfo_len;
    memcpy(r->ek, ek, ek_len); r->ek_len = ek_len;
    memcpy(r->iv, iv, 12);
    memcpy(r->aad, aad, aad_len); r->aad_len = aad_len;
    memcpy(r->ct, ct, ct_len); r->ct_len = ct_len;
    memcpy(r->tag, tag, 16);
    return r;
}

void cbench_jwe_free(cbench_jwe *r) {
    if (!r) return;
    EVP_PKEY_free(r->key);
    EVP_PKEY_CTX_free(r->rsa_ctx);
    EVP_CIPHER_free(r->gcm);
    EVP_CIPHER_CTX_free(r->cctx);
    EVP_MD_free(r->sha256);
    free(r);
}

/// The peer key from its coordinates (P-256), on a copy of the recipient key's group (the
/// cheapest way OpenSSL 3 offers, and the one TokenKit uses; EVP_PKEY_fromdata would build
/// the group from its name, about half an ECDH more). OpenSSL checks the point is on the
/// curve as it decodes it.
static EVP_PKEY *p256_public(const EVP_PKEY *group_of, const unsigned char *x, const unsigned char *y) {
    unsigned char point[65];
    point[0] = 4;
    memcpy(point + 1, x, 32);
    memcpy(point + 33, y, 32);
    EVP_PKEY *peer = EVP_PKEY_new();
    if (peer && EVP_PKEY_copy_parameters(peer, group_of) == 1 && EVP_PKEY_set1_encoded_public_key(peer, point, sizeof point) == 1) return peer;
    EVP_PKEY_free(peer);
    return NULL;
}

static int gcm_open(cbench_jwe *r, const unsigned char *cek) {
    int len = 0, fin = 0;
    if (EVP_DecryptInit_ex2(r->cctx, r->gcm, cek, r->iv, NULL) != 1) return 0;
    if (EVP_DecryptUpdate(r->cctx, NULL, &len, r->aad, (int)r->aad_len) != 1) return 0;
    if (EVP_DecryptUpdate(r->cctx, r->out, &len, r->ct, (int)r->ct_len) != 1) return 0;
    if (EVP_CIPHER_CTX_ctrl(r->cctx, EVP_CTRL_GCM_SET_TAG, 16, r->tag) != 1) return 0;
    return EVP_DecryptFinal_ex(r->cctx, r->out + len, &fin) == 1;
}

int cbench_jwe_run(cbench_jwe *r) {
    // OpenSSL's RSA decryption wants room for a whole modulus, whatever the plaintext's size.
    unsigned char cek[1024];
    if (r->kind == CBENCH_JWE_RSA_OAEP_256) {
        size_t cek_len = sizeof cek;
        if (EVP_PKEY_decrypt(r->rsa_ctx, cek, &cek_len, r->ek, r->ek_len) != 1 || cek_len != 32) return 0;
        return gcm_open(r, cek);
    }
    EVP_PKEY *peer = p256_public(r->key, r->x, r->y);
    if (!peer) return 0;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, r->key, NULL);
    unsigned char z[32], kdf_input[4 + 32 + 256], digest[32];
    size_t z_len = sizeof z;
    int ok = ctx && EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_derive_set_peer_ex(ctx, peer, 0) == 1 &&
             EVP_PKEY_derive(ctx, z, &z_len) == 1 && z_len == 32;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    if (!ok) return 0;
    kdf_input[0] = 0; kdf_input[1] = 0; kdf_input[2] = 0; kdf_input[3] = 1;
    memcpy(kdf_input + 4, z, 32);
    memcpy(kdf_input + 36, r->otherinfo, r->otherinfo_len);
    if (EVP_Digest(kdf_input, 36 + r->otherinfo_len, digest, NULL, r->sha256, NULL) != 1) return 0;
    return gcm_open(r, digest);
}

// ---- x5c ----

struct cbench_x5c {
    X509_STORE *store;
    EVP_MD *sha256;
    unsigned char leaf[CB_MAX], inter[CB_MAX], input[CB_MAX], sig[256];
    size_t leaf_len, inter_len, input_len, sig_len;
    long long time;
};

cbench_x5c *cbench_x5c_new(const uint8_t *root, size_t root_len, const uint8_t *inter, size_t inter_len,
                           const uint8_t *leaf, size_t leaf_len, const uint8_t *input, size_t input_len,
                           const uint8_t *der_sig, size_t sig_len, long long time) {
    if (inter_len > CB_MAX || leaf_len > CB_MAX || input_len > CB_MAX || sig_len > 256) return NULL;
    cbench_x5c *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    const unsigned char *p = root;
    X509 *root_cert = d2i_X509(NULL, &p, (long)root_len);
    r->store = X509_STORE_new();
    r->sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (!root_cert || !r->store || X509_STORE_add_cert(r->store, root_cert) != 1) { X509_free(root_cert); cbench_x5c_free(r); return NULL; }
    X509_free(root_cert);
    memcpy(r->leaf, leaf, leaf_len); r->leaf_len = leaf_len;
    memcpy(r->inter, inter, inter_len); r->inter_len = inter_len;
    memcpy(r->input, input, input_len); r->input_len = input_len;
    memcpy(r->sig, der_sig, sig_len); r->sig_len = sig_len;
    r->time = time;
    return r;
}

void cbench_x5c_free(cbench_x5c *r) {
    if (!r) return;
    X509_STORE_free(r->store);
    EVP_MD_free(r->sha256);
    free(r);
}

int cbench_x5c_run(cbench_x5c *r) {
    const unsigned char *p = r->leaf;
    X509 *leaf = d2i_X509(NULL, &p, (long)r->leaf_len);
    p = r->inter;
    X509 *inter = d2i_X509(NULL, &p, (long)r->inter_len);
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    int ok = leaf && inter && untrusted && ctx && sk_X509_push(untrusted, inter) > 0 &&
             X509_STORE_CTX_init(ctx, r->store, leaf, untrusted) == 1;
    if (ok) {
        X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(ctx);
        X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_X509_STRICT);
        X509_VERIFY_PARAM_set_time(param, (time_t)r->time);
        X509_VERIFY_PARAM_set_auth_level(param, 2);
        ok = X509_verify_cert(ctx) == 1;
    }
    if (ok) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        ok = md && EVP_DigestVerifyInit_ex(md, NULL, "SHA256", NULL, NULL, X509_get0_pubkey(leaf), NULL) == 1 &&
             EVP_DigestVerify(md, r->sig, r->sig_len, r->input, r->input_len) == 1;
        EVP_MD_CTX_free(md);
    }
    X509_STORE_CTX_free(ctx);
    sk_X509_free(untrusted);
    X509_free(inter);
    X509_free(leaf);
    return ok;
}

// ---- the benchmark's chain ----

static int add_ext(X509 *cert, X509 *issuer, int nid, const char *value) {
    X509V3_CTX v3;
    X509V3_set_ctx(&v3, issuer, cert, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &v3, nid, value);
    int ok = ext && X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

static X509 *make_cert(const char *cn, EVP_PKEY *key, X509 *issuer, EVP_PKEY *issuer_key, int ca, long long now, long serial) {
    X509 *cert = X509_new();
    if (!cert) return NULL;
    X509_NAME *name = X509_NAME_new();
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
    int ok = X509_set_version(cert, 2) == 1 && ASN1_INTEGER_set(X509_get_serialNumber(cert), serial) == 1 &&
             X509_set_subject_name(cert, name) == 1 && X509_set_issuer_name(cert, issuer ? X509_get_subject_name(issuer) : name) == 1 &&
             X509_time_adj_ex(X509_getm_notBefore(cert), -1, 0, (time_t *)&now) != NULL &&
             X509_time_adj_ex(X509_getm_notAfter(cert), 365, 0, (time_t *)&now) != NULL && X509_set_pubkey(cert, key) == 1;
    X509_NAME_free(name);
    X509 *signer = issuer ? issuer : cert;
    ok = ok && add_ext(cert, signer, NID_basic_constraints, ca ? "critical,CA:TRUE" : "critical,CA:FALSE") &&
         add_ext(cert, signer, NID_key_usage, ca ? "critical,keyCertSign,cRLSign,digitalSignature" : "critical,digitalSignature") &&
         add_ext(cert, signer, NID_subject_key_identifier, "hash") &&
         (issuer == NULL || add_ext(cert, signer, NID_authority_key_identifier, "keyid:always")) &&
         X509_sign(cert, issuer_key ? issuer_key : key, EVP_sha256()) > 0;
    if (!ok) { X509_free(cert); return NULL; }
    return cert;
}

static size_t to_der(X509 *cert, uint8_t *out, size_t cap) {
    int len = i2d_X509(cert, NULL);
    if (len <= 0 || (size_t)len > cap) return 0;
    unsigned char *p = out;
    return i2d_X509(cert, &p) == len ? (size_t)len : 0;
}

int cbench_make_es256_chain(long long now, uint8_t *root, size_t *root_len, uint8_t *inter, size_t *inter_len,
                            uint8_t *leaf, size_t *leaf_len, uint8_t *leaf_pem, size_t *leaf_pem_len) {
    EVP_PKEY *keys[3] = { EVP_EC_gen("P-256"), EVP_EC_gen("P-256"), EVP_EC_gen("P-256") };
    X509 *root_cert = NULL, *inter_cert = NULL, *leaf_cert = NULL;
    int ok = keys[0] && keys[1] && keys[2];
    if (ok) root_cert = make_cert("Bench Root", keys[0], NULL, NULL, 1, now, 1);
    if (root_cert) inter_cert = make_cert("Bench Intermediate", keys[1], root_cert, keys[0], 1, now, 2);
    if (inter_cert) leaf_cert = make_cert("Bench Leaf", keys[2], inter_cert, keys[1], 0, now, 3);
    ok = leaf_cert && (*root_len = to_der(root_cert, root, *root_len)) && (*inter_len = to_der(inter_cert, inter, *inter_len)) &&
         (*leaf_len = to_der(leaf_cert, leaf, *leaf_len));
    if (ok) {
        BIO *bio = BIO_new(BIO_s_mem());
        char *data = NULL;
        long n = 0;
        ok = bio && PEM_write_bio_PrivateKey(bio, keys[2], NULL, NULL, 0, NULL, NULL) == 1 && (n = BIO_get_mem_data(bio, &data)) > 0 &&
             (size_t)n <= *leaf_pem_len;
        if (ok) { memcpy(leaf_pem, data, (size_t)n); *leaf_pem_len = (size_t)n; }
        BIO_free(bio);
    }
    X509_free(root_cert); X509_free(inter_cert); X509_free(leaf_cert);
    for (int i = 0; i < 3; i++) EVP_PKEY_free(keys[i]);
    return ok;
}
