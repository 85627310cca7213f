import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v14-change-events`: every write notes what it changed, in its own transaction: another
    /// instance on this data directory, or a server's event streams, read the notes to show it
    /// live.
    static func v14ChangeEvents(_ db: Database) throws {
        try ChangeRows.create(in: db)
    }
}
