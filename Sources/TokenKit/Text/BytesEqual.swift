/// Whether `count` bytes at `a` and `b` are equal (`b` may be `nil` only when `count` is 0).
@inline(__always)
func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer?, _ count: Int) -> Bool {
    guard count > 0 else { return true }
    guard let b else { return false }
    var i = 0
    while i < count {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}
