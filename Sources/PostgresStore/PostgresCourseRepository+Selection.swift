import PostgresNIO
import SharedKernel

/// How a catalog query reads PostgreSQL's term index: the rows a page or a count walks, and
/// the terms merged with the walked one rather than probed.
extension PostgresCourseRepository {
    /// The terms a count or a page joins to the walked one rather than probing per row: those
    /// at most `joinedRatio` times as common as it. A merge of two lists of like length beats a
    /// probe of the index per row: `débutants finanzas` at 1 M, 39 k and 45 k courses, counted
    /// in 20 ms against 129. A page stops after its rows, but two terms that rarely meet walk
    /// most of the first to find them (`introduction modern`, 45 k courses each and none in
    /// common: 176 ms probed, 31 ms merged; `practical cat:physik`: 99.5 against 14 ms).
    static func joined(_ terms: [String], counts: [String: Int]) -> Set<String> {
        guard let walked = terms.first else { return [] }
        let base = counts[walked] ?? TermCounts.bound
        return Set(terms.dropFirst().filter { (counts[$0] ?? TermCounts.bound) <= joinedRatio * max(1, base) })
    }

    /// Past this, a probe per walked row costs less than reading the longer list: a probe
    /// costs about 3.3 µs, a merged entry 0.25 µs (measured at 1 M).
    static let joinedRatio = 8

    /// Where a query's rows come from, the rank that orders them, and the conditions on them,
    /// with their bound values.
    struct Selection {
        var source: String
        var rank: String
        var conditions: [String] = []
        var binds = PostgresBindings()
        /// Whether the conditions are on terms only (no learner, no seats), so they need no
        /// course row.
        var onlyTerms = false
        /// The terms joined to the walked one (`joined`), in `source` too.
        var joins = ""
        /// Their ranks, which a page bounds as it bounds the walked one.
        var joinedRanks: [String] = []

        /// Whether the rows are the course table's own, in any index's order: not a term's
        /// matches nor a learner's list.
        var readsCourses: Bool { source == "course" }

        /// `terms`: the query's, the first of them walked (`orderedTerms`). `walkingOrder`:
        /// every term is probed on the course rows an order's index walks.
        init(_ query: CatalogQuery, terms: [String], learner: UserID?, walkingOrder: Bool = false, joining: Set<String> = []) {
            // A learner's own lists, for nobody: nothing (an id no account has).
            let learnerID = learner?.rawValue ?? -1
            var terms = terms
            var walksTerm = false
            source = "course"
            rank = "course.sort_rank"
            if query.isFavourite || query.isEnrolled {
                if query.isFavourite {
                    source = "favourite AS mine JOIN course ON course.sort_rank = mine.course_rank"
                    conditions = ["mine.user_id = \(bind(learnerID))"]
                } else {
                    source = "enrollment AS mine JOIN course ON course.sort_rank = mine.course_rank"
                    conditions = ["mine.user_id = \(bind(learnerID)) AND mine.status <> 'dropped'"]
                }
                rank = "mine.course_rank"
                if query.isFavourite, query.isEnrolled {
                    conditions.append(
                        "EXISTS (SELECT 1 FROM enrollment AS taken WHERE taken.user_id = \(bind(learnerID)) AND taken.course_id = course.id AND taken.status <> 'dropped')"
                    )
                }
            } else if walkingOrder {
                conditions.append("true")
            } else if !terms.isEmpty {
                // The first term is walked in rank order; the others are merged with it or
                // checked by key.
                walksTerm = true
                rank = "walked.rank"
                conditions.append("walked.term = \(bind(terms.removeFirst()))")
                onlyTerms = !query.isOpen
            } else {
                conditions.append("true")
            }
            for (index, term) in terms.enumerated() {
                if walksTerm, joining.contains(term) {
                    joins += " JOIN course_term AS joined\(index) ON joined\(index).rank = walked.rank"
                    joinedRanks.append("joined\(index).rank")
                    conditions.append("joined\(index).term = \(bind(term))")
                    continue
                }
                // A probe of the index per row walked (OFFSET 0 keeps the planner from making it
                // a merge join, which reads the whole of a long list such as a level's to find
                // the few courses of a short one: 3 ms against 0.2 ms at 100 k).
                conditions.append(
                    "EXISTS (SELECT 1 FROM course_term AS other WHERE other.term = \(bind(term)) AND other.rank = \(rank) OFFSET 0)")
            }
            if walksTerm { source = "course_term AS walked\(joins) JOIN course ON course.sort_rank = walked.rank" }
            if query.isOpen {
                conditions.append(
                    """
                    course.active AND (course.capacity IS NULL OR course.enrolled_count < course.capacity)
                    AND course.enrolled_count < \(CourseLimits.seats.upperBound)
                    AND (course.prerequisite_id IS NULL
                         OR NOT EXISTS (SELECT 1 FROM course AS required WHERE required.id = course.prerequisite_id)
                         OR EXISTS (SELECT 1 FROM enrollment AS done WHERE done.user_id = \(bind(learnerID)) AND done.course_id = course.prerequisite_id AND done.completed_at IS NOT NULL))
                    AND NOT EXISTS (SELECT 1 FROM enrollment AS taken WHERE taken.user_id = \(bind(learnerID)) AND taken.course_id = course.id AND taken.status <> 'dropped')
                    """)
            }
        }

        /// Adds a value to bind and gives its placeholder.
        mutating func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
    }
}
