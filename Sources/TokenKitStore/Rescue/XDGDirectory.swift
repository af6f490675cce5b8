/// The XDG Base Directory variables TokenKit uses, resolved as the specification says: the
/// variable when it holds an absolute path, else the default under `$HOME`.
package struct XDGDirectory: Sendable {
    /// The variable, e.g. `XDG_STATE_HOME`.
    package let variable: String
    /// The default below `$HOME`, e.g. `.local/state`.
    package let homeDefault: String

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    package static let data = XDGDirectory(variable: "XDG_DATA_HOME", homeDefault: ".local/share")
    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    package static let state = XDGDirectory(variable: "XDG_STATE_HOME", homeDefault: ".local/state")
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    package static let config = XDGDirectory(variable: "XDG_CONFIG_HOME", homeDefault: ".config")

    /// The directory for `environment`; throws when neither the variable nor `HOME` is absolute.
    package func path(environment: [String: String]) throws(TokenStoreError) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw .io("cannot find a place for TokenKit's files: neither \(variable) nor HOME is an absolute path")
        }
        return "\(home)/\(homeDefault)"
    }
}
