internal import COpenSSL

/// The one error type of TokenKit's OpenSSL wrapper.
///
/// `message` says what TokenKit was doing; `openSSLReasons` holds the reason strings drained
/// from OpenSSL's per-thread error queue (library, function and reason only: OpenSSL never
/// puts key material in them). Neither ever contains secret bytes.
package struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in TokenKit's words.
    package let message: String
    /// OpenSSL's reasons, oldest first, as drained from the error queue.
    package let openSSLReasons: [String]

    package init(_ message: String, openSSLReasons: [String] = []) {
        self.message = message
        self.openSSLReasons = openSSLReasons
    }

    /// Builds an error for a failed OpenSSL call, draining (and so clearing) the queue.
    package static func openSSL(_ message: String) -> CryptoError {
        CryptoError(message, openSSLReasons: OpenSSLErrorQueue.drain())
    }

    package var description: String {
        openSSLReasons.isEmpty ? message : "\(message) (\(openSSLReasons.joined(separator: "; ")))"
    }
}

/// Access to OpenSSL's thread-local error queue.
package enum OpenSSLErrorQueue {
    /// Empties the queue before a call whose failure we will report.
    package static func clear() { ERR_clear_error() }

    /// Removes every entry from the queue and returns their reason strings, oldest first.
    package static func drain() -> [String] {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if let reason = ERR_reason_error_string(code) {
                reasons.append(String(cString: reason))
            } else {
                reasons.append("error 0x\(String(code, radix: 16))")
            }
            if reasons.count > 16 {  // a bound: a runaway queue never grows an error without limit
                ERR_clear_error()
                break
            }
        }
        return reasons
    }
}
