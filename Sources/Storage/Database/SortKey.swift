import Foundation
import Platform
import SharedKernel
import Synchronization

/// The folded form of a text used for sorting and matching: case and accents removed, so
/// `Ángel` sorts with `angel` and `nunez` finds `Núñez`.
enum SortKey {
    static func make(_ text: String) -> String {
        TextFolding.fold(text)
    }

    /// The words the search matches (since v9, the full-text index's `search_key` column):
    /// title, instructor and tags, folded, one per line.
    static func searchKey(title: String, instructor: String, tags: [String]) -> String {
        make(([title, instructor] + tags).joined(separator: "\n"))
    }
}

/// What a course row is sorted and found by, folded.
struct CourseKeys: Equatable, Sendable {
    let sortKey: String
    let searchKey: String
    let categoryKey: String
}

/// Folds courses' keys, each text that repeats across a catalog (instructors, tags, categories)
/// once: an import of a million generated courses spent about half of writing its rows in
/// Foundation's folding, most of it on the same few hundred texts.
struct CourseKeyFolding {
    private var folded: [String: String] = [:]
    private var categories: [String: String] = [:]

    /// `SortKey.searchKey` line by line: a grapheme never spans a line break, so each line
    /// folds alone, as it folds after one (Foundation keeps a combining mark that starts a
    /// text, and drops one that follows a line break: `CourseKeyFoldingTests`).
    mutating func keys(of course: Course) -> CourseKeys {
        let sortKey = SortKey.make(course.title)
        var searchKey = sortKey
        for text in CollectionOfOne(course.instructor) + course.tags {
            searchKey += "\n"
            searchKey += repeated(text)
        }
        let category = course.category ?? ""
        let categoryKey: String
        if let known = categories[category] {
            categoryKey = known
        } else {
            categoryKey = TextFolding.key(category)
            categories[category] = categoryKey
        }
        return CourseKeys(sortKey: sortKey, searchKey: searchKey, categoryKey: categoryKey)
    }

    private mutating func repeated(_ text: String) -> String {
        if let known = folded[text] { return known }
        let made = String(SortKey.make("\n" + text).dropFirst())
        folded[text] = made
        return made
    }
}

extension CourseKeyFolding {
    /// The keys of many courses (a bulk import of 10,000 or more), folded on every core (at
    /// most 8): the file cut in as many parts, each folded with a memo of its own (1 M courses:
    /// the import's ordering step 10-11 s on one core, 7-8 s on two).
    static func keys(of entries: [CourseEntry], cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> [CourseKeys] {
        let parts = ImportParts.count(courses: entries.count, cores: cores)
        guard parts > 1 else {
            var folding = CourseKeyFolding()
            return entries.map { folding.keys(of: $0.course) }
        }
        let folded = FoldedParts(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var folding = CourseKeyFolding()
            let range = entries.count * part / parts..<entries.count * (part + 1) / parts
            folded.keep(entries[range].map { folding.keys(of: $0.course) }, as: part)
        }
        return folded.joined
    }

    /// The parts' keys as each thread hands them in.
    private final class FoldedParts: Sendable {
        private let parts: Mutex<[[CourseKeys]]>

        init(count: Int) { parts = Mutex(Array(repeating: [], count: count)) }

        func keep(_ keys: [CourseKeys], as part: Int) { parts.withLock { $0[part] = keys } }

        var joined: [CourseKeys] { parts.withLock { Array($0.joined()) } }
    }
}
