// libsecret (and the GLib, GObject and GIO it needs), loaded on first use, for the statically
// linked release `tokenkit` (scripts/build-tokenkit-release compiles this file and links it
// with -Xlinker; every other build links libsecret the ordinary way and never sees it).
//
// Why: linked the usual way, every `tokenkit` process maps libsecret-1, libgio-2.0,
// libgobject-2.0 and libglib-2.0 (and what they need: libmount, libselinux, libffi, pcre2, …),
// relocates them and runs their constructors at start-up, although only the keyring backend
// calls them: measured (Benchmarks/README, start-up), about 4 ms of a `tokenkit verify` that
// never touches a keyring, more than half of what `openssl dgst` costs in all. Here every
// GLib/libsecret function TokenKitSecretService calls is defined as a forwarder: the first
// call to tokenkit_libsecret_load() dlopens libsecret-1.so.0 (which brings the others) and
// looks every one of them up; each forwarder then calls the real function.
//
// The one gate: SecretServiceProbe (which every Secret Service operation runs first) calls
// tokenkit_libsecret_ready() (Sources/CLibSecret/shim.h) before anything of GLib, and reports
// "libsecret cannot be loaded (REASON)" as an unavailable Secret Service when it says 0. So a
// forwarder is never called before the load succeeded; if one were, it returns the value its
// function uses for failure (NULL, 0, FALSE) and does nothing.
//
// The forwarders are hidden (compiled with -fvisibility=hidden): the binary exports its
// symbols for the Swift runtime, and exported g_* definitions would be taken by GLib's own
// internal calls while dlopen runs GLib's constructors, before the lookup has finished.
// The prototypes come from libsecret's and GLib's headers, so a forwarder that does not match
// its function does not compile; a function TokenKitSecretService starts to call without a
// forwarder here fails the release link (the empty libsecret-1.a, libgio-2.0.a, … the build
// script makes answer the -l flags, and define nothing).

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <libsecret/secret.h>

#define SONAME "libsecret-1.so.0"

// Every forwarded function: FORWARD(return type, name, (parameters), (arguments), on failure)
// and FORWARD_VOID(name, (parameters), (arguments)).
#define FUNCTIONS                                                                                          \
    FORWARD_VOID(g_cancellable_cancel, (GCancellable *c), (c))                                             \
    FORWARD(gboolean, g_cancellable_is_cancelled, (GCancellable *c), (c), FALSE)                           \
    FORWARD(GCancellable *, g_cancellable_new, (void), (), NULL)                                           \
    FORWARD(GVariant *, g_dbus_connection_call_sync,                                                       \
            (GDBusConnection *c, const gchar *bus, const gchar *path, const gchar *interface,              \
             const gchar *method, GVariant *parameters, const GVariantType *reply_type,                    \
             GDBusCallFlags flags, gint timeout, GCancellable *cancellable, GError **error),               \
            (c, bus, path, interface, method, parameters, reply_type, flags, timeout, cancellable, error), \
            NULL)                                                                                          \
    FORWARD(gboolean, g_dbus_connection_close_sync, (GDBusConnection *c, GCancellable *k, GError **e),     \
            (c, k, e), FALSE)                                                                              \
    FORWARD(GDBusConnection *, g_dbus_connection_new_for_address_sync,                                     \
            (const gchar *a, GDBusConnectionFlags f, GDBusAuthObserver *o, GCancellable *k, GError **e),   \
            (a, f, o, k, e), NULL)                                                                         \
    FORWARD(gchar *, g_dbus_error_get_remote_error, (const GError *e), (e), NULL)                          \
    FORWARD(GQuark, g_dbus_error_quark, (void), (), 0)                                                     \
    FORWARD_VOID(g_error_free, (GError *e), (e))                                                           \
    FORWARD_VOID(g_free, (gpointer p), (p))                                                                \
    FORWARD(gpointer, g_hash_table_lookup, (GHashTable *t, gconstpointer k), (t, k), NULL)                 \
    FORWARD(GHashTable *, g_hash_table_new_full,                                                           \
            (GHashFunc h, GEqualFunc q, GDestroyNotify k, GDestroyNotify v), (h, q, k, v), NULL)           \
    FORWARD(gboolean, g_hash_table_replace, (GHashTable *t, gpointer k, gpointer v), (t, k, v), FALSE)     \
    FORWARD_VOID(g_hash_table_unref, (GHashTable *t), (t))                                                 \
    FORWARD(GQuark, g_io_error_quark, (void), (), 0)                                                       \
    FORWARD_VOID(g_list_free, (GList *l), (l))                                                             \
    FORWARD_VOID(g_list_free_full, (GList *l, GDestroyNotify f), (l, f))                                   \
    FORWARD(GList *, g_list_prepend, (GList *l, gpointer d), (l, d), NULL)                                 \
    FORWARD(gpointer, g_object_ref, (gpointer o), (o), NULL)                                               \
    FORWARD_VOID(g_object_unref, (gpointer o), (o))                                                        \
    FORWARD(gboolean, g_str_equal, (gconstpointer a, gconstpointer b), (a, b), FALSE)                      \
    FORWARD(guint, g_str_hash, (gconstpointer a), (a), 0)                                                  \
    FORWARD(int, g_strcmp0, (const char *a, const char *b), (a, b), 0)                                     \
    FORWARD(gchar *, g_strdup, (const gchar *s), (s), NULL)                                                \
    FORWARD(const GVariantType *, g_variant_type_checked_, (const gchar *s), (s), NULL)                    \
    FORWARD_VOID(g_variant_unref, (GVariant *v), (v))                                                      \
    FORWARD(GVariant *, g_variant_new_string, (const gchar *s), (s), NULL)                                 \
    FORWARD(GVariant *, g_variant_new_tuple, (GVariant *const *c, gsize n), (c, n), NULL)                  \
    FORWARD(GVariant *, g_variant_get_child_value, (GVariant *v, gsize i), (v, i), NULL)                   \
    FORWARD(gboolean, g_variant_get_boolean, (GVariant *v), (v), FALSE)                                    \
    FORWARD(gsize, g_variant_n_children, (GVariant *v), (v), 0)                                            \
    FORWARD(const gchar *, g_variant_get_string, (GVariant *v, gsize *n), (v, n), NULL)                    \
    FORWARD(SecretCollection *, secret_collection_create_sync,                                             \
            (SecretService *s, const gchar *label, const gchar *alias, SecretCollectionCreateFlags f,      \
             GCancellable *k, GError **e),                                                                 \
            (s, label, alias, f, k, e), NULL)                                                              \
    FORWARD(SecretCollection *, secret_collection_for_alias_sync,                                          \
            (SecretService *s, const gchar *alias, SecretCollectionFlags f, GCancellable *k, GError **e),  \
            (s, alias, f, k, e), NULL)                                                                     \
    FORWARD(gboolean, secret_collection_get_locked, (SecretCollection *c), (c), FALSE)                     \
    FORWARD(GList *, secret_collection_search_sync,                                                        \
            (SecretCollection *c, const SecretSchema *schema, GHashTable *a, SecretSearchFlags f,          \
             GCancellable *k, GError **e),                                                                 \
            (c, schema, a, f, k, e), NULL)                                                                 \
    FORWARD(GQuark, secret_error_get_quark, (void), (), 0)                                                 \
    FORWARD(SecretItem *, secret_item_create_sync,                                                         \
            (SecretCollection *c, const SecretSchema *schema, GHashTable *a, const gchar *label,           \
             SecretValue *v, SecretItemCreateFlags f, GCancellable *k, GError **e),                        \
            (c, schema, a, label, v, f, k, e), NULL)                                                       \
    FORWARD(gboolean, secret_item_delete_sync, (SecretItem *i, GCancellable *k, GError **e), (i, k, e),    \
            FALSE)                                                                                         \
    FORWARD(GHashTable *, secret_item_get_attributes, (SecretItem *i), (i), NULL)                          \
    FORWARD(gboolean, secret_item_get_locked, (SecretItem *i), (i), FALSE)                                 \
    FORWARD(SecretValue *, secret_item_get_secret, (SecretItem *i), (i), NULL)                             \
    FORWARD(gboolean, secret_item_load_secrets_sync, (GList *l, GCancellable *k, GError **e), (l, k, e),   \
            FALSE)                                                                                         \
    FORWARD(GType, secret_service_get_type, (void), (), 0)                                                 \
    FORWARD(SecretService *, secret_service_open_sync,                                                     \
            (GType t, const gchar *bus, SecretServiceFlags f, GCancellable *k, GError **e),                \
            (t, bus, f, k, e), NULL)                                                                       \
    FORWARD(gint, secret_service_unlock_sync,                                                              \
            (SecretService *s, GList *o, GCancellable *k, GList **u, GError **e), (s, o, k, u, e), 0)      \
    FORWARD(const gchar *, secret_value_get, (SecretValue *v, gsize *n), (v, n), NULL)                     \
    FORWARD(SecretValue *, secret_value_new, (const gchar *s, gssize n, const gchar *t), (s, n, t), NULL)  \
    FORWARD_VOID(secret_value_unref, (gpointer v), (v))

// The real functions, looked up once.
#define FORWARD(type, name, parameters, arguments, failure) type(*name) parameters;
#define FORWARD_VOID(name, parameters, arguments) void(*name) parameters;
static struct {
    FUNCTIONS
} real;
#undef FORWARD
#undef FORWARD_VOID

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;  // 1 when every function was found (written once, release; read acquire)
static char load_error[256];

static void load(void) {
    void *library = dlopen(SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : SONAME " could not be loaded");
        return;
    }
#define LOOK_UP(name)                                                                       \
    *(void **)(&real.name) = dlsym(library, #name);                                         \
    if (real.name == NULL) {                                                                \
        snprintf(load_error, sizeof load_error, SONAME " (or what it loads) has no %s", #name); \
        return;                                                                             \
    }
#define FORWARD(type, name, parameters, arguments, failure) LOOK_UP(name)
#define FORWARD_VOID(name, parameters, arguments) LOOK_UP(name)
    FUNCTIONS
#undef FORWARD
#undef FORWARD_VOID
#undef LOOK_UP
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

/// Loads libsecret now (once per process): 1 when every function is usable, else 0 with the
/// reason in *reason (a static NUL-terminated string). Exported: the library's weak reference
/// (Sources/CLibSecret/shim.h) must find it.
__attribute__((visibility("default"))) int tokenkit_libsecret_load(const char **reason) {
    pthread_once(&load_once, load);
    int ok = __atomic_load_n(&loaded, __ATOMIC_ACQUIRE);
    if (!ok && reason != NULL) *reason = load_error;
    return ok;
}

// The forwarders (names in parentheses: GLib defines g_object_ref and g_str_equal as macros
// too). They read `loaded` without the once: a forwarder called before the gate
// said 1 must fail, not load (or wait inside GLib's constructors).
#define FORWARD(type, name, parameters, arguments, failure) \
    type(name) parameters { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE) ? (real.name) arguments : (failure); }
#define FORWARD_VOID(name, parameters, arguments)                   \
    void(name) parameters {                                         \
        if (__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) (real.name) arguments; \
    }
FUNCTIONS
#undef FORWARD
#undef FORWARD_VOID
