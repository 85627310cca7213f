import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import AppShell

/// Issue 43: remote mode lets the start's work on the server (the renewal, then what waits for
/// its token) go once the first frame a signed-in learner sees is drawn with nothing waiting.
@Suite("Shell: the first settled frame")
@MainActor
struct FirstSettledFrameTests {
    static func shell(signedIn: Bool) async -> (ShellController, () -> Int) {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: signedIn ? User.demo.id : nil)
        let sut = ShellController(ports: ShellControllerTests.ports(store), clock: ShellClock(ManualClock()))
        sut.terminalSize = ShellControllerTests.size
        var calls = 0
        sut.onFirstSettledFrame = { calls += 1 }
        await sut.start()
        await sut.settle()
        return (sut, { calls })
    }

    @Test("told once, after the first frame drawn for a signed-in learner with nothing waiting; the catalog loaded is such a frame")
    func toldOnce() async {
        let (sut, calls) = await Self.shell(signedIn: true)
        sut.frameDrawn(animating: true)
        #expect(calls() == 0, "a spinner on the frame: something waits")

        var canvas = TextCanvas(size: ShellControllerTests.size)
        let animating = sut.draw(in: &canvas, tick: 0)
        #expect(!animating, "the catalog loaded: \(canvas.lines.joined(separator: "\n"))")
        sut.frameDrawn(animating: animating)
        sut.frameDrawn(animating: false)
        #expect(calls() == 1)
        sut.close()
    }

    @Test("not told while the screen in front has no data yet, though nothing on it animates; told once it has")
    func notBeforeItsData() async {
        let store = InMemoryStore(courses: ShellControllerTests.courses, signedIn: User.demo.id)
        let gate = Gate()
        await store.setGate(gate) { if case .page = $0 { true } else { false } }
        let sut = ShellController(ports: ShellControllerTests.ports(store), clock: ShellClock(ManualClock()))
        sut.terminalSize = ShellControllerTests.size
        var calls = 0
        sut.onFirstSettledFrame = { calls += 1 }
        await sut.start()
        sut.syncVisibleScreen()

        sut.frameDrawn(animating: false)
        #expect(calls == 0, "the catalog's page is still on its way")

        await gate.open()
        await sut.settle()
        sut.frameDrawn(animating: false)
        #expect(calls == 1)
        sut.close()
    }

    @Test("not told while the sign-in screen shows")
    func notSignedIn() async {
        let (sut, calls) = await Self.shell(signedIn: false)
        var canvas = TextCanvas(size: ShellControllerTests.size)
        sut.frameDrawn(animating: sut.draw(in: &canvas, tick: 0))
        #expect(calls() == 0, "\(canvas.lines.joined(separator: "\n"))")
        sut.close()
    }
}
