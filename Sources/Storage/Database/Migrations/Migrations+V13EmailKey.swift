import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v13-email-key`: one form of each address (AccountRules.emailKey), compared by every
    /// lookup: NOCASE folds ASCII only, so `É@x.org` and `é@x.org`, or an NFC and an NFD
    /// spelling, were two accounts.
    static func v13EmailKey(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE user ADD COLUMN email_key TEXT")
        var taken: Set<String> = []
        for row in try Row.fetchAll(db, sql: "SELECT id, email FROM user ORDER BY id") {
            let id: Int64 = row["id"]
            var key = AccountRules.emailKey(row["email"] as String)
            // An older account whose address is an earlier one's in another form keeps
            // its row, but that address now signs in to the earlier account.
            if !taken.insert(key).inserted { key += "#\(id)" }
            try db.execute(sql: "UPDATE user SET email_key = ? WHERE id = ?", arguments: [key, id])
        }
        try db.execute(sql: "CREATE UNIQUE INDEX user_by_email_key ON user(email_key)")
    }
}
