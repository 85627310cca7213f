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
