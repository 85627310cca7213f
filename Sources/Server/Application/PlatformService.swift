import ServiceLifecycle

/// The platform as one service: the HTTP application and, beside it, the change hub that feeds
/// its event streams. A graceful shutdown ends the streams first (their clients resume from
/// their last event, elsewhere or after the restart), so the requests the application lets
/// finish are the ones that end by themselves.
struct PlatformService<HTTPApplication: Service>: Service {
    let application: HTTPApplication
    let hub: ChangeHub
    let wakeups: @Sendable () -> AsyncStream<Void>
    /// Listeners beside the API's (the metrics address), stopped with it.
    var beside: [any Service] = []

    func run() async throws {
        let hub = self.hub
        let wakeups = self.wakeups
        // Where the log stands is read before the server listens: a stream opened at once (a
        // client resuming after a restart) would otherwise find the hub not ready and get 503.
        // A read that fails leaves that to the hub's next wake-up or tick, as before.
        await hub.catchUp()
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await hub.run(wakeups: wakeups()) }
            for service in beside { group.addTask { try await service.run() } }
            defer {
                hub.close()
                group.cancelAll()
            }
            try await withGracefulShutdownHandler {
                try await application.run()
            } onGracefulShutdown: {
                hub.close()
            }
        }
    }
}
