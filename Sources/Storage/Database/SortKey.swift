import Foundation
import SharedKernel

/// The folded form of a text used for sorting and matching: case and accents removed, so
/// `Ángel` sorts with `angel` and `nunez` finds `Núñez`.
enum SortKey {
    static func make(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// What the LIKE search of v4 matched against; v5's full-text index replaced it, and the
    /// column is kept only because shipped migrations are never edited.
    static func searchKey(for course: Course) -> String {
        make(([course.title, course.instructor] + course.tags).joined(separator: "\n"))
    }
}
