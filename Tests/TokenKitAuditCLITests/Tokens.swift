import TokenKit

/// Test tokens (unsigned unless noted).
enum Tokens {
    static let now = "1700000000"

    static func make(header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String, signature: String = "c2ln") -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "." + signature
    }

    static func claims(_ members: String, alg: String = "HS256", kid: String? = nil) -> String {
        let kidPart = kid.map { #","kid":"\#($0)""# } ?? ""
        return make(header: #"{"alg":"\#(alg)"\#(kidPart)}"#, payload: "{\(members)}")
    }
}
