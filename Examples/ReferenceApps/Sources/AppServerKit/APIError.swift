import Foundation
import Hummingbird
import TokenKitHummingbird

/// An API failure as the reference apps publish it: an HTTP status and a body
/// `{"message":"…","statusCode":N}`.
///
/// Guarantees: ``message`` is written for people and never contains a token or password
/// (callers build it from fixed text and public values only).
public struct APIError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status code.
    public let status: Int
    /// The one-line reason shown to the client.
    public let message: String

    /// An error with `status` and `message`.
    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// `400 Bad Request` naming what is wrong with the body.
    public static func badRequest(_ message: String) -> APIError { APIError(400, message) }
    /// `401 Unauthorized`.
    public static func unauthorized(_ message: String) -> APIError { APIError(401, message) }
    /// `403 Forbidden`.
    public static func forbidden(_ message: String) -> APIError { APIError(403, message) }
    /// `404 Not Found`.
    public static func notFound(_ message: String) -> APIError { APIError(404, message) }
    /// `409 Conflict`.
    public static func conflict(_ message: String) -> APIError { APIError(409, message) }

    /// `"<status>: <message>"`.
    public var description: String { "\(status): \(message)" }

    /// The `{"message","statusCode"}` body fields.
    public var fields: [String: JSONField] { ["message": .string(message), "statusCode": .int(status)] }

    /// The JSON response for this error.
    public func response() -> Response {
        JSONBody.response(status: status, fields)
    }

    /// The apps' error for a refusal of TokenKit's Bearer middleware: its status, and a
    /// message from its public details (a role refusal names the role).
    public init(refusal: BearerError) {
        let message: String
        if !refusal.requiredRoles.isEmpty {
            message = "this route needs a \(refusal.requiredRoles.joined(separator: " and ")) account"
        } else if refusal.error == "missing_token" {
            message = "missing bearer token"
        } else if refusal.error == "invalid_token" {
            message = "invalid or expired access token: \(refusal.publicDescription)"
        } else {
            message = refusal.publicDescription
        }
        self.init(Int(refusal.status.code), message)
    }
}

/// Turns every error thrown below it into the `{"message","statusCode"}` body: an
/// ``APIError`` as it is, a refusal of TokenKit's Bearer middleware (`BearerError`) with
/// the library's status, `WWW-Authenticate` and `Cache-Control: no-store` (rendered by
/// `BearerError.response(body:contentType:)`), Hummingbird's own errors (unknown route, body too large) with their
/// status, anything else as a 500 that reveals nothing.
public struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Runs `next`, converting what it throws.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response()
        } catch let refusal as BearerError {
            return refusal.response(body: JSONBody.text(APIError(refusal: refusal).fields))
        } catch let error as HTTPError {
            let status = Int(error.status.code)
            let message = status == 404 ? "no route for \(request.method) \(request.uri.path)" : (error.body ?? error.status.reasonPhrase)
            return APIError(status, message).response()
        } catch let error as any HTTPResponseError {
            return APIError(Int(error.status.code), error.status.reasonPhrase).response()
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(type(of: error))"])
            return APIError(500, "internal server error").response()
        }
    }
}
