/// Whether a Secret Service may show a prompt (unlock a collection, confirm access to an item,
/// create the default collection), how long a person gets to answer it, and why — the one
/// place that decides "may I prompt here".
///
/// Guarantees: ``forEnvironment(_:timeout:)`` allows prompts only with a display
/// (`WAYLAND_DISPLAY` or `DISPLAY`) *and* a session bus (the one ``SecretServiceProbe`` finds),
/// since a prompt shows on the display through the session bus; otherwise the ``reason``
/// says what is missing, for messages. Reads only the `environment` it is given.
/// Does not: check that the display works or that someone is looking at it (the ``timeout``
/// bounds the wait), or make the service prompt (a service without a prompter, such as a
/// bare gnome-keyring on a private bus, reports the prompt as dismissed).
public struct UnlockPromptPolicy: Sendable, Equatable {
    /// Whether the store may let the service prompt.
    public var isAllowed: Bool
    /// Why prompts are (not) allowed, e.g. `"no display: DISPLAY and WAYLAND_DISPLAY are unset"`.
    public var reason: String
    /// The longest a prompt may stay unanswered before the operation fails with a timeout.
    public var timeout: Duration

    /// A policy as given.
    public init(isAllowed: Bool, reason: String, timeout: Duration = .seconds(120)) {
        self.isAllowed = isAllowed
        self.reason = reason
        self.timeout = timeout
    }

    /// Never prompt.
    public static let disabled = UnlockPromptPolicy(isAllowed: false, reason: "prompting is turned off", timeout: .zero)

    /// Prompts allowed where a person can answer: a display and a session bus.
    public static func forEnvironment(_ environment: [String: String], timeout: Duration = .seconds(120)) -> UnlockPromptPolicy {
        guard let display = ["WAYLAND_DISPLAY", "DISPLAY"].first(where: { !(environment[$0] ?? "").isEmpty }) else {
            return UnlockPromptPolicy(isAllowed: false, reason: "no display: DISPLAY and WAYLAND_DISPLAY are unset", timeout: timeout)
        }
        guard SecretServiceProbe.sessionBusAddress(environment: environment) != nil else {
            return UnlockPromptPolicy(isAllowed: false, reason: "no D-Bus session bus for a prompt to reach the display", timeout: timeout)
        }
        return UnlockPromptPolicy(isAllowed: true, reason: "a display ($\(display)) and a session bus", timeout: timeout)
    }
}
