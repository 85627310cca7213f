import Foundation
import SharedKernel

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
struct CourseKeys: Equatable {
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
