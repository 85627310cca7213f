import Foundation
import GRDB
import Platform
import SharedKernel

/// The versioned schema. Migrations run once each and in order; never edit a shipped one,
/// add a new one.
enum Migrations {
    static let demoName = DemoAccount.name
    static let demoEmail = DemoAccount.email
    static let demoPassword = DemoAccount.password

    static func migrator(
        passwordHasher: PasswordHasher,
        seedCatalog: @escaping @Sendable () throws -> [CourseEntry],
        today: LearnerDay? = nil
    ) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1-schema") { db in
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

        migrator.registerMigration("v1-seed-catalog") { db in
            for entry in try seedCatalog() {
                try CourseRow.insertSeed(entry.course, in: db)
            }
        }

        migrator.registerMigration("v1-demo-account") { db in
            let now = Date()
            try db.execute(
                sql: "INSERT INTO user (name, email, password_hash, role, created_at) VALUES (?, ?, ?, 'learner', ?)",
                arguments: [demoName, demoEmail, try passwordHasher.hash(demoPassword), now]
            )
        }

        migrator.registerMigration("v2-enrollments") { db in
            try db.execute(
                sql: """
                    CREATE TABLE enrollment (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        course_id TEXT NOT NULL REFERENCES course(id) ON DELETE CASCADE,
                        enrolled_at DATETIME NOT NULL,
                        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'dropped')),
                        progress INTEGER NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
                        UNIQUE (user_id, course_id)
                    );
                    CREATE INDEX enrollment_by_course ON enrollment(course_id);
                    """)
        }

        migrator.registerMigration("v3-favourites") { db in
            try db.execute(
                sql: """
                    CREATE TABLE favourite (
                        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        course_id TEXT NOT NULL REFERENCES course(id) ON DELETE CASCADE,
                        created_at DATETIME NOT NULL,
                        PRIMARY KEY (user_id, course_id)
                    ) WITHOUT ROWID;
                    """)
        }

        migrator.registerMigration("v4-search-key") { db in
            try db.execute(sql: "ALTER TABLE course ADD COLUMN search_key TEXT NOT NULL DEFAULT ''")
            let update = try db.makeStatement(sql: "UPDATE course SET search_key = ? WHERE id = ?")
            for row in try Row.fetchAll(db, sql: "SELECT id, title, instructor, tags FROM course") {
                let tags = (try? JSONSerialization.jsonObject(with: Data((row["tags"] as String? ?? "[]").utf8))) as? [String] ?? []
                let key = SortKey.searchKey(
                    title: row["title"] as String? ?? "", instructor: row["instructor"] as String? ?? "", tags: tags)
                try update.execute(arguments: [key, row["id"] as String? ?? ""])
            }
        }

        migrator.registerMigration("v5-catalog-order-and-full-text-search") { db in
            try db.execute(sql: "ALTER TABLE course ADD COLUMN sort_rank INTEGER")
            try db.execute(sql: "CREATE INDEX course_by_rank ON course(sort_rank)")
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE course_search USING fts5(
                        title, instructor, tags,
                        content = 'course', content_rowid = 'sort_rank',
                        tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3'
                    )
                    """)
            try CatalogOrder.renumber(db, layout: .v6)
        }

        // Prefixes of 4 to 6 characters were read whole from the index (15 ms for `fran` at
        // 1 M courses); indexed, they are read a page at a time like the shorter ones.
        migrator.registerMigration("v6-search-prefixes-up-to-6") { db in
            try db.execute(sql: "DROP TABLE course_search")
            try db.execute(sql: CatalogOrder.createSearchTable(.v6))
            try CatalogOrder.renumber(db, layout: .v6)
        }

        // Syllabi and lesson progress; counts that a damaged import pushed out of range
        // (a REAL past Int64 once crashed every start) are brought back into it.
        migrator.registerMigration("v7-lessons-and-sane-counts") { db in
            try db.execute(
                sql: """
                    ALTER TABLE course ADD COLUMN lesson_count INTEGER NOT NULL DEFAULT 1;
                    CREATE TABLE lesson (
                        course_id TEXT NOT NULL REFERENCES course(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL CHECK (position >= 1),
                        title TEXT NOT NULL,
                        minutes INTEGER NOT NULL CHECK (minutes >= 1),
                        PRIMARY KEY (course_id, position)
                    ) WITHOUT ROWID;
                    ALTER TABLE enrollment ADD COLUMN completed_at DATETIME;
                    CREATE TABLE lesson_progress (
                        enrollment_id INTEGER NOT NULL REFERENCES enrollment(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL CHECK (position >= 1),
                        done_at DATETIME NOT NULL,
                        PRIMARY KEY (enrollment_id, position)
                    ) WITHOUT ROWID;
                    UPDATE course SET enrolled_count = CASE
                            WHEN typeof(enrolled_count) = 'integer' AND enrolled_count < 0 THEN 0
                            ELSE min(coalesce(capacity, 10000000), 10000000) END
                        WHERE typeof(enrolled_count) != 'integer' OR enrolled_count NOT BETWEEN 0 AND 10000000;
                    """)
            // The built-in courses get their syllabi, where they are still the built-in course;
            // every other course is one lesson named after it (stored as no rows).
            for entry in try seedCatalog() {
                guard let lessons = entry.lessons,
                    let stored = try Row.fetchOne(
                        db, sql: "SELECT title, duration_minutes FROM course WHERE id = ?", arguments: [entry.course.id.rawValue]),
                    stored["title"] == entry.course.title, stored["duration_minutes"] == entry.course.durationMinutes
                else { continue }
                try CourseRow.storeLessonTitles(lessons, of: entry.course.id, in: db)
                try db.execute(
                    sql: "UPDATE course SET lesson_count = ? WHERE id = ?", arguments: [lessons.count, entry.course.id.rawValue])
            }
        }

        // The demo learner's starting progress (DemoAccount.progressPlan), only for a demo
        // account that never enrolled: nobody's own history is rewritten.
        migrator.registerMigration("v8-demo-progress") { db in
            guard let demo = try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE email = ?", arguments: [demoEmail]),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM enrollment WHERE user_id = ?", arguments: [demo]) == 0
            else { return }
            for step in DemoAccount.progressPlan(now: Date()) {
                let course = step.courseID.rawValue
                guard let lessons = try Int.fetchOne(db, sql: "SELECT lesson_count FROM course WHERE id = ?", arguments: [course]) else {
                    continue
                }
                try db.execute(
                    sql:
                        "INSERT INTO enrollment (user_id, course_id, enrolled_at, status, progress, completed_at) VALUES (?, ?, ?, ?, 0, ?)",
                    arguments: [demo, course, step.enrolledAt, step.status.rawValue, step.completedAt]
                )
                let enrollment = db.lastInsertedRowID
                for lesson in step.lessons(of: lessons) {
                    try db.execute(
                        sql: "INSERT INTO lesson_progress (enrollment_id, position, done_at) VALUES (?, ?, ?)",
                        arguments: [enrollment, lesson.position, lesson.doneAt]
                    )
                }
                try db.execute(
                    sql: "UPDATE course SET enrolled_count = min(enrolled_count + 1, coalesce(capacity, 10000000)) WHERE id = ?",
                    arguments: [course]
                )
            }
        }

        // Search folds letters without a decomposition (ø→o, ł→l, ß→ss…) and filters:
        // category, level, free and available are tokens of the index, and the learner's
        // favourites and enrollments carry their course's rank, so every filter walks an
        // index in catalog order. The sort key folds the same way, so the order is renumbered.
        migrator.registerMigration("v9-folding-and-filters") { db in
            try db.execute(
                sql: """
                    ALTER TABLE course ADD COLUMN category_key TEXT NOT NULL DEFAULT '';
                    ALTER TABLE course ADD COLUMN search_facets TEXT GENERATED ALWAYS AS (
                        '_cat' || category_key || ' _lvl' || level
                        || CASE WHEN price_minor = 0 THEN ' _isfree' ELSE '' END
                        || CASE WHEN active = 1 AND (capacity IS NULL OR enrolled_count < capacity)
                                AND enrolled_count < \(CourseLimits.seats.upperBound) THEN ' _isavail' ELSE '' END
                    ) VIRTUAL;
                    ALTER TABLE favourite ADD COLUMN course_rank INTEGER;
                    ALTER TABLE enrollment ADD COLUMN course_rank INTEGER;
                    CREATE INDEX favourite_by_rank ON favourite(user_id, course_rank);
                    CREATE INDEX favourite_by_course ON favourite(course_id);
                    CREATE INDEX enrollment_by_rank ON enrollment(user_id, course_rank) WHERE status != 'dropped';
                    CREATE TRIGGER favourite_gets_rank AFTER INSERT ON favourite BEGIN
                        UPDATE favourite SET course_rank = (SELECT sort_rank FROM course WHERE id = new.course_id)
                        WHERE user_id = new.user_id AND course_id = new.course_id;
                    END;
                    CREATE TRIGGER enrollment_gets_rank AFTER INSERT ON enrollment BEGIN
                        UPDATE enrollment SET course_rank = (SELECT sort_rank FROM course WHERE id = new.course_id) WHERE id = new.id;
                    END;
                    DROP TABLE course_search;
                    """)
            try db.execute(sql: CatalogOrder.createSearchTable(.v9))
            let update = try db.makeStatement(sql: "UPDATE course SET sort_key = ?, search_key = ?, category_key = ? WHERE id = ?")
            for row in try Row.fetchAll(db, sql: "SELECT id, title, instructor, tags, category FROM course") {
                let tags = (try? JSONSerialization.jsonObject(with: Data((row["tags"] as String? ?? "[]").utf8))) as? [String] ?? []
                let title = row["title"] as String? ?? ""
                try update.execute(arguments: [
                    SortKey.make(title),
                    SortKey.searchKey(title: title, instructor: row["instructor"] as String? ?? "", tags: tags),
                    TextFolding.key(row["category"] as String? ?? ""),
                    row["id"] as String? ?? "",
                ])
            }
            try CatalogOrder.renumber(db, layout: .v9)
        }

        // A server's refresh tokens: only hashes, each in the family of one sign-in, so a token
        // presented twice can end the whole sign-in. Used ones stay until they expire, for that.
        migrator.registerMigration("v10-refresh-tokens") { db in
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

        // The size of the catalog, kept by triggers: counting a million rows for every blank
        // catalog page cost 5.5 ms, most of a server's time per page.
        migrator.registerMigration("v11-catalog-size") { db in
            try db.execute(
                sql: """
                    CREATE TABLE catalog_size (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        courses INTEGER NOT NULL
                    );
                    INSERT INTO catalog_size (id, courses) SELECT 1, count(*) FROM course;
                    CREATE TRIGGER catalog_size_after_insert AFTER INSERT ON course BEGIN
                        UPDATE catalog_size SET courses = courses + 1 WHERE id = 1;
                    END;
                    CREATE TRIGGER catalog_size_after_delete AFTER DELETE ON course BEGIN
                        UPDATE catalog_size SET courses = courses - 1 WHERE id = 1;
                    END;
                    """)
        }

        // Counts of matches, kept per query until the catalog changes: counting up to 10,000
        // matches was most of a search page's time on the server.
        migrator.registerMigration("v12-catalog-revision") { db in
            try CatalogRevision.create(in: db)
        }

        // One form of each address (AccountRules.emailKey), compared by every lookup: NOCASE
        // folds ASCII only, so `É@x.org` and `é@x.org`, or an NFC and an NFD spelling, were
        // two accounts.
        migrator.registerMigration("v13-email-key") { db in
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

        // Every write notes what it changed, in its own transaction: another instance on this
        // data directory, or a server's event streams, read the notes to show it live.
        migrator.registerMigration("v14-change-events") { db in
            try ChangeRows.create(in: db)
        }

        // A completion is permanent history: prerequisites are met, and the learner's list
        // keeps a course left after completing it, by `completed_at` alone. Every completed row
        // the app wrote has its date; one written otherwise gets its last lesson's (else its
        // enrollment's), so it still meets the prerequisites it met. Left rows keep their
        // lessons and date, as they always did: joining again now brings them back.
        migrator.registerMigration("v15-completion-is-history") { db in
            try db.execute(
                sql: """
                    UPDATE enrollment SET completed_at = coalesce(
                        (SELECT max(done_at) FROM lesson_progress WHERE lesson_progress.enrollment_id = enrollment.id), enrolled_at)
                    WHERE status = 'completed' AND completed_at IS NULL
                    """)
        }

        // Lessons to read and questions to answer: bodies and questions kept apart from the
        // syllabus (a course page reads titles only), answers with the SM-2 schedule of the
        // card each starts, and the days a learner reviewed (with lessons done, the streak).
        // The built-in courses get their content where they are still the built-in course.
        migrator.registerMigration("v16-lessons-questions-reviews") { db in
            try db.execute(
                sql: """
                    ALTER TABLE lesson ADD COLUMN question_count INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE lesson_content (
                        course_id TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        body TEXT,
                        questions TEXT,
                        PRIMARY KEY (course_id, position),
                        FOREIGN KEY (course_id, position) REFERENCES lesson(course_id, position) ON DELETE CASCADE
                    );
                    CREATE TABLE answer (
                        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        course_id TEXT NOT NULL,
                        lesson INTEGER NOT NULL CHECK (lesson >= 1),
                        question INTEGER NOT NULL CHECK (question >= 0),
                        chosen TEXT NOT NULL,
                        is_right INTEGER NOT NULL,
                        answered_day INTEGER NOT NULL,
                        repetitions INTEGER NOT NULL,
                        ease_millis INTEGER NOT NULL,
                        interval_days INTEGER NOT NULL,
                        due_day INTEGER NOT NULL,
                        PRIMARY KEY (user_id, course_id, lesson, question)
                    ) WITHOUT ROWID;
                    CREATE INDEX answer_by_due ON answer(user_id, due_day);
                    CREATE TABLE review_day (
                        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        day INTEGER NOT NULL,
                        PRIMARY KEY (user_id, day)
                    ) WITHOUT ROWID;
                    """)
            for entry in try seedCatalog() {
                guard let lessons = entry.lessons, lessons.contains(where: { $0.content != nil }),
                    let stored = try Row.fetchOne(
                        db, sql: "SELECT title, lesson_count FROM course WHERE id = ?", arguments: [entry.course.id.rawValue]),
                    stored["title"] == entry.course.title, stored["lesson_count"] == lessons.count
                else { continue }
                try CourseRow.storeLessons(lessons, of: entry.course.id, in: db)
            }
        }

        // The demo learner's answers (DemoAccount.answerPlan), so the review tab has cards on
        // the first day; only for a demo account that never answered.
        migrator.registerMigration("v17-demo-answers") { db in
            guard let demo = try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE email = ?", arguments: [demoEmail]),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM answer WHERE user_id = ?", arguments: [demo]) == 0
            else { return }
            // The learner's day where the app is (its calendar, `--today`), else the wall clock's.
            let today = today ?? LearnerDay(Date(), secondsFromGMT: TimeZone.current.secondsFromGMT())
            for plan in DemoAccount.answerPlan(today: today) {
                guard
                    try String.fetchOne(
                        db, sql: "SELECT status FROM enrollment WHERE user_id = ? AND course_id = ?",
                        arguments: [demo, plan.courseID.rawValue]) != nil
                else { continue }
                for lesson in plan.lessons {
                    let questions = try SQLiteLearningRepository.content(plan.courseID, lesson, in: db, ifThere: true).questions
                    for (index, question) in questions.enumerated() {
                        let (chosen, card) = plan.answer(to: question, index: index, lesson: lesson)
                        let ref = QuestionRef(courseID: plan.courseID, lesson: lesson, question: index)
                        try SQLiteLearningRepository.insert(
                            Answer(ref: ref, chosen: chosen, to: question), card: card, answeredOn: plan.answeredOn, userID: demo, in: db)
                    }
                }
            }
        }

        // My courses is ordered by last activity: joining, a lesson marked, a question
        // answered. Rows from before it start at their latest lesson done, else their joining.
        migrator.registerMigration("v18-last-activity") { db in
            try db.execute(
                sql: """
                    ALTER TABLE enrollment ADD COLUMN active_at DATETIME;
                    UPDATE enrollment SET active_at = max(enrolled_at, coalesce(
                        (SELECT max(done_at) FROM lesson_progress WHERE lesson_progress.enrollment_id = enrollment.id), enrolled_at));
                    """)
        }

        // The catalog's other orders (`s`): price, duration, level and newest each walk an
        // index of (value, rank), as title order walks the rank. Newest is the order courses
        // were added in: rows from before it keep the order they were inserted in.
        migrator.registerMigration("v19-catalog-orders") { db in
            try db.execute(
                sql: """
                    ALTER TABLE course ADD COLUMN added_seq INTEGER;
                    UPDATE course SET added_seq = rowid;
                    ALTER TABLE course ADD COLUMN level_rank INTEGER GENERATED ALWAYS AS (
                        CASE level WHEN 'beginner' THEN 0 WHEN 'intermediate' THEN 1 ELSE 2 END) VIRTUAL;
                    \(CatalogOrder.orderIndexes)
                    """)
        }

        return migrator
    }
}
