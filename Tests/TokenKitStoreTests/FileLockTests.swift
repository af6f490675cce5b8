import Foundation
import Testing
@testable import TokenKitStore

/// The cross-process `flock` behind the file store and the Secret Service writers: exclusive
/// while held (between two opens in one process too, as between processes), bounded waiting
/// with a message that names the wait and the path, and no following of links.
@Suite struct FileLockTests {
    @Test("a second taker waits, then fails with timeout naming the sub-second wait and the path")
    func secondTakerTimesOut() throws {
        let root = try TestEnvironment.makeTemporaryDirectory()
        defer { TestEnvironment.remove(root) }
        let path = "\(root)/store.lock"
        let held = try FileLock(path: path, timeout: 1)
        let started = ContinuousClock.now
        do {
            _ = try FileLock(path: path, timeout: 0.3)
            Issue.record("a held lock was taken twice")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.message == "timed out after 0.3 s waiting for the lock \(path): another process holds it")
        }
        // Only a lower bound: the wait must not end early (an upper bound would depend on load).
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        withExtendedLifetime(held) {}
    }

    @Test("the lock is free again once its holder is released")
    func releasedLockCanBeTaken() throws {
        let root = try TestEnvironment.makeTemporaryDirectory()
        defer { TestEnvironment.remove(root) }
        let path = "\(root)/store.lock"
        var held: FileLock? = try FileLock(path: path, timeout: 1)
        #expect(held != nil)
        held = nil
        _ = try FileLock(path: path, timeout: 0)
    }

    @Test("a symbolic link in place of the lock file is refused, not followed")
    func symlinkRefused() throws {
        let root = try TestEnvironment.makeTemporaryDirectory()
        defer { TestEnvironment.remove(root) }
        let target = "\(root)/elsewhere"
        let path = "\(root)/store.lock"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(throws: TokenStoreError(code: .insecurePermissions, message: "")) { try FileLock(path: path, timeout: 0) }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("whole-second timeouts read without a fraction, others with their digits",
          arguments: [(60.0, "60"), (0.3, "0.3"), (1.25, "1.25"), (0.0, "0")])
    func secondsText(seconds: Double, text: String) {
        #expect(SecondsText.format(seconds) == text)
    }
}
