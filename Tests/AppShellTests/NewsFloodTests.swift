import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

/// Issue 39, items 1 and 5: a server (or a busy platform) that sends news as fast as the app
/// reads it. News is coalesced, not queued: an idle terminal on the catalog reads at most twice
/// a second whatever comes, and a course that is not on screen reads nothing. The store's
/// reads are counted: in remote mode each of these is one request (a page of up to 100 rows,
/// a count, a list, the learner, their habit).
@Suite("News floods: an idle terminal's reads stay within budget")
@MainActor
final class NewsFloodTests {
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    @Test("seats of a course on screen changing 20 times a second for 20 s: the catalog's page is read once a second, its count never")
    func busyCourse() async throws {
        let (sut, store, clock) = await makeSignedIn()
        let scope = try #require(sut.flow.scope)
        let before = await store.messages.count

        await flood(sut, clock, for: .seconds(20)) { _ in scope.hear(.changed([.course("git")])) }

        let reads = await store.messages.dropFirst(before)
        #expect(reads.allSatisfy { if case .page = $0 { true } else { false } }, "only pages: \(Array(reads))")
        #expect(reads.count == 20, "a page a second")
    }

    @Test("a flood of every kind of news, 2,000 a second for 20 s: at most 2 reads a second, and none once it stops")
    func everyKind() async throws {
        let (sut, store, clock) = await makeSignedIn()
        let scope = try #require(sut.flow.scope)
        let before = await store.messages.count
        let learner = User.demo.id
        let kinds: [ChangeNews] = [
            .changed([.course("git")]), .changed([.catalog]), .readEverything, .changed([.profile(learner)]),
            .changed([.learning(learner, nil)]), .changed([.favourite(learner, "docker")]), .changed([.enrollment(learner, "git")]),
        ]

        await flood(sut, clock, for: .seconds(20)) { step in
            for index in 0..<100 { scope.hear(kinds[(step + index) % kinds.count]) }
        }
        let during = await store.messages.count - before
        clock.advance(by: .seconds(10))
        await sut.settle()
        let after = await store.messages.count - before
        clock.advance(by: .seconds(60))
        await sut.settle()

        #expect(during <= 40, "\(during) reads in 20 s")
        #expect(await store.messages.count - before == after, "nothing more once the news stopped and what was pending was read")
        #expect(await store.messages.dropFirst(before).allSatisfy { !$0.isWrite })
    }

    @Test("news naming 100,000 distinct courses costs no more than one read of everything, each thing read once")
    func distinctCourses() async throws {
        let (sut, store, clock) = await makeSignedIn()
        let scope = try #require(sut.flow.scope)
        let before = await store.messages.count
        scope.hear(.readEverything)
        await sut.settle()
        let oneReadOfEverything = await store.messages.count - before
        clock.advance(by: .seconds(10))
        await sut.settle()

        let start = await store.messages.count
        for index in 0..<100_000 {
            scope.hear(.changed([.course(CourseID("c\(index)")), .enrollment(User.demo.id, CourseID("c\(index)"))]))
        }
        await sut.settle()
        clock.advance(by: .seconds(10))
        await sut.settle()

        let reads = Array(await store.messages.dropFirst(start))
        #expect(reads.count <= oneReadOfEverything, "\(reads)")
        #expect(Set(reads).count == reads.count, "each thing once: \(reads)")
    }

    @Test("news of a course that is not on screen reads nothing")
    func courseNotShown() async throws {
        let (sut, store, clock) = await makeSignedIn()
        let scope = try #require(sut.flow.scope)
        let before = await store.messages.count

        await flood(sut, clock, for: .seconds(5)) { step in scope.hear(.changed([.course(CourseID("elsewhere-\(step % 3)"))])) }

        #expect(await store.messages.count == before)
    }

    // MARK: - Helpers

    /// Calls `send` every 50 ms of the clock for `duration` (the last time 50 ms before its
    /// end, where the clock is left), letting what is due happen between.
    private func flood(_ sut: ShellController, _ clock: ManualClock, for duration: Duration, send: (Int) -> Void) async {
        let steps = Int(duration / .milliseconds(50))
        for step in 0..<steps {
            send(step)
            await sut.settle()
            guard step < steps - 1 else { return }
            clock.advance(by: .milliseconds(50))
            await sut.settle()
        }
    }

    private func makeSignedIn() async -> (ShellController, InMemoryStore, ManualClock) {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: User.demo.id)
        let clock = ManualClock()
        let sut = ShellController(ports: ShellControllerTests.ports(store), clock: ShellClock(clock))
        leaks.track(sut)
        sut.terminalSize = Size(width: 80, height: 24)
        await sut.start()
        await sut.settle()
        // The catalog in front, its lists and the header's counts read: the terminal is idle.
        var canvas = TextCanvas(size: Size(width: 80, height: 24))
        _ = sut.draw(in: &canvas, tick: 0)
        await sut.settle()
        return (sut, store, clock)
    }
}
