import Foundation

/// How text is compared in the catalog: case, accents and width ignored, so `Ángel` sorts
/// with `angel` and `nunez` finds `Núñez`. Every store and screen folds the same way.
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The catalog order: folded title, then id.
    public static func inCatalogOrder(_ lhs: Course, _ rhs: Course) -> Bool {
        let (left, right) = (fold(lhs.title), fold(rhs.title))
        return left == right ? lhs.id.rawValue < rhs.id.rawValue : left < right
    }
}
