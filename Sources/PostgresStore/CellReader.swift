import NIOCore
import PostgresNIO
import SharedKernel

/// The cells of a row in order, each read straight from its bytes for the types the catalog
/// stores (text, integers, booleans and text arrays in PostgreSQL's binary format), and a
/// card's doubles, and through PostgresNIO's decoding for anything else, which also words its
/// errors. Reading a page's 20 courses through `PostgresRandomAccessRow` and the generic
/// `decode` was a tenth of the server's CPU time on a PostgreSQL page.
struct CellReader {
    private var cells: PostgresRow.Iterator

    init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    mutating func string() throws -> String {
        let cell = try next()
        if let bytes = cell.bytes, cell.dataType == .text || cell.dataType == .varchar { return String(buffer: bytes) }
        return try cell.decode(String.self)
    }

    mutating func optionalString() throws -> String? {
        let cell = try next()
        guard let bytes = cell.bytes else { return nil }
        if cell.dataType == .text || cell.dataType == .varchar { return String(buffer: bytes) }
        return try cell.decode(String.self)
    }

    mutating func int() throws -> Int {
        let cell = try next()
        if let value = Self.integer(cell) { return value }
        return try cell.decode(Int.self)
    }

    mutating func optionalInt() throws -> Int? {
        let cell = try next()
        guard cell.bytes != nil else { return nil }
        if let value = Self.integer(cell) { return value }
        return try cell.decode(Int.self)
    }

    mutating func optionalDouble() throws -> Double? {
        let cell = try next()
        guard var bytes = cell.bytes else { return nil }
        if cell.format == .binary, cell.dataType == .float8, bytes.readableBytes == 8, let bits = bytes.readInteger(as: UInt64.self) {
            return Double(bitPattern: bits)
        }
        return try cell.decode(Double.self)
    }

    mutating func bool() throws -> Bool {
        let cell = try next()
        if cell.format == .binary, cell.dataType == .bool, var bytes = cell.bytes, bytes.readableBytes == 1,
            let byte = bytes.readInteger(as: UInt8.self)
        {
            return byte != 0
        }
        return try cell.decode(Bool.self)
    }

    /// A one-dimensional `text[]` without NULLs.
    mutating func strings() throws -> [String] {
        let cell = try next()
        if cell.format == .binary, cell.dataType == .textArray, var bytes = cell.bytes, let strings = Self.strings(&bytes) {
            return strings
        }
        return try cell.decode([String].self)
    }

    private mutating func next() throws -> PostgresCell {
        guard let cell = cells.next() else { throw AppError.storage(.reading, detail: "a row with fewer columns than read") }
        return cell
    }

    private static func integer(_ cell: PostgresCell) -> Int? {
        guard cell.format == .binary, var bytes = cell.bytes else { return nil }
        switch (cell.dataType, bytes.readableBytes) {
        case (.int8, 8): return bytes.readInteger(as: Int64.self).map(Int.init)
        case (.int4, 4): return bytes.readInteger(as: Int32.self).map(Int.init)
        case (.int2, 2): return bytes.readInteger(as: Int16.self).map(Int.init)
        default: return nil
        }
    }

    /// The binary array format: dimensions, a NULL flag, the element type, then for one
    /// dimension its length and lower bound, and each element as a length and its bytes.
    private static func strings(_ bytes: inout ByteBuffer) -> [String]? {
        guard let dimensions = bytes.readInteger(as: Int32.self), bytes.readInteger(as: Int32.self) != nil,
            bytes.readInteger(as: UInt32.self) != nil
        else { return nil }
        if dimensions == 0 { return bytes.readableBytes == 0 ? [] : nil }
        guard dimensions == 1, let count = bytes.readInteger(as: Int32.self), count >= 0, bytes.readInteger(as: Int32.self) != nil
        else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let length = bytes.readInteger(as: Int32.self), length >= 0, let string = bytes.readString(length: Int(length)) else {
                return nil
            }
            strings.append(string)
        }
        return bytes.readableBytes == 0 ? strings : nil
    }
}
