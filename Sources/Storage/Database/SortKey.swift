import Foundation
import SharedKernel

/// The folded form of a text used for sorting and matching: case and accents removed, so
/// `Ángel` sorts with `angel` and `nunez` finds `Núñez`.
enum SortKey {
    static func make(_ text: String) -> String {
        TextFolding.fold(text)
    }

    /// What the LIKE search of v4 matched against; v5's full-text index replaced it, and the
    /// column is kept only because shipped migrations are never edited.
    static func searchKey(title: String, instructor: String, tags: [String]) -> String {
        make(([title, instructor] + tags).joined(separator: "\n"))
    }
}
