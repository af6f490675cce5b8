#ifndef TOKENKIT_CLIBSECRET_SHIM_H
#define TOKENKIT_CLIBSECRET_SHIM_H
// The only C header TokenKitSecretService imports. Nothing else may import this module.
#include <libsecret/secret.h>

// TokenKit's own schema. Attributes are never secret: the names, the kind, the secret's size,
// timestamps (Unix seconds) and, for token sets, the access token's expiry.
static inline const SecretSchema *tokenkit_credential_schema(void) {
    static const SecretSchema schema = {
        "dev.tokenkit.Credential", SECRET_SCHEMA_NONE,
        {
            { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "account", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "size", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "created", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "updated", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "expires", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        },
        0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    };
    return &schema;
}

// A string-to-string hash table that owns (g_free) its keys and values.
static inline GHashTable *tokenkit_attributes_new(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}
static inline void tokenkit_attributes_set(GHashTable *table, const char *key, const char *value) {
    g_hash_table_replace(table, g_strdup(key), g_strdup(value));
}
static inline const char *tokenkit_attributes_get(GHashTable *table, const char *key) {
    return (const char *)g_hash_table_lookup(table, key);
}

// Frees a list of owned GObjects (e.g. the items a search returned).
static inline void tokenkit_object_list_free(GList *list) { g_list_free_full(list, g_object_unref); }

static inline GType tokenkit_secret_service_type(void) { return SECRET_TYPE_SERVICE; }
static inline GQuark tokenkit_io_error_quark(void) { return G_IO_ERROR; }
static inline GQuark tokenkit_dbus_error_quark(void) { return G_DBUS_ERROR; }
static inline GQuark tokenkit_secret_error_quark(void) { return SECRET_ERROR; }

// Asks the service to unlock objects (a collection, or items: a collection's Unlock and
// KeePassXC's access confirmation are the same Unlock / Prompt exchange; may show a prompt).
// Returns how many were unlocked (fewer than `count` when the user dismissed the prompt), or
// -1 with *error set.
static inline gint tokenkit_unlock_objects(SecretService *service, gpointer *objects, guint count,
                                           GCancellable *cancellable, GError **error) {
    GList *list = NULL;
    for (guint i = 0; i < count; i++) list = g_list_prepend(list, objects[i]);
    GList *unlocked = NULL;
    gint done = secret_service_unlock_sync(service, list, cancellable, &unlocked, error);
    g_list_free(list);
    g_list_free_full(unlocked, g_object_unref);
    return done;
}

// Loads the secrets of items (borrowed) in one round trip. Returns 1, or 0 with *error set.
static inline gint tokenkit_load_secrets(gpointer *items, guint count, GCancellable *cancellable, GError **error) {
    GList *list = NULL;
    for (guint i = 0; i < count; i++) list = g_list_prepend(list, items[i]);
    gboolean ok = secret_item_load_secrets_sync(list, cancellable, error);
    g_list_free(list);
    return ok ? 1 : 0;
}

// Creates a collection with the given alias (e.g. "default"); the service may prompt for its
// password. Returns the new collection (transfer full), or NULL with *error set.
static inline SecretCollection *tokenkit_create_collection(SecretService *service, const char *label, const char *alias,
                                                           GCancellable *cancellable, GError **error) {
    return secret_collection_create_sync(service, label, alias, SECRET_COLLECTION_CREATE_NONE, cancellable, error);
}

// Says Hello to the bus daemon (the first call on a message-bus connection) with a timeout
// and a cancellable. GDBus's own Hello (G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION) uses
// the 25 s default timeout and no cancellable, so a bus daemon that never answers would
// block a probe for 25 s. Returns 1, or -1 with *error set.
static inline gint tokenkit_bus_hello(GDBusConnection *connection, gint timeout_msec,
                                      GCancellable *cancellable, GError **error) {
    GVariant *reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus", "Hello", NULL, G_VARIANT_TYPE("(s)"),
        G_DBUS_CALL_FLAGS_NONE, timeout_msec, cancellable, error);
    if (reply == NULL) return -1;
    g_variant_unref(reply);
    return 1;
}

// Calls a method of the bus daemon that takes one string, or none, and returns a boolean or
// a string array. Built with GLib's non-variadic calls only (g_variant_new and g_variant_get
// are variadic, which the release build's lazy loader, Packaging/lazy-libsecret.c, cannot
// forward). Returns 1/0 for the answer, -1 with *error set.
static inline gint tokenkit_bus_name_has_owner(GDBusConnection *connection, const char *name,
                                               gint timeout_msec, GCancellable *cancellable, GError **error) {
    GVariant *argument = g_variant_new_string(name);
    GVariant *reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus", "NameHasOwner", g_variant_new_tuple(&argument, 1), G_VARIANT_TYPE("(b)"),
        G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout_msec, cancellable, error);
    if (reply == NULL) return -1;
    GVariant *owned = g_variant_get_child_value(reply, 0);
    gint answer = g_variant_get_boolean(owned) ? 1 : 0;
    g_variant_unref(owned);
    g_variant_unref(reply);
    return answer;
}
static inline gint tokenkit_bus_name_is_activatable(GDBusConnection *connection, const char *name,
                                                    gint timeout_msec, GCancellable *cancellable, GError **error) {
    GVariant *reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus", "ListActivatableNames", NULL, G_VARIANT_TYPE("(as)"),
        G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout_msec, cancellable, error);
    if (reply == NULL) return -1;
    GVariant *names = g_variant_get_child_value(reply, 0);
    gint found = 0;
    gsize count = g_variant_n_children(names);
    for (gsize i = 0; i < count && !found; i++) {
        GVariant *candidate = g_variant_get_child_value(names, i);
        if (g_strcmp0(g_variant_get_string(candidate, NULL), name) == 0) found = 1;
        g_variant_unref(candidate);
    }
    g_variant_unref(names);
    g_variant_unref(reply);
    return found;
}

// The release build's lazy loader of libsecret (Packaging/lazy-libsecret.c, linked in by
// scripts/build-tokenkit-release): a weak symbol, undefined (address 0) in every other build,
// where libsecret is linked the ordinary way and always usable.
extern int tokenkit_libsecret_load(const char **reason) __attribute__((weak));

/// 1 when libsecret can be called: linked normally (no loader), or the loader loaded it.
/// Else 0, with the loader's reason (a static NUL-terminated string) in *reason. Nothing of
/// GLib or libsecret may be called before this said 1.
static inline int tokenkit_libsecret_ready(const char **reason) {
    if (tokenkit_libsecret_load == 0) return 1;
    return tokenkit_libsecret_load(reason);
}

#endif
