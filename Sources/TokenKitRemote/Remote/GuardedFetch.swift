import Foundation

/// One GET of a trusted document under ``RemoteFetchOptions``: the URL check, then the fetch
/// gate (``HTTPTransport/fetch(_:what:)``) with the options' cap, deadline and same-origin
/// redirect policy.
enum GuardedFetch {
    /// Checks that `url` may be fetched under `options`; the error names the reason.
    static func validate(_ url: URL, options: RemoteFetchOptions, what: String) throws(AuthError) {
        try FetchURLPolicy.validate(url, what: "\(what) URL", allowsInsecureHTTP: options.allowsInsecureHTTP)
    }

    /// GETs `url` with `headers`, following same-origin redirects; returns the final
    /// non-redirect response (any status) with its body within the cap.
    static func get(
        _ url: URL, headers: [HTTPHeader] = [], transport: any HTTPTransport, options: RemoteFetchOptions, what: String
    ) async throws(AuthError) -> HTTPFetchResult {
        try validate(url, options: options, what: what)
        let request = HTTPTransportRequest(
            method: "GET", url: url, headers: headers, timeout: options.timeout,
            maxResponseBytes: options.maxBodyBytes, redirects: .sameOrigin(max: options.maxRedirects))
        return try await transport.fetch(request, what: what)
    }
}
