import Logging
import PostgresNIO
import SharedKernel

/// The schema's versions (`PostgresDatabase.migrations`), apart from what the demo seeds.
extension PostgresDatabase {
    /// v5: one form of each address (AccountRules.emailKey), which every lookup compares:
    /// lower() and Swift fold case alike only mostly, and neither joins NFC and NFD.
    static func emailKeys(in connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("ALTER TABLE learner ADD COLUMN email_key text COLLATE \"C\"", logger: logger)
        var accounts: [(Int64, String)] = []
        for try await row in try await connection.query("SELECT id, email FROM learner ORDER BY id", logger: logger).decode(
            (Int64, String).self)
        {
            accounts.append(row)
        }
        var taken: Set<String> = []
        for (id, email) in accounts {
            var key = AccountRules.emailKey(email)
            // An older account whose address is an earlier one's in another form keeps
            // its row, but that address now signs in to the earlier account.
            if !taken.insert(key).inserted { key += "#\(id)" }
            try await connection.query("UPDATE learner SET email_key = \(key) WHERE id = \(id)", logger: logger)
        }
        try await connection.query("ALTER TABLE learner ALTER COLUMN email_key SET NOT NULL", logger: logger)
        try await connection.query("DROP INDEX learner_by_email", logger: logger)
        try await connection.query("CREATE UNIQUE INDEX learner_by_email_key ON learner (email_key)", logger: logger)
    }

    /// v6: a completion is permanent history. Prerequisites are met, and the learner's list
    /// keeps a course left after completing it, by `completed_at` alone: every completed row
    /// has its date (one written outside the app gets its last lesson's, else its enrollment's,
    /// so it meets what it met), and the schema says so. Left rows keep their lessons and
    /// date, as they always did; joining again now brings them back.
    static let schemaV6 = [
        """
        UPDATE enrollment SET completed_at = coalesce(
            (SELECT max(done_at) FROM lesson_progress WHERE lesson_progress.enrollment_id = enrollment.id), enrolled_at)
        WHERE status = 'completed' AND completed_at IS NULL
        """,
        "ALTER TABLE enrollment ADD CONSTRAINT enrollment_completed_has_date CHECK (status <> 'completed' OR completed_at IS NOT NULL)",
    ]

    /// v8 (then `storeSeededContent`): lessons to read and questions to answer, as the
    /// embedded store's v16: bodies and questions kept apart from the syllabus (a course page
    /// reads titles only), answers with the SM-2 schedule of the card each starts (the card of
    /// the review deck), and the days a learner reviewed.
    static let schemaV8 = [
        "ALTER TABLE lesson ADD COLUMN question_count integer NOT NULL DEFAULT 0",
        """
        CREATE TABLE lesson_content (
            course_id text COLLATE "C" NOT NULL,
            position integer NOT NULL,
            body text,
            -- QuestionsJSON's text, read back through the import's checks.
            questions text,
            PRIMARY KEY (course_id, position),
            FOREIGN KEY (course_id, position) REFERENCES lesson (course_id, position) ON DELETE CASCADE
        )
        """,
        """
        CREATE TABLE answer (
            user_id bigint NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
            course_id text COLLATE "C" NOT NULL,
            lesson integer NOT NULL CHECK (lesson >= 1),
            question integer NOT NULL CHECK (question >= 0),
            chosen bigint[] NOT NULL,
            is_right boolean NOT NULL,
            answered_day integer NOT NULL,
            repetitions integer NOT NULL,
            ease_millis integer NOT NULL,
            interval_days integer NOT NULL,
            due_day integer NOT NULL,
            PRIMARY KEY (user_id, course_id, lesson, question)
        )
        """,
        "CREATE INDEX answer_by_due ON answer (user_id, due_day)",
        """
        CREATE TABLE review_day (
            user_id bigint NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
            day integer NOT NULL,
            PRIMARY KEY (user_id, day)
        )
        """,
    ]

    /// v10: My courses is ordered by last activity, as the embedded store's v18 (a row without
    /// one, written by hand, is ordered by its joining).
    static let schemaV10 = [
        "ALTER TABLE enrollment ADD COLUMN active_at timestamptz",
        """
        UPDATE enrollment SET active_at = greatest(enrolled_at,
            (SELECT max(done_at) FROM lesson_progress WHERE lesson_progress.enrollment_id = enrollment.id))
        """,
    ]

    /// v11: the catalog's other orders, as the embedded store's v19: an index of (value, rank)
    /// per order. Newest is the order courses were added in; courses from before it take
    /// the built-in catalog's order (as the embedded store's rows keep theirs), then the
    /// others by id.
    static func catalogOrders(_ seed: PostgresSeed, in connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("CREATE SEQUENCE course_added", logger: logger)
        try await connection.query("ALTER TABLE course ADD COLUMN added_seq bigint", logger: logger)
        try await connection.query(
            """
            WITH ordered AS (
                SELECT course.id, row_number() OVER (ORDER BY seeded.position NULLS LAST, course.id) AS position
                FROM course LEFT JOIN unnest(\(seed.courses.map(\.course.id.rawValue))::text[]) WITH ORDINALITY AS seeded (id, position)
                    ON seeded.id = course.id)
            UPDATE course SET added_seq = ordered.position FROM ordered WHERE ordered.id = course.id
            """,
            logger: logger
        )
        for statement in [
            "SELECT setval('course_added', greatest(1, (SELECT coalesce(max(added_seq), 0) FROM course)))",
            "ALTER TABLE course ALTER COLUMN added_seq SET DEFAULT nextval('course_added')",
            "ALTER TABLE course ALTER COLUMN added_seq SET NOT NULL",
            """
            ALTER TABLE course ADD COLUMN level_rank smallint GENERATED ALWAYS AS (
                CASE level WHEN 'beginner' THEN 0 WHEN 'intermediate' THEN 1 ELSE 2 END) STORED
            """,
            "CREATE INDEX course_by_price ON course (price_minor, sort_rank)",
            "CREATE INDEX course_by_duration ON course (duration_minutes, sort_rank)",
            "CREATE INDEX course_by_level ON course (level_rank, sort_rank)",
            "CREATE INDEX course_by_added ON course (added_seq, sort_rank)",
        ] {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    /// v4: sign-in attempts counted before they are checked, per email key and client address
    /// (the failures table counted after the hash, so guesses sent at once all got through).
    static let schemaV4 = [
        "DROP TABLE sign_in_failure",
        """
        CREATE TABLE sign_in_attempt (
            id bigserial PRIMARY KEY,
            email_key text COLLATE "C" NOT NULL,
            address text COLLATE "C" NOT NULL,
            attempted_at timestamptz NOT NULL
        )
        """,
        "CREATE INDEX sign_in_attempt_by_email ON sign_in_attempt (email_key, attempted_at)",
    ]

    /// v3: a number that moves whenever what a search matches may change.
    static let schemaV3 = [
        // Courses added or removed, a searched column written; seats aside, which only
        // `is:open` reads, never kept. Each server keeps counts of matches until it moves
        // (`MatchCounts`). Statement triggers: an import of a million courses moves it once.
        "CREATE TABLE catalog_revision (id integer PRIMARY KEY CHECK (id = 1), revision bigint NOT NULL)",
        "INSERT INTO catalog_revision (id, revision) VALUES (1, 1)",
        """
        CREATE FUNCTION catalog_revision_moves() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE catalog_revision SET revision = revision + 1 WHERE id = 1;
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER catalog_revision_moves
        AFTER INSERT OR DELETE OR UPDATE OF search_terms, sort_rank ON course
        FOR EACH STATEMENT EXECUTE FUNCTION catalog_revision_moves()
        """,
    ]

    /// v1, the schema. Text that is compared or ordered is in the "C" collation (bytes, as SQLite
    /// compares), so both stores put the catalog in the same order.
    static let schemaV1 = [
        """
        CREATE TABLE course (
            id text COLLATE "C" PRIMARY KEY,
            title text NOT NULL,
            sort_key text COLLATE "C" NOT NULL,
            sort_rank bigint NOT NULL UNIQUE,
            instructor text NOT NULL,
            category text,
            category_key text COLLATE "C" NOT NULL,
            level text NOT NULL CHECK (level IN ('beginner', 'intermediate', 'advanced')),
            duration_minutes integer NOT NULL CHECK (duration_minutes > 0),
            price_minor bigint NOT NULL CHECK (price_minor >= 0),
            currency text NOT NULL CHECK (length(currency) = 3),
            capacity integer CHECK (capacity IS NULL OR capacity >= 0),
            enrolled_count integer NOT NULL DEFAULT 0 CHECK (enrolled_count >= 0),
            tags text[] NOT NULL DEFAULT '{}',
            prerequisite_id text COLLATE "C",
            active boolean NOT NULL DEFAULT true,
            description text NOT NULL,
            lesson_count integer NOT NULL DEFAULT 1,
            search_terms text[] NOT NULL
        )
        """,
        "CREATE INDEX course_by_sort_key ON course (sort_key, id)",
        // Temporary ranks (negated) for courses written in bulk, until the renumbering; unused
        // since a bulk import writes every row at its final rank (kept: the schema as shipped).
        "CREATE SEQUENCE course_placing",
        // Every prefix of every word a course is found by, and its filter facets
        // (`course.search_terms`), with the course's rank: a search walks one term's entries in
        // catalog order and checks the others by their key, so a page reads about a page
        // (`PostgresCatalog`). No foreign key: renumbering rebuilds the table from the courses
        // in one pass, which a cascade row by row would make minutes at a million.
        """
        CREATE TABLE course_term (
            term text COLLATE "C" NOT NULL,
            rank bigint NOT NULL,
            CONSTRAINT course_term_pkey PRIMARY KEY (term, rank)
        )
        """,
        """
        CREATE TABLE lesson (
            course_id text COLLATE "C" NOT NULL REFERENCES course (id) ON DELETE CASCADE,
            position integer NOT NULL CHECK (position >= 1),
            title text NOT NULL,
            minutes integer NOT NULL CHECK (minutes >= 1),
            PRIMARY KEY (course_id, position)
        )
        """,
        // The size of the catalog, kept by a trigger: count(*) over a million rows on every page
        // would be most of a page's time.
        "CREATE TABLE catalog_size (id integer PRIMARY KEY CHECK (id = 1), courses bigint NOT NULL)",
        "INSERT INTO catalog_size (id, courses) VALUES (1, 0)",
        """
        CREATE FUNCTION catalog_size_added() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE catalog_size SET courses = courses + (SELECT count(*) FROM changed) WHERE id = 1;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION catalog_size_removed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE catalog_size SET courses = courses - (SELECT count(*) FROM changed) WHERE id = 1;
            RETURN NULL;
        END $$
        """,
        // Once per statement, not per row: a bulk import is one update of the count.
        "CREATE TRIGGER catalog_size_added AFTER INSERT ON course REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION catalog_size_added()",
        "CREATE TRIGGER catalog_size_removed AFTER DELETE ON course REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION catalog_size_removed()",
        """
        CREATE TABLE learner (
            id bigserial PRIMARY KEY,
            name text NOT NULL,
            email text NOT NULL,
            password_hash text NOT NULL,
            role text NOT NULL DEFAULT 'learner',
            created_at timestamptz NOT NULL
        )
        """,
        // Emails are one account whatever their case, as SQLite's NOCASE (ASCII) compares them.
        "CREATE UNIQUE INDEX learner_by_email ON learner (lower(email))",
        """
        CREATE TABLE enrollment (
            id bigserial PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
            course_id text COLLATE "C" NOT NULL REFERENCES course (id) ON DELETE CASCADE,
            -- The course's rank, so `is:enrolled` walks an index in catalog order; kept by the
            -- catalog's writes (`PostgresCatalog`).
            course_rank bigint NOT NULL,
            enrolled_at timestamptz NOT NULL,
            status text NOT NULL CHECK (status IN ('active', 'completed', 'dropped')),
            completed_at timestamptz,
            UNIQUE (user_id, course_id)
        )
        """,
        "CREATE INDEX enrollment_by_rank ON enrollment (user_id, course_rank) WHERE status <> 'dropped'",
        "CREATE INDEX enrollment_by_course ON enrollment (course_id)",
        """
        CREATE TABLE lesson_progress (
            enrollment_id bigint NOT NULL REFERENCES enrollment (id) ON DELETE CASCADE,
            position integer NOT NULL CHECK (position >= 1),
            done_at timestamptz NOT NULL,
            PRIMARY KEY (enrollment_id, position)
        )
        """,
        """
        CREATE TABLE favourite (
            user_id bigint NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
            course_id text COLLATE "C" NOT NULL REFERENCES course (id) ON DELETE CASCADE,
            course_rank bigint NOT NULL,
            created_at timestamptz NOT NULL,
            PRIMARY KEY (user_id, course_id)
        )
        """,
        "CREATE INDEX favourite_by_rank ON favourite (user_id, course_rank)",
        "CREATE INDEX favourite_by_course ON favourite (course_id)",
        """
        CREATE TABLE refresh_token (
            hash text COLLATE "C" PRIMARY KEY,
            family text COLLATE "C" NOT NULL,
            user_id bigint NOT NULL REFERENCES learner (id) ON DELETE CASCADE,
            expires_at timestamptz NOT NULL,
            used_at timestamptz,
            revoked boolean NOT NULL DEFAULT false
        )
        """,
        "CREATE INDEX refresh_token_by_family ON refresh_token (family)",
        "CREATE INDEX refresh_token_by_expiry ON refresh_token (expires_at)",
        // The key that signs access tokens, so a token from one server works on every other.
        "CREATE TABLE signing_key (id integer PRIMARY KEY CHECK (id = 1), key bytea NOT NULL CHECK (length(key) = 32))",
        // Failed sign-ins, per folded email, for the rate limit every server shares.
        "CREATE TABLE sign_in_failure (email_key text COLLATE \"C\" NOT NULL, failed_at timestamptz NOT NULL)",
        "CREATE INDEX sign_in_failure_by_email ON sign_in_failure (email_key, failed_at)",
    ]
}
