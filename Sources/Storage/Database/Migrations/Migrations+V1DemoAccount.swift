import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v1-demo-account`: the demo learner (DemoAccount), its password hashed here.
    static func v1DemoAccount(_ db: Database, passwordHasher: PasswordHasher) throws {
        let now = Date()
        try db.execute(
            sql: "INSERT INTO user (name, email, password_hash, role, created_at) VALUES (?, ?, ?, 'learner', ?)",
            arguments: [demoName, demoEmail, try passwordHasher.hash(demoPassword), now]
        )
    }
}
