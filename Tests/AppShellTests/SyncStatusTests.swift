import Presentation
import SharedKernel
import Testing

@testable import AppShell

@Suite("Sync status: what the outbox's sends tell the shell")
@MainActor
struct SyncStatusTests {
    @Test("refusals reported before the shell says where to tell them (a queue sent as the app starts) are told once it does")
    func refusalsBeforeTheShell() {
        let status = SyncStatus()
        status.take(OutboxSync.Report(waiting: 0, refusals: [.notEnrolled("swift-fundamentals")]))
        var told: [StatusMessage] = []
        status.tell = { told.append($0) }
        #expect(told == [.error("Not synced: \(AppError.notEnrolled("swift-fundamentals").userMessage)")])
        status.take(OutboxSync.Report(waiting: 0, refusals: [.notEnrolled("docker")]))
        #expect(told.count == 2, "then at once")
    }

    @Test("answers the server checked: the screens showing their courses are told, with or without the server's news")
    func checkedAnswersTold() {
        let status = SyncStatus()
        var checked: [(UserID, Set<CourseID>)] = []
        status.answersChecked = { checked.append(($0, $1)) }
        var report = OutboxSync.Report(waiting: 0)
        report.checkedAnswers = (UserID(7), ["swift-fundamentals"])
        status.take(report)
        #expect(checked.count == 1 && checked.first?.0 == UserID(7) && checked.first?.1 == ["swift-fundamentals"])
        status.take(OutboxSync.Report(waiting: 0))
        #expect(checked.count == 1, "nothing checked: nothing told")
    }
}
