internal import CLibSecret

/// Calls a GLib function that reports failure through a `GError **`, takes ownership of the
/// error it sets, and frees it exactly once (after copying domain, code and message out).
struct GLibFailure: Error {
    let domain: GQuark
    let code: Int32
    let message: String
    /// The D-Bus error name sent by the remote side, e.g. `org.freedesktop.Secret.Error.IsLocked`.
    let remoteName: String?

    /// Runs `body` with a fresh `GError *` slot; returns its result, or throws the error it set.
    static func check<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) throws(GLibFailure) -> T {
        var error: UnsafeMutablePointer<GError>? = nil
        let result = body(&error)
        if let error {
            defer { g_error_free(error) }
            var remote: String? = nil
            if let name = g_dbus_error_get_remote_error(error) {
                remote = String(cString: name)
                g_free(name)
            }
            throw GLibFailure(
                domain: error.pointee.domain, code: error.pointee.code,
                message: error.pointee.message.map { String(cString: $0) } ?? "unknown error",
                remoteName: remote)
        }
        return result
    }

    var isCancelled: Bool { domain == tokenkit_io_error_quark() && code == Int32(G_IO_ERROR_CANCELLED.rawValue) }
    var isTimeout: Bool {
        (domain == tokenkit_io_error_quark() && code == Int32(G_IO_ERROR_TIMED_OUT.rawValue))
            || (domain == tokenkit_dbus_error_quark() && [G_DBUS_ERROR_NO_REPLY, G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT].map { Int32($0.rawValue) }.contains(code))
    }
    var isNoService: Bool {
        if remoteName == "org.freedesktop.DBus.Error.ServiceUnknown" || remoteName == "org.freedesktop.DBus.Error.NameHasNoOwner" { return true }
        if domain == tokenkit_dbus_error_quark() {
            return [G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_NO_SERVER, G_DBUS_ERROR_DISCONNECTED, G_DBUS_ERROR_FILE_NOT_FOUND, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND]
                .map { Int32($0.rawValue) }.contains(code)
        }
        return domain == tokenkit_io_error_quark() && [G_IO_ERROR_NOT_FOUND, G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_CLOSED].map { Int32($0.rawValue) }.contains(code)
    }
    var isLocked: Bool {
        remoteName == "org.freedesktop.Secret.Error.IsLocked"
            || (domain == tokenkit_secret_error_quark() && code == Int32(SECRET_ERROR_IS_LOCKED.rawValue))
    }
}
