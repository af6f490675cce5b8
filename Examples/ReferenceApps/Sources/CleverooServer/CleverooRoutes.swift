import AppServerKit
import Foundation
import Hummingbird

/// Cleveroo's published API (see Examples/README.md), on a Hummingbird router.
struct CleverooRoutes: Sendable {
    let database: CleverooDatabase
    let sessions: SessionIssuer
    let passwords: PasswordHasher
    /// TokenKit's Bearer middleware: `/parent/…` needs a token with the `parent` role.
    let protection: BearerProtection

    /// Adds every route to `router`.
    func register(on router: Router<AppRequestContext>) {
        router.middlewares.add(APIErrorMiddleware())
        router.post("/auth/register") { request, _ -> Response in try await register(request) }
        router.post("/auth/login/parent") { request, _ -> Response in try await loginParent(request) }
        router.post("/auth/login/child") { request, _ -> Response in try await loginChild(request) }
        router.post("/auth/refresh") { request, _ -> Response in try await refresh(request) }
        router.post("/auth/logout") { request, _ -> Response in try await logout(request) }
        let parent = protection.group(on: router, "/parent", role: "parent")
        parent.post("children") { request, context -> Response in try await addChild(request, parentID: try context.subject()) }
        parent.get("children") { _, context -> Response in try await listChildren(parentID: try context.subject()) }
        router.get("/.well-known/jwks.json") { _, _ -> Response in sessions.accessTokens.jwksResponse() }
    }

    private func register(_ request: Request) async throws -> Response {
        let body = try await JSONBody.read(request)
        let email = try body.string("email").trimmingCharacters(in: .whitespaces)
        let phone = try body.string("phone")
        let password = try body.string("password")
        let confirmation = try body.string("confirmPassword")
        guard password == confirmation else { throw APIError.badRequest("passwords do not match") }
        guard email.contains("@") else { throw APIError.badRequest("email must be an email address") }
        let parent = Parent(id: UUID().uuidString.lowercased(), email: email, phone: phone, avatar: "",
                            passwordHash: try passwords.hash(password))
        guard try await database.insert(parent) else { throw APIError.conflict("an account with this email already exists") }
        var fields = parent.fields
        fields["avatar"] = nil
        fields["children"] = .array([])
        return JSONBody.response(status: 201, fields)
    }

    private func loginParent(_ request: Request) async throws -> Response {
        let body = try await JSONBody.read(request)
        let email = try body.string("email").trimmingCharacters(in: .whitespaces)
        let password = try body.string("password")
        guard let parent = try await database.parent(email: email), passwords.verify(password, hash: parent.passwordHash) else {
            throw APIError.unauthorized("invalid email or password")
        }
        var fields = try await sessions.start(subject: parent.id, role: "parent").fields
        fields["parent"] = .object(parent.fields)
        return JSONBody.response(status: 200, fields)
    }

    private func loginChild(_ request: Request) async throws -> Response {
        let body = try await JSONBody.read(request)
        let username = try body.string("username")
        let password = try body.string("password")
        guard let child = try await database.child(username: username) else {
            throw APIError.notFound("no child with this username")
        }
        // A child signs in with the parent's password (the child inherits its hash).
        guard let parent = try await database.parent(id: child.parentID), passwords.verify(password, hash: parent.passwordHash) else {
            throw APIError.unauthorized("invalid password")
        }
        var fields = try await sessions.start(subject: child.id, role: "child").fields
        var childFields = child.fields
        childFields["parent"] = nil
        fields["child"] = .object(childFields)
        return JSONBody.response(status: 200, fields)
    }

    private func refresh(_ request: Request) async throws -> Response {
        let body = try await JSONBody.read(request)
        let tokens = try await sessions.refresh(try body.string("refresh_token"))
        return JSONBody.response(status: 200, tokens.fields)
    }

    private func logout(_ request: Request) async throws -> Response {
        let body = try await JSONBody.read(request)
        try await sessions.logout(try body.string("refresh_token"))
        return Response(status: .noContent)
    }

    private func addChild(_ request: Request, parentID: String) async throws -> Response {
        let body = try await JSONBody.read(request)
        let username = try body.string("username")
        let age = try body.int("age")
        let gender = try body.string("gender")
        guard (1...17).contains(age) else { throw APIError.badRequest("age must be 1 to 17") }
        guard gender == "male" || gender == "female" else { throw APIError.badRequest("gender must be \"male\" or \"female\"") }
        let child = Child(id: UUID().uuidString.lowercased(), parentID: parentID, username: username,
                          age: age, gender: gender, avatar: "")
        guard try await database.insert(child) else { throw APIError.conflict("this username is taken") }
        return JSONBody.response(status: 201, child.fields)
    }

    private func listChildren(parentID: String) async throws -> Response {
        let children = try await database.children(of: parentID)
        return JSONBody.response(status: 200, array: children.map { .object($0.fields) })
    }
}
