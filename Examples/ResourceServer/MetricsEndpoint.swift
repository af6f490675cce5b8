#if Hummingbird
import Foundation
import Hummingbird
import Metrics
import NIOCore
import Prometheus
import TokenKitRemote

/// The Prometheus backend of `resource-server` and its `GET /metrics` page.
///
/// The library only emits through swift-metrics; this example is the application, so it
/// is the one that bootstraps a backend (swift-prometheus), once, before the key source and
/// the middleware create their series.
struct MetricsEndpoint: Sendable {
    /// Where the series are kept and rendered from.
    let registry: PrometheusCollectorRegistry

    /// Bootstraps swift-metrics with a Prometheus factory over a new registry. Verification
    /// takes tens of microseconds, so its histogram gets finer buckets than the default.
    static func bootstrap() -> MetricsEndpoint {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets["tokenkit_verification_duration_seconds"] = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
            .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500),
            .seconds(1), .seconds(5), .seconds(10),
        ]
        factory.valueHistogramBuckets["tokenkit_refresh_waiters"] = [1, 2, 5, 10, 50, 100, 1000]
        MetricsSystem.bootstrap(factory)
        return MetricsEndpoint(registry: registry)
    }

    /// Adds `GET /metrics` to `router`: the Prometheus text format (version 0.0.4). The key
    /// gauges are brought up to date first (reading the key set's status does that).
    func addRoute<Context: RequestContext>(to router: Router<Context>, keys: RemoteJWKS) {
        router.get("metrics") { _, _ -> Response in
            _ = keys.status
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}
#endif
