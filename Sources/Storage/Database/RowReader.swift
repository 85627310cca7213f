import Foundation
import GRDB

/// A stored row that does not hold what the schema promises (a count past its range, a
/// text where a number belongs): written by another program, or by a bug. Reading it gives
/// this error for that row; it never traps, and never stops the rows around it.
struct DamagedRow: Error, CustomStringConvertible {
    let description: String
}

/// Reads columns without GRDB's trapping conversions: every value is checked, and a bad
/// one throws `DamagedRow` naming the column.
struct RowReader {
    let row: Row
    /// For messages: `course "swift-101"`.
    let what: String
    /// Where columns are in the row, when the query fixes it: GRDB's look-up by name
    /// lowercases every column name on every read, which was the largest single cost of
    /// reading a page of courses.
    var positions: [String: Int]?

    private func value(_ column: String) -> DatabaseValue {
        if let index = positions?[column] { return row[index] as DatabaseValue? ?? .null }
        return row[column] as DatabaseValue? ?? .null
    }

    private func damaged(_ column: String, _ problem: String) -> DamagedRow {
        DamagedRow(description: "\(what): \(column) \(problem)")
    }

    func int(_ column: String, in range: ClosedRange<Int>? = nil) throws -> Int {
        guard let number = try optionalInt(column, in: range) else { throw damaged(column, "is missing") }
        return number
    }

    func optionalInt(_ column: String, in range: ClosedRange<Int>? = nil) throws -> Int? {
        switch value(column).storage {
        case .null:
            return nil
        case .int64(let number):
            guard let number = Int(exactly: number), range?.contains(number) ?? true else {
                throw damaged(column, "\(number) is out of range")
            }
            return number
        case .double(let number):
            throw damaged(column, "holds the real number \(number)")
        case .string, .blob:
            throw damaged(column, "is not a number")
        }
    }

    func int64(_ column: String) throws -> Int64 {
        guard case .int64(let number) = value(column).storage else { throw damaged(column, "is not an integer") }
        return number
    }

    func string(_ column: String) throws -> String {
        guard let text = try optionalString(column) else { throw damaged(column, "is missing") }
        return text
    }

    func optionalString(_ column: String) throws -> String? {
        switch value(column).storage {
        case .null: return nil
        case .string(let text): return text
        default: throw damaged(column, "is not text")
        }
    }

    func bool(_ column: String) throws -> Bool {
        try int(column, in: 0...1) == 1
    }

    func date(_ column: String) throws -> Date {
        guard let date = try optionalDate(column) else { throw damaged(column, "is missing") }
        return date
    }

    func optionalDate(_ column: String) throws -> Date? {
        let stored = value(column)
        if stored.isNull { return nil }
        guard let date = Date.fromDatabaseValue(stored) else { throw damaged(column, "is not a date") }
        return date
    }
}
