import Foundation
import Logging
import Platform
import PostgresNIO
import SharedKernel

/// The catalog in PostgreSQL: its order, its search terms, and courses as rows.
///
/// The order is data, as in the embedded store: `sort_rank` grows with (folded title, id), with
/// gaps so a course can be placed between two others without moving any, and keys are ranks.
/// Search is a table of terms (`course_term`): every prefix of every folded word of a
/// course's title, instructor and tags, and its facets (`#cat` + each prefix of its category,
/// `#lvl<level>`, `#free`), each with the course's rank. A query walks its first term's
/// entries in rank order (an index range, no sort) and checks the other terms by key, so a
/// page reads a page's worth of entries, not every match. `is:open` is checked on the course
/// row (seats change with every enrollment; they are not terms).
enum PostgresCatalog {
    /// Ranks are spread this far apart.
    static let gap: Int64 = 1 << 16

    /// Any number, the same in every server: the key of the lock that serialises catalog writes.
    static let writeLock = 0x6564_7567_6f00_0002

    /// The columns a `Course` is read from, in this order, in every query that reads courses.
    static let columns =
        "id, title, instructor, category, level, duration_minutes, price_minor, currency, capacity, enrolled_count, tags, prerequisite_id, active, description, lesson_count"

    /// `columns`, each as `course.name`: made once, not on every page.
    static let courseColumns = columns.split(separator: ",").map { "course.\($0.trimmingCharacters(in: .whitespaces))" }
        .joined(separator: ", ")

    /// The course in a row that starts with `columns`; a row out of `CourseLimits` is a
    /// storage failure naming the course, never a trap.
    static func course(_ row: PostgresRow) throws -> Course {
        // Cell by cell, each of its own type: a 15-column tuple decodes through generic
        // parameter packs, whose metadata lookups cost a fifth of a page's time in the server.
        var cells = CellReader(row)
        let id = try cells.string()
        let title = try cells.string()
        let instructor = try cells.string()
        let category = try cells.optionalString()
        let levelName = try cells.string()
        let duration = try cells.int()
        let price = try cells.int()
        let currency = try cells.string()
        let capacity = try cells.optionalInt()
        let enrolled = try cells.int()
        let tags = try cells.strings()
        let prerequisite = try cells.optionalString()
        let active = try cells.bool()
        let description = try cells.string()
        let lessons = try cells.int()
        guard let level = CourseLevel(rawValue: levelName) else {
            throw AppError.storage(.reading, detail: "course \(id.debugDescription): level \(levelName.debugDescription) is unknown")
        }
        let course = Course(
            id: CourseID(id), title: title, instructor: instructor, category: category, level: level,
            durationMinutes: duration, price: Price(minorUnits: price, currency: currency), capacity: capacity,
            enrolledCount: enrolled, tags: tags, prerequisiteID: prerequisite.map { CourseID($0) }, isActive: active,
            description: description, lessonCount: lessons
        )
        if let problem = CourseLimits.problem(in: course) {
            throw AppError.storage(.reading, detail: "course \(id.debugDescription): \(problem)")
        }
        return course
    }

    // MARK: - Terms

    /// What a course is found by, each once and in order: every prefix of its words, and its
    /// facets. `foldedTitle` and `words` let an import fold each text once.
    static func terms(of course: Course, foldedTitle: String? = nil, words: (String) -> [String] = TextFolding.words(_:)) -> [String] {
        var texts = TextFolding.words(ofFolded: foldedTitle ?? TextFolding.fold(course.title))
        texts += words(course.instructor)
        for tag in course.tags { texts += words(tag) }
        // In sorted order, a prefix two words share is one the word before also has: each word
        // adds only its prefixes longer than what it shares with the word before.
        var terms: [String] = []
        var previous: [Character] = []
        for word in Set(texts).sorted() {
            let characters = Array(word)
            let shared = zip(previous, characters).prefix { $0 == $1 }.count
            var prefix = String(characters[..<shared])
            for character in characters[shared...] {
                prefix.append(character)
                terms.append(prefix)
            }
            previous = characters
        }
        var category = "#cat"
        terms.append(category)
        for character in TextFolding.key(course.category ?? "") {
            category.append(character)
            terms.append(category)
        }
        terms.append("#lvl\(course.level.rawValue)")
        if course.price.minorUnits == 0 { terms.append("#free") }
        // Nearly sorted already; the check for a repeat is what the term index's key relies on.
        terms.sort()
        var unique: [String] = []
        unique.reserveCapacity(terms.count)
        for term in terms where term != unique.last { unique.append(term) }
        return unique
    }

    /// The terms a query asks for, all of which a course must have: words before facets,
    /// longer words first, the order `TermCounts.rarestFirst` keeps between equal counts.
    static func terms(of query: CatalogQuery) -> [String] {
        var terms = query.words.sorted { $0.count > $1.count }
        if let category = query.category { terms.append("#cat\(category)") }
        if query.isFree { terms.append("#free") }
        if let level = query.level { terms.append("#lvl\(level.rawValue)") }
        var seen: Set<String> = []
        return terms.filter { seen.insert($0).inserted }
    }

    // MARK: - Writing

    /// What an import changes in a stored course (its rank aside), from the row `source`
    /// names (`excluded` in an upsert): every field, but never fewer seats taken than learners
    /// hold.
    static func updatedByImport(from source: String) -> String {
        """
        title = \(source).title, sort_key = \(source).sort_key,
        instructor = \(source).instructor, category = \(source).category, category_key = \(source).category_key,
        level = \(source).level, duration_minutes = \(source).duration_minutes, price_minor = \(source).price_minor,
        currency = \(source).currency, capacity = \(source).capacity,
        enrolled_count = greatest(\(source).enrolled_count, (
            SELECT count(*) FROM enrollment WHERE course_id = \(source).id AND status <> 'dropped')),
        tags = \(source).tags, prerequisite_id = \(source).prerequisite_id, active = \(source).active,
        description = \(source).description, lesson_count = \(source).lesson_count, search_terms = \(source).search_terms
        """
    }

    /// Inserts or updates courses with their lessons, as an import does: seats already taken
    /// are never given away, ranks are placed (renumbering when no gap is left), and the
    /// terms follow. The caller's transaction holds; catalog writes take one lock in turn.
    /// `withContent: false` writes lessons as the schema before v8 holds them, and
    /// `numbersNewest: false` leaves "newest" to v11 (both for the seed of v2).
    static func upsert(
        _ entries: [(course: Course, lessons: [Lesson]?)], withContent: Bool = true, numbersNewest: Bool = true,
        in connection: PostgresConnection, logger: Logger, progress: ImportProgress? = nil
    ) async throws -> (added: Int, updated: Int) {
        try await connection.query("SELECT pg_advisory_xact_lock(\(writeLock))", logger: logger)
        let size =
            try await connection.query("SELECT courses FROM catalog_size WHERE id = 1", logger: logger).decode(Int.self).first { _ in true }
            ?? 0
        // Many courses (a first load, a large file) are written at their final ranks in one
        // pass (`upsertInBulk`); a few are each placed in a gap, moving nothing else.
        if entries.count > 200, entries.count * 20 > size {
            return try await upsertInBulk(
                entries, withContent: withContent, numbersNewest: numbersNewest, in: connection, logger: logger, progress: progress)
        }
        var added = 0
        var updated = 0
        progress?.begin(.writing, total: entries.count)
        for entry in entries {
            var course = entry.course
            course.lessonCount = entry.lessons?.count ?? 1
            let sortKey = TextFolding.fold(course.title)
            let existing = try await connection.query(
                "SELECT sort_key, sort_rank FROM course WHERE id = \(course.id.rawValue)", logger: logger
            ).decode((String, Int64).self).first { _ in true }
            var rank: Int64
            if let existing, existing.0 == sortKey {
                rank = existing.1
            } else if let placed = try await place(sortKey: sortKey, id: course.id.rawValue, in: connection, logger: logger) {
                rank = placed
            } else {
                try await renumber(connection, logger: logger)
                guard let placed = try await place(sortKey: sortKey, id: course.id.rawValue, in: connection, logger: logger) else {
                    throw AppError.storage(.saving, detail: "no place in the catalog order after renumbering")
                }
                rank = placed
            }
            let level = course.level.rawValue
            let categoryKey = TextFolding.key(course.category ?? "")
            let terms = Self.terms(of: course)
            // The course's old terms leave the index at its old rank (a renumbering above has
            // already rebuilt the index from the old terms).
            if existing != nil {
                try await connection.query(
                    """
                    DELETE FROM course_term WHERE (term, rank) IN (
                        SELECT unnest(search_terms), sort_rank FROM course WHERE id = \(course.id.rawValue))
                    """,
                    logger: logger
                )
            }
            try await connection.query(
                """
                INSERT INTO course (id, title, sort_key, sort_rank, instructor, category, category_key, level, duration_minutes,
                    price_minor, currency, capacity, enrolled_count, tags, prerequisite_id, active, description, lesson_count, search_terms)
                VALUES (\(course.id.rawValue), \(course.title), \(sortKey), \(rank), \(course.instructor), \(course.category),
                    \(categoryKey), \(level), \(course.durationMinutes), \(course.price.minorUnits), \(course.price.currency),
                    \(course.capacity), \(course.enrolledCount), \(course.tags), \(course.prerequisiteID?.rawValue),
                    \(course.isActive), \(course.description), \(course.lessonCount), \(terms))
                ON CONFLICT (id) DO UPDATE SET sort_rank = excluded.sort_rank, \(unescaped: Self.updatedByImport(from: "excluded"))
                """,
                logger: logger
            )
            try await connection.query(
                "INSERT INTO course_term (term, rank) SELECT unnest(\(terms)::text[]), \(rank)::bigint ON CONFLICT DO NOTHING",
                logger: logger
            )
            // The learners' lists carry the course's rank.
            try await connection.query("UPDATE favourite SET course_rank = \(rank) WHERE course_id = \(course.id.rawValue)", logger: logger)
            try await connection.query(
                "UPDATE enrollment SET course_rank = \(rank) WHERE course_id = \(course.id.rawValue)", logger: logger)
            try await storeLessons([(course.id, entry.lessons ?? [])], withContent: withContent, in: connection, logger: logger)
            if existing == nil { added += 1 } else { updated += 1 }
            progress?.advance(to: added + updated)
        }
        return (added, updated)
    }

    /// Replaces the stored lessons of these courses, their bodies and questions with them: a
    /// lesson's question count beside its title (the syllabus reads it), its content in a row
    /// of `lesson_content` (none for a title-only lesson). `withContent: false` is the schema
    /// before v8: titles and minutes only.
    static func storeLessons(
        _ courses: [(id: CourseID, lessons: [Lesson])], withContent: Bool, in connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.query("DELETE FROM lesson WHERE course_id = ANY(\(courses.map(\.id.rawValue)))", logger: logger)
        var lessons: [[String: Any]] = []
        var contents: [[String: Any]] = []
        for (id, list) in courses {
            for (offset, lesson) in list.enumerated() {
                lessons.append([
                    "course_id": id.rawValue, "position": offset + 1, "title": lesson.title, "minutes": lesson.minutes,
                    "question_count": lesson.questionCount,
                ])
                guard withContent, let content = lesson.content else { continue }
                var row: [String: Any] = ["course_id": id.rawValue, "position": offset + 1]
                row["body"] = content.body
                row["questions"] = QuestionsJSON.encode(content.questions)
                contents.append(row)
            }
        }
        guard !lessons.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO lesson (course_id, position, title, minutes\(unescaped: withContent ? ", question_count" : ""))
            SELECT course_id, position, title, minutes\(unescaped: withContent ? ", question_count" : "")
            FROM jsonb_to_recordset(\(try jsonText(lessons))::jsonb)
                AS l (course_id text, position integer, title text, minutes integer, question_count integer)
            """,
            logger: logger
        )
        guard !contents.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO lesson_content (course_id, position, body, questions)
            SELECT course_id, position, body, questions
            FROM jsonb_to_recordset(\(try jsonText(contents))::jsonb) AS c (course_id text, position integer, body text, questions text)
            """,
            logger: logger
        )
    }

    private static func jsonText(_ rows: [[String: Any]]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: rows), as: UTF8.self)
    }

    /// A free rank between the neighbours `(sortKey, id)` would have (not counting itself),
    /// or nil when they are adjacent.
    private static func place(sortKey: String, id: String, in connection: PostgresConnection, logger: Logger) async throws -> Int64? {
        let before = try await connection.query(
            """
            SELECT sort_rank FROM course WHERE (sort_key, id) < (\(sortKey), \(id)) AND id <> \(id)
            ORDER BY sort_key DESC, id DESC LIMIT 1
            """,
            logger: logger
        ).decode(Int64.self).first { _ in true }
        let after = try await connection.query(
            """
            SELECT sort_rank FROM course WHERE (sort_key, id) > (\(sortKey), \(id)) AND id <> \(id)
            ORDER BY sort_key, id LIMIT 1
            """,
            logger: logger
        ).decode(Int64.self).first { _ in true }
        switch (before, after) {
        case (nil, nil): return gap
        case (let low?, nil): return low.addingReportingOverflow(gap).overflow ? nil : low + gap
        case (nil, let high?): return high > 1 ? high / 2 : nil
        case (let low?, let high?): return high - low >= 2 ? low + (high - low) / 2 : nil
        }
    }

    /// Gives every course a fresh rank in catalog order, then builds the term index afresh
    /// (`rebuildTerms`). Ranks are unique at every moment (the constraint is checked row by
    /// row), so every course first moves to a range no rank uses (below -2^62: ranks are
    /// positive), then to its place.
    static func renumber(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            WITH ordered AS (SELECT id, row_number() OVER (ORDER BY id) AS position FROM course)
            UPDATE course SET sort_rank = ordered.position - 4611686018427387904 FROM ordered WHERE ordered.id = course.id
            """,
            logger: logger
        )
        try await connection.query(
            """
            WITH ordered AS (SELECT id, row_number() OVER (ORDER BY sort_key, id) AS position FROM course)
            UPDATE course SET sort_rank = ordered.position * \(gap) FROM ordered WHERE ordered.id = course.id
            """,
            logger: logger
        )
        try await rebuildTerms(connection, logger: logger)
    }

    /// Builds the term index afresh from the courses' terms and ranks in one pass, into a
    /// table of its own with its key made afterwards (several times faster than keeping a key
    /// up to date row by row). The new table takes the old one's place at the end: searches
    /// read the old index, of the old ranks, until the commit, where dropping it holds them
    /// off for an instant (truncating the index in place held them off for the whole import).
    /// The learners' lists take their courses' new ranks.
    static func rebuildTerms(_ connection: PostgresConnection, logger: Logger) async throws {
        // Made by `CREATE TABLE … AS`, which writes in bulk (a ring of buffers of its own, no
        // free-space map): 31-42 s for a million courses' 46 M rows, against 56-58 s for an
        // `INSERT … SELECT` into a table made first. The key makes both columns NOT NULL.
        try await connection.query(
            #"CREATE TABLE course_term_next AS SELECT unnest(search_terms) COLLATE "C" AS term, sort_rank AS rank FROM course"#,
            logger: logger)
        try await connection.query(
            "ALTER TABLE course_term_next ADD CONSTRAINT course_term_next_pkey PRIMARY KEY (term, rank)", logger: logger)
        try await connection.query(
            "UPDATE favourite SET course_rank = course.sort_rank FROM course WHERE course.id = favourite.course_id AND favourite.course_rank <> course.sort_rank",
            logger: logger
        )
        try await connection.query(
            "UPDATE enrollment SET course_rank = course.sort_rank FROM course WHERE course.id = enrollment.course_id AND enrollment.course_rank <> course.sort_rank",
            logger: logger
        )
        try await connection.query("DROP TABLE course_term", logger: logger)
        try await connection.query("ALTER TABLE course_term_next RENAME TO course_term", logger: logger)
        try await connection.query("ALTER TABLE course_term RENAME CONSTRAINT course_term_next_pkey TO course_term_pkey", logger: logger)
    }
}

extension PostgresCatalog {
    /// How many columns `columns` has: what a query adds comes after them.
    static let columnCount = columns.split(separator: ",").count

    /// The catalog row of a page's row (`columns`, then the rank, the order's value and
    /// `added_seq`) at `key`; nil when the course is too damaged to read.
    static func catalogRow(_ row: PostgresRow, cells: PostgresRandomAccessRow, key: CatalogKey) -> CatalogRow? {
        guard let course = try? course(row) else { return nil }
        let added = (try? cells[columnCount + 2].decode(Int64?.self)) ?? nil
        return CatalogRow(key: key, course: course, added: added)
    }
}

extension PostgresCatalog {
    /// The column a sort orders by before the rank; nil for title order.
    static func sortColumn(_ sort: CatalogSort) -> String? {
        switch sort.field {
        case .title: nil
        case .price: "course.price_order"
        case .duration: "course.duration_minutes"
        case .level: "course.level_rank"
        case .newest: "course.added_seq"
        }
    }
}
