import Logging
import ServiceLifecycle
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import Server

/// The platform service starts its HTTP application only once the change hub can take streams.
@Suite("Platform service")
struct PlatformServiceTests {
    @Test("the application starts after the hub knows where the log stands: a stream opened at once is taken")
    func hubReadyBeforeTheApplication() async throws {
        let hub = ChangeHub(
            log: ManualChangeLog(), keepAliveInterval: .seconds(15), stallLimit: .seconds(30), clock: ManualClock(),
            logger: Logger(label: "platform-service-tests", factory: { _ in SwiftLogNoOpLogHandler() }))
        let takenAtStart = Mutex<Bool?>(nil)
        let application = StartProbe {
            let subscription = hub.subscribe(EventMailbox(learner: UserID(1), signIn: "first", closeConnection: {})).subscription
            takenAtStart.withLock { $0 = subscription != nil }
        }

        try await PlatformService(application: application, hub: hub, wakeups: { AsyncStream { _ in } }).run()

        #expect(takenAtStart.withLock { $0 } == true)
    }
}

/// An application that does one thing when it starts, then ends.
private struct StartProbe: Service {
    let atStart: @Sendable () -> Void

    func run() async throws {
        atStart()
    }
}
