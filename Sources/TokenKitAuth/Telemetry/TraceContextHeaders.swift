import Instrumentation

/// Writes the caller's trace context into an outgoing request's headers through the
/// instrument the application bootstrapped (or scoped with `withTracer`), e.g. W3C
/// `traceparent`; with no instrument (the default no-op one) nothing is written.
enum TraceContextHeaders {
    /// `headers` with the current task's trace context injected (each injected field
    /// replaces a field of the same name); unchanged when there is no current context.
    static func injecting(into headers: [HTTPHeader]) -> [HTTPHeader] {
        guard let context = InstrumentationContext.current else { return headers }
        var copy = headers
        InstrumentationSystem.instrument.inject(context, into: &copy, using: HeaderInjector())
        return copy
    }

    private struct HeaderInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [HTTPHeader]) {
            carrier.replaceAll(named: key, with: value)
        }
    }
}
