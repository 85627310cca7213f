import Observation
import SharedKernel

/// Reading the window: a jump to an end, the window replaced from a place or around an anchor,
/// and a page added at either side (only the newest request's result is applied).
extension PagedList {
    func jump(to position: PagePosition<ItemKey>) async {
        let toEnd: Bool
        if case .last = position { toEnd = true } else { toEnd = false }
        isUnsettled = true
        // The list is the same, so its count is too: only the window moves.
        await replaceWindow(from: position, selectLast: toEnd, recount: false)
    }

    /// Replaces the window with a page read from `position`.
    func replaceWindow(
        from position: PagePosition<ItemKey>,
        keepingSelection: Bool = false,
        start: Int? = nil,
        size: Int? = nil,
        selectLast: Bool = false,
        recount: Bool = true,
        claimed: Int? = nil
    ) async {
        if claimed == nil { generation += 1 }
        let mine = claimed ?? generation
        extending.values.forEach { $0.cancel() }
        extending = [:]
        let fetchCount = self.fetchCount
        async let counted = recount ? fetchCount() : nil
        let result = await fetchPage(position, size ?? pageSize)
        let total = await counted
        guard mine == generation, !Task.isCancelled else { return }
        isUnsettled = false
        if case .success(let count)? = total { self.count = count }
        switch result {
        case .failure(let error):
            // A refresh that fails keeps what is on screen; anything else shows the error.
            if !keepingSelection || state.value == nil { state = .error(message: error.message) }
        case .success(let page):
            let full = page.count >= (size ?? pageSize)
            let keep = keepingSelection ? selected?.id : nil
            let previous = selection.selectedIndex
            keys = page.map(\.key)
            switch position {
            case .first:
                (hasMoreBefore, hasMoreAfter, windowStart) = (false, full, 0)
            case .last:
                hasMoreBefore = full
                hasMoreAfter = false
                if case .exactly(let count) = count { windowStart = count - page.count } else { windowStart = full ? nil : 0 }
            case .after:
                (hasMoreBefore, hasMoreAfter, windowStart) = (true, full, start)
            case .before:
                (hasMoreBefore, hasMoreAfter, windowStart) = (full, true, nil)
            }
            state = page.isEmpty ? .empty : .loaded(page.map(\.item))
            let index: Int
            if selectLast {
                index = page.count - 1
            } else if let keep, let found = page.firstIndex(where: { $0.item.id == keep }) {
                index = found
            } else if keepingSelection {
                index = previous
            } else {
                index = 0
                selection = ListState()
            }
            selection.select(index, itemCount: page.count, pageSize: viewportHeight)
            extendIfNeeded()
        }
    }

    /// Replaces the window with the rows before `anchor` and a page from it: two reads, the
    /// count beside them. The item is looked for by id; a page that no longer holds it (it
    /// left the list meanwhile) selects the row that took its place.
    func replaceWindow(around anchor: ItemKey, keeping kept: Item.ID, screenRow: Int, claimed mine: Int) async {
        extending.values.forEach { $0.cancel() }
        extending = [:]
        let fetchCount = self.fetchCount
        async let counted = fetchCount()
        let before = await fetchPage(.before(anchor), pageSize)
        let earlier = (try? before.get()) ?? []
        let from: PagePosition<ItemKey> = earlier.last.map { .after($0.key) } ?? .first
        let result = await fetchPage(from, pageSize)
        let total = await counted
        guard mine == generation, !Task.isCancelled else { return }
        guard case .success = before, case .success(let later) = result else {
            // A failed read keeps nothing half-known: the list reads from the top instead.
            return await replaceWindow(from: .first, claimed: mine)
        }
        isUnsettled = false
        if case .success(let count) = total { self.count = count }
        let page = earlier + later
        keys = page.map(\.key)
        hasMoreBefore = earlier.count >= pageSize
        hasMoreAfter = later.count >= pageSize
        windowStart = hasMoreBefore ? nil : 0
        state = page.isEmpty ? .empty : .loaded(page.map(\.item))
        let index = page.firstIndex { $0.item.id == kept } ?? earlier.count
        selection = ListState(selectedIndex: index, scrollOffset: max(0, index - max(0, screenRow)))
        selection.select(index, itemCount: page.count, pageSize: viewportHeight)
        extendIfNeeded()
    }

    /// Adds the page after (or before) the window, and drops what is far from the selection.
    /// One at a time per side: a second caller waits for the first.
    func extend(after: Bool) async {
        if let running = extending[after] {
            await running.value
            return
        }
        guard let edge = after ? keys.last : keys.first else { return }
        let mine = generation
        let task = Task { @MainActor [weak self] in
            guard let self else { return }
            let result = await self.fetchPage(after ? .after(edge) : .before(edge), self.pageSize)
            guard mine == self.generation, !Task.isCancelled else { return }
            self.extending[after] = nil
            self.apply(result, after: after)
        }
        extending[after] = task
        await task.value
    }

    func apply(_ result: Result<[PagedItem<ItemKey, Item>], ListLoadError>, after: Bool) {
        guard case .success(let page) = result, var items = state.value else { return }
        let full = page.count >= pageSize
        if after {
            keys += page.map(\.key)
            items += page.map(\.item)
            hasMoreAfter = full
            let excess = items.count - windowLimit
            if excess > 0 {
                keys.removeFirst(excess)
                items.removeFirst(excess)
                selection.shift(by: -excess)
                windowStart = windowStart.map { $0 + excess }
                hasMoreBefore = true
            }
        } else {
            keys = page.map(\.key) + keys
            items = page.map(\.item) + items
            selection.shift(by: page.count)
            windowStart = windowStart.map { $0 - page.count }
            hasMoreBefore = full
            let excess = items.count - windowLimit
            if excess > 0 {
                keys.removeLast(excess)
                items.removeLast(excess)
                hasMoreAfter = true
            }
        }
        state = .loaded(items)
    }
}
