import Foundation

extension ClientAuthentication {
    /// Adds this client authentication to a token-endpoint style request (token, device
    /// authorization, revocation): `client_id` in the form for public clients, HTTP Basic with
    /// the form-urlencoded id and secret for `client_secret_basic` (RFC 6749 §2.3.1).
    /// The one place every grant authenticates the client, so a new method is added once.
    func apply(clientID: String, form: inout [(String, String)], headers: inout [HTTPHeader]) {
        switch method {
        case .none:
            form.append(("client_id", clientID))
        case .clientSecretBasic(let secret):
            let pair = "\(FormURLEncoding.encode(clientID)):\(FormURLEncoding.encode(secret))"
            headers.append(HTTPHeader(name: "Authorization", value: "Basic \(Data(pair.utf8).base64EncodedString())"))
        }
    }

    /// A form POST to `url` authenticated with this method.
    func formPost(to url: URL, clientID: String, form: [(String, String)]) -> HTTPTransportRequest {
        var form = form
        var headers = [
            HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            HTTPHeader(name: "Accept", value: "application/json"),
        ]
        apply(clientID: clientID, form: &form, headers: &headers)
        return HTTPTransportRequest(method: "POST", url: url, headers: headers, body: Array(FormURLEncoding.encode(form).utf8))
    }
}
