import Foundation
import Hummingbird
import NIOCore

/// The sign-in routes the smaller reference servers share:
/// `POST /auth/login` (`{LOGIN_FIELD,"password"}` → tokens and `user`), `POST /auth/refresh`
/// (rotating, reuse detection), `POST /auth/logout`, `GET /.well-known/jwks.json`, and
/// `GET /stats` (how many logins and refreshes the server made: for demos and tests).
public struct AuthRoutes: Sendable {
    /// The accounts.
    public let accounts: AccountBook
    /// Issues and rotates tokens.
    public let sessions: SessionIssuer
    /// Counts logins (`login`) and refreshes (`refresh`).
    public let counter: EventCounter
    /// The JSON field users sign in with (`username` or `email`).
    public let loginField: String

    /// Routes over `accounts` and `sessions`.
    public init(accounts: AccountBook, sessions: SessionIssuer, counter: EventCounter = EventCounter(), loginField: String) {
        self.accounts = accounts
        self.sessions = sessions
        self.counter = counter
        self.loginField = loginField
    }

    /// `{"id", LOGIN_FIELD, "name"}` for `account`.
    public func userFields(_ account: Account) -> [String: JSONField] {
        ["id": .string(account.id), loginField: .string(account.login), "name": .string(account.name)]
    }

    /// Adds the routes (and the JSON error middleware) to `router`.
    public func register(on router: Router<AppRequestContext>) {
        router.middlewares.add(APIErrorMiddleware())
        router.post("/auth/login") { request, _ -> Response in
            let body = try await JSONBody.read(request)
            let login = try body.string(loginField)
            let password = try body.string("password")
            guard let account = await accounts.verify(login: login, password: password) else {
                throw APIError.unauthorized("invalid \(loginField) or password")
            }
            await counter.add("login")
            var fields = try await sessions.start(subject: account.id, role: "user").fields
            fields["user"] = .object(userFields(account))
            return JSONBody.response(status: 200, fields)
        }
        router.post("/auth/refresh") { request, _ -> Response in
            let body = try await JSONBody.read(request)
            let tokens = try await sessions.refresh(try body.string("refresh_token"))
            await counter.add("refresh")
            return JSONBody.response(status: 200, tokens.fields)
        }
        router.post("/auth/logout") { request, _ -> Response in
            let body = try await JSONBody.read(request)
            try await sessions.logout(try body.string("refresh_token"))
            return Response(status: .noContent)
        }
        router.get("/.well-known/jwks.json") { _, _ -> Response in sessions.accessTokens.jwksResponse() }
        router.get("/stats") { _, _ -> Response in
            JSONBody.response(status: 200, (await counter.all()).mapValues { .int($0) })
        }
    }
}
