import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v6-search-prefixes-up-to-6`: prefixes of 4 to 6 characters were read whole from the
    /// index (15 ms for `fran` at 1 M courses); indexed, they are read a page at a time like the
    /// shorter ones.
    static func v6SearchPrefixesUpTo6(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE course_search")
        try db.execute(sql: CatalogOrder.createSearchTable(.v6))
        try CatalogOrder.renumber(db, layout: .v6)
    }
}
