import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v1-schema`: the catalog, the accounts and the one signed-in learner of a data directory.
    static func v1Schema(_ db: Database) throws {
        try db.execute(sql: "PRAGMA application_id = \(AppDatabase.applicationID)")
        try db.execute(
            sql: """
                CREATE TABLE course (
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    sort_key TEXT NOT NULL,
                    instructor TEXT NOT NULL,
                    category TEXT,
                    level TEXT NOT NULL CHECK (level IN ('beginner', 'intermediate', 'advanced')),
                    duration_minutes INTEGER NOT NULL CHECK (duration_minutes > 0),
                    price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
                    currency TEXT NOT NULL CHECK (length(currency) = 3),
                    capacity INTEGER CHECK (capacity IS NULL OR capacity >= 0),
                    enrolled_count INTEGER NOT NULL DEFAULT 0 CHECK (enrolled_count >= 0),
                    tags TEXT NOT NULL DEFAULT '[]',
                    prerequisite_id TEXT,
                    active INTEGER NOT NULL DEFAULT 1,
                    description TEXT NOT NULL
                );
                CREATE INDEX course_by_sort_key ON course(sort_key, id);

                CREATE TABLE user (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    password_hash TEXT NOT NULL,
                    role TEXT NOT NULL DEFAULT 'learner',
                    created_at DATETIME NOT NULL
                );

                -- One signed-in learner per data directory.
                CREATE TABLE session (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    created_at DATETIME NOT NULL
                );
                """)
    }
}
