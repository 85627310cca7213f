import Foundation
import Logging
import PostgresNIO
import SharedKernel

/// The cards a batch of queued operations answers, grades or takes grades back from, merged in
/// memory: read once the batch holds their rows (`OperationBatch.read` locks them), each
/// answer, grade and undo decided on that state by `LearningRules` and `MergeRules` as the
/// statements did, and what changed written in one statement at the batch's end. A merged
/// review cost two statements (its card and log read, then written), an answer five, each a
/// round trip through PostgresNIO.
struct BatchCards {
    private struct Card {
        /// Nil for a question not answered: there is no card to grade (or to write).
        var schedule: CardSchedule?
        /// When the kept answer was given (`answered_at`, whole seconds; nil for an old row).
        var answeredAt: Date?
        /// The answer this batch gave, to be written with the card.
        var answer: (answer: Answer, day: Int, at: Date)?
        /// The log from `since` on, in time order (then as written).
        var log: [ReviewLogEntry]
        /// The ids of the rows `log` was read from, in its order.
        var rows: [Int]
        /// The first position of `log` this batch changed: the rows from it on are written again.
        var changedFrom: Int?

        /// The entries from `position` on replaced by `merged`'s, as the store will read them back.
        mutating func replace(from position: Int, with merged: (entries: [ReviewLogEntry], schedule: CardSchedule)) {
            log.replaceSubrange(position..., with: merged.entries.map(Self.stored))
            changedFrom = min(changedFrom ?? position, position)
            // An undo of a card without its answer writes no card, as the statements did not.
            if schedule != nil { schedule = Self.stored(merged.schedule) }
        }

        /// An entry or a schedule in whole seconds, as `PostgresLearningRepository.schedule` reads it.
        static func stored(_ entry: ReviewLogEntry) -> ReviewLogEntry {
            ReviewLogEntry(ref: entry.ref, grade: entry.grade, reviewedAt: second(entry.reviewedAt), before: stored(entry.before))
        }

        static func stored(_ schedule: CardSchedule) -> CardSchedule {
            var schedule = schedule
            schedule.card.due = second(schedule.card.due)
            schedule.card.lastReview = schedule.card.lastReview.map(second)
            return schedule
        }

        static func second(_ date: Date) -> Date {
            PostgresLearningRepository.date(Int(PostgresLearningRepository.seconds(date)))
        }
    }

    /// From which second each card's log is read: its earliest grade or undo in the batch; all
    /// of it for a card answered (the answer replays it whole).
    private let since: [QuestionRef: Int64]
    private var cards: [QuestionRef: Card] = [:]
    /// The questions of the lessons the batch answers, by course and lesson.
    private var questions: [CourseID: [Int: [Question]]] = [:]
    /// The days the batch's grades were given on (the learner's streak).
    private var days: Set<Int> = []

    /// `now`: the batch's, which no grade is later than (`HybridTime.clamped`).
    init(_ operations: [SyncOperation], now: Date) {
        var since: [QuestionRef: Int64] = [:]
        for operation in operations {
            let (ref, time): (QuestionRef, Date)
            switch operation.kind {
            case .review(let graded, _, _): (ref, time) = (graded, operation.time.clamped(notAfter: now).date)
            case .undoReview(let graded, let reviewedAt): (ref, time) = (graded, reviewedAt)
            case .answer(let answered, _, _):
                since[answered] = Int64.min
                continue
            case .favourite, .lesson, .enroll, .unenroll, .name: continue
            }
            let second = PostgresLearningRepository.seconds(time)
            since[ref] = min(since[ref] ?? second, second)
        }
        self.since = since
    }

    /// Reads the batch's cards with their logs (from `since`), in one statement, and the
    /// questions of the lessons it answers, in another.
    mutating func read(userID: UserID, in connection: PostgresConnection, logger: Logger) async throws {
        let refs = Array(since.keys)
        guard !refs.isEmpty else { return }
        for ref in refs { cards[ref] = Card(schedule: nil, log: [], rows: []) }
        try await readQuestions(of: refs.filter { since[$0] == Int64.min }, in: connection, logger: logger)
        let rows = try await connection.query(
            """
            WITH wanted AS (
                SELECT * FROM unnest(\(refs.map(\.courseID.rawValue))::text[], \(refs.map(\.lesson))::integer[],
                                     \(refs.map(\.question))::integer[], \(refs.map { since[$0] ?? 0 })::bigint[])
                    AS wanted (course_id, lesson, question, since)
            )
            SELECT 0 AS part, a.course_id, a.lesson, a.question, 0::bigint AS id, NULL::text AS grade, a.answered_at AS reviewed_at,
                \(unescaped: PostgresLearningRepository.scheduleColumns(of: "a"))
            FROM answer a JOIN wanted w ON (a.course_id, a.lesson, a.question) = (w.course_id, w.lesson, w.question)
            WHERE a.user_id = \(userID.rawValue)
            UNION ALL
            SELECT 1, l.course_id, l.lesson, l.question, l.id, l.grade, l.reviewed_at,
                \(unescaped: PostgresLearningRepository.scheduleColumns(of: "l"))
            FROM review_log l JOIN wanted w ON (l.course_id, l.lesson, l.question) = (w.course_id, w.lesson, w.question)
            WHERE l.user_id = \(userID.rawValue) AND l.reviewed_at >= w.since
            ORDER BY part, course_id, lesson, question, reviewed_at, id
            """, logger: logger)
        for try await row in rows {
            var cells = CellReader(row)
            let part = try cells.int()
            let ref = QuestionRef(courseID: CourseID(try cells.string()), lesson: try cells.int(), question: try cells.int())
            let id = try cells.int()
            if part == 0 {
                _ = try cells.optionalString()
                cards[ref]?.answeredAt = try cells.optionalInt().map(PostgresLearningRepository.date)
                cards[ref]?.schedule = try PostgresLearningRepository.schedule(&cells)
            } else {
                cards[ref]?.log.append(try PostgresLearningRepository.logEntry(of: ref, &cells))
                cards[ref]?.rows.append(id)
            }
        }
    }

    /// The questions of the lessons of `refs`, as `PostgresLearningRepository.content` finds
    /// them: none for a lesson without content, or whose content is damaged.
    private mutating func readQuestions(of refs: [QuestionRef], in connection: PostgresConnection, logger: Logger) async throws {
        guard !refs.isEmpty else { return }
        let lessons = Array(Set(refs.map { LessonKey(courseID: $0.courseID, lesson: $0.lesson) }))
        let rows = try await connection.query(
            """
            SELECT content.course_id, content.position, octet_length(content.body), content.questions
            FROM lesson_content content
            JOIN unnest(\(lessons.map(\.courseID.rawValue))::text[], \(lessons.map(\.lesson))::integer[]) AS wanted (course_id, position)
                ON (content.course_id, content.position) = (wanted.course_id, wanted.position)
            """, logger: logger)
        for try await row in rows {
            var cells = CellReader(row)
            let (courseID, lesson) = (CourseID(try cells.string()), try cells.int())
            let bodyBytes = try cells.optionalInt() ?? 0
            questions[courseID, default: [:]][lesson] =
                PostgresLearningRepository.questions(try cells.optionalString(), bodyBytes: bodyBytes) ?? []
        }
    }

    private struct LessonKey: Hashable {
        var courseID: CourseID
        var lesson: Int
    }

    /// An answer given at `time`: kept if it is the first, or earlier than the one kept (the
    /// card then starts from it, its whole log replayed on top); otherwise `.superseded`. The
    /// rules check it either way: a bad one is refused, whatever is kept.
    mutating func answer(
        _ chosen: Set<Int>, to ref: QuestionRef, at time: StudyTime, holdsPlace: Bool, userID: UserID, settings: ReviewSettings
    ) throws -> OperationOutcome {
        var card = try self.card(ref)
        let lesson = questions[ref.courseID]?[ref.lesson] ?? []
        let replaces = card.schedule == nil || MergeRules.answerReplaces(time.now, stored: card.answeredAt)
        let decided = try LearningRules.answer(
            chosen, to: ref, question: lesson.indices.contains(ref.question) ? lesson[ref.question] : nil, holdsPlace: holdsPlace,
            existing: nil, userID: userID, time: time, settings: settings)
        guard replaces, let start = decided.newCard else { return .superseded }
        let replayed = LearningRules.replay(
            card.log.map { ReviewGrading($0.grade, at: $0.reviewedAt) }, from: start, ref: ref, userID: userID, settings: settings)
        card.replace(from: 0, with: replayed)
        card.schedule = Card.stored(replayed.schedule)
        card.answeredAt = Card.second(time.now)
        card.answer = (decided.answer, time.day.number, time.now)
        cards[ref] = card
        return .applied
    }

    /// A grade given at `grading.reviewedAt`, put in its place in the card's log; false for one
    /// there already (`LearningRules.isRepeat`).
    mutating func review(_ grading: ReviewGrading, of ref: QuestionRef, userID: UserID, secondsFromGMT: Int, settings: ReviewSettings)
        throws -> Bool
    {
        var card = try self.card(ref)
        guard let current = card.schedule else { throw AppError.noSuchLesson(ref.courseID, ref.lesson) }
        let from = card.log.firstIndex { $0.reviewedAt >= grading.reviewedAt } ?? card.log.endIndex
        guard !LearningRules.isRepeat(grading, in: Array(card.log[from...])) else { return false }
        let later = card.log[from...].firstIndex { $0.reviewedAt > grading.reviewedAt } ?? card.log.endIndex
        card.replace(
            from: later,
            with: try LearningRules.insert(
                grading, later: Array(card.log[later...]), current: current, ref: ref, userID: userID, settings: settings))
        cards[ref] = card
        days.insert(LearnerDay(grading.reviewedAt, secondsFromGMT: secondsFromGMT).number)
        return true
    }

    /// The grade given at `reviewedAt` taken out of the card's log, the grades after it replayed.
    mutating func undo(_ ref: QuestionRef, reviewedAt: Date, userID: UserID, settings: ReviewSettings) throws {
        var card = try self.card(ref)
        let second = Card.second(reviewedAt)
        guard let from = card.log.firstIndex(where: { $0.reviewedAt >= second }), card.log[from].reviewedAt == second else {
            throw AppError.nothingToUndo(ref)
        }
        card.replace(
            from: from,
            with: LearningRules.remove(card.log[from], later: Array(card.log[(from + 1)...]), ref: ref, userID: userID, settings: settings))
        cards[ref] = card
    }

    private func card(_ ref: QuestionRef) throws -> Card {
        guard let card = cards[ref] else { throw AppError.storage(.saving, detail: "a card graded before it was read") }
        return card
    }

    /// What the batch changed, in one statement: the rows replaced deleted, the entries that
    /// replace them inserted in their order (ids grow with it), the answers given with their
    /// cards, the other cards, and the days.
    func write(userID: UserID, in connection: PostgresConnection, logger: Logger) async throws {
        var (gone, entries, changed, answered): ([Int], [ReviewLogEntry], [(QuestionRef, CardSchedule)], [(QuestionRef, CardSchedule)]) =
            ([], [], [], [])
        var answers: [(answer: Answer, day: Int, at: Date)] = []
        for (ref, card) in cards {
            guard let from = card.changedFrom else { continue }
            gone += card.rows[from...]
            entries += card.log[from...]
            guard let schedule = card.schedule else { continue }
            if let answer = card.answer {
                answered.append((ref, schedule))
                answers.append(answer)
            } else {
                changed.append((ref, schedule))
            }
        }
        guard !entries.isEmpty || !gone.isEmpty || !changed.isEmpty || !answered.isEmpty || !days.isEmpty else { return }
        let log = Columns(entries.map { ($0.ref, $0.before) })
        let card = Columns(changed)
        let given = Columns(answered)
        try await connection.query(
            """
            WITH gone AS (DELETE FROM review_log WHERE id = ANY(\(gone.map(Int64.init))::bigint[])),
            added AS (
                INSERT INTO review_log (user_id, course_id, lesson, question, grade, reviewed_at, \
            \(unescaped: PostgresLearningRepository.scheduleColumns))
                SELECT \(userID.rawValue), e.course_id, e.lesson, e.question, e.grade, e.reviewed_at, \(unescaped: Columns.schedule("e"))
                FROM unnest(\(log.courses)::text[], \(log.lessons)::integer[], \(log.questions)::integer[],
                            \(entries.map(\.grade.rawValue))::text[], \(entries.map { PostgresLearningRepository.seconds($0.reviewedAt) })::bigint[],
                            \(log.states)::smallint[], \(log.steps)::integer[], \(log.stabilities)::double precision[],
                            \(log.difficulties)::double precision[], \(log.dues)::bigint[], \(log.lastReviews)::bigint[],
                            \(log.reviews)::integer[])
                    WITH ORDINALITY AS e (course_id, lesson, question, grade, reviewed_at, state, step, stability, difficulty, due_at,
                                          last_review_at, reviews, position)
                ORDER BY e.position
            ),
            answered AS (
                -- Under the learner's lock, which every writer of answers takes: a row that was
                -- not there when the batch read it is not there now, and one that was is replaced.
                INSERT INTO answer (user_id, course_id, lesson, question, chosen, is_right, answered_day, answered_at, \
            \(unescaped: PostgresLearningRepository.scheduleColumns))
                SELECT \(userID.rawValue), n.course_id, n.lesson, n.question, n.chosen::bigint[], n.is_right, n.answered_day, n.answered_at,
                    \(unescaped: Columns.schedule("n"))
                FROM unnest(\(given.courses)::text[], \(given.lessons)::integer[], \(given.questions)::integer[],
                            \(answers.map { "{" + $0.answer.chosen.sorted().map(String.init).joined(separator: ",") + "}" })::text[],
                            \(answers.map(\.answer.isRight))::boolean[], \(answers.map(\.day))::integer[],
                            \(answers.map { PostgresLearningRepository.seconds($0.at) })::bigint[], \(given.states)::smallint[],
                            \(given.steps)::integer[], \(given.stabilities)::double precision[], \(given.difficulties)::double precision[],
                            \(given.dues)::bigint[], \(given.lastReviews)::bigint[], \(given.reviews)::integer[])
                    AS n (course_id, lesson, question, chosen, is_right, answered_day, answered_at, state, step, stability, difficulty,
                          due_at, last_review_at, reviews)
                ON CONFLICT (user_id, course_id, lesson, question) DO UPDATE SET chosen = excluded.chosen, is_right = excluded.is_right,
                    answered_day = excluded.answered_day, answered_at = excluded.answered_at, state = excluded.state,
                    step = excluded.step, stability = excluded.stability, difficulty = excluded.difficulty, due_at = excluded.due_at,
                    last_review_at = excluded.last_review_at, reviews = excluded.reviews
            ),
            card AS (
                UPDATE answer SET state = c.state, step = nullif(c.step, -1), stability = nullif(c.stability, 'NaN'),
                    difficulty = nullif(c.difficulty, 'NaN'), due_at = c.due_at, last_review_at = nullif(c.last_review_at, \(Columns.never)),
                    reviews = c.reviews
                FROM unnest(\(card.courses)::text[], \(card.lessons)::integer[], \(card.questions)::integer[], \(card.states)::smallint[],
                            \(card.steps)::integer[], \(card.stabilities)::double precision[], \(card.difficulties)::double precision[],
                            \(card.dues)::bigint[], \(card.lastReviews)::bigint[], \(card.reviews)::integer[])
                    AS c (course_id, lesson, question, state, step, stability, difficulty, due_at, last_review_at, reviews)
                WHERE answer.user_id = \(userID.rawValue) AND (answer.course_id, answer.lesson, answer.question) = (c.course_id, c.lesson, c.question)
            ),
            day AS (
                INSERT INTO review_day (user_id, day) SELECT \(userID.rawValue), unnest(\(days.sorted())::integer[]) ON CONFLICT DO NOTHING
            )
            SELECT 1
            """, logger: logger)
    }

    /// Cards' keys and schedules as arrays, one a column: PostgresNIO binds no array with NULLs,
    /// so a missing step is -1, a missing stability or difficulty NaN (FSRS makes neither) and
    /// a missing last review `never`, each turned back into NULL by the statement.
    private struct Columns {
        static let never = Int64.min

        /// The schedule's columns of `table` (made of these arrays), the NULLs back.
        static func schedule(_ table: String) -> String {
            """
            \(table).state, nullif(\(table).step, -1), nullif(\(table).stability, 'NaN'), nullif(\(table).difficulty, 'NaN'), \
            \(table).due_at, nullif(\(table).last_review_at, \(never)), \(table).reviews
            """
        }

        var courses: [String] = [], lessons: [Int] = [], questions: [Int] = [], states: [Int] = [], steps: [Int] = []
        var stabilities: [Double] = [], difficulties: [Double] = [], dues: [Int64] = [], lastReviews: [Int64] = [], reviews: [Int] = []

        init(_ schedules: [(QuestionRef, CardSchedule)]) {
            for (ref, schedule) in schedules {
                let card = schedule.card
                courses.append(ref.courseID.rawValue)
                lessons.append(ref.lesson)
                questions.append(ref.question)
                states.append(card.state.rawValue)
                steps.append(card.step ?? -1)
                stabilities.append(card.stability ?? .nan)
                difficulties.append(card.difficulty ?? .nan)
                dues.append(PostgresLearningRepository.seconds(card.due))
                lastReviews.append(card.lastReview.map(PostgresLearningRepository.seconds) ?? Self.never)
                reviews.append(schedule.reviews)
            }
        }
    }
}
