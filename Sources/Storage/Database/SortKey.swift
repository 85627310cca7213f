import Foundation
import SharedKernel

/// The folded form of a text used for sorting and matching: case and accents removed, so
/// `Ángel` sorts with `angel` and `nunez` finds `Núñez`.
enum SortKey {
    static func make(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// What search matches against: title, instructor and tags, folded.
    static func searchKey(for course: Course) -> String {
        make(([course.title, course.instructor] + course.tags).joined(separator: "\n"))
    }

    /// The folded words of a query, each ready for `LIKE … ESCAPE '\\'`.
    static func likePatterns(for query: String) -> [String] {
        make(query).split(whereSeparator: \.isWhitespace).map { word in
            let escaped = word
                .replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_")
            return "%\(escaped)%"
        }
    }
}
