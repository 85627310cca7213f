import SharedKernel
import TestSupport
import Testing

@testable import AppShell

@Suite("News pacer: a flood is applied once a spacing")
@MainActor
struct NewsPacerTests {
    @Test("the first news after a quiet spell is applied at once; what comes within the spacing waits for it, merged into one")
    func firstAtOnceThenMerged() async {
        let (sut, clock, applied) = makeSUT()

        sut.add(marks(.course("a")))
        for index in 0..<10_000 { sut.add(marks(.course(CourseID("c\(index % 3)")))) }

        #expect(applied.values == [marks(.course("a"))])
        clock.advance(by: .milliseconds(999))
        await sut.settle()
        #expect(applied.values.count == 1, "not before the spacing (a second for a page) has passed")

        clock.advance(by: .milliseconds(1))
        await sut.settle()
        #expect(applied.values.count == 2)
        #expect(applied.values.last == marks(.course("c0"), .course("c1"), .course("c2")))
    }

    @Test(
        "the spacing is a second for each read an application may cost",
        arguments: [
            (ChangeNews.changed([.course("a")]), 1_000), (.changed([.catalog]), 2_000),
            (.changed([.favourite(UserID(1), "a"), .profile(UserID(1))]), 2_000), (.changed([.learning(UserID(1), nil)]), 2_000),
            (.readEverything, 7_000),
        ] as [(ChangeNews, Int)])
    func spacingByReads(news: ChangeNews, milliseconds: Int) {
        #expect(NewsPacer.spacing(after: StaleMarks(news, of: learner)) == .milliseconds(milliseconds))
    }

    @Test("news every 50 ms for 20 s: one application a spacing; a spacing without news, and the next is applied at once")
    func steadyNews() async {
        let (sut, clock, applied) = makeSUT()
        var moments: [Duration] = []
        applied.onApply = { moments.append(clock.now.offset) }

        for step in 0..<400 {
            sut.add(marks(.course(CourseID("c\(step % 2)"))))
            clock.advance(by: .milliseconds(50))
            await sut.settle()
        }

        #expect(moments == (0...20).map { Duration.seconds($0) })
        // Quiet: the pending news went at 20 s; nothing since.
        clock.advance(by: .seconds(5))
        await sut.settle()
        let count = applied.values.count
        sut.add(marks(.profile(learner)))
        #expect(applied.values.count == count + 1, "after a quiet spell, at once")
    }

    @Test("stopping forgets what is pending: nothing is applied after it")
    func stopForgets() async {
        let (sut, clock, applied) = makeSUT()
        sut.add(marks(.course("a")))
        sut.add(marks(.course("b")))

        sut.stop()
        clock.advance(by: .seconds(10))
        await sut.settle()

        #expect(applied.values == [marks(.course("a"))])
    }

    // MARK: - Helpers

    private let learner = UserID(1)

    private func marks(_ changes: Change...) -> StaleMarks {
        StaleMarks(.changed(changes), of: learner)
    }

    private func makeSUT() -> (NewsPacer, ManualClock, Applied) {
        let clock = ManualClock()
        let applied = Applied()
        let sut = NewsPacer(clock: ShellClock(clock)) { marks in
            applied.values.append(marks)
            applied.onApply()
        }
        return (sut, clock, applied)
    }

    @MainActor
    final class Applied {
        var values: [StaleMarks] = []
        var onApply: () -> Void = {}
    }
}

@Suite("Stale marks: news of any length, as what to read again")
struct StaleMarksTests {
    private let learner = UserID(1)

    @Test("each thing once, other learners' news left out")
    func eachThingOnce() {
        var sut = StaleMarks()

        for _ in 0..<1_000 {
            sut.add(.changed([.favourite(learner, "a"), .course("b"), .enrollment(UserID(2), "c"), .profile(UserID(2))]), of: learner)
        }

        var expected = StaleMarks()
        expected.add(.changed([.favourite(learner, "a"), .course("b")]), of: learner)
        #expect(sut == expected)
        #expect(!sut.profile && sut.enrollments.isEmpty)
    }

    @Test("more courses of a list than are worth a read each become the whole list; too many of the catalog's, the catalog")
    func bounded() {
        var sut = StaleMarks()
        for index in 0...StaleMarks.coursesApart { sut.add(.changed([.enrollment(learner, CourseID("e\(index)"))]), of: learner) }
        #expect(sut.allEnrollments && sut.enrollments.isEmpty)

        for index in 0...StaleMarks.coursesInAll { sut.add(.changed([.course(CourseID("c\(index)"))]), of: learner) }
        #expect(sut.catalog && sut.courses.isEmpty)
        #expect(!sut.isEverything && !sut.allFavourites, "the learner's own lists are not read for the catalog's news")
    }

    @Test("the lanes: the learner's own part and the catalog's; everything is each lane's whole")
    func lanes() {
        let sut = StaleMarks(.changed([.favourite(learner, "a"), .course("b"), .learning(learner, "c")]), of: learner)

        #expect(sut.learnerPart.favourites == ["a"] && sut.learnerPart.courses.isEmpty && sut.learnerPart.learning)
        #expect(sut.catalogPart.courses == ["b"] && sut.catalogPart.favourites.isEmpty && !sut.catalogPart.learning)

        let everything = StaleMarks(.readEverything, of: learner)
        let own = everything.learnerPart
        #expect(own.allEnrollments && own.allFavourites && own.profile && own.learning && !own.catalog)
        #expect(everything.catalogPart.catalog && !everything.catalogPart.profile)
    }
}
