/// What is known of a `ConfirmedList` before it is loaded: its elements among the ids a screen
/// asked about (the marks of the catalog's first page, read without waiting for the learner's
/// whole list), and the saves confirmed since. An id asked about with no element is known not
/// to have one.
///
/// A reading that started before a save of an id says nothing about that id: the save holds.
/// The owner ends it (`isOver`) once the whole list is loaded; answers after that are dropped.
@MainActor
public final class Glimpses<ID: Hashable & Sendable, Element: Sendable> {
    /// The elements known, for the ids asked about.
    public private(set) var elements: [Element] = [] {
        didSet { onChange(elements) }
    }
    /// The ids asked about (and those saved since): what `elements` speaks for.
    private var asked: Set<ID> = []
    /// Counts the saves confirmed, and the last for each id.
    private var changes = 0
    private var changedAt: [ID: Int] = [:]
    private let limit: Int
    private let id: (Element) -> ID
    private let reading: @MainActor ([ID]) async throws -> [Element]
    /// Whether the whole list is loaded; settable after `init`, as `ConfirmedList.isSaving`.
    public var isOver: @MainActor () -> Bool = { false }
    /// Told the elements after every change (to index them, say); settable as `isOver` is.
    public var onChange: @MainActor ([Element]) -> Void = { _ in }

    /// - Parameters:
    ///   - limit: the most ids one reading asks about.
    ///   - id: which id an element speaks for.
    ///   - read: the elements the store has among these ids.
    public init(limit: Int, id: @escaping (Element) -> ID, read: @escaping @MainActor ([ID]) async throws -> [Element]) {
        self.limit = limit
        self.id = id
        self.reading = read
    }

    /// Whether `id` was asked about: `elements` then says whether it has one.
    public func knows(_ id: ID) -> Bool { asked.contains(id) }

    /// Reads the ids not asked about before, a reading per `limit` of them. A failure leaves
    /// its ids unknown (asked again next time).
    public func read(_ ids: [ID]) async {
        var wanted: [ID] = []
        var seen: Set<ID> = []
        for id in ids where !asked.contains(id) && seen.insert(id).inserted { wanted.append(id) }
        var start = 0
        while start < wanted.count, !isOver() {
            let chunk = Array(wanted[start..<min(start + limit, wanted.count)])
            start += limit
            let started = changes
            guard let found = try? await reading(chunk), !isOver() else { continue }
            // A save confirmed after this reading started knows better.
            let current = Set(chunk.filter { changedAt[$0, default: -1] < started })
            elements = elements.filter { !current.contains(id($0)) } + found.filter { current.contains(id($0)) }
            asked.formUnion(current)
        }
    }

    /// Reads again, as the store has it now, what was asked about (every id, or one).
    public func readAgain(_ only: ID? = nil) async {
        let ids: [ID]
        if let only {
            guard asked.remove(only) != nil else { return }
            ids = [only]
        } else {
            ids = Array(asked)
            asked = []
        }
        await read(ids)
    }

    /// A save of `id` the store confirmed: `change` is what it did to the list.
    public func confirm(_ id: ID, _ change: (inout [Element]) -> Void) {
        guard !isOver() else { return }
        changes += 1
        changedAt[id] = changes
        asked.insert(id)
        change(&elements)
    }
}
