import CoreMetrics
import HTTPTypes
import Hummingbird
import Prometheus
import SharedKernel
import Synchronization

/// What an operator watches (`GET /metrics`, Prometheus text): requests by route, method and
/// status with their latency, requests in flight, and, read when scraped, event streams open,
/// password hashes running and queued, the database pool's use and the catalog's size.
///
/// Recorded through swift-metrics' API with a factory of this server's own (no process-wide
/// bootstrap: each server, and each test's, counts for itself), written by swift-prometheus.
final class ServerMetrics: Sendable {
    /// What is read at each scrape, not counted on the way.
    struct Readings: Sendable {
        var eventStreams: @Sendable () -> Int
        var hashes: @Sendable () async -> (running: Int, queued: Int)
        var database: DatabaseUse
        /// The page cache's counts; nil without one.
        var pageCache: @Sendable () -> PageCache.Counts?
        /// The change log's id this process has read through; nil before its first read.
        var changesRead: @Sendable () -> Int64?
        var catalogSize: @Sendable () async throws(AppError) -> Int
    }

    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let readings: Readings
    private let inFlight: CoreMetrics.Meter
    private let endpoints = Mutex<[EndpointKey: (count: CoreMetrics.Counter, latency: CoreMetrics.Timer)]>([:])
    /// How long a scrape waits for the catalog's size once one was read; past it the last one
    /// is written: a database that went away must not hold every scrape (its 503s and
    /// `/ready` tell that). Until one is read, a scrape waits for it.
    static let readingLimit: Duration = .milliseconds(250)
    private let sizeKnown = Mutex(false)
    /// The page cache's counts as last scraped: its counters move by what was done since.
    private let cacheScraped = Mutex(PageCache.Counts())

    private struct EndpointKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    init(readings: Readings) {
        var factory = PrometheusMetricsFactory(registry: registry)
        // From a cached page (under a millisecond) to a sign-in's hash (hundreds).
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2_500),
            .seconds(5), .seconds(10),
        ]
        self.factory = factory
        self.readings = readings
        inFlight = CoreMetrics.Meter(label: "edugo_http_requests_in_flight", dimensions: [], factory: factory)
    }

    /// A request starts; `finished` is called with its status when its answer is ready.
    func started() { inFlight.increment() }

    func finished(route: String, method: HTTPRequest.Method, status: Int, after elapsed: Duration) {
        inFlight.decrement()
        let key = EndpointKey(route: route, method: method.rawValue, status: status)
        let metrics = endpoints.withLock { endpoints in
            if let known = endpoints[key] { return known }
            let dimensions = [("route", key.route), ("method", key.method), ("status", String(key.status))]
            let made = (
                count: CoreMetrics.Counter(label: "edugo_http_requests_total", dimensions: dimensions, factory: factory),
                latency: CoreMetrics.Timer(label: "edugo_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            )
            endpoints[key] = made
            return made
        }
        metrics.count.increment()
        metrics.latency.recordNanoseconds(elapsed.nanoseconds)
    }

    /// The text a scrape gets: the readings taken now, then every metric.
    func scrape() async -> [UInt8] {
        let hashes = await readings.hashes()
        gauge("edugo_event_streams_open", readings.eventStreams())
        gauge("edugo_password_hashes", hashes.running, [("state", "running")])
        gauge("edugo_password_hashes", hashes.queued, [("state", "queued")])
        gauge("edugo_database_connections", readings.database.inUse, [("state", "in_use")])
        gauge("edugo_database_connections", readings.database.waiting, [("state", "waiting")])
        if let counts = readings.pageCache() { scrape(counts) }
        if let read = readings.changesRead() { gauge("edugo_change_log_read_through", Int(clamping: read)) }
        let catalogSize = readings.catalogSize
        let size: Int? =
            if sizeKnown.withLock({ $0 }) {
                try? await Limit.within(Self.readingLimit) { try await catalogSize() }
            } else {
                try? await catalogSize()
            }
        if let size {
            gauge("edugo_catalog_courses", size)
            sizeKnown.withLock { $0 = true }
        }
        return registry.emitToBuffer()
    }

    /// The page cache's counters moved on to `counts`, and what it holds now.
    private func scrape(_ counts: PageCache.Counts) {
        let before = cacheScraped.withLock { scraped in
            defer { scraped = counts }
            return scraped
        }
        let counters: [(String, Int)] = [
            ("edugo_page_cache_hits_total", counts.hits - before.hits), ("edugo_page_cache_misses_total", counts.misses - before.misses),
            ("edugo_page_cache_evictions_total", counts.evictions - before.evictions),
            ("edugo_page_cache_dropped_total", counts.dropped - before.dropped),
            ("edugo_page_cache_refused_total", counts.refused - before.refused),
        ]
        for (label, moved) in counters {
            CoreMetrics.Counter(label: label, dimensions: [], factory: factory).increment(by: max(0, moved))
        }
        gauge("edugo_page_cache_bytes", counts.bytes)
        gauge("edugo_page_cache_pages", counts.pages)
    }

    private func gauge(_ label: String, _ value: Int, _ dimensions: [(String, String)] = []) {
        CoreMetrics.Gauge(label: label, dimensions: dimensions, factory: factory).record(value)
    }
}

/// An answer within a time limit, or `AppError.storage` at the limit (the call is cancelled).
enum Limit {
    static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await withDeadline(limit, on: ContinuousClock(), operation: body)
        } catch is DeadlineExceeded {
            throw AppError.storage(.reading, detail: "the database did not answer within \(limit)")
        }
    }
}

extension Duration {
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Counts every request into `ServerMetrics`, outside `ErrorMiddleware`, so a failure is
/// counted by the status its client got. The route is the matched address's template
/// (`/v1/courses/{id}`, never an id); an address no route matched is `unmatched`.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        metrics.started()
        do {
            let response = try await next(request, context)
            metrics.finished(
                route: context.endpointPath ?? "unmatched", method: request.method, status: Int(response.status.code),
                after: ContinuousClock.now - started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.finished(
                route: context.endpointPath ?? "unmatched", method: request.method, status: Int(status),
                after: ContinuousClock.now - started)
            throw error
        }
    }
}

/// `GET /metrics` on a router: the scrape, as Prometheus text format 0.0.4.
enum MetricsRoute {
    static func add<Context: RequestContext>(to router: Router<Context>, metrics: ServerMetrics) {
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: await metrics.scrape())))
        }
    }
}
