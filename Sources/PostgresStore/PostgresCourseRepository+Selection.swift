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
        /// The rows a query walks.
        enum Walked {
            /// The course table's own, in any index's order.
            case courses
            /// A learner's list (`favourite` or `enrollment`), in its ranks' order.
            case list(String)
            /// A term's entries in rank order, with those of the terms merged with it
            /// (`joined`): each one's place among the terms after the walked one.
            case term(joined: [Int])
        }

        var walked = Walked.courses
        var conditions: [String] = []
        var binds = PostgresBindings()
        /// Whether the conditions are on terms only (no learner, no seats), so they need no
        /// course row.
        var onlyTerms = false

        /// The rank that orders the rows.
        var rank: String {
            switch walked {
            case .courses: "course.sort_rank"
            case .list: "mine.course_rank"
            case .term: "walked.rank"
            }
        }

        /// Whether the rows are the course table's own, in any index's order.
        var readsCourses: Bool {
            if case .courses = walked { true } else { false }
        }

        /// The merged terms' places (`Walked.term`).
        private var joined: [Int] {
            if case .term(let joined) = walked { joined } else { [] }
        }

        /// The merged terms' ranks, which a page bounds as it bounds the walked one.
        var joinedRanks: [String] { joined.map { "joined\($0).rank" } }

        /// The walked term's entries and the merged ones', without the courses: what a count
        /// of `onlyTerms` conditions reads.
        var termsAlone: String {
            "course_term AS walked" + joined.map { " JOIN course_term AS joined\($0) ON joined\($0).rank = walked.rank" }.joined()
        }

        /// What the rows are read from, their courses included.
        var source: String {
            switch walked {
            case .courses: "course"
            case .list(let table): "\(table) AS mine JOIN course ON course.sort_rank = mine.course_rank"
            case .term: "\(termsAlone) JOIN course ON course.sort_rank = walked.rank"
            }
        }

        /// `terms`: the query's, the first of them walked (`orderedTerms`). `walkingOrder`:
        /// every term is probed on the course rows an order's index walks.
        init(_ query: CatalogQuery, terms: [String], learner: UserID?, walkingOrder: Bool = false, joining: Set<String> = []) {
            // A learner's own lists, for nobody: nothing (an id no account has).
            let learnerID = learner?.rawValue ?? -1
            var terms = terms
            if query.isFavourite || query.isEnrolled {
                if query.isFavourite {
                    walked = .list("favourite")
                    conditions = ["mine.user_id = \(bind(learnerID))"]
                } else {
                    walked = .list("enrollment")
                    conditions = ["mine.user_id = \(bind(learnerID)) AND mine.status <> 'dropped'"]
                }
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
                walked = .term(joined: [])
                conditions.append("walked.term = \(bind(terms.removeFirst()))")
                onlyTerms = !query.isOpen
            } else {
                conditions.append("true")
            }
            var joined: [Int] = []
            for (index, term) in terms.enumerated() {
                if case .term = walked, joining.contains(term) {
                    joined.append(index)
                    conditions.append("joined\(index).term = \(bind(term))")
                    continue
                }
                // A probe of the index per row walked (OFFSET 0 keeps the planner from making it
                // a merge join, which reads the whole of a long list such as a level's to find
                // the few courses of a short one: 3 ms against 0.2 ms at 100 k).
                conditions.append(
                    "EXISTS (SELECT 1 FROM course_term AS other WHERE other.term = \(bind(term)) AND other.rank = \(rank) OFFSET 0)")
            }
            if case .term = walked { walked = .term(joined: joined) }
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
