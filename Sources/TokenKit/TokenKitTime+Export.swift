// TokenKit's time model (`TokenClock`, `SystemClock`, `FixedClock`, `ManualClock`)
// lives in TokenKitTime, below both TokenKit and TokenKitStore; importing TokenKit is
// enough to name it.
@_exported import TokenKitTime
