import EduGoAPI
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle
import SharedKernel
import UnixSignals

/// How `edugo-server` runs: where it listens, how long tokens last. Where its data lives is
/// the executable's choice (`ServerComposition`): the server is given the ports.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var accessTokenTTL: Int
    public var logLevel: Logger.Level
    public var limits: ServerLimits
    /// Where `GET /metrics` is served apart from the API; nil: on the API's address when that
    /// is a loopback one, nowhere otherwise.
    public var metricsAddress: MetricsAddress?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, accessTokenTTL: Int = 900, logLevel: Logger.Level = .info,
        limits: ServerLimits = ServerLimits(), metricsAddress: MetricsAddress? = nil
    ) {
        self.host = host
        self.port = port
        self.accessTokenTTL = accessTokenTTL
        self.logLevel = logLevel
        self.limits = limits
        self.metricsAddress = metricsAddress
    }
}

/// `--metrics-address HOST:PORT`: a listener of its own for `/metrics` (and `/ready`,
/// `/health`), for a scraper on a network the API's clients do not reach.
public struct MetricsAddress: Sendable, Equatable {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (loopback); nil when it is none of those.
    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "127.0.0.1" }
        guard !host.contains(where: { $0 == "/" || $0 == " " }) else { return nil }
        self.init(host: host, port: port)
    }

    /// Whether `host` names this machine only: metrics are served on such an API address
    /// unless asked elsewhere, and on no other (counts and routes are no business of the
    /// public's).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// The EduGo platform: the API over the ports it is given, until SIGTERM or Ctrl-C.
public enum EduGoServer {
    /// Serves `stores` until a shutdown signal, then lets requests in flight finish (at most
    /// 10 s). `onListening` is told the address once the socket is bound (`--port 0` picks one).
    public static func run(
        stores: PlatformStores, configuration: ServerConfiguration, onListening: @escaping @Sendable (String, Int) -> Void,
        onMetricsListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }
    ) async throws {
        let logger = Logger(label: "edugo-server")
        let listening = Listening(
            api: { port in onListening(configuration.host, port) },
            metrics: { port in onMetricsListening(configuration.metricsAddress?.host ?? configuration.host, port) })
        let application = try await application(
            stores: stores, host: configuration.host, port: configuration.port, accessTokenTTL: configuration.accessTokenTTL,
            limits: configuration.limits, metricsAddress: configuration.metricsAddress, now: Date.init, logger: logger,
            onListening: listening
        )
        var groupConfiguration = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
        )
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(10)
        try await ServiceGroup(configuration: groupConfiguration).run()
    }

    /// Told each listener's port once it is bound.
    public struct Listening: Sendable {
        public var api: @Sendable (Int) -> Void
        public var metrics: @Sendable (Int) -> Void

        public init(api: @escaping @Sendable (Int) -> Void, metrics: @escaping @Sendable (Int) -> Void = { _ in }) {
            self.api = api
            self.metrics = metrics
        }
    }
}

extension EduGoServer {
    /// What runs around every operation of the API unless a test says otherwise: the bearer
    /// token's check.
    public static var standardOperationMiddlewares: [any ServerMiddleware] { [AuthorizationMiddleware()] }

    /// The platform over `stores`, as a service: tests run it in their own process and cancel
    /// it when done. `operationMiddlewares` run around every operation of the API, generated
    /// or not; tests add an observer to them.
    public static func application(
        stores: PlatformStores, host: String, port: Int, accessTokenTTL: Int, limits: ServerLimits, metricsAddress: MetricsAddress? = nil,
        now: @escaping @Sendable () -> Date, clock: any Clock<Duration> = ContinuousClock(), logger: Logger,
        operationMiddlewares: [any ServerMiddleware] = standardOperationMiddlewares, onListening: Listening
    ) async throws -> some Service {
        let tokens = await TokenService(
            signingKey: stores.signingKey, refreshTokens: stores.refreshTokens, accessTokenTTL: accessTokenTTL, now: now)
        let pages = limits.pageCacheBytes > 0 ? PageCache(capacity: limits.pageCacheBytes) : nil
        let hub = ChangeHub(
            log: stores.changes, keepAliveInterval: limits.keepAliveInterval, stallLimit: limits.connectionTimeout,
            streamsPerLearner: limits.streamsPerLearner, maximumStreams: limits.maximumEventStreams, clock: clock, logger: logger,
            hear: { pages?.hear($0) })
        let hashGate = HashGate(slots: limits.hashSlots, maximumWait: limits.hashWait)
        let courses = stores.courses
        let metrics = ServerMetrics(
            readings: .init(
                eventStreams: { hub.streamCount }, hashes: { await hashGate.load }, database: stores.databaseUse,
                pageCache: { pages?.counts }, changesRead: { hub.readThrough },
                catalogSize: { () async throws(AppError) -> Int in
                    switch try await courses.count(CatalogQuery(text: ""), for: nil) {
                    case .exactly(let count), .atLeast(let count): count
                    }
                }))
        let languages = ServerLanguages()
        let handler = EduGoAPIHandler(
            courses: stores.courses,
            enrollments: stores.enrollments,
            favourites: stores.favourites,
            profiles: stores.profiles,
            learning: stores.learning,
            operations: stores.operations,
            accounts: stores.accounts,
            tokens: tokens,
            signInLimiter: SignInRateLimiter(log: stores.signInAttempts ?? InMemorySignInAttempts(), now: now),
            clientLimits: ClientRateLimiter(perMinute: limits.requestsPerMinute, now: now),
            hashGate: hashGate,
            events: EventStreams(hub: hub, log: stores.changes, ids: EventIDs(signingKey: stores.signingKey), tokens: tokens),
            ready: stores.ready,
            metrics: metricsAddress == nil && MetricsAddress.isLoopback(host) ? metrics : nil,
            languages: languages,
            pages: pages
        )

        let router = Router(context: ServerRequestContext.self)
        router.middlewares.add(MetricsMiddleware(metrics: metrics))
        router.middlewares.add(
            ErrorMiddleware(routes: try KnownRoutes(handler), bodyTimeLimit: limits.connectionTimeout, languages: languages))
        router.middlewares.add(ClientAddressMiddleware())
        router.middlewares.add(ClientConnectionMiddleware())
        router.middlewares.add(ChangePokeMiddleware(hub: hub))
        // Compact JSON with sorted keys: pretty-printing is the generator's default, and costs
        // bytes and time on every answer; without sorted keys an object of two parts (a course
        // with its lessons) came in the process's hash order, so each server tagged the same
        // course differently. A time that is not one is 400.
        try handler.registerHandlers(
            on: GeneratedRoutes(router: router, leftOut: (CatalogRoute.method, CatalogRoute.path)),
            configuration: Configuration(
                dateTranscoder: RequestDateTranscoder(), jsonEncodingOptions: [.withoutEscapingSlashes, .sortedKeys]),
            middlewares: operationMiddlewares + [PublicPageMiddleware(cache: pages)]
        )
        let catalog = CatalogRoute(handler: handler, middlewares: operationMiddlewares, cache: pages)
        router.on(RouterPath(CatalogRoute.path), method: CatalogRoute.method) { request, _ in try await catalog.respond(to: request) }
        let listener = ListenerLimits(limits, maximumConnections: limits.maximumConnections)
        let application = Application(
            router: router,
            server: listener.server,
            configuration: listener.configuration(address: .hostname(host, port: port), logger: logger),
            onServerRunning: { channel in onListening.api(channel.localAddress?.port ?? port) },
            logger: logger
        )
        var service = PlatformService(application: application, hub: hub, wakeups: stores.changeWakeups)
        if let metricsAddress {
            service.beside.append(
                metricsApplication(
                    metrics, ready: stores.ready, at: metricsAddress, limits: limits, logger: logger, onListening: onListening.metrics))
        }
        return service
    }

    /// The metrics address's own listener: `/metrics`, `/ready` and `/health`, nothing else.
    private static func metricsApplication(
        _ metrics: ServerMetrics, ready: @escaping @Sendable () async throws(AppError) -> Void, at address: MetricsAddress,
        limits: ServerLimits, logger: Logger, onListening: @escaping @Sendable (Int) -> Void
    ) -> some Service {
        let router = Router()
        MetricsRoute.add(to: router, metrics: metrics)
        router.get("/health") { _, _ in Self.json(.ok, #"{"status":"ok"}"#) }
        router.get("/ready") { _, _ in
            do {
                try await Limit.within(EduGoAPIHandler.readyLimit) { try await ready() }
                return Self.json(.ok, #"{"status":"ok"}"#)
            } catch {
                return Self.json(.serviceUnavailable, #"{"error":"unavailable","message":"The database does not answer."}"#)
            }
        }
        // The API's connection limits, through the same code: only the cap in all is its own.
        let listener = ListenerLimits(limits, maximumConnections: limits.metricsConnections)
        return Application(
            router: router, server: listener.server,
            configuration: listener.configuration(address: .hostname(address.host, port: address.port), logger: logger),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? address.port) }, logger: logger)
    }

    private static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
