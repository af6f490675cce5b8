import Foundation

extension TokenKitCLI {
    /// The environment a ``TokenKitCLI`` run gets; every run names one (there is no default).
    public struct Environment: Sendable {
        /// The variables the child gets exactly; `nil`: this process's, plus `added`.
        private let exact: [String: String]?
        /// Variables added to this process's environment (replacing those of the same name).
        private let added: [String: String]

        /// The `PATH` ``isolated(_:)`` supplies when the variables set none.
        public static let standardPATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"

        /// This test process's environment, unchanged (so whatever the developer's shell or CI
        /// exported reaches the child: use it only where that cannot matter).
        public static let inherited = Environment(exact: nil, added: [:])

        /// This test process's environment with `variables` added (replacing those of the same
        /// name); nothing is removed.
        public static func inherited(adding variables: [String: String]) -> Environment {
            Environment(exact: nil, added: variables)
        }

        /// Exactly `variables`, nothing else: not even `PATH` unless it is among them.
        public static func exactly(_ variables: [String: String]) -> Environment {
            Environment(exact: variables, added: [:])
        }

        /// Exactly `variables`, plus `PATH` = ``standardPATH`` when they set no `PATH` (a child
        /// that finds system tools but sees nothing else of the test's environment). To give
        /// the child no search path, set `"PATH": ""` or use ``exactly(_:)``.
        public static func isolated(_ variables: [String: String]) -> Environment {
            Environment(exact: variables.merging(["PATH": standardPATH]) { given, _ in given }, added: [:])
        }

        /// The child's whole environment.
        var variables: [String: String] {
            exact ?? ChildProcess.inheritedEnvironment(adding: added)
        }
    }
}
