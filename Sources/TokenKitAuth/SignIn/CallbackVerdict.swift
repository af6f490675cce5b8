/// What the sign-in decides about one request to the loopback callback
/// (``LoopbackRedirectListener/waitForCallback(timeout:judge:)``).
///
/// A struct rather than an enum, so new outcomes can be added without breaking callers.
public struct CallbackVerdict: Sendable {
    enum Outcome: Sendable {
        case accept
        case ignore(String)
        case refuse(AuthError)
    }

    let outcome: Outcome

    /// The callback is the answer to this sign-in: the browser gets the success page and the
    /// wait ends with it.
    public static var accept: Self { .init(outcome: .accept) }

    /// The callback is not the answer to this sign-in (a wrong or missing `state`: anyone on
    /// this machine can call the port): it is answered 400 with `reason` and the listener
    /// keeps waiting for the real one until the timeout.
    public static func ignore(_ reason: String) -> Self { .init(outcome: .ignore(reason)) }

    /// The callback is the answer to this sign-in, and it failed (denied, another issuer, no
    /// code): the browser gets a failure page and the wait ends with `error`.
    public static func refuse(_ error: AuthError) -> Self { .init(outcome: .refuse(error)) }
}
