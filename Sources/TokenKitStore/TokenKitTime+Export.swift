// The stores take the same `TokenClock` as the rest of TokenKit (it lives in
// TokenKitTime); importing TokenKitStore is enough to name it.
@_exported import TokenKitTime
