import Platform
import SharedKernel
import Synchronization
import Testing

@Suite("Import progress")
struct ImportProgressTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        let start = ContinuousClock.now
        private let offset = Mutex(Duration.zero)

        func advance(_ duration: Duration) { offset.withLock { $0 += duration } }
        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
    }

    static func running(_ step: ImportProgress.Step, done: Int?, of total: Int?, after seconds: Double) -> (
        ImportProgress.Snapshot, ContinuousClock.Instant
    ) {
        let clock = Clock()
        let progress = ImportProgress(now: { clock.now })
        progress.begin(step, total: total)
        if let done { progress.advance(to: done) }
        clock.advance(.milliseconds(Int(seconds * 1_000)))
        return (progress.snapshot, clock.now)
    }

    @Test("each step ends when the next begins, with its count and its time; begun again while it runs, it goes on")
    func steps() {
        let clock = Clock()
        let progress = ImportProgress(now: { clock.now })
        progress.begin(.reading)
        clock.advance(.milliseconds(3_200))
        progress.advance(to: 1_000)
        progress.begin(.ordering)
        clock.advance(.milliseconds(400))
        progress.begin(.writing, total: 1_000)
        progress.advance(to: 512)
        #expect(progress.snapshot.done == 512 && progress.snapshot.total == 1_000 && progress.snapshot.step == .writing)
        progress.advance(to: 1_000)
        clock.advance(.seconds(2))
        progress.begin(.finishing)
        clock.advance(.milliseconds(100))
        progress.begin(.finishing)
        clock.advance(.milliseconds(100))
        progress.end()

        let finished = progress.snapshot.finished
        #expect(finished.map(\.step) == [.reading, .ordering, .writing, .finishing])
        #expect(finished.map(\.count) == [1_000, nil, 1_000, nil])
        #expect(finished.map(\.duration) == [.milliseconds(3_200), .milliseconds(400), .seconds(2), .milliseconds(200)])
        #expect(progress.snapshot.step == nil)
    }

    @Test("a step that ended is one line: what it did, its count, its time, in the terminal's language")
    func finishedLines() {
        let writing = ImportProgress.Finished(step: .writing, count: 1_000_000, duration: .milliseconds(15_040))
        let ordering = ImportProgress.Finished(step: .ordering, count: nil, duration: .milliseconds(64_900))
        #expect(ImportProgressLine.finished(writing, texts: .english) == "✓ Writing courses · 1000000 courses · 15.0 s")
        #expect(ImportProgressLine.finished(ordering, texts: .english) == "✓ Ordering the catalog · 1 min 4 s")
        let spanish = Texts(.spanish)
        #expect(ImportProgressLine.finished(writing, texts: spanish) == "✓ Guardando los cursos · 1.000.000 cursos · 15,0 s")
        #expect(
            ImportProgressLine.finished(.init(step: .reading, count: 1, duration: .milliseconds(50)), texts: spanish)
                == "✓ Leyendo el archivo · 1 curso · 0,0 s")
        // For a screen reader: words, not marks.
        #expect(
            ImportProgressLine.finished(writing, texts: .english, accessible: true) == "Writing courses: done, 1000000 courses, 15.0 s")
        #expect(
            ImportProgressLine.finished(ordering, texts: spanish, accessible: true) == "Ordenando el catálogo: hecho, 1 min 4 s")
    }

    @Test("a counted step shows a bar, the counts, the rate and the time left, in the width it has")
    func countedLine() throws {
        let (snapshot, now) = Self.running(.writing, done: 400_000, of: 1_000_000, after: 10)
        let line = try #require(ImportProgressLine.running(snapshot, now: now, frame: 0, width: 79, texts: .english))
        #expect(line.hasPrefix("⠋ Writing courses "))
        #expect(line.hasSuffix(" 400000 of 1000000 · 40000/s · 15 s left"))
        #expect(line.count <= 79)
        // 40 % of the bar's strokes are done.
        let bar = line.filter { "━╸─".contains($0) }
        #expect(bar.count >= 10 && bar.count <= 30)
        #expect(bar.filter { $0 == "━" }.count == bar.count * 2 / 5)

        let spanish = try #require(ImportProgressLine.running(snapshot, now: now, frame: 1, width: 79, texts: Texts(.spanish)))
        #expect(spanish.hasPrefix("⠙ Guardando los cursos "))
        #expect(spanish.hasSuffix(" 400.000 de 1.000.000 · 40.000/s · quedan 15 s"))
    }

    @Test("narrower, the bar goes first, then the rate, then the line is cut; never wider than the terminal", arguments: [20, 35, 50, 60])
    func narrowLine(width: Int) throws {
        let (snapshot, now) = Self.running(.writing, done: 400_000, of: 1_000_000, after: 10)
        let line = try #require(ImportProgressLine.running(snapshot, now: now, frame: 0, width: width, texts: .english))
        #expect(line.count <= width, "\(line)")
        switch width {
        case 60: #expect(line == "⠋ Writing courses 400000 of 1000000 · 40000/s · 15 s left")
        case 50, 35: #expect(line == "⠋ Writing courses 400000 of 1000000")
        default: #expect(line == "⠋ Writing courses")
        }
    }

    @Test("before half a second no rate is guessed; a step with no count shows how long it has run")
    func earlyAndUncounted() throws {
        let (early, at) = Self.running(.indexing, done: 1_024, of: 1_000_000, after: 0.2)
        let line = try #require(ImportProgressLine.running(early, now: at, frame: 0, width: 200, texts: .english))
        #expect(line.hasSuffix(" 1024 of 1000000"))
        let (uncounted, later) = Self.running(.compacting, done: nil, of: nil, after: 75.3)
        #expect(
            ImportProgressLine.running(uncounted, now: later, frame: 2, width: 200, texts: .english)
                == "⠹ Compacting the search index · 1 min 15 s")
        let (long, then) = Self.running(.lessons, done: 1, of: 1_000_000, after: 10)
        #expect(
            ImportProgressLine.running(long, now: then, frame: 0, width: 200, texts: .english)?.hasSuffix(" · 0/s · 2777 h 46 min left")
                == true)
    }
}
