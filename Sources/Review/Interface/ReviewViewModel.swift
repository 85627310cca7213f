import Foundation
import Observation
import Presentation
import SharedKernel

/// The cards due now, reviewed one at a time: the learner answers the question again, sees
/// whether it was right with the explanation, and grades their recall (again, hard, good,
/// easy), which schedules the card by FSRS. A card in its steps comes back on the minute.
@Observable
@MainActor
final class ReviewViewModel {
    struct Deck: Sendable {
        var cards: [ReviewCard]
        /// The counts of each part, as the store counted them when the deck was read, less the
        /// cards graded since; and when the next card in its steps comes back today.
        var newCount: Int
        var learningCount: Int
        var dueCount: Int
        var comingBack: Date?

        init(_ deck: ReviewDeck) {
            cards = deck.cards
            newCount = deck.newCount
            learningCount = deck.learningCount
            dueCount = deck.dueCount
            comingBack = deck.comingBack
        }

        var total: Int { newCount + learningCount + dueCount }

        /// One card of `part` graded: out of its count; back later today when `next` says so.
        mutating func graded(_ part: CardSchedule.Part, next: CardSchedule, dayEnd: Date) {
            switch part {
            case .new: newCount = max(0, newCount - 1)
            case .learning: learningCount = max(0, learningCount - 1)
            case .due: dueCount = max(0, dueCount - 1)
            }
            if next.card.state != .review, next.card.due < dayEnd { comingBack = min(comingBack ?? next.card.due, next.card.due) }
        }

        /// A grade taken back: its card counts again in `part`.
        mutating func ungraded(_ part: CardSchedule.Part) {
            switch part {
            case .new: newCount += 1
            case .learning: learningCount += 1
            case .due: dueCount += 1
            }
        }
    }

    /// A grade given in this session: what `z` takes back.
    struct Graded: Sendable {
        var card: ReviewCard
        var at: StudyTime
    }

    private(set) var state: ViewState<Deck> = .idle
    /// The position the arrows are on (in the order shown), and the choices picked (1–6 or
    /// Space; the question's own indices), in the card shown.
    private(set) var highlighted = 0
    private(set) var picked: Set<Int> = []
    /// The order the card's choices are shown in, fixed when it comes to the front: a redraw,
    /// a resize or a new day never reorders them under the learner.
    private(set) var order = ChoiceOrder(choices: [])
    /// The card shown was reviewed in another terminal meanwhile: it stays, takes no answer
    /// and no grade, until Space shows the next.
    private(set) var reviewedElsewhere = false
    /// The card's answer, once given: the choices, and whether they were right.
    private(set) var revealed: (chosen: Set<Int>, isRight: Bool)?
    private(set) var reviewedToday = 0
    private(set) var isSaving = false
    /// The grades of this session, the last one last; `z` takes them back one at a time.
    private(set) var graded: [Graded] = []
    /// `m`: the memory picture in place of the card; it shows by itself when nothing is due.
    private(set) var showsMemory = false
    /// The picture and the streak, as last read (while the picture shows).
    private(set) var memory: (picture: MemoryPicture, streakDays: Int?)?
    @ObservationIgnored let tasks = OwnedTasks()
    @ObservationIgnored private let learner: UserID
    @ObservationIgnored private let learning: any LearningRepository
    @ObservationIgnored private let time: @MainActor () -> StudyTime
    @ObservationIgnored private let settings: @MainActor () -> ReviewSettings
    @ObservationIgnored private let clock: any Clock<Duration>
    /// The wait for the next card in its steps, while nothing else is due.
    @ObservationIgnored private var waitingForComingBack: Task<Void, Never>?
    @ObservationIgnored private let report: @MainActor (StatusMessage) -> Void
    /// Bumped by each grade and undo made here: a deck read that began before one is stale.
    @ObservationIgnored private var writes = 0
    /// News of the deck came while a grade or an undo was being saved: read once it is done.
    @ObservationIgnored private var missedNews = false
    /// Cards read at once: a page of the deck; the next is read when it is done.
    static let batch = 50

    init(
        learner: UserID, learning: any LearningRepository, time: @escaping @MainActor () -> StudyTime,
        settings: @escaping @MainActor () -> ReviewSettings = { .default }, report: @escaping @MainActor (StatusMessage) -> Void,
        changes: Notices<Void> = Notices(), clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.learner = learner
        self.learning = learning
        self.time = time
        self.settings = settings
        self.report = report
        self.clock = clock
        changes.listen(self) { [weak self] in
            self?.tasks.run { [weak self] in await self?.storeChanged() }
        }
    }

    var card: ReviewCard? { state.value?.cards.first }

    /// Reads the cards due today; ignored while a read runs.
    func load() async {
        if case .loading = state { return }
        if state.value == nil { state = .loading }
        do {
            let deck = try await learning.reviewDeck(userID: learner, at: time(), limit: Self.batch, settings: settings())
            state = deck.cards.isEmpty ? .empty : .loaded(Deck(deck))
            comingBack = deck.comingBack
            showFront()
        } catch {
            state = .error(message: error.userMessage)
            return
        }
        await readMemoryIfShown()
    }

    /// The deck changed (a card answered or reviewed here or in another terminal): read it
    /// again quietly. The card in front stays, as it is, while it is still due; one reviewed
    /// elsewhere stays too, marked so, and never changes under the learner. A grade being
    /// saved decides for itself.
    func storeChanged() async {
        switch state {
        case .loaded, .empty: break
        default: return
        }
        if isSaving { missedNews = true }
        let before = writes
        guard !isSaving, let deck = try? await learning.reviewDeck(userID: learner, at: time(), limit: Self.batch, settings: settings()),
            !isSaving, writes == before
        else { return }
        defer { tasks.run { [weak self] in await self?.readMemoryIfShown() } }
        comingBack = deck.comingBack
        var cards = deck.cards
        if let shown = card {
            if let index = cards.firstIndex(where: { $0.ref == shown.ref }) {
                cards.insert(cards.remove(at: index), at: 0)
                // Due after all (a grade elsewhere taken back): it takes an answer again.
                reviewedElsewhere = false
            } else {
                cards.insert(shown, at: 0)
                reviewedElsewhere = true
            }
        }
        guard !cards.isEmpty else {
            state = .empty
            showFront()
            return
        }
        let hadCard = card != nil
        var kept = Deck(deck)
        kept.cards = cards
        state = .loaded(kept)
        if !hadCard { showFront() }
    }

    /// The card in front as it comes: nothing picked, its choices in the day's order.
    private func showFront() {
        highlighted = 0
        hasTouchedChoices = false
        picked = []
        revealed = nil
        comingBackAfter = [:]
        reviewedElsewhere = false
        order = card.map { ChoiceOrder.shuffled(count: $0.question.choices.count, for: $0.ref, on: time().day) } ?? ChoiceOrder(choices: [])
    }

    /// Whether the card in front takes an answer now: shown, not answered, not reviewed elsewhere.
    var isOpen: Bool { card != nil && revealed == nil && !reviewedElsewhere }

    /// A key has moved or picked among the card's choices: until then a screen reader is
    /// taken to its question, not to the first choice (`--accessible`).
    private(set) var hasTouchedChoices = false

    func moveHighlight(_ delta: Int) {
        guard let card, isOpen else { return }
        highlighted = min(max(0, highlighted + delta), card.question.choices.count - 1)
        hasTouchedChoices = true
    }

    /// Space: picks the highlighted choice (on and off where several are right).
    func pickHighlighted() {
        pick(at: highlighted)
    }

    /// `1`–`6` or Space on the choice shown at `position`.
    func pick(at position: Int) {
        guard let card, isOpen, let choice = order.choice(at: position), card.question.choices.indices.contains(choice) else { return }
        highlighted = position
        hasTouchedChoices = true
        if card.question.answerCount > 1 {
            if picked.contains(choice) { picked.remove(choice) } else { picked.insert(choice) }
        } else {
            picked = [choice]
        }
    }

    /// Enter on a card not answered: shows the answer to the choices picked. Nothing picked
    /// answers nothing: the grade it leads to is kept for good.
    func reveal() {
        guard let card, isOpen else { return }
        guard !picked.isEmpty else {
            report(.error(Self.pickFirst))
            return
        }
        revealed = (picked, card.question.isRight(picked))
        // The store's (a server's) word, worked out when the deck was read; else the settings'.
        comingBackAfter = card.intervals.isEmpty ? settings().intervals(for: card.schedule.card, at: time().now) : card.intervals
    }

    static let pickFirst: LocalizedText = "Pick an answer first"
    static let reviewedElsewhereText: LocalizedText = "Reviewed in another terminal — Space for the next card"

    /// Space on a card reviewed in another terminal: the next card.
    func skipReviewedElsewhere() async {
        guard reviewedElsewhere, case .loaded(var deck) = state else { return }
        deck.cards.removeFirst()
        await show(deck)
    }

    /// The deck after its front card went: the next card, else the rest read, else empty.
    private func show(_ deck: Deck) async {
        if deck.cards.isEmpty {
            state = deck.total > 0 ? .loaded(deck) : .empty
            showFront()
            if deck.total > 0 { await load() } else { await readMemoryIfShown() }
        } else {
            state = .loaded(deck)
            showFront()
        }
        // A card in its steps whose time came meanwhile joins the cards in front.
        if let back = deck.comingBack, back <= time().now { await storeChanged() }
    }

    /// When the next card in its steps comes back today, as the deck was last read (or graded).
    private(set) var comingBack: Date? {
        didSet { waitForComingBack() }
    }

    /// Reads the deck again when the next card in its steps comes back. Not one of `tasks`,
    /// which are awaited to settle the screen: this one waits minutes.
    private func waitForComingBack() {
        waitingForComingBack?.cancel()
        guard let back = comingBack else { return }
        let wait = max(0, back.timeIntervalSince(time().now))
        let clock = self.clock
        waitingForComingBack = Task { [weak self] in
            guard (try? await clock.sleep(for: .milliseconds(Int64((wait * 1_000).rounded(.up))))) != nil else { return }
            self?.tasks.run { [weak self] in await self?.storeChanged() }
        }
    }

    /// Stops waiting for a card to come back (the tab is left; showing it again reads the deck).
    func stopWaiting() {
        waitingForComingBack?.cancel()
        waitingForComingBack = nil
    }

    /// Waits until the wait for the next card has ended and what it started is done (tests).
    func waitedForComingBack() async {
        await waitingForComingBack?.value
        await tasks.settle()
    }

    isolated deinit {
        waitingForComingBack?.cancel()
    }

    /// The grade Enter gives once the answer shows: good when it was right, again when not.
    var suggestedGrade: ReviewGrade? {
        revealed.map { ReviewGrade.firstAnswer(isRight: $0.isRight) }
    }

    /// Grades the card shown and moves to the next; the deck is read again when this page of
    /// it is done and more are due.
    func grade(_ grade: ReviewGrade) async {
        guard let card, revealed != nil, !reviewedElsewhere, !isSaving, case .loaded(var deck) = state else { return }
        isSaving = true
        writes += 1
        let at = time()
        let result: Result<CardSchedule, AppError>
        do {
            result = .success(try await learning.review(card.ref, grade: grade, userID: learner, at: at, settings: settings()))
        } catch {
            result = .failure(error)
        }
        isSaving = false
        switch result {
        case .failure(.notDue):
            // Graded elsewhere before the news came: it stays, says so, and counts nothing.
            reviewedElsewhere = true
        case .failure(let error):
            report(.error(error.userMessage))
        case .success(let next):
            graded.append(Graded(card: card, at: at))
            reviewedToday += 1
            deck.cards.removeFirst()
            deck.graded(card.schedule.part, next: next, dayEnd: at.dayEnd)
            comingBack = deck.comingBack
            await show(deck)
        }
        await readMissedNews()
    }

    /// The deck read again if news of it came while a grade or an undo was being saved (it
    /// was not read then: the write decides what shows first).
    private func readMissedNews() async {
        guard missedNews else { return }
        missedNews = false
        await storeChanged()
    }

    /// `z`: takes back the last grade of this session. The card comes to the front as it was
    /// before it, to be answered again; the one shown waits behind it. A grade another
    /// terminal changed since (graded again, or undone) stays, and says so.
    func undo() async {
        guard let last = graded.last, !isSaving else { return }
        isSaving = true
        writes += 1
        let restored: CardSchedule
        do {
            restored = try await learning.undoReview(last.card.ref, reviewedAt: last.at.now, userID: learner)
        } catch {
            isSaving = false
            if case .nothingToUndo = error { graded.removeLast() }
            report(.error(error.userMessage))
            await readMissedNews()
            return
        }
        graded.removeLast()
        reviewedToday = max(0, reviewedToday - 1)
        var card = last.card
        card.schedule = restored
        var deck = state.value ?? Deck(ReviewDeck(cards: [], dueCount: 0))
        deck.cards.removeAll { $0.ref == card.ref }
        deck.cards.insert(card, at: 0)
        deck.ungraded(restored.part)
        state = .loaded(deck)
        showsMemory = false
        showFront()
        isSaving = false
        report(.success(Self.undone))
        // The counts as the store has them now (the card may have come back in its steps).
        missedNews = false
        await storeChanged()
    }

    static let undone: LocalizedText = "Grade undone — answer the card again"
    static let nothingToUndo: LocalizedText = "No grade to undo in this session"

    // MARK: - The memory picture

    /// Whether the picture shows: asked for with `m`, or nothing is in front to review.
    var memoryShown: Bool {
        switch state {
        case .loaded, .empty: showsMemory || card == nil
        case .idle, .loading, .error: false
        }
    }

    /// `m`: the picture in place of the card, or the card again.
    func toggleMemory() async {
        showsMemory.toggle()
        await readMemoryIfShown()
    }

    /// Reads the picture and the streak while the picture shows; a failure keeps the last.
    private func readMemoryIfShown() async {
        guard memoryShown else { return }
        let at = time()
        guard let picture = try? await learning.memory(userID: learner, at: at) else { return }
        let habit = try? await learning.habit(userID: learner, on: at.day, secondsFromGMT: at.secondsFromGMT)
        memory = (picture, habit?.streakDays)
    }

    /// `10:42`: an instant on the learner's clock.
    func clockTime(of instant: Date) -> String {
        let seconds = Int(instant.timeIntervalSince1970) + time().secondsFromGMT
        let minutes = ((seconds % 86_400 + 86_400) % 86_400) / 60
        return (minutes / 60 < 10 ? "0" : "") + "\(minutes / 60):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
    }

    /// When each grade would bring the card in front back, for the grade keys: worked out
    /// once, when its answer shows, not on every frame.
    private(set) var comingBackAfter: [ReviewGrade: TimeInterval] = [:]
}
