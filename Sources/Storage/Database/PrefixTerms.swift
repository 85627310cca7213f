import GRDB
import SharedKernel

/// The search index's terms that begin with a searched word longer than the index's longest
/// prefix (six), kept per catalog revision (`CatalogRevision`).
///
/// FTS5 answers `"mastery"*` past its prefix indexes by merging the lists of every term the
/// word begins into one, whole, before it gives the first row: 3-4 ms for a common word at
/// 1 M, most of the cost of a page of two words or a word in a category. The same terms
/// asked as `("mastery")`, or a few of them OR'ed, are read lazily and skipped through as the
/// page needs (0.5 ms). Looking them up (`course_search_terms`) counts each term's courses,
/// so it is done once a revision.
final class PrefixTerms: Sendable {
    /// The index's longest prefix (`prefix = '1 2 3 4 5 6'`).
    static let longestIndexedPrefix = 6
    /// A prefix that begins more terms than this is asked as a prefix: a merge of many lists.
    static let most = 16
    /// Enough for every word in use; when full it starts again (a lookup costs a page).
    static let capacity = 4_096

    /// Each prefix's terms, nil for one that begins more than `most`.
    private let kept = RevisionKept<String, [String]?>(capacity: capacity)

    init() {}

    /// Whether `prefix` is asked by its terms: past the index's prefixes, and in the letters
    /// that FTS5's tokenizer and `TextFolding` fold alike (ASCII lower case, digits, `_`), so
    /// the terms looked up are the ones the prefix matches.
    static func expands(_ prefix: String) -> Bool {
        prefix.utf8.count > longestIndexedPrefix
            && prefix.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5f }
    }

    /// The terms each of `prefixes` begins, for those that `expands` and that begin at most
    /// `most` terms; read in `db` at its revision.
    func terms(of prefixes: [String], in db: Database) throws -> [String: [String]] {
        let wanted = prefixes.filter(Self.expands)
        guard !wanted.isEmpty else { return [:] }
        let revision = try CatalogRevision.read(in: db)
        let known = kept.values(for: wanted, at: revision)
        var found = known.compactMapValues { $0 }
        let missing = wanted.filter { known[$0] == nil }
        guard !missing.isEmpty else { return found }
        let lookup = try db.cachedStatement(sql: "SELECT term FROM course_search_terms WHERE term >= ? AND term < ? LIMIT ?")
        var read: [String: [String]?] = [:]
        for prefix in missing {
            // Every term beginning with the prefix sorts between it and it followed by the
            // last character there is.
            let terms = try String.fetchAll(lookup, arguments: [prefix, prefix + "\u{10FFFF}", Self.most + 1])
            read[prefix] = terms.count > Self.most ? .some(nil) : .some(terms)
            if terms.count <= Self.most { found[prefix] = terms }
        }
        kept.keep(read, at: revision)
        return found
    }
}
