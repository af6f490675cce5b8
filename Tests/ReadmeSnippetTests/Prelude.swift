#if TOKENKIT_README_SNIPPETS_POSTGRES && TOKENKIT_README_SNIPPETS_HUMMINGBIRD && TOKENKIT_README_SNIPPETS_ASYNCHTTPCLIENT
import Foundation
import TokenKit
import TokenKitAuth
import TokenKitStore

// The names the documents' code blocks use without defining them: values the reader has
// from elsewhere (a file's contents, a store opened in an earlier section). Placeholders that
// type-check; a block that uses them is compiled, never run (only `runnable` blocks run, and
// those define everything they use).

/// README "Keys from elsewhere": a JWKS document's text.
let jwksText = #"{"keys":[]}"#
/// README "Keys from elsewhere": an HMAC secret's bytes.
let secretBytes = [UInt8](repeating: 7, count: 32)
/// README "Keys from elsewhere": a key file's bytes.
let fileBytes = [UInt8]()
/// README "Services": the issuer's JWKS URL.
let jwksURL = URL(fileURLWithPath: "/")
/// The encrypted file store's passphrase.
let passphrase = ""
/// README "Service tokens": the client secret read from a file.
let secretFromFile = ""
/// The process environment, as the CLI reads it.
let env = ProcessInfo.processInfo.environment
/// A store opened in an earlier section.
let store: any TokenStore = MemoryTokenStore()
/// README "Certificate chains": the trusted root's PEM file, and an App Store notification's JWS.
let rootPath = "/dev/null"
let signedPayload = ""
/// README "Encrypted tokens": the recipient's public key, a signed JWT, the recipient's
/// private key file and the issuer's JWKS.
let theirPublicKey = try! JWEKey.symmetric(secret: [UInt8](repeating: 1, count: 32))
let signedJWT = ""
let keyPath = "/dev/null"
let issuerJWKS = #"{"keys":[]}"#
/// The stored login's name and the refresher of an AuthProvider (TokenKitPostgres article).
let key = try! CredentialKey(service: "com.example", account: "me")
let grant: any TokenRefresher = PlaceholderRefresher()

/// A refresher that is never called: the blocks that use it are compiled, not run.
struct PlaceholderRefresher: TokenRefresher {
    func refresh(_ tokenSet: TokenSet) async throws(AuthError) -> TokenSet { tokenSet }
}

/// The token set of a first sign-in.
let initialTokens = TokenSet(accessToken: "a")
/// A token set to save.
let tokens = TokenSet(accessToken: "a")
#endif
