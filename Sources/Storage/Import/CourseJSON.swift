import Foundation
import SharedKernel

/// Reads SPEC's course JSON (a top-level array, or `{"courses": [...]}`) with a precise error
/// for the first bad entry.
public enum CourseJSON {
    /// Decodes and validates every entry. Prerequisites are checked against the file itself
    /// plus `knownIDs` (the courses already stored).
    public static func decode(_ data: Data, knownIDs: Set<CourseID> = []) throws(CourseFileError) -> [Course] {
        let file = try parse(data)
        try file.checkPrerequisites(stored: knownIDs)
        return file.courses
    }

    /// Decodes and validates every entry on its own and against the rest of the file; what
    /// is left to check against the store is `CourseFile.outsidePrerequisites`.
    public static func parse(_ data: Data) throws(CourseFileError) -> CourseFile {
        let entries: [Entry]
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .notJSON(reason: (error as NSError).localizedDescription)
        }
        do {
            if let list = try? JSONDecoder().decode([Entry].self, from: data) {
                entries = list
            } else {
                entries = try JSONDecoder().decode(Wrapper.self, from: data).courses
            }
        } catch {
            throw .wrongShape
        }

        var courses: [Course] = []
        var seen: Set<CourseID> = []
        for (index, entry) in entries.enumerated() {
            switch entry.result {
            case .failure(let problem):
                throw .invalidField(index: index, id: entry.id, field: problem.field, reason: problem.reason)
            case .success(let course):
                guard seen.insert(course.id).inserted else { throw .duplicateID(index: index, id: course.id.rawValue) }
                courses.append(course)
            }
        }
        for (index, course) in courses.enumerated() where course.prerequisiteID == course.id {
            throw .unknownPrerequisite(index: index, id: course.id.rawValue, prerequisiteID: course.id.rawValue)
        }
        return CourseFile(courses: courses, ids: seen)
    }

    // MARK: - Decoding

    private struct Wrapper: Decodable {
        let courses: [Entry]
    }

    struct FieldProblem: Error {
        let field: String
        let reason: String
    }

    /// One array element: a course, or the first problem found in it. Never throws, so one
    /// bad entry does not hide which entry it was.
    private struct Entry: Decodable {
        let id: String?
        let result: Result<Course, FieldProblem>

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: Key.self) else {
                id = nil
                result = .failure(FieldProblem(field: "(entry)", reason: "must be an object"))
                return
            }
            let reader = FieldReader(container: container)
            id = try? container.decodeIfPresent(String.self, forKey: .id)
            result = Result { () throws(FieldProblem) -> Course in try reader.course() }
        }
    }

    enum Key: String, CodingKey {
        case id, title, instructor, category, level, price, currency, capacity, tags, active, description
        case durationMinutes = "duration_minutes"
        case enrolledCount = "enrolled_count"
        case prerequisiteID = "prerequisite_id"
    }

    private struct FieldReader {
        let container: KeyedDecodingContainer<Key>

        func course() throws(FieldProblem) -> Course {
            let id = try requiredText(.id)
            let levelName = try requiredText(.level)
            guard let level = CourseLevel(rawValue: levelName) else {
                throw FieldProblem(field: Key.level.rawValue, reason: "must be one of beginner, intermediate, advanced")
            }
            let duration = try required(Int.self, .durationMinutes, "a whole number")
            guard duration > 0 else { throw FieldProblem(field: Key.durationMinutes.rawValue, reason: "must be greater than 0") }
            let price = try required(Double.self, .price, "a number")
            guard price >= 0, price.isFinite else { throw FieldProblem(field: Key.price.rawValue, reason: "must be 0 or more") }
            let currency = try requiredText(.currency)
            guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw FieldProblem(field: Key.currency.rawValue, reason: "must be 3 letters")
            }
            let capacity = try optional(Int.self, .capacity, "a whole number or null")
            if let capacity, capacity < 0 { throw FieldProblem(field: Key.capacity.rawValue, reason: "must be 0 or more") }
            let enrolled = try optional(Int.self, .enrolledCount, "a whole number") ?? 0
            guard enrolled >= 0 else { throw FieldProblem(field: Key.enrolledCount.rawValue, reason: "must be 0 or more") }
            return Course(
                id: CourseID(id),
                title: try requiredText(.title),
                instructor: try requiredText(.instructor),
                category: try optional(String.self, .category, "a string"),
                level: level,
                durationMinutes: duration,
                price: Price(minorUnits: Int((price * 100).rounded()), currency: currency.uppercased()),
                capacity: capacity,
                enrolledCount: enrolled,
                tags: try optional([String].self, .tags, "an array of strings") ?? [],
                prerequisiteID: try optional(String.self, .prerequisiteID, "a string or null").map { CourseID($0) },
                isActive: try optional(Bool.self, .active, "true or false") ?? true,
                description: try requiredText(.description)
            )
        }

        private func requiredText(_ key: Key) throws(FieldProblem) -> String {
            let text = try required(String.self, key, "a string")
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw FieldProblem(field: key.rawValue, reason: "must not be empty")
            }
            return text
        }

        private func required<T: Decodable>(_ type: T.Type, _ key: Key, _ kind: String) throws(FieldProblem) -> T {
            guard let value = try optional(type, key, kind) else {
                throw FieldProblem(field: key.rawValue, reason: "is missing")
            }
            return value
        }

        private func optional<T: Decodable>(_ type: T.Type, _ key: Key, _ kind: String) throws(FieldProblem) -> T? {
            do {
                return try container.decodeIfPresent(type, forKey: key)
            } catch {
                throw FieldProblem(field: key.rawValue, reason: "must be \(kind)")
            }
        }
    }
}

/// A course file whose entries are each valid and whose ids are unique.
public struct CourseFile: Sendable {
    public let courses: [Course]
    let ids: Set<CourseID>

    /// Prerequisites named in the file that are not courses of the file: they must already
    /// be stored.
    public var outsidePrerequisites: Set<CourseID> {
        Set(courses.compactMap(\.prerequisiteID).filter { !ids.contains($0) })
    }

    /// Fails on the first entry whose prerequisite is neither in the file nor in `stored`.
    public func checkPrerequisites(stored: Set<CourseID>) throws(CourseFileError) {
        for (index, course) in courses.enumerated() {
            if let prerequisite = course.prerequisiteID, !ids.contains(prerequisite), !stored.contains(prerequisite) {
                throw .unknownPrerequisite(index: index, id: course.id.rawValue, prerequisiteID: prerequisite.rawValue)
            }
        }
    }
}
