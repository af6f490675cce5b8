import AppClientKit
import ArgumentParser
import Foundation

/// `cleveroo [--server URL] COMMAND`: the Cleveroo family app's client.
@main
struct Cleveroo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cleveroo",
        abstract: "Cleveroo: parents register and add children; parents and children sign in.",
        discussion: "Passwords are read from a no-echo prompt, or from stdin when it is not a terminal; never from the command line.",
        subcommands: [Register.self, Login.self, Children.self, WhoAmI.self, Logout.self])
}

extension Cleveroo {
    /// `register --email E --phone P`: creates a parent account.
    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a parent account (password and confirmation from the prompt or stdin).")
        @OptionGroup var options: CleverooOptions
        @Option var email: String
        @Option var phone: String

        func run() async {
            await cleverooCommand {
                let password = try SecretInput.read(prompt: "Password")
                let confirmation = try SecretInput.read(prompt: "Confirm password")
                let session = try await options.session()
                let answer = try await session.anonymous.send("POST", "/auth/register", body: [
                    "email": email, "phone": phone, "password": password, "confirmPassword": confirmation,
                ]).object
                say("registered parent \(answer?["email"] as? String ?? email) (id \(answer?["id"] as? String ?? "?"))")
            }
        }
    }

    /// `login parent --email E` / `login child --username U`.
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign in as a parent or a child.", subcommands: [Parent.self, Child.self])

        struct Parent: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Sign in as a parent (password from the prompt or stdin).")
            @OptionGroup var options: CleverooOptions
            @Option var email: String

            func run() async {
                await cleverooCommand {
                    let password = try SecretInput.read(prompt: "Password")
                    let answer = try await options.session().logIn("/auth/login/parent", body: ["email": email, "password": password]) { answer in
                        guard let parent = answer["parent"] as? [String: Any], let id = parent["id"] as? String else {
                            throw ClientFailure("the server's sign-in answer has no parent")
                        }
                        return ["role": "parent", "id": id, "name": parent["email"] as? String ?? email]
                    }
                    say("signed in as parent \((answer["parent"] as? [String: Any])?["email"] as? String ?? email)")
                }
            }
        }

        struct Child: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Sign in as a child, with the parent's password (from the prompt or stdin).")
            @OptionGroup var options: CleverooOptions
            @Option var username: String

            func run() async {
                await cleverooCommand {
                    let password = try SecretInput.read(prompt: "Password")
                    try await options.session().logIn("/auth/login/child", body: ["username": username, "password": password]) { answer in
                        guard let child = answer["child"] as? [String: Any], let id = child["id"] as? String else {
                            throw ClientFailure("the server's sign-in answer has no child")
                        }
                        return ["role": "child", "id": id, "name": username]
                    }
                    say("signed in as child \(username)")
                }
            }
        }
    }

    /// `children add …` / `children list [--json]`.
    struct Children: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A parent's children.", subcommands: [Add.self, List.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add a child to the signed-in parent.")
            @OptionGroup var options: CleverooOptions
            @Option var username: String
            @Option var age: Int
            @Option var gender: String

            func run() async {
                await cleverooCommand {
                    let session = try await options.session()
                    let child = try await session.authorized.send("POST", "/parent/children", body: [
                        "username": username, "age": age, "gender": gender,
                    ]).object
                    say("added child \(child?["username"] as? String ?? username) (age \(age), \(gender), id \(child?["id"] as? String ?? "?"))")
                }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the signed-in parent's children.")
            @OptionGroup var options: CleverooOptions
            @Flag(help: "Print the server's JSON array.") var json = false

            func run() async {
                await cleverooCommand {
                    let session = try await options.session()
                    guard let children = try await session.authorized.send("GET", "/parent/children").array else {
                        throw ClientFailure("the server's answer is not a list of children")
                    }
                    if json {
                        let data = try JSONSerialization.data(withJSONObject: children, options: [.sortedKeys])
                        say(String(decoding: data, as: UTF8.self))
                    } else if children.isEmpty {
                        say("no children yet")
                    } else {
                        for child in children {
                            let age = (child["age"] as? NSNumber)?.intValue ?? 0
                            say("\(child["username"] as? String ?? "?")\tage \(age)\t\(child["gender"] as? String ?? "?")\tid \(child["id"] as? String ?? "?")")
                        }
                    }
                }
            }
        }
    }

    /// `whoami`: who the stored session belongs to (refreshing it if it expired).
    struct WhoAmI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who is signed in.")
        @OptionGroup var options: CleverooOptions

        func run() async {
            await cleverooCommand {
                let session = try await options.session()
                _ = try await session.provider.validToken()
                guard let tokens = try await session.stored() else { throw ClientFailure.signedOut("cleveroo login parent --email EMAIL") }
                let role = tokens.metadata["role"] ?? "?"
                say("\(role) \(tokens.metadata["name"] ?? "?") (id \(tokens.metadata["id"] ?? "?"), stored in \(session.store.backendName))")
            }
        }
    }

    /// `logout`: ends the session on the server and removes it from the store.
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign out and forget the stored session.")
        @OptionGroup var options: CleverooOptions

        func run() async {
            await cleverooCommand {
                say(try await options.session().logOut())
            }
        }
    }
}
