#if TOKENKIT_README_SNIPPETS
import Foundation
import TokenKit
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
/// The token set of a first sign-in.
let initialTokens = TokenSet(accessToken: "a")
/// A token set to save.
let tokens = TokenSet(accessToken: "a")
#endif
