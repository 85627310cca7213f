import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v1-seed-catalog`: the built-in catalog (or the one the caller seeds).
    static func v1SeedCatalog(_ db: Database, seedCatalog: () throws -> [CourseEntry]) throws {
        for entry in try seedCatalog() {
            try CourseRow.insertSeed(entry.course, in: db)
        }
    }
}
