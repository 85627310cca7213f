import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v12-catalog-revision`: counts of matches, kept per query until the catalog changes:
    /// counting up to 10,000 matches was most of a search page's time on the server.
    static func v12CatalogRevision(_ db: Database) throws {
        try CatalogRevision.create(in: db)
    }
}
