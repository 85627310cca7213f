import Foundation
import Platform
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import Storage

/// The offline week (`SyncSimulation`) on SQLite, each store in a directory of its own.
@Suite("Sync simulation: SQLite")
struct SQLiteSyncSimulationTests {
    @Test("three terminals, a week offline, a lossy network: nothing lost or doubled", arguments: [11, 12] as [UInt64])
    func week(seed: UInt64) async throws {
        let directories = Directories()
        defer { directories.removeAll() }
        try await SyncSimulation(seed: seed).run {
            let directory = directories.make()
            return .sqlite(try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] }))
        }
    }

    /// Temporary directories made while the simulation runs, removed at its end.
    final class Directories: Sendable {
        private let made = Mutex<[TemporaryDirectory]>([])

        func make() -> TemporaryDirectory {
            let directory = TemporaryDirectory()
            made.withLock { $0.append(directory) }
            return directory
        }

        func removeAll() { made.withLock { $0.forEach { $0.remove() } } }
    }
}
