import ArgumentParser

/// A duration argument: `90s`, `15m`, `1h`, `7d`, or plain seconds. Negative, empty, or
/// overflowing values are usage errors (exit 64).
struct DurationArgument: ExpressibleByArgument, Sendable, Hashable {
    /// The duration in whole seconds.
    let seconds: Int64

    init(seconds: Int64) { self.seconds = seconds }

    init?(argument: String) {
        var digits = Substring(argument)
        var unit: Int64 = 1
        switch argument.last {
        case "s": unit = 1; digits = digits.dropLast()
        case "m": unit = 60; digits = digits.dropLast()
        case "h": unit = 3_600; digits = digits.dropLast()
        case "d": unit = 86_400; digits = digits.dropLast()
        case "w": unit = 604_800; digits = digits.dropLast()
        default: break
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let value = Int64(digits) else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        seconds = product
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
