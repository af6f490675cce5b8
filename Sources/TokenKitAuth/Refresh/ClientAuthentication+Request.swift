import Foundation

extension ClientAuthentication {
    /// Adds this client authentication to a token-endpoint style request (token, device
    /// authorization, revocation): `client_id` in the form for public clients; HTTP Basic with
    /// the form-urlencoded id and secret for `client_secret_basic` (RFC 6749 §2.3.1);
    /// `client_id` and `client_secret` in the form for `client_secret_post`; `client_id`, the
    /// assertion type and a fresh assertion whose `aud` is `audience` for `private_key_jwt`.
    /// The one place every grant authenticates the client, so a new method is added once.
    func apply(
        clientID: String, audience: URL, now: Date,
        form: inout [(String, String)], headers: inout [HTTPHeader]
    ) throws(AuthError) {
        switch method {
        case .none:
            form.append(("client_id", clientID))
        case .clientSecretBasic(let secret):
            let pair = "\(FormURLEncoding.encode(clientID)):\(FormURLEncoding.encode(secret))"
            headers.replaceAll(named: "Authorization", with: "Basic \(Data(pair.utf8).base64EncodedString())")
        case .clientSecretPost(let secret):
            form.append(("client_id", clientID))
            form.append(("client_secret", secret))
        case .privateKeyJWT(let signer, let lifetime):
            let assertion = try ClientAssertion.make(
                signer: signer, clientID: clientID, audience: audience.absoluteString, now: now, lifetime: lifetime)
            form.append(("client_id", clientID))
            form.append(("client_assertion_type", ClientAssertion.type))
            form.append(("client_assertion", assertion))
        }
    }

    /// A form POST to `url` authenticated with this method (a `private_key_jwt` assertion is
    /// addressed to `audience`, by default `url`; pass the token endpoint where it differs).
    func formPost(
        to url: URL, clientID: String, form: [(String, String)], audience: URL? = nil, now: Date = Date()
    ) throws(AuthError) -> HTTPTransportRequest {
        var form = form
        var headers = [
            HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            HTTPHeader(name: "Accept", value: "application/json"),
        ]
        try apply(clientID: clientID, audience: audience ?? url, now: now, form: &form, headers: &headers)
        return HTTPTransportRequest(method: "POST", url: url, headers: headers, body: Array(FormURLEncoding.encode(form).utf8))
    }
}
