import Foundation
import Platform
import SharedKernel
import Storage

/// Issue 25: opening a lesson of 256 KiB and of 1 KiB, and paging through it, in the real
/// app; the review tab with 10,000 cards due.
enum LessonBench {
    static let courseID: CourseID = "bench-reading"

    /// Markdown of about `bytes`: headings, paragraphs with emphasis and code, lists, quotes,
    /// code blocks and links, as a long lesson has them.
    static func body(bytes: Int) -> String {
        var text = ""
        var section = 0
        while text.utf8.count < bytes {
            section += 1
            text += """
                ## Section \(section): reading at length

                A paragraph with *emphasis*, **strong words**, `inline code` and a [link](https://example.org/\(section)) that \
                runs long enough to wrap several times at eighty columns, so the layout has real work to do on every line of it.

                - a first point, with `code`
                - a second point
                  - nested once
                1. ordered
                2. again

                > A quote, which the reader draws with a bar.

                ```swift
                func section\(section)() -> Int { \(section) * 2 }
                ```


                """
        }
        return text
    }

    /// A database with the bench course (lesson 1: 256 KiB, lesson 2: 1 KiB), the demo learner
    /// enrolled and signed in; with `cards`, that many answers due today (new to review).
    static func database(work: String, cards: Int) async throws -> URL {
        let directory = URL(fileURLWithPath: work).appendingPathComponent("lessons-\(cards)")
        try? FileManager.default.removeItem(at: directory)
        let database = try AppDatabase.open(directory: directory, seedCatalog: { [] })
        func course(_ id: CourseID, _ title: String) -> Course {
            Course(
                id: id, title: title, instructor: "Bench", category: "Bench", level: .beginner, durationMinutes: 60,
                price: Price(minorUnits: 0, currency: "EUR"), capacity: nil, enrolledCount: 0, tags: [], prerequisiteID: nil,
                isActive: true, description: "A course to read.")
        }
        let question = Question(prompt: "Which?", choices: ["A", "B", "C"], correct: [1], explanation: "B.")
        // Questions for the cards: 200 lessons of 20 (4,000 a course), as many courses as needed.
        var entries = [
            CourseEntry(
                course: course(courseID, "Aaa Bench Reading"),
                lessons: [
                    Lesson(title: "A long lesson", minutes: 30, content: LessonContent(body: body(bytes: 262_000))),
                    Lesson(title: "A short lesson", minutes: 5, content: LessonContent(body: body(bytes: 1_000))),
                ])
        ]
        let perCourse = 200 * 20
        for number in 0..<((cards + perCourse - 1) / perCourse) {
            let deck = course(CourseID("bench-deck-\(number)"), "Bench Deck \(number)")
            let lessons = (1...200).map {
                Lesson(
                    title: "Deck lesson \($0)", minutes: 5,
                    content: LessonContent(body: "Text", questions: Array(repeating: question, count: 20)))
            }
            entries.append(CourseEntry(course: deck, lessons: lessons))
        }
        _ = try database.importCourses(entries: entries)
        let learner = try await SQLiteSessionRepository(database: database, hasher: PasswordHasher())
            .signIn(email: "demo@edugo.dev", password: "edugo-demo")
        let enrollments = SQLiteEnrollmentRepository(database: database)
        let learning = SQLiteLearningRepository(database: database)
        _ = try await enrollments.enroll(userID: learner.id, courseID: courseID)
        let yesterday = StudyTime(now: Date(), secondsFromGMT: TimeZone.current.secondsFromGMT()).adding(seconds: -86_400)
        var made = 0
        for number in 0..<((cards + perCourse - 1) / perCourse) where made < cards {
            let deck = CourseID("bench-deck-\(number)")
            _ = try await enrollments.enroll(userID: learner.id, courseID: deck)
            for lesson in 1...200 {
                for index in 0..<20 where made < cards {
                    _ = try await learning.answer(
                        [1], to: QuestionRef(courseID: deck, lesson: lesson, question: index), userID: learner.id, at: yesterday)
                    made += 1
                }
            }
        }
        return directory
    }
}

/// Opens the bench course's lesson `number` from a fresh app at `columns`×`rows`: the time
/// from `Enter` to the end of the reader's first frame, then of each `PgDn`.
func measureLesson(_ directory: URL, number: Int, columns: UInt16, rows: UInt16) throws -> (open: Double, pageDown: [Double]) {
    let terminal = try PseudoTerminal(tui, ["--data-dir", directory.path], environment: environment, rows: rows, columns: columns)
    guard terminal.readUntilQuiet(until: "Bench Reading").text.contains("Bench Reading") else {
        throw BenchError.failed("the catalog never showed the bench course")
    }
    _ = terminal.readUntilQuiet(quiet: .milliseconds(300))
    _ = press("\r", in: terminal)  // the course page
    _ = terminal.readUntilQuiet(quiet: .milliseconds(300))
    if number > 1 { _ = press("\u{1B}[B", in: terminal) }
    // Up to the frame with the text, not the first quiet: a "Loading" frame may come first.
    let sent = terminal.send("\r")
    let opened = terminal.readUntilQuiet(until: "Section 1: reading at length")
    guard opened.text.contains("Section 1: reading at length"), let last = opened.lastByteAt else {
        throw BenchError.failed("lesson \(number) never showed its text")
    }
    let open = milliseconds(last - sent)
    var pages: [Double] = []
    for _ in 0..<30 {
        let (time, _) = press("\u{1B}[6~", in: terminal)
        pages.append(time)
    }
    return (open, pages)
}

/// The peer: the same 256 KiB Markdown through `cmark | less -R` (cmark writes HTML; less
/// pages it). The time from the start of the pipeline to its first screen (a process start
/// included, which the app's open does not pay), then of each `PgDn`.
func measurePeerLesson(work: String, columns: UInt16, rows: UInt16) throws -> (open: Double, pageDown: [Double]) {
    let file = URL(fileURLWithPath: work).appendingPathComponent("lesson-256k.md")
    try LessonBench.body(bytes: 262_000).write(to: file, atomically: true, encoding: .utf8)
    let terminal = try PseudoTerminal(
        "/bin/sh", ["-c", "cmark \(file.path) | less -R"], environment: environment, rows: rows, columns: columns)
    let first = terminal.readUntilQuiet(until: "Section 1: reading at length")
    guard first.text.contains("Section 1: reading at length"), let last = first.lastByteAt else {
        throw BenchError.failed("cmark | less never showed the lesson")
    }
    var pages: [Double] = []
    for _ in 0..<30 {
        let (time, _) = press("\u{1B}[6~", in: terminal)
        pages.append(time)
    }
    return (milliseconds(last - terminal.spawnedAt), pages)
}

/// The review tab, `cards` due, at `columns`×`rows` on the store `arguments` name: the time from
/// `5` to the end of its first frame, then of `grades` grades from the key to the end of the
/// next card's frame (each card answered first: a digit and `Enter`, out of the timing).
func measureReview(_ arguments: [String], cards: Int, grades: Int, columns: UInt16 = 80, rows: UInt16 = 24) throws
    -> (first: Double, grades: [Double])
{
    let terminal = try PseudoTerminal(tui, arguments, environment: environment, rows: rows, columns: columns)
    guard terminal.readUntilQuiet(until: "Bench Reading").text.contains("Bench Reading") else {
        throw BenchError.failed("the catalog never showed the bench course")
    }
    _ = terminal.readUntilQuiet(quiet: .milliseconds(300))
    let sent = terminal.send("5")
    // Answered yesterday: every card is new to review today.
    let output = terminal.readUntilQuiet(until: "\(cards) new")
    guard output.text.contains("\(cards) new"), let last = output.lastByteAt else {
        throw BenchError.failed("the review tab never showed \(cards) due")
    }
    let first = milliseconds(last - sent)
    _ = terminal.readUntilQuiet(quiet: .milliseconds(300))
    var times: [Double] = []
    for graded in 1...grades {
        _ = press("1", in: terminal)
        _ = press("\r", in: terminal)
        // The next card's frame writes only the cells that changed (a count's last digit, the
        // choices): its end is the last byte before the screen is quiet.
        let (time, bytes) = press("g", in: terminal)
        guard !time.isNaN, bytes > 0 else { throw BenchError.failed("grade \(graded) never showed the next card") }
        times.append(time)
    }
    return (first, times)
}

extension LessonBench {
    /// Milliseconds to replay `count` reviews of one card, a grade and a gap of up to 23 days
    /// each from a seeded generator.
    static func replayReviews(_ count: Int) -> Double {
        var source = SeededRandomGenerator(seed: 41)
        var at = Date(timeIntervalSince1970: 1_767_225_600)
        let history = (0..<count).map { _ in
            defer { at.addTimeInterval(Double(source.next() % 2_000_000)) }
            return FSRSReviewEvent(grade: ReviewGrade.allCases[Int(source.next() % 4)], at: at)
        }
        var fuzz = SeededRandomGenerator(seed: 7)
        let started = ContinuousClock.now
        let replayed = ReviewSettings.default.scheduler.replay(history, from: FSRSCard(due: history[0].at), using: &fuzz)
        let elapsed = milliseconds(ContinuousClock.now - started)
        precondition(replayed.log.count == count)
        return elapsed
    }
}
