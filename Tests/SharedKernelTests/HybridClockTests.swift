import Foundation
import SharedKernel
import Testing

@Suite("Hybrid logical clock")
struct HybridClockTests {
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("each reading is later than the one before, even when the wall clock stands still or goes back")
    func monotonic() {
        var clock = HybridClock(node: "a")
        let first = clock.tick(now: t0)
        let same = clock.tick(now: t0)
        let back = clock.tick(now: t0.addingTimeInterval(-30))
        #expect(first < same && same < back)
        #expect(back.milliseconds == first.milliseconds, "stays on the latest wall time seen")
        let on = clock.tick(now: t0.addingTimeInterval(1))
        #expect(on.milliseconds == first.milliseconds + 1_000 && on.counter == 0, "back to the wall clock when it moves on")
    }

    @Test("a time seen from a clock ahead makes the next reading later than it")
    func receive() {
        var behind = HybridClock(node: "slow")
        let ahead = HybridTime(t0.addingTimeInterval(300), node: "fast")
        behind.receive(ahead, now: t0)
        let next = behind.tick(now: t0)
        #expect(next > ahead)
        #expect(next.milliseconds == ahead.milliseconds)
    }

    @Test("the text form sorts as the times do, and reads back")
    func text() throws {
        let times = [
            HybridTime(milliseconds: 5, counter: 2, node: "b")!, HybridTime(milliseconds: 5, counter: 10, node: "a")!,
            HybridTime(milliseconds: 1_790_000_000_000, node: "a")!, HybridTime(milliseconds: 40, node: "z")!,
        ]
        #expect(times.sorted().map(\.description) == times.map(\.description).sorted())
        for time in times { #expect(HybridTime(time.description) == time) }
        #expect(HybridTime("0001790000000000-00000-a") == nil, "too many digits")
        #expect(HybridTime("1790000000000-00000-") == nil, "no node")
        #expect(HybridTime("1790000000000-00000-a b") == nil, "a space in the node")
        #expect(HybridTime("1790000000000-00000-node-with-dashes")?.node == "node-with-dashes")
        #expect(HybridTime("+790000000000-00000-a") == nil, "a sign")
        #expect(HybridTime("1790000000000_00000-a") == nil, "another separator")
        #expect(HybridTime("179000000000-000000-a") == nil, "a digit in the wrong part")
        #expect(HybridTime("179000000000٣-00000-a") == nil, "a digit not ASCII")
        #expect(HybridTime("9999999999999-99999-a") == HybridTime(milliseconds: 9_999_999_999_999, counter: 99_999, node: "a"))
        #expect(HybridTime("") == nil)
        #expect(HybridTime(milliseconds: -1, node: "a") == nil)
    }

    @Test("a time ahead of a limit is taken back to it, later than any reading made at the limit")
    func clamped() {
        let far = HybridTime(t0.addingTimeInterval(86_400 * 365), node: "skewed")
        let clamped = far.clamped(notAfter: t0)
        #expect(clamped.milliseconds == HybridTime(t0, node: "x").milliseconds)
        #expect(HybridTime(t0, node: "honest") < clamped)
        let past = HybridTime(t0.addingTimeInterval(-5), node: "a")
        #expect(past.clamped(notAfter: t0) == past)
    }

    @Test("operation ids: letters, digits, - and _, 8 to 64 of them")
    func ids() {
        #expect(OperationID("0b0e6d2c-6c1f-4c61-9d5e-4b8f3f9d2a11") != nil)
        #expect(OperationID("short") == nil)
        #expect(OperationID(String(repeating: "a", count: 65)) == nil)
        #expect(OperationID("op with space") == nil)
        #expect(OperationID("op-ü-000001") == nil)
    }

    @Test("every outcome a store records reads back as itself")
    func records() {
        let ref = QuestionRef(courseID: "c-1", lesson: 2, question: 1)
        let cases: [(OperationKind, OperationOutcome)] = [
            (.favourite("c-1", isFavourite: true), .applied), (.name("X"), .superseded), (.name("X"), .conflicting),
            (.enroll("c-1"), .refused(.refused(.courseFull(title: "Full · 1")))),
            (.enroll("c-1"), .refused(.refused(.prerequisiteNotCompleted(prerequisiteTitle: "Intro")))),
            (.enroll("c-1"), .refused(.courseNotFound("c-1"))), (.lesson("c-1", number: 4, done: true), .refused(.noSuchLesson("c-1", 4))),
            (.answer(ref, chosen: [9], secondsFromGMT: 0), .refused(.invalidAnswer(ref))),
            (.undoReview(ref, reviewedAt: t0), .refused(.nothingToUndo(ref))),
            (.review(ref, grade: .easy, secondsFromGMT: 0), .refused(.notDue(ref))), (.name(""), .refused(.invalidName(.empty))),
            (.name(String(repeating: "x", count: 99)), .refused(.invalidName(.tooLong(maximum: 50)))),
        ]
        for (kind, outcome) in cases {
            let (code, subject) = OperationRecord.code(of: outcome)
            #expect(OperationRecord.outcome(code: code, subject: subject, of: kind) == outcome, "\(code)")
        }
    }

    @Test("every kind of operation reads back from its fields (the outbox's JSON)")
    func fields() throws {
        let ref = QuestionRef(courseID: "c-1", lesson: 2, question: 1)
        let kinds: [OperationKind] = [
            .favourite("c-1", isFavourite: false), .lesson("c-1", number: 3, done: true), .enroll("c-1"), .unenroll("c-1"),
            .answer(ref, chosen: [0, 2], secondsFromGMT: -3_600), .review(ref, grade: .hard, secondsFromGMT: 7_200),
            .undoReview(ref, reviewedAt: t0), .name("Zoë O'Neil"),
        ]
        for kind in kinds {
            let operation = SyncOperation(id: .random(), time: HybridTime(t0, node: "n-1"), kind: kind)
            let data = try JSONEncoder().encode(OperationFields(operation))
            #expect(try JSONDecoder().decode(OperationFields.self, from: data).operation == operation, "\(kind.name)")
        }
        var unknown = OperationFields(SyncOperation(id: .random(), time: HybridTime(t0, node: "n-1"), kind: .enroll("c-1")))
        unknown.kind = "teleport"
        #expect(unknown.operation == nil)
    }

    @Test("the learner's review settings go with the kinds that schedule cards, and change the fingerprint; the defaults add nothing")
    func settings() throws {
        let ref = QuestionRef(courseID: "c-1", lesson: 2, question: 1)
        let mine = try ReviewSettings(retention: 0.85, learningSteps: [30], relearningSteps: [300, 900])
        let time = HybridTime(t0, node: "n-1")
        let kinds: [OperationKind] = [
            .favourite("c-1", isFavourite: true), .answer(ref, chosen: [1], secondsFromGMT: 0),
            .review(ref, grade: .hard, secondsFromGMT: 0),
            .undoReview(ref, reviewedAt: t0),
        ]
        for kind in kinds {
            let operation = SyncOperation(id: .random(), time: time, kind: kind, settings: mine)
            #expect(operation.settings == (kind.schedulesCards ? mine : .default), "\(kind.name)")
            let data = try JSONEncoder().encode(OperationFields(operation))
            #expect(try JSONDecoder().decode(OperationFields.self, from: data).operation == operation, "\(kind.name)")
        }
        let review = OperationKind.review(ref, grade: .hard, secondsFromGMT: 7_200)
        let plain = SyncOperation(id: .random(), time: time, kind: review)
        // An operation queued before settings were carried is recorded by this fingerprint.
        #expect(plain.fingerprint == "review\u{1F}\(time)\u{1F}c-1\u{1F}2\u{1F}1\u{1F}hard\u{1F}7200")
        #expect(SyncOperation(id: plain.id, time: time, kind: review, settings: mine).fingerprint != plain.fingerprint)
        var bad = OperationFields(SyncOperation(id: .random(), time: time, kind: review, settings: mine))
        bad.retention = 2
        #expect(bad.operation == nil, "settings out of range make no operation")
    }
}
