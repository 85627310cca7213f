import Observation
import SharedKernel

/// The store's list of something the learner changes while it shows (their enrollments,
/// their favourites): loaded once with the loading state, read again quietly afterwards,
/// and changed by each save the store confirms. A reading that a save overtook is dropped:
/// it may not have seen the save, and what the saves said stays.
///
/// Observed as an `@Observable` class is, through one non-generic counter
/// (`ObservedChanges`): the macro's accessors in a generic class made a key path on every
/// read, and the header reads this on every frame.
@MainActor
public final class ConfirmedList<Element: Sendable, Failure: Error> {
    public private(set) var state: ViewState<[Element]> {
        get {
            changes.read()
            return shownState
        }
        set {
            changes.willChange()
            shownState = newValue
            onChange(newValue.value ?? [])
        }
    }
    /// True while a loaded list is read again.
    public private(set) var isRefreshing: Bool {
        get {
            changes.read()
            return shownRefreshing
        }
        set {
            changes.willChange()
            shownRefreshing = newValue
        }
    }
    private var shownState: ViewState<[Element]> = .idle
    private var shownRefreshing = false
    private let changes = ObservedChanges()
    /// Counts confirmed saves; a reading that started before one is stale.
    private var revision = 0
    /// A reading was asked for while it could not be taken (a save under way, or a reading
    /// that started earlier): it runs once the saves are done.
    private var owed = false
    private let read: @MainActor () async throws(Failure) -> [Element]
    private let message: (Failure) -> LocalizedText
    /// Whether a save is under way (a reading then is not taken either). Settable after
    /// `init`, for an owner whose answer needs itself.
    public var isSaving: @MainActor () -> Bool
    /// Told every new confirmed list (to index it, say); settable as `isSaving` is.
    public var onChange: @MainActor ([Element]) -> Void

    /// - Parameters:
    ///   - read: the list as the store has it now.
    ///   - message: what the learner reads when it cannot be read.
    ///   - isSaving: whether a save is under way (a reading then is not taken either).
    ///   - onChange: told every new confirmed list (to index it, say).
    public init(
        read: @escaping @MainActor () async throws(Failure) -> [Element],
        message: @escaping (Failure) -> LocalizedText,
        isSaving: @escaping @MainActor () -> Bool = { false },
        onChange: @escaping @MainActor ([Element]) -> Void = { _ in }
    ) {
        self.read = read
        self.message = message
        self.isSaving = isSaving
        self.onChange = onChange
    }

    /// Loads the first time and after a failure (the loading state shows); later, reads
    /// again quietly.
    public func appear() async {
        switch state {
        case .idle, .error, .empty: await load()
        case .loaded: await refresh()
        case .loading: break
        }
    }

    public func load() async {
        guard !state.isLoading else { return }
        state = .loading
        let started = revision
        do {
            state = .loaded(try await read())
        } catch {
            state = .error(message: message(error))
            return
        }
        // A save answered while the list was read, and the reading may not have seen it.
        if started != revision { await refresh() }
    }

    /// Reads again with the list on screen. An answer that a save overtook is dropped (it may
    /// not have seen the save), and so is one that started before the last ask: either way the
    /// list is read again once the saves are done, so the store orders what shows, not the
    /// order answers arrive in.
    public func refresh() async {
        guard state.value != nil else { return }
        guard !isRefreshing, !isSaving() else {
            owed = true
            return
        }
        isRefreshing = true
        defer { isRefreshing = false }
        repeat {
            owed = false
            let started = revision
            guard let loaded = try? await read() else { return }
            if isSaving() {
                // Read again once the saves are done (`savesSettled`).
                owed = true
                return
            }
            if started != revision {
                // A save answered meanwhile, and none is left to say when: read again now.
                owed = true
                continue
            }
            state = .loaded(loaded)
        } while owed && !isSaving()
    }

    /// One element read afresh by itself, with the list on screen: `read` gives it as the
    /// store has it now (nil: it is not in the list any more), and `place` puts it where it
    /// belongs. When that could be stale (a save under way or answered meanwhile, or the list
    /// being read) the whole list is read again instead, as `refresh` does.
    public func reread(
        _ read: @MainActor () async throws(Failure) -> Element?,
        place: (inout [Element], Element?) -> Void
    ) async {
        guard state.value != nil else { return }
        guard !isRefreshing, !isSaving() else {
            owed = true
            return
        }
        let started = revision
        let element: Element?
        do {
            element = try await read()
        } catch {
            return
        }
        guard started == revision, !isRefreshing, !isSaving() else { return await refresh() }
        // A reading of the whole list that started before this one is older than it.
        confirm { place(&$0, element) }
    }

    /// The saves under way have all answered: a reading asked for meanwhile runs now.
    public func savesSettled() async {
        guard owed, !isSaving() else { return }
        await refresh()
    }

    /// A save the store confirmed: applied to the list as loaded (nothing, before it is).
    public func confirm(_ change: (inout [Element]) -> Void) {
        revision += 1
        guard var list = state.value else { return }
        change(&list)
        state = .loaded(list)
    }
}
