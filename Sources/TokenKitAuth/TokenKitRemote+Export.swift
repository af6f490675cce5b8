// The HTTP transport, its fetch gate, the remote key sources, OpenID discovery and AuthError
// live in TokenKitRemote (issue 23); importing TokenKitAuth is enough to name them, so code
// written before the move keeps compiling.
@_exported import TokenKitRemote
