import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v4-search-key`: the folded text a search compares, for the rows already stored.
    static func v4SearchKey(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE course ADD COLUMN search_key TEXT NOT NULL DEFAULT ''")
        let update = try db.makeStatement(sql: "UPDATE course SET search_key = ? WHERE id = ?")
        for row in try Row.fetchAll(db, sql: "SELECT id, title, instructor, tags FROM course") {
            let tags = (try? JSONSerialization.jsonObject(with: Data((row["tags"] as String? ?? "[]").utf8))) as? [String] ?? []
            let key = SortKey.searchKey(
                title: row["title"] as String? ?? "", instructor: row["instructor"] as String? ?? "", tags: tags)
            try update.execute(arguments: [key, row["id"] as String? ?? ""])
        }
    }
}
