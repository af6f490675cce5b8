import Foundation

extension ClientAuthentication {
    /// Adds this client authentication to a token endpoint request: `client_id` (and for
    /// `client_secret_post` the secret, for `private_key_jwt` a fresh assertion whose `aud` is
    /// `tokenEndpoint`) to `form`, or an HTTP Basic `Authorization` header to `headers`.
    func apply(
        clientID: String, tokenEndpoint: URL, now: Date,
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
                signer: signer, clientID: clientID, audience: tokenEndpoint.absoluteString, now: now, lifetime: lifetime)
            form.append(("client_id", clientID))
            form.append(("client_assertion_type", ClientAssertion.type))
            form.append(("client_assertion", assertion))
        }
    }
}
