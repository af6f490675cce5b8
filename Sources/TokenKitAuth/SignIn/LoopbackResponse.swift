#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The small HTML pages the loopback listener answers with (never a token in them), and the
/// one redirect it sends from the start URL.
struct LoopbackResponse: Sendable {
    let status: Int
    let title: String
    let text: String
    /// `Location` for a redirect (already checked to hold no control character).
    var location: String?

    static let notFound = LoopbackResponse(status: 404, title: "Not found", text: "This address only receives the sign-in response.")
    static let badRequest = LoopbackResponse(status: 400, title: "Bad request", text: "This address only receives the sign-in response.")
    static let timedOut = LoopbackResponse(status: 408, title: "Request timeout", text: "The request did not arrive in time.")
    static let signedIn = LoopbackResponse(
        status: 200, title: "Signed in", text: "You are signed in. You can close this window and return to the application.")
    static let startUsed = LoopbackResponse(
        status: 410, title: "Sign-in link already used",
        text: "This sign-in link was already opened once. If that was not you, another program tried to take over this sign-in: it has been stopped. Start a new sign-in in the application.")

    static func redirect(to location: String) -> LoopbackResponse {
        LoopbackResponse(status: 302, title: "Redirecting", text: "Continue to the sign-in page.", location: location)
    }

    static func failed(_ message: String) -> LoopbackResponse {
        LoopbackResponse(status: 400, title: "Sign-in failed", text: "Sign-in failed: \(message). You can close this window.")
    }

    static func ignored(_ reason: String) -> LoopbackResponse {
        LoopbackResponse(status: 400, title: "Not this sign-in", text: "This response does not belong to the sign-in in progress (\(reason)). It was ignored.")
    }

    /// The full response bytes (`Connection: close`, `no-store`, no referrer).
    var bytes: [UInt8] {
        let body = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>\(Self.escape(title))</title></head>\
            <body><h1>\(Self.escape(title))</h1><p>\(Self.escape(text))</p></body></html>

            """
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Type: text/html; charset=utf-8\r\n"
        if let location { head += "Location: \(location)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n"
            + "Connection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// Writes the response without blocking (a client that does not read it loses it).
    func deliver(to client: Int32) {
        let bytes = bytes
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            guard n > 0 else { return }
            sent += n
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 302: "Found"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 410: "Gone"
        default: "Bad Request"
        }
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
