import TokenKitStore
import Foundation

/// The one stderr line `tokenkit` prints when a login went to the rescue file: which login,
/// which backend failed and why, where the login is now, and the command that moves it back.
enum RescueWarning {
    /// Writes the line for `notice` on stderr.
    @Sendable static func print(_ notice: RescueNotice) {
        StandardStreams.writeError(line(notice))
    }

    /// The line (without the newline).
    static func line(_ notice: RescueNotice) -> String {
        let key = notice.key
        return "warning: the \(notice.backendName) backend could not store the login for \(key) (\(notice.failure.message)); "
            + "it is kept in the rescue file \(notice.rescuePath), where `tokenkit token` finds it; "
            + "move it back with: tokenkit store restore --service \(ShellWord.quoted(key.service)) --account \(ShellWord.quoted(key.account))"
    }
}

/// A word as a POSIX shell reads it back: as it is when it holds only safe characters, else in
/// single quotes (a quote inside written as `'\''`).
enum ShellWord {
    static func quoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_./:@%+=,".unicodeScalars.contains(scalar))
        }
        if safe, !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
