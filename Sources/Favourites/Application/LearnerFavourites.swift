import Observation
import Presentation
import SharedKernel

/// The learner's favourites as every screen shows them: loaded once, changed at once by `f`
/// (marked as saving), then confirmed by the store or undone with the reason. Quick repeats
/// end in the state the last `f` asked for, on screen and in the store.
@Observable
@MainActor
final class LearnerFavourites {
    /// What the learner asked for a course, not yet confirmed.
    struct Wish: Hashable {
        var isFavourite: Bool
        var course: Course
    }

    /// What the store confirmed, in catalog order (`.loaded([])` when there are none).
    var state: ViewState<[Course]> { list.state }
    /// The ids of `state`'s courses: a catalog row asks about its course on every frame.
    /// Before the whole list is loaded, the favourites among those glimpsed (`glimpse`).
    private(set) var confirmedIDs: Set<CourseID> = []
    /// Until the list is loaded: the favourites among the courses asked about (`glimpse`).
    @ObservationIgnored private let glimpses: Glimpses<CourseID, Course>
    private var isLoaded: Bool { state.value != nil }
    var isRefreshing: Bool { list.isRefreshing }
    private(set) var wishes: [CourseID: Wish] = [:] {
        didSet { arrange() }
    }
    @ObservationIgnored private var saving: Set<CourseID> = []
    @ObservationIgnored private let list: ConfirmedList<Course, AppError>
    @ObservationIgnored private let learner: UserID
    @ObservationIgnored private let favourites: any FavouritesRepository
    /// Where the outcome of a save is told: the shell's footer, whichever screen is in front.
    @ObservationIgnored private let report: @MainActor (StatusMessage) -> Void
    @ObservationIgnored private var writers: [CourseID: Task<Void, Never>] = [:]

    init(learner: UserID, favourites: any FavouritesRepository, report: @escaping @MainActor (StatusMessage) -> Void = { _ in }) {
        self.learner = learner
        self.favourites = favourites
        self.report = report
        list = ConfirmedList(
            read: { [favourites] () async throws(AppError) in try await favourites.favourites(userID: learner) },
            message: \.userMessage
        )
        glimpses = Glimpses(limit: CourseLimits.idsPerAsk, id: \.id) { [favourites] ids in
            try await favourites.favourites(userID: learner, among: ids)
        }
        // Set once `self` is whole: they answer from its saves.
        list.isSaving = { [weak self] in self?.saving.isEmpty == false }
        list.onChange = { [weak self] list in
            guard let self else { return }
            if self.isLoaded { self.confirmedIDs = Set(list.map(\.id)) }
            self.arrange()
        }
        glimpses.isOver = { [weak self] in self?.isLoaded ?? true }
        glimpses.onChange = { [weak self] glimpsed in self?.confirmedIDs = Set(glimpsed.map(\.id)) }
    }

    // MARK: - Reading

    /// The favourites as shown: confirmed, with the wishes being saved applied, in catalog
    /// order. Kept, not derived on each read: the header counts it on every frame.
    private(set) var courses = KeptList<Course>()

    /// Arranges `courses` again: the confirmed list is in catalog order, so only the courses
    /// wished for and not yet confirmed are placed by comparison.
    private func arrange() {
        let confirmed = state.value ?? []
        var shown = wishes.isEmpty ? confirmed : confirmed.filter { wishes[$0.id]?.isFavourite != false }
        let present = Set(shown.lazy.map(\.id))
        for wish in wishes.values where wish.isFavourite && !present.contains(wish.course.id) {
            shown.insert(wish.course, at: shown.insertionIndex(of: wish.course, by: TextFolding.inCatalogOrder))
        }
        courses = KeptList(shown)
    }

    func isFavourite(_ id: CourseID) -> Bool {
        wishes[id]?.isFavourite ?? confirmedIDs.contains(id)
    }

    func isSaving(_ id: CourseID) -> Bool { wishes[id] != nil }

    // MARK: - Loading

    func appear() async { await list.appear() }

    func load() async { await list.load() }

    /// Reads again with the list on screen; an answer that a save overtook is dropped.
    func refresh() async { await list.refresh() }

    /// Reads which of `ids` (a page's courses) are favourites before the whole list is
    /// loaded, so their ★ shows without waiting for it. Nothing once it is loaded, nor for
    /// courses glimpsed before; a failure leaves them unknown.
    func glimpse(_ ids: [CourseID]) async {
        guard !isLoaded else { return }
        await glimpses.read(ids)
    }

    /// Reads again what shows, as the store has it now (after news may have been missed): the
    /// list once loaded; before, which of the courses glimpsed are favourites, and the list
    /// itself after a failed load. A list never asked for stays unread.
    func readAgain() async {
        guard !isLoaded else { return await list.appear() }
        await glimpses.readAgain()
        if case .error = state { await list.appear() }
    }

    /// The store changed whether `id` is a favourite elsewhere: read afresh, once the saves
    /// under way have answered (see `LearnerEnrollments.storeChanged`).
    func storeChanged(_ id: CourseID) async {
        guard isLoaded else { return await glimpses.readAgain(id) }
        let (favourites, learner) = (self.favourites, self.learner)
        await list.reread { () async throws(AppError) in
            try await favourites.favourite(userID: learner, courseID: id)
        } place: { list, fresh in
            list.removeAll { $0.id == id }
            guard let fresh else { return }
            list.insert(fresh, at: list.insertionIndex(of: fresh, by: TextFolding.inCatalogOrder))
        }
    }

    // MARK: - Saving

    /// `f`: the ★ flips at once, before this returns, so the next key acts on it. The save
    /// runs in a task of its own; quick repeats join the save already running, which saves
    /// the newest wish until it holds and reports once. Returns that save.
    @discardableResult
    func toggle(_ course: Course) -> Task<Void, Never> {
        wishes[course.id] = Wish(isFavourite: !isFavourite(course.id), course: course)
        if let running = writers[course.id] { return running }
        saving.insert(course.id)
        let writer = Task { @MainActor in
            let message = await self.saveWishes(for: course.id)
            self.saving.remove(course.id)
            self.writers[course.id] = nil
            if let message { self.report(message) }
            if self.saving.isEmpty { await self.list.savesSettled() }
        }
        writers[course.id] = writer
        return writer
    }

    /// Saves the newest wish until it holds.
    private func saveWishes(for id: CourseID) async -> StatusMessage? {
        while let wish = wishes[id] {
            do {
                try await favourites.setFavourite(wish.isFavourite, userID: learner, courseID: id)
            } catch {
                wishes[id] = nil
                return .error(error.userMessage)
            }
            confirm(wish)
            guard wishes[id] == wish else { continue }  // asked again meanwhile
            wishes[id] = nil
            return .success(wish.isFavourite ? "Added \(wish.course.title) to favourites" : "Removed \(wish.course.title) from favourites")
        }
        return nil
    }

    private func confirm(_ wish: Wish) {
        let change = { (list: inout [Course]) in
            list.removeAll { $0.id == wish.course.id }
            if wish.isFavourite {
                list.insert(wish.course, at: list.insertionIndex(of: wish.course, by: TextFolding.inCatalogOrder))
            }
        }
        glimpses.confirm(wish.course.id, change)
        list.confirm(change)
    }
}
