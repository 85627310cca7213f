import Foundation
import GRDB

/// A stored row that does not hold what the schema promises (a count past its range, a
/// text where a number belongs): written by another program, or by a bug. Reading it gives
/// this error for that row; it never traps, and never stops the rows around it.
struct DamagedRow: Error, CustomStringConvertible {
    let description: String
}

/// A column a `RowReader` reads: by name, or where the query puts it (`index`), which skips
/// GRDB's look-up by name (it lowercases every column name on every read: the largest single
/// cost of reading a page of courses, once).
struct RowColumn: ExpressibleByStringLiteral, Sendable {
    let name: String
    let index: Int?

    init(_ name: String, at index: Int? = nil) {
        self.name = name
        self.index = index
    }

    init(stringLiteral name: String) {
        self.init(name)
    }
}

/// Reads columns without GRDB's trapping conversions: every value is checked, and a bad
/// one throws `DamagedRow` naming the column.
struct RowReader {
    let row: Row
    /// For messages: `course "swift-101"`; made only when a message is.
    private let what: () -> String

    init(row: Row, what: @escaping @autoclosure () -> String) {
        self.row = row
        self.what = what
    }

    private func value(_ column: RowColumn) -> DatabaseValue {
        if let index = column.index {
            // The row as a collection of (name, value): no generic decoding, which costs a
            // look-up of type metadata on every value (a tenth of a page's CPU on the server).
            return row[row.index(row.startIndex, offsetBy: index)].1
        }
        return row[column.name] as DatabaseValue? ?? .null
    }

    private func damaged(_ column: RowColumn, _ problem: String) -> DamagedRow {
        DamagedRow(description: "\(what()): \(column.name) \(problem)")
    }

    func int(_ column: RowColumn, in range: ClosedRange<Int>? = nil) throws -> Int {
        guard let number = try optionalInt(column, in: range) else { throw damaged(column, "is missing") }
        return number
    }

    func optionalInt(_ column: RowColumn, in range: ClosedRange<Int>? = nil) throws -> Int? {
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

    func int64(_ column: RowColumn) throws -> Int64 {
        guard case .int64(let number) = value(column).storage else { throw damaged(column, "is not an integer") }
        return number
    }

    func string(_ column: RowColumn) throws -> String {
        guard let text = try optionalString(column) else { throw damaged(column, "is missing") }
        return text
    }

    func optionalString(_ column: RowColumn) throws -> String? {
        switch value(column).storage {
        case .null: return nil
        case .string(let text): return text
        default: throw damaged(column, "is not text")
        }
    }

    func optionalDouble(_ column: RowColumn) throws -> Double? {
        switch value(column).storage {
        case .null: return nil
        case .double(let number): return number
        case .int64(let number): return Double(number)
        case .string, .blob: throw damaged(column, "is not a number")
        }
    }

    func bool(_ column: RowColumn) throws -> Bool {
        try int(column, in: 0...1) == 1
    }

    func date(_ column: RowColumn) throws -> Date {
        guard let date = try optionalDate(column) else { throw damaged(column, "is missing") }
        return date
    }

    func optionalDate(_ column: RowColumn) throws -> Date? {
        let stored = value(column)
        if stored.isNull { return nil }
        guard let date = Date.fromDatabaseValue(stored) else { throw damaged(column, "is not a date") }
        return date
    }
}
