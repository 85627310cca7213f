import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v10-refresh-tokens`: a server's refresh tokens: only hashes, each in the family of one
    /// sign-in, so a token presented twice can end the whole sign-in. Used ones stay until they
    /// expire, for that.
    static func v10RefreshTokens(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE refresh_token (
                    hash TEXT PRIMARY KEY NOT NULL,
                    family TEXT NOT NULL,
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    expires_at DATETIME NOT NULL,
                    used_at DATETIME,
                    revoked INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX refresh_token_by_family ON refresh_token(family);
                CREATE INDEX refresh_token_by_expiry ON refresh_token(expires_at);
                """)
    }
}
