internal import CLibSecret

/// Owns a `GHashTable` of string attributes (keys and values owned by the table) and drops
/// its reference exactly once.
final class GAttributes {
    let table: OpaquePointer

    /// A new empty table holding copies of `values`.
    init(_ values: [String: String]) {
        // g_hash_table_new_full never returns NULL (GLib aborts on out-of-memory).
        table = tokenkit_attributes_new()
        for (key, value) in values { tokenkit_attributes_set(table, key, value) }
    }

    /// Takes ownership of a table reference returned `(transfer full)`.
    init?(taking table: OpaquePointer?) {
        guard let table else { return nil }
        self.table = table
    }

    subscript(key: String) -> String? {
        tokenkit_attributes_get(table, key).map { String(cString: $0) }
    }

    deinit { g_hash_table_unref(table) }
}
