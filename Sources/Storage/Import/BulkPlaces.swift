import Foundation
import GRDB
import Platform
import SharedKernel

/// Where every course goes when many are imported at once: the whole catalog after the
/// import, stored courses the file does not name and the file's own, put in order in memory
/// (as SQLite orders `sort_key, id`: byte by byte) and given the ranks a renumbering would.
/// The file's rows are then written at their final ranks and only the stored courses whose
/// rank changes are moved: nothing is renumbered in SQL (a statement that rewrote every row
/// of the catalog, 8-10 s at a million).
struct BulkPlaces {
    /// The rank of each entry of the file, by its index there.
    let ranks: [Int64]
    /// Stored courses not in the file whose rank changes: id and new rank.
    let moves: [(id: String, rank: Int64)]
    /// Whether each entry of the file, by its index there, names a course already stored
    /// when its row is written: stored before the import, or named earlier in the file (which
    /// `CourseJSON` refuses, but courses handed over in memory are only asked not to do).
    let stored: [Bool]
    /// Whether the file names a course twice.
    let repeated: Bool
    /// The stored courses the file does not name, by id: their ranks after the import.
    let otherRanks: [String: Int64]

    init(entries: [CourseEntry], keys: [CourseKeys], in db: Database) throws {
        var sortKeys = keys.map(\.sortKey)
        var ids = entries.map(\.course.id.rawValue)
        // The stored courses, minus those the file names (their file entry places them).
        var others: [String: (sortKey: String, rank: Int64?)] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, sort_key, sort_rank FROM course")
        while let row = try rows.next() { others[row[0]] = (row[1], row[2]) }
        var named = Set<String>(minimumCapacity: ids.count)
        stored = ids.map { id in
            let before = others.removeValue(forKey: id) != nil
            return !named.insert(id).inserted || before
        }
        repeated = named.count < ids.count
        var storedRanks: [Int64?] = []
        for (id, course) in others {
            ids.append(id)
            sortKeys.append(course.sortKey)
            storedRanks.append(course.rank)
        }
        let ranks = Self.ranks(sortKeys: sortKeys, ids: ids)
        self.ranks = Array(ranks[..<entries.count])
        moves = zip(entries.count..., storedRanks).compactMap { index, old in
            ranks[index] == old ? nil : (ids[index], ranks[index])
        }
        var otherRanks: [String: Int64] = [:]
        otherRanks.reserveCapacity(ids.count - entries.count)
        for index in entries.count..<ids.count { otherRanks[ids[index]] = ranks[index] }
        self.otherRanks = otherRanks
    }

    /// The rank of each course (`sortKeys[i]`, `ids[i]`) at its place in catalog order.
    private static func ranks(sortKeys: [String], ids: [String]) -> [Int64] {
        // Most comparisons end within the keys' first sixteen bytes, compared as two numbers
        // without touching the strings (each retained and released at every comparison).
        let prefixes = sortKeys.map(leadingBytes)
        let order = ids.indices.sorted { left, right in
            if prefixes[left] != prefixes[right] { return prefixes[left] < prefixes[right] }
            return switch compare(sortKeys[left], sortKeys[right]) {
            case ..<0: true
            case 1...: false
            default: compare(ids[left], ids[right]) < 0
            }
        }
        var ranks = Array(repeating: Int64(0), count: ids.count)
        for (place, index) in order.enumerated() { ranks[index] = CatalogOrder.rank(atPlace: place) }
        return ranks
    }

    /// The first sixteen bytes of `text`, big-endian, zeros after its end: two texts whose
    /// leading bytes differ are in the order these are (a text that ends first pads with zeros
    /// and is the smaller, as it is byte by byte); equal leading bytes say nothing.
    static func leadingBytes(_ text: String) -> (UInt64, UInt64) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in text.utf8.prefix(16).enumerated() {
            if index < 8 {
                high |= UInt64(byte) << (56 - 8 * index)
            } else {
                low |= UInt64(byte) << (56 - 8 * (index - 8))
            }
        }
        return (high, low)
    }

    /// Byte by byte, as SQLite's BINARY collation compares.
    private static func compare(_ left: String, _ right: String) -> Int {
        var left = left
        var right = right
        return left.withUTF8 { left in
            right.withUTF8 { right in
                let shared = min(left.count, right.count)
                // Two strings with bytes in common both have an address.
                guard shared > 0, let leftBytes = left.baseAddress, let rightBytes = right.baseAddress else {
                    return left.count - right.count
                }
                let order = Int(memcmp(leftBytes, rightBytes, shared))
                return order != 0 ? order : left.count - right.count
            }
        }
    }
}
