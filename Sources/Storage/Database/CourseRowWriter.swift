import GRDB
import GRDBSQLite
import SharedKernel

/// An import's writes of course rows: the statement made once per import and each value bound
/// straight to SQLite. Writing a million courses through GRDB's arguments (an array of values
/// built for every row, bound one by one in nested closures) and its statement cache (the SQL
/// hashed for every row), those were half and a tenth of the write loop's Swift side (perf,
/// 2026-12-01, BENCHMARKS "Imports").
struct CourseRowWriter {
    private let statement: Statement
    private let database: Database

    /// What one row binds besides the course (its lesson count set).
    struct Values {
        var course: Course
        var tags: String
        var rank: Int64?
        var keys: CourseKeys
        var addedSeq: Int64
    }

    init(in db: Database) throws {
        database = db
        statement = try db.makeStatement(sql: CourseRow.upsertSQL)
        // A parameter added to the statement and not bound here would keep a NULL unnoticed.
        precondition(sqlite3_bind_parameter_count(statement.sqliteStatement) == Self.count, "CourseRowWriter binds \(Self.count) values")
        // GRDB runs a statement without arguments only once it holds valid ones: these nulls
        // are never stepped (every row binds all of its values over them first).
        statement.setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: Int(Self.count))))
    }

    /// How many values a row binds.
    private static let count: CInt = 20

    /// Inserts the row, or updates the stored course with its id, as `CourseRow.upsertSQL` says.
    func write(_ row: Values) throws {
        let handle = statement.sqliteStatement
        // A statement stepped to its end takes new values only once reset.
        try check(sqlite3_reset(handle))
        var index: CInt = 0
        func next() -> CInt {
            index += 1
            return index
        }
        func text(_ value: String?) throws {
            let at = next()
            guard var value else { return try check(sqlite3_bind_null(handle, at)) }
            try value.withUTF8 { bytes in
                // Up to a NUL, as GRDB bound texts (a C string) and reads them back.
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                // An empty text is still a text: a null pointer would bind NULL.
                guard let base = bytes.baseAddress, length > 0 else {
                    return try check(sqlite3_bind_text(handle, at, "", 0, transient))
                }
                try check(
                    base.withMemoryRebound(to: CChar.self, capacity: length) {
                        sqlite3_bind_text(handle, at, $0, CInt(length), transient)
                    })
            }
        }
        func integer(_ value: Int64?) throws {
            let at = next()
            guard let value else { return try check(sqlite3_bind_null(handle, at)) }
            try check(sqlite3_bind_int64(handle, at, value))
        }
        let course = row.course
        try text(course.id.rawValue)
        try text(course.title)
        try text(row.keys.sortKey)
        try text(course.instructor)
        try text(course.category)
        try text(course.level.rawValue)
        try integer(Int64(course.durationMinutes))
        try integer(Int64(course.price.minorUnits))
        try text(course.price.currency)
        try integer(course.capacity.map(Int64.init))
        try integer(Int64(course.enrolledCount))
        try text(row.tags)
        try text(course.prerequisiteID?.rawValue)
        try integer(course.isActive ? 1 : 0)
        try text(course.description)
        try integer(Int64(course.lessonCount))
        try integer(row.rank)
        try text(row.keys.searchKey)
        try text(row.keys.categoryKey)
        try integer(row.addedSeq)
        precondition(index == Self.count, "CourseRowWriter binds \(index) values for \(Self.count) parameters")
        try statement.execute()
    }

    private func check(_ code: CInt) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: database.lastErrorMessage, sql: statement.sql)
        }
    }

    /// SQLite copies the text before the call returns (the Swift string's bytes are only lent).
    private var transient: sqlite3_destructor_type { unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self) }
}
