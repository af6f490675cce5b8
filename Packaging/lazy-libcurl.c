// libcurl, loaded on first use, for the statically linked release `tokenkit`
// (scripts/build-tokenkit-release compiles this file and links it with -Xlinker).
//
// Why: Foundation's URLSession (FoundationNetworking) is built on libcurl. Linked the usual
// way, every `tokenkit` process loads libcurl.so.4 and the thirty-odd libraries it needs
// (GnuTLS, Kerberos, LDAP, SSH, …) at start-up, although only `token`, `login`, `logout` and
// a remote `--jwks`/`--issuer-discovery` make an HTTP request: measured, that loading is
// more than the whole of `openssl dgst`. Here the 23 libcurl functions FoundationNetworking's
// static library calls are defined as forwarders: the first call loads libcurl.so.4 (the
// soname the toolchain's own FoundationNetworking links) with dlopen and looks every one of
// them up; each call then goes to the real function. So a `tokenkit verify` with a local key
// never loads libcurl, and a `tokenkit token` behaves as before.
//
// The forwarders have libcurl's ABI (soname 4, stable since 7.16; curl_url* since 7.62),
// written out here because libcurl's headers are not needed to build TokenKit. The variadic
// setters pass their one argument on with the type libcurl's option number encodes
// (CURLOPTTYPE_LONG 0, OBJECTPOINT 10000, FUNCTIONPOINT 20000, OFF_T 30000, BLOB 40000);
// curl_easy_getinfo's argument is always a pointer.
//
// When libcurl.so.4 cannot be loaded, every forwarder fails the way libcurl reports failure
// (an error code, or NULL), and `tokenkit` asks tokenkit_libcurl_load() before it builds a
// URLSession (Sources/tokenkit/Shared/HTTPTransports.swift), so it stops with one error line
// naming the library instead of handing Foundation a null handle.

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef int curl_code;              // CURLcode, CURLMcode, CURLUcode (enums)
typedef int64_t curl_off;           // curl_off_t
typedef void (*curl_function)(void);

enum {
    CURLE_FAILED_INIT = 2,
    CURLM_INTERNAL_ERROR = 4,
    CURLUE_OUT_OF_MEMORY = 7,
    OPTTYPE_OBJECTPOINT = 10000,
    OPTTYPE_FUNCTIONPOINT = 20000,
    OPTTYPE_OFF_T = 30000,
    OPTTYPE_BLOB = 40000,
};

// The real functions, looked up once.
static struct {
    curl_code (*global_init)(long);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    curl_code (*easy_setopt)(void *, int, ...);
    curl_code (*easy_getinfo)(void *, int, ...);
    curl_code (*easy_pause)(void *, int);
    const char *(*easy_strerror)(curl_code);
    void (*free)(void *);
    void *(*multi_init)(void);
    curl_code (*multi_add_handle)(void *, void *);
    curl_code (*multi_remove_handle)(void *, void *);
    curl_code (*multi_assign)(void *, int, void *);
    curl_code (*multi_cleanup)(void *);
    void *(*multi_info_read)(void *, int *);
    curl_code (*multi_setopt)(void *, int, ...);
    curl_code (*multi_socket_action)(void *, int, int, int *);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
    void *(*url)(void);
    curl_code (*url_get)(const void *, int, char **, unsigned int);
    curl_code (*url_set)(void *, int, const char *, unsigned int);
    char *(*version)(void);
    void *(*version_info)(int);
} real;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;                  // 1 when every function was found
static char load_error[256];

#define LOOK_UP(field, name)                                                            \
    do {                                                                                \
        *(void **)(&real.field) = dlsym(library, name);                                 \
        if (real.field == NULL) {                                                       \
            snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", name);    \
            return;                                                                     \
        }                                                                               \
    } while (0)

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "libcurl.so.4 could not be loaded");
        return;
    }
    LOOK_UP(global_init, "curl_global_init");
    LOOK_UP(easy_init, "curl_easy_init");
    LOOK_UP(easy_cleanup, "curl_easy_cleanup");
    LOOK_UP(easy_setopt, "curl_easy_setopt");
    LOOK_UP(easy_getinfo, "curl_easy_getinfo");
    LOOK_UP(easy_pause, "curl_easy_pause");
    LOOK_UP(easy_strerror, "curl_easy_strerror");
    LOOK_UP(free, "curl_free");
    LOOK_UP(multi_init, "curl_multi_init");
    LOOK_UP(multi_add_handle, "curl_multi_add_handle");
    LOOK_UP(multi_remove_handle, "curl_multi_remove_handle");
    LOOK_UP(multi_assign, "curl_multi_assign");
    LOOK_UP(multi_cleanup, "curl_multi_cleanup");
    LOOK_UP(multi_info_read, "curl_multi_info_read");
    LOOK_UP(multi_setopt, "curl_multi_setopt");
    LOOK_UP(multi_socket_action, "curl_multi_socket_action");
    LOOK_UP(slist_append, "curl_slist_append");
    LOOK_UP(slist_free_all, "curl_slist_free_all");
    LOOK_UP(url, "curl_url");
    LOOK_UP(url_get, "curl_url_get");
    LOOK_UP(url_set, "curl_url_set");
    LOOK_UP(version, "curl_version");
    LOOK_UP(version_info, "curl_version_info");
    loaded = 1;
}

static int ready(void) {
    pthread_once(&load_once, load);
    return loaded;
}

/// Loads libcurl now: 1 when it is usable, else 0 with the reason in *reason (a static,
/// NUL-terminated string). The CLI calls it before building a URLSession.
int tokenkit_libcurl_load(const char **reason) {
    int ok = ready();
    if (!ok && reason != NULL) *reason = load_error;
    return ok;
}

curl_code curl_global_init(long flags) { return ready() ? real.global_init(flags) : CURLE_FAILED_INIT; }
void *curl_easy_init(void) { return ready() ? real.easy_init() : NULL; }
void curl_easy_cleanup(void *handle) { if (ready()) real.easy_cleanup(handle); }
curl_code curl_easy_pause(void *handle, int bitmask) { return ready() ? real.easy_pause(handle, bitmask) : CURLE_FAILED_INIT; }
const char *curl_easy_strerror(curl_code code) { return ready() ? real.easy_strerror(code) : load_error; }
void curl_free(void *pointer) { if (ready()) real.free(pointer); }
void *curl_multi_init(void) { return ready() ? real.multi_init() : NULL; }
curl_code curl_multi_add_handle(void *multi, void *easy) { return ready() ? real.multi_add_handle(multi, easy) : CURLM_INTERNAL_ERROR; }
curl_code curl_multi_remove_handle(void *multi, void *easy) { return ready() ? real.multi_remove_handle(multi, easy) : CURLM_INTERNAL_ERROR; }
curl_code curl_multi_assign(void *multi, int socket, void *pointer) { return ready() ? real.multi_assign(multi, socket, pointer) : CURLM_INTERNAL_ERROR; }
curl_code curl_multi_cleanup(void *multi) { return ready() ? real.multi_cleanup(multi) : CURLM_INTERNAL_ERROR; }
void *curl_multi_info_read(void *multi, int *left) { return ready() ? real.multi_info_read(multi, left) : NULL; }
curl_code curl_multi_socket_action(void *multi, int socket, int events, int *running) {
    return ready() ? real.multi_socket_action(multi, socket, events, running) : CURLM_INTERNAL_ERROR;
}
void *curl_slist_append(void *list, const char *text) { return ready() ? real.slist_append(list, text) : NULL; }
void curl_slist_free_all(void *list) { if (ready()) real.slist_free_all(list); }
void *curl_url(void) { return ready() ? real.url() : NULL; }
curl_code curl_url_get(const void *url, int part, char **text, unsigned int flags) {
    return ready() ? real.url_get(url, part, text, flags) : CURLUE_OUT_OF_MEMORY;
}
curl_code curl_url_set(void *url, int part, const char *text, unsigned int flags) {
    return ready() ? real.url_set(url, part, text, flags) : CURLUE_OUT_OF_MEMORY;
}
char *curl_version(void) { return ready() ? real.version() : load_error; }
void *curl_version_info(int age) { return ready() ? real.version_info(age) : NULL; }

// The setters' one variadic argument, read with the type the option number encodes and
// passed on with that type (the caller has checked ready() and called va_start).
#define FORWARD_OPTION(call, handle, option, arguments)                                  \
    do {                                                                               \
        if ((option) < OPTTYPE_OBJECTPOINT) {                                          \
            long value = va_arg(arguments, long);                                      \
            va_end(arguments);                                                         \
            return call(handle, option, value);                                        \
        } else if ((option) < OPTTYPE_FUNCTIONPOINT || (option) >= OPTTYPE_BLOB) {     \
            void *value = va_arg(arguments, void *);                                   \
            va_end(arguments);                                                         \
            return call(handle, option, value);                                        \
        } else if ((option) < OPTTYPE_OFF_T) {                                         \
            curl_function value = va_arg(arguments, curl_function);                    \
            va_end(arguments);                                                         \
            return call(handle, option, value);                                        \
        } else {                                                                       \
            curl_off value = va_arg(arguments, curl_off);                              \
            va_end(arguments);                                                         \
            return call(handle, option, value);                                        \
        }                                                                              \
    } while (0)

curl_code curl_easy_setopt(void *handle, int option, ...) {
    if (!ready()) return CURLE_FAILED_INIT;
    va_list arguments;
    va_start(arguments, option);
    FORWARD_OPTION(real.easy_setopt, handle, option, arguments);
}

curl_code curl_multi_setopt(void *multi, int option, ...) {
    if (!ready()) return CURLM_INTERNAL_ERROR;
    va_list arguments;
    va_start(arguments, option);
    FORWARD_OPTION(real.multi_setopt, multi, option, arguments);
}

curl_code curl_easy_getinfo(void *handle, int info, ...) {
    if (!ready()) return CURLE_FAILED_INIT;
    va_list arguments;
    va_start(arguments, info);
    void *result = va_arg(arguments, void *);
    va_end(arguments);
    return real.easy_getinfo(handle, info, result);
}
