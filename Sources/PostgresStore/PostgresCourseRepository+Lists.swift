import Logging
import PostgresNIO
import SharedKernel

/// Counts and title-order pages of common terms from their lists kept in memory (`TermLists`):
/// under the Zipf mix two-term counts were 70 % of PostgreSQL's time and two-term pages most
/// of the rest (BENCHMARKS.md, "A school's read mix"), and most such queries share a list (a
/// level's, `is:free`'s, a common word's) with many others.
extension PostgresCourseRepository {
    /// The rarest term has at least this many courses for its query to be counted from lists:
    /// below, PostgreSQL walks it and probes the others in a few milliseconds, where a list
    /// read could be a level's third of the catalog.
    static let listedFrom = 500

    /// At most this many terms' lists are read for one query (a longer one is counted by
    /// PostgreSQL unless all its lists are kept already), each of at most `TermLists.longest`
    /// courses: one request can make the database read at most 2 M ranks (16 MiB).
    static let listedTerms = 4

    /// The count of a query of terms alone from their lists, those not kept read now; nil
    /// where PostgreSQL's count is the better, or when the catalog has moved past `revision`
    /// meanwhile. With a list missing, PostgreSQL counts a query of one term (its count stops
    /// at the limit), of a rare term, of more than `listedTerms` terms, or of a term whose
    /// list is past `TermLists.longest`.
    func listedCount(_ query: CatalogQuery, terms: [String], at revision: Int64, in connection: PostgresConnection, logger: Logger)
        async throws -> CatalogCount?
    {
        guard let rarest = terms.first, !query.dependsOnLearner else { return nil }
        let kept = termLists.kept(terms)
        var lists = kept.revision == revision ? kept.lists : [:]
        let missing = terms.filter { lists[$0] == nil }
        if !missing.isEmpty {
            guard (2...Self.listedTerms).contains(terms.count),
                (termCounts.counts(of: [rarest])[rarest] ?? TermCounts.bound) >= Self.listedFrom,
                !termLists.anyTooLong(missing, at: revision),
                let read = try await Self.lists(of: missing, at: revision, in: connection, logger: logger)
            else { return nil }
            termLists.keep(read.lists, tooLong: read.tooLong, at: revision)
            guard read.tooLong.isEmpty else { return nil }
            lists.merge(read.lists) { kept, _ in kept }
        }
        let limit = query.countLimit
        let count = TermLists.commonCount(terms.compactMap { lists[$0] }, limit: limit)
        return count > limit ? .atLeast(limit) : .exactly(count)
    }

    /// The courses of each of `terms` (their ranks, ascending), read in one statement with the
    /// revision they are of, and the terms whose lists are past `TermLists.longest`; nil when
    /// the revision is not `revision`.
    private static func lists(of terms: [String], at revision: Int64, in connection: PostgresConnection, logger: Logger) async throws
        -> (lists: [String: [Int64]], tooLong: [String])?
    {
        let rows = try await connection.prepared(
            """
            SELECT (SELECT revision FROM catalog_revision WHERE id = 1), listed.term,
                ARRAY(SELECT rank FROM course_term WHERE term = listed.term COLLATE "C" ORDER BY rank LIMIT \(TermLists.longest + 1))
            FROM unnest(\(terms)::text[]) AS listed(term)
            """,
            logger: logger
        )
        var lists: [String: [Int64]] = [:]
        var tooLong: [String] = []
        for try await (read, term, ranks) in rows.decode((Int64, String, [Int64]).self) {
            guard read == revision else { return nil }
            if ranks.count <= TermLists.longest { lists[term] = ranks } else { tooLong.append(term) }
        }
        return (lists, tooLong)
    }

    /// A title-order page of a query of terms alone whose lists are all kept: its courses found
    /// in memory, their rows read by rank in one statement with the catalog's revision. Nil
    /// when a list is not kept, or the catalog has moved past the lists' revision (even for a
    /// page the lists find empty): the page is then read as any other. A row too damaged to
    /// read is left out and the courses after it read instead, as `page` does.
    func listedPage(
        _ query: CatalogQuery, terms: [String], at position: CatalogPosition, limit: Int, in connection: PostgresConnection, logger: Logger
    ) async throws -> (rows: [CatalogRow], revision: Int64)? {
        guard terms.count > 1, query.sort.field == .title, !query.dependsOnLearner else { return nil }
        let kept = termLists.kept(terms)
        guard terms.allSatisfy({ kept.lists[$0] != nil }) else { return nil }
        let lists = terms.compactMap { kept.lists[$0] }
        var (bound, backwards) = position.walk
        let descending = backwards != query.sort.descending
        var rows: [CatalogRow] = []
        repeat {
            let wanted = limit - rows.count
            let ranks = TermLists.commonRanks(lists, past: bound?.rawValue, descending: descending, limit: wanted)
            // In `page`'s layout, the revision after it; its one row carries the revision when no
            // rank is asked.
            let found = try await connection.prepared(
                """
                SELECT \(unescaped: PostgresCatalog.courseColumns), listed.rank, NULL::bigint, course.added_seq, now.revision
                FROM catalog_revision AS now
                    LEFT JOIN unnest(\(ranks)::bigint[]) AS listed(rank) ON true
                    LEFT JOIN course ON course.sort_rank = listed.rank
                WHERE now.id = 1
                """,
                logger: logger)
            var read: [Int64: CatalogRow] = [:]
            for try await row in found {
                let cells = row.makeRandomAccess()
                guard try cells[PostgresCatalog.columnCount + 3].decode(Int64.self) == kept.revision else { return nil }
                guard let rank = try? cells[PostgresCatalog.columnCount].decode(Int64.self),
                    let listed = PostgresCatalog.catalogRow(row, cells: cells, key: CatalogKey(rank))
                else { continue }
                read[rank] = listed
            }
            rows += ranks.compactMap { read[$0] }
            // The end of the matches; else on past the last, when some rows were too damaged to read.
            guard ranks.count == wanted, let last = ranks.last else { break }
            bound = CatalogKey(last)
        } while rows.count < limit
        return (backwards ? rows.reversed() : rows, kept.revision)
    }
}
