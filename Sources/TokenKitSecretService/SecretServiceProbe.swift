import Dispatch
import Foundation
import TokenKitStore
internal import CLibSecret

/// Whether a Secret Service answers on the D-Bus session bus, and why (not).
public struct SecretServiceStatus: Sendable, Equatable, CustomStringConvertible {
    /// `true` when `org.freedesktop.secrets` has an owner on the bus, or the bus can start one.
    public let isAvailable: Bool
    /// One line saying what was found, e.g. `"no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set"`.
    public let reason: String

    /// The ``reason``.
    public var description: String { reason }
}

/// Detects a missing or unreachable Secret Service quickly, without libsecret's own
/// connection attempts (which can block for two 25 s D-Bus timeouts on a hung provider, or
/// autolaunch a bus through X11).
///
/// Guarantees: returns within about `timeout` (a `GCancellable` with a deadline
/// bounds the connection and both bus calls); the check runs on its own dispatch queue, not
/// the cooperative pool; it never starts a service (calls use `NO_AUTO_START`). Does not:
/// prove later calls will succeed — a provider can still hang, lock or go away (every
/// ``SecretServiceStore`` operation has its own deadline for that).
public enum SecretServiceProbe {
    /// The well-known bus name of the Secret Service.
    public static let busName = "org.freedesktop.secrets"

    /// Checks the session bus at `busAddress`, or (when `nil`) the one GLib and libsecret will
    /// use: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` if that socket exists.
    /// Only when `busAddress` is `nil` does this read `environment`.
    public static func check(
        busAddress: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        timeout: Duration = .milliseconds(750)
    ) async -> SecretServiceStatus {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "dev.tokenkit.secret-service-probe").async {
                continuation.resume(returning: checkBlocking(busAddress: busAddress, environment: environment, timeout: timeout))
            }
        }
    }

    /// The synchronous check, for code already off the cooperative pool.
    static func checkBlocking(busAddress: String?, environment: [String: String], timeout: Duration) -> SecretServiceStatus {
        guard let address = busAddress ?? sessionBusAddress(environment: environment) else {
            return SecretServiceStatus(
                isAvailable: false,
                reason: "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus socket")
        }
        // The one gate before any GLib or libsecret call (every store operation starts with
        // this check): the release CLI loads libsecret on first use, and may find none.
        var unloadable: UnsafePointer<CChar>? = nil
        guard tokenkit_libsecret_ready(&unloadable) != 0 else {
            let reason = unloadable.map { String(cString: $0) } ?? "unknown reason"
            return SecretServiceStatus(isAvailable: false, reason: "libsecret cannot be loaded (\(reason)); install libsecret-1-0")
        }
        let deadline = Deadline(timeout)
        defer { deadline.finish() }
        // Not MESSAGE_BUS_CONNECTION: GDBus would then send Hello itself, without our
        // deadline (25 s on a bus that accepts the connection but never answers).
        let flags = GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue)
        let connection: GObjectRef
        do {
            let pointer = try GLibFailure.check { error in
                g_dbus_connection_new_for_address_sync(address, flags, nil, deadline.cancellable, error)
            }
            guard let owned = GObjectRef(taking: UnsafeMutableRawPointer(pointer)) else {
                return SecretServiceStatus(isAvailable: false, reason: "cannot connect to the D-Bus session bus")
            }
            connection = owned
        } catch {
            return SecretServiceStatus(
                isAvailable: false,
                reason: deadline.expired || error.isTimeout || error.isCancelled
                    ? "the D-Bus session bus did not answer within \(SecondsText.format(timeout)) s"
                    : "cannot connect to the D-Bus session bus (\(error.message))")
        }
        defer { g_dbus_connection_close_sync(connection.opaque, nil, nil) }
        let timeoutMs = Int32(clamping: max(1, timeout.wholeMilliseconds))
        do {
            _ = try GLibFailure.check { error in
                tokenkit_bus_hello(connection.opaque, timeoutMs, deadline.cancellable, error)
            }
            let owned = try GLibFailure.check { error in
                tokenkit_bus_name_has_owner(connection.opaque, busName, timeoutMs, deadline.cancellable, error)
            }
            if owned == 1 {
                return SecretServiceStatus(isAvailable: true, reason: "a Secret Service (\(busName)) is running on the session bus")
            }
            let activatable = try GLibFailure.check { error in
                tokenkit_bus_name_is_activatable(connection.opaque, busName, timeoutMs, deadline.cancellable, error)
            }
            if activatable == 1 {
                return SecretServiceStatus(isAvailable: true, reason: "the session bus can start a Secret Service (\(busName) is activatable)")
            }
            return SecretServiceStatus(
                isAvailable: false,
                reason: "no Secret Service is running: nothing owns \(busName) on the session bus, and nothing can be started for it")
        } catch {
            return SecretServiceStatus(
                isAvailable: false,
                reason: deadline.expired || error.isTimeout || error.isCancelled
                    ? "the D-Bus session bus did not answer within \(SecondsText.format(timeout)) s"
                    : "the D-Bus session bus failed to answer (\(error.message))")
        }
    }

    /// The session bus address GLib would use, without X11 autolaunch.
    static func sessionBusAddress(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            let socket = "\(runtime)/bus"
            var info = stat()
            if stat(socket, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK { return "unix:path=\(socket)" }
        }
        return nil
    }
}
