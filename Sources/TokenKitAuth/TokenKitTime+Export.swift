// The auth provider, sign-in flows, refreshers and remote key sources take TokenKit's one
// `TokenClock` (it lives in TokenKitTime); importing TokenKitAuth is enough to name it.
@_exported import TokenKitTime
