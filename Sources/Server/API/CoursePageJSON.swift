import SharedKernel

/// A catalog page written as openapi.yaml's `CoursePage` without going through `Encoder`:
/// Foundation's JSONEncoder, behind the generated types, was a quarter of the CPU a page
/// cost (BENCHMARKS.md). The schema stays the contract: tests decode what this writes with
/// the generated types and compare it with `Components.Schemas.CoursePage(answer)`, and the
/// HTTP tests and schemathesis check the answers as for every other route.
enum CoursePageJSON {
    /// The page, its courses cut to `budget` bytes (`CatalogPageAnswer.fitted`): written again
    /// only when they pass it, which takes some 48 courses of the largest size `CourseLimits`
    /// allows (a page of 100 usual ones is about 60 KB).
    static func write(_ answer: CatalogPageAnswer, budget: Int = CourseLimits.pageBytes) -> [UInt8] {
        var rowSizes: [Int] = []
        let bytes = write(answer, rowSizes: &rowSizes)
        guard rowSizes.reduce(0, +) + rowSizes.count > budget else { return bytes }
        let fitted = answer.fitted(rowSizes: rowSizes, within: budget)
        return write(fitted, rowSizes: &rowSizes)
    }

    private static func write(_ answer: CatalogPageAnswer, rowSizes: inout [Int]) -> [UInt8] {
        var json = JSONBytes(capacity: 256 + answer.rows.count * 640)
        rowSizes = []
        rowSizes.reserveCapacity(answer.rows.count)
        json.open("{")
        json.key("courses")
        json.open("[")
        for row in answer.rows {
            json.separate()
            let start = json.bytes.count
            writeCourse(row.course, key: row.key, added: row.added, into: &json)
            rowSizes.append(json.bytes.count - start)
        }
        json.close("]")
        if let next = answer.next {
            json.key("next")
            json.string(next.pageKey)
        }
        if let previous = answer.previous {
            json.key("previous")
            json.string(previous.pageKey)
        }
        let (count, isLowerBound) = answer.totalParts
        json.key("total")
        json.integer(count)
        json.key("total_is_lower_bound")
        json.bool(isLowerBound)
        json.close("}")
        return json.bytes
    }

    /// `CatalogCourse`: the `Course` fields and its `key`. Optional fields left out when empty,
    /// as the generated encoding does.
    private static func writeCourse(_ course: Course, key: CatalogKey, added: Int64?, into json: inout JSONBytes) {
        json.open("{")
        json.key("id")
        json.string(course.id.rawValue)
        json.key("title")
        json.string(course.title)
        json.key("instructor")
        json.string(course.instructor)
        if let category = course.category {
            json.key("category")
            json.string(category)
        }
        json.key("level")
        json.string(course.level.rawValue)
        json.key("duration_minutes")
        json.integer(course.durationMinutes)
        json.key("price")
        json.decimal(minorUnits: course.price.minorUnits)
        json.key("currency")
        json.string(course.price.currency)
        if let capacity = course.capacity {
            json.key("capacity")
            json.integer(capacity)
        }
        json.key("enrolled_count")
        json.integer(course.enrolledCount)
        json.key("tags")
        json.open("[")
        for tag in course.tags {
            json.separate()
            json.string(tag)
        }
        json.close("]")
        if let prerequisite = course.prerequisiteID {
            json.key("prerequisite_id")
            json.string(prerequisite.rawValue)
        }
        json.key("active")
        json.bool(course.isActive)
        json.key("description")
        json.string(course.description)
        json.key("lesson_count")
        json.integer(course.lessonCount)
        json.key("key")
        json.string(key.pageKey)
        if let added {
            json.key("added")
            json.integer(Int(added))
        }
        json.close("}")
    }
}

/// Compact JSON, appended byte by byte. Keys are the schema's own (plain ASCII), so they are
/// written as they are; every value string is escaped.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func open(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        needsComma = false
    }

    mutating func close(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        needsComma = true
    }

    /// Before an array element.
    mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = false
    }

    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: copied in one go (half of the writer's time went on
        // appending byte by byte).
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: Self.needsEscape) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied != true { appendEscaped(text) }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func appendEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default:
                // UTF-8 passes through as it is, as JSON allows.
                bytes.append(byte)
            }
        }
    }

    mutating func integer(_ number: Int) {
        bytes.append(contentsOf: String(number).utf8)
        needsComma = true
    }

    /// An amount of minor units (cents) as a decimal number: 1873 is `18.73`, 1850 `18.5`,
    /// 1800 `18`; what the generated encoding writes for `Double(minorUnits) / 100`, read
    /// back as the same number.
    mutating func decimal(minorUnits: Int) {
        if minorUnits < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = minorUnits.magnitude
        bytes.append(contentsOf: String(magnitude / 100).utf8)
        let cents = magnitude % 100
        if cents != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(cents / 10))
            if cents % 10 != 0 { bytes.append(UInt8(ascii: "0") + UInt8(cents % 10)) }
        }
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }
}
