import Logging
import NIOCore
import Platform
import PostgresNIO
import SharedKernel

/// The bulk path of `PostgresCatalog.upsert`: a first load, or a file of a good part of the
/// catalog. Each row is written once, already at its final rank:
///
/// 1. the courses are streamed by `COPY` into a temporary table (no JSON to build or parse);
/// 2. the whole order, stored courses and incoming together, is computed there in one sort;
/// 3. stored courses whose rank changes step aside to ranks no course uses (ranks are unique
///    row by row), then the stored courses the file names are updated and the new ones
///    inserted at their final ranks, and the stored courses not in the file take theirs;
/// 4. the lessons, then the term index is built afresh and swapped in next to the commit.
///
/// A first load moves no rank at all; before, every course was written at a temporary rank
/// and moved twice more (three writes of every row and of its six indexes).
extension PostgresCatalog {
    /// Far below any rank or temporary rank: where courses wait while others take their places.
    private static let aside: Int64 = -(1 << 62)

    /// `numbersNewest`: whether new courses take their `added_seq` here; not in v2's seed, whose
    /// catalog has no such column until v11 numbers the seeded courses in their order.
    static func upsertInBulk(
        _ entries: [(course: Course, lessons: [Lesson]?)], withContent: Bool, numbersNewest: Bool, in connection: PostgresConnection,
        logger: Logger, progress: ImportProgress?
    ) async throws -> (added: Int, updated: Int) {
        // A file names each course once (CourseFile refuses a repeat); any other caller's repeat
        // is one row, its last entry, as writing them in turn would leave it.
        var last: [String: Int] = [:]
        for (index, entry) in entries.enumerated() { last[entry.course.id.rawValue] = index }
        let unique = entries.indices.filter { last[entries[$0].course.id.rawValue] == $0 }.map { entries[$0] }

        // Sorts and hashes over a million rows stay in memory.
        try await connection.query("SET LOCAL work_mem = '256MB'", logger: logger)
        try await connection.query(
            """
            CREATE TEMP TABLE course_incoming (
                position integer NOT NULL, id text COLLATE "C" NOT NULL, title text NOT NULL, sort_key text COLLATE "C" NOT NULL, instructor text NOT NULL,
                category text, category_key text COLLATE "C" NOT NULL, level text NOT NULL, duration_minutes integer NOT NULL,
                price_minor bigint NOT NULL, currency text NOT NULL, capacity integer, enrolled_count integer NOT NULL,
                tags text[] NOT NULL, prerequisite_id text COLLATE "C", active boolean NOT NULL, description text NOT NULL,
                lesson_count integer NOT NULL, search_terms text[] NOT NULL
            ) ON COMMIT DROP
            """,
            logger: logger
        )
        try await send(unique, in: connection, logger: logger, progress: progress)
        // The order of the whole catalog after the import: the stored courses the file does
        // not name, and the file's.
        progress?.begin(.ordering)
        try await connection.query(
            """
            CREATE TEMP TABLE course_order ON COMMIT DROP AS
            SELECT id, row_number() OVER (ORDER BY sort_key, id) * \(gap)::bigint AS rank FROM (
                SELECT id, sort_key FROM course WHERE NOT EXISTS (SELECT 1 FROM course_incoming i WHERE i.id = course.id)
                UNION ALL SELECT id, sort_key FROM course_incoming
            ) AS every
            """,
            logger: logger
        )
        // Out of the way: a stored course whose rank is about to go to another. One already at
        // its final rank stays (no other course's final rank is its own).
        try await connection.query(
            """
            UPDATE course SET sort_rank = \(aside) + o.rank / \(gap)::bigint
            FROM course_order o WHERE o.id = course.id AND course.sort_rank <> o.rank
            """,
            logger: logger
        )
        progress?.begin(.writing)
        // The stored courses the file names take its values, then the new ones are inserted:
        // two plain statements, not one `INSERT … ON CONFLICT`, whose speculative insertion and
        // its returned rows cost a first load of a million 48 s against 43 s (on a copy).
        try await connection.query(
            """
            UPDATE course SET sort_rank = o.rank, \(unescaped: Self.updatedByImport(from: "i"))
            FROM course_incoming i JOIN course_order o ON o.id = i.id WHERE course.id = i.id
            """,
            logger: logger
        )
        // New courses are numbered for "newest" by their place in the file, as SQLite numbers
        // them (the rows reach PostgreSQL in no set order); the sequence then moves past them.
        let firstSeq: Int64? =
            numbersNewest
            ? try await connection.query("SELECT nextval('course_added')", logger: logger).decode(Int64.self).first { _ in true } ?? 1
            : nil
        let numbered = firstSeq.map { (column: ", added_seq", value: ", \($0)::bigint + i.position") } ?? (column: "", value: "")
        let written = try await connection.query(
            """
            WITH written AS (
                INSERT INTO course (id, title, sort_key, sort_rank, instructor, category, category_key, level, duration_minutes,
                    price_minor, currency, capacity, enrolled_count, tags, prerequisite_id, active, description, lesson_count, search_terms
                    \(unescaped: numbered.column))
                SELECT i.id, i.title, i.sort_key, o.rank, i.instructor, i.category, i.category_key, i.level, i.duration_minutes,
                    i.price_minor, i.currency, i.capacity, i.enrolled_count, i.tags, i.prerequisite_id, i.active, i.description,
                    i.lesson_count, i.search_terms \(unescaped: numbered.value)
                FROM course_incoming i JOIN course_order o ON o.id = i.id
                WHERE NOT EXISTS (SELECT 1 FROM course WHERE course.id = i.id)
                RETURNING 1
            )
            SELECT count(*) FROM written
            """,
            logger: logger
        )
        let added = try await written.decode(Int.self).first { _ in true } ?? 0
        if let firstSeq {
            try await connection.query(
                "SELECT setval('course_added', \(max(firstSeq, firstSeq + Int64(unique.count) - 1)))", logger: logger)
        }
        try await connection.query(
            "UPDATE course SET sort_rank = o.rank FROM course_order o WHERE o.id = course.id AND course.sort_rank <> o.rank",
            logger: logger
        )
        let batchSize = 1_000
        progress?.begin(.lessons, total: unique.count)
        for start in stride(from: 0, to: unique.count, by: batchSize) {
            let batch = unique[start..<min(start + batchSize, unique.count)]
            try await storeLessons(
                batch.map { ($0.course.id, $0.lessons ?? []) }, withContent: withContent, in: connection, logger: logger)
            progress?.advance(to: start + batch.count)
        }
        // Last, so the moment the new term index takes the old one's place is next to the commit.
        progress?.begin(.indexing)
        try await rebuildTerms(connection, logger: logger)
        return (added, unique.count - added)
    }

    /// Streams the courses by `COPY` into `course_incoming`. Encoding the rows, each course's
    /// terms most of it, is what bounds this step (at a million: the importing process at a
    /// whole core, PostgreSQL at a quarter of one), so it runs on every core (at most 8): the
    /// courses in chunks, one per lane at a time, each lane folding with a memo it hands on to
    /// its next chunk, each chunk written as it is done. Each row carries its place in the file,
    /// so their order in the table is no one's concern.
    private static func send(
        _ unique: [(course: Course, lessons: [Lesson]?)], in connection: PostgresConnection, logger: Logger, progress: ImportProgress?
    ) async throws {
        progress?.begin(.sending, total: unique.count)
        let chunk = 4_096
        let lanes = ImportParts.count(courses: unique.count)
        try await connection.copyFrom(table: "course_incoming", logger: logger) { writer in
            try await withThrowingTaskGroup(of: (rows: ByteBuffer, count: Int, memo: WordMemo).self) { group in
                var next = 0
                func encode(with memo: WordMemo) {
                    guard next < unique.count else { return }
                    let range = next..<min(next + chunk, unique.count)
                    next = range.upperBound
                    group.addTask {
                        var memo = memo
                        var rows = CopyText()
                        for position in range {
                            let entry = unique[position]
                            rows.course(entry.course, position: position, lessonCount: entry.lessons?.count ?? 1, memo: &memo)
                        }
                        return (rows.take(), range.count, memo)
                    }
                }
                for _ in 0..<lanes { encode(with: WordMemo()) }
                var sent = 0
                while let encoded = try await group.next() {
                    encode(with: encoded.memo)
                    try await writer.write(encoded.rows)
                    sent += encoded.count
                    progress?.advance(to: sent)
                }
            }
        }
    }
}

/// Instructors and tags repeat across a catalog: each is folded into words once per lane.
struct WordMemo: Sendable {
    private var folded: [String: [String]] = [:]

    mutating func words(_ text: String) -> [String] {
        if let known = folded[text] { return known }
        let made = TextFolding.words(text)
        folded[text] = made
        return made
    }
}

extension CopyText {
    /// A row of `course_incoming`: its place in the file, the course's columns in the table's
    /// order, then its terms.
    mutating func course(_ course: Course, position: Int, lessonCount: Int, memo: inout WordMemo) {
        let sortKey = TextFolding.fold(course.title)
        field(position)
        field(course.id.rawValue)
        field(course.title)
        field(sortKey)
        field(course.instructor)
        field(course.category)
        field(TextFolding.key(course.category ?? ""))
        field(course.level.rawValue)
        field(course.durationMinutes)
        field(course.price.minorUnits)
        field(course.price.currency)
        field(course.capacity)
        field(course.enrolledCount)
        array(course.tags)
        field(course.prerequisiteID?.rawValue)
        field(course.isActive)
        field(course.description)
        field(lessonCount)
        array(PostgresCatalog.terms(of: course, foldedTitle: sortKey, words: { memo.words($0) }), last: true)
    }
}

/// Rows in `COPY … FROM STDIN`'s text format: fields split by tabs, rows ended by a newline,
/// `\N` for NULL, and a backslash before the backslash, tab, newline and carriage return a
/// value holds.
struct CopyText {
    private(set) var bytes = ByteBuffer()
    private var rowStarted = false

    mutating func field(_ value: String?, last: Bool = false) {
        separate()
        if let value { escaped(value) } else { bytes.writeStaticString("\\N") }
        end(last)
    }

    mutating func field(_ value: Int?, last: Bool = false) {
        field(value.map { String($0) }, last: last)
    }

    mutating func field(_ value: Bool, last: Bool = false) {
        field(value ? "t" : "f", last: last)
    }

    /// A `text[]` literal: every element quoted, a quote or backslash in it escaped for the
    /// literal, and then every backslash once more for the text format.
    mutating func array(_ values: [String], last: Bool = false) {
        separate()
        bytes.writeInteger(UInt8(ascii: "{"))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.writeInteger(UInt8(ascii: ",")) }
            bytes.writeInteger(UInt8(ascii: "\""))
            var value = value
            value.withUTF8 { utf8 in
                for byte in utf8 {
                    // The literal's own escape, a backslash, is itself escaped by the format.
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.writeStaticString("\\\\") }
                    if let escape = Self.escape(byte) {
                        bytes.writeInteger(UInt8(ascii: "\\"))
                        bytes.writeInteger(escape)
                    } else {
                        bytes.writeInteger(byte)
                    }
                }
            }
            bytes.writeInteger(UInt8(ascii: "\""))
        }
        bytes.writeInteger(UInt8(ascii: "}"))
        end(last)
    }

    /// What was written so far, leaving this empty.
    mutating func take() -> ByteBuffer {
        defer { bytes = ByteBuffer() }
        return bytes
    }

    private mutating func separate() {
        if rowStarted { bytes.writeInteger(UInt8(ascii: "\t")) }
        rowStarted = true
    }

    private mutating func end(_ last: Bool) {
        guard last else { return }
        bytes.writeInteger(UInt8(ascii: "\n"))
        rowStarted = false
    }

    /// What follows a backslash in the text format for `byte`, or nil for a byte written as is.
    private static func escape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case UInt8(ascii: "\t"): UInt8(ascii: "t")
        case UInt8(ascii: "\n"): UInt8(ascii: "n")
        case UInt8(ascii: "\r"): UInt8(ascii: "r")
        default: nil
        }
    }

    private mutating func escaped(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() {
                guard let escape = Self.escape(byte) else { continue }
                bytes.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start..<index]))
                bytes.writeInteger(UInt8(ascii: "\\"))
                bytes.writeInteger(escape)
                start = index + 1
            }
            bytes.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start...]))
        }
    }
}
