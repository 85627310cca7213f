import Presentation
import SharedKernel
import TerminalUI

extension CourseDetailScreen {
    /// One line of the scrolling body.
    enum Line: Equatable {
        case text(String, Style)
        /// A row of the facts table: a dimmed label column, then the value.
        case fact(label: String, value: String)
        /// A lesson of the syllabus, from 0.
        case lesson(Int)
    }
}

/// The body's lines, with the description wrapped only as far as someone looks.
@MainActor
struct PageLines {
    let prefix: [CourseDetailScreen.Line]
    private(set) var description: WrappedText
    let suffix: [CourseDetailScreen.Line]
    /// Hands the description back, wrapped further, to be kept for the next frame.
    let keep: @MainActor (WrappedText) -> Void

    /// The widest label of the facts, which sets the values' column.
    var prefixLabelWidth: Int {
        prefix.lazy.compactMap { line -> Int? in
            if case .fact(let label, _) = line { return label.displayWidth }
            return nil
        }.max() ?? 0
    }

    init(
        prefix: [CourseDetailScreen.Line],
        description: WrappedText,
        suffix: [CourseDetailScreen.Line],
        keep: @escaping @MainActor (WrappedText) -> Void
    ) {
        self.prefix = prefix
        self.description = description
        self.suffix = suffix
        self.keep = keep
    }

    var isComplete: Bool { description.isComplete }
    /// Every line (call `ensureAll` first for an exact count).
    var count: Int { prefix.count + description.lines.count + suffix.count }

    mutating func ensure(upTo count: Int) {
        let before = description.lines.count
        description.wrap(upTo: max(0, count - prefix.count))
        if description.lines.count != before || description.isComplete { keep(description) }
    }

    mutating func ensureAll() {
        description.wrapAll()
        keep(description)
    }

    mutating func exists(_ index: Int) -> Bool {
        ensure(upTo: index + 1)
        return index < count || (!isComplete && index >= prefix.count)
    }

    mutating func line(at index: Int) -> CourseDetailScreen.Line? {
        if index < prefix.count { return prefix[index] }
        ensure(upTo: index + 1)
        let inDescription = index - prefix.count
        if inDescription < description.lines.count { return .text(description.lines[inDescription], .normal) }
        guard isComplete else { return nil }
        let inSuffix = inDescription - description.lines.count
        return suffix.indices.contains(inSuffix) ? suffix[inSuffix] : nil
    }

    func index(ofLesson lesson: Int) -> Int? {
        guard let position = suffix.firstIndex(of: .lesson(lesson)) else { return nil }
        return prefix.count + description.lines.count + position
    }
}

extension CourseDetailScreen {
    /// The widest the page runs: the reader's measure, centred on a wide terminal, so a
    /// lesson's minutes stay near its title.
    static let measure = 100

    static func readingArea(_ area: Rect) -> Rect {
        let inner = area.insetBy(horizontal: 2)
        let width = min(inner.width, measure)
        return Rect(x: inner.x + (inner.width - width) / 2, y: inner.y, width: width, height: inner.height)
    }

    static let labelWidth = 14

    /// The facts with each value wrapped in its column, under itself, rather than cut
    /// (`15 por respond…` at 60 columns): a value's further lines have no label.
    static func wrappingValues(_ facts: [Line], width: Int) -> [Line] {
        let labels = facts.compactMap { line -> Int? in
            if case .fact(let label, _) = line { return label.displayWidth }
            return nil
        }
        let valueWidth = max(1, width - max(labelWidth, (labels.max() ?? 0) + 2))
        return facts.flatMap { line -> [Line] in
            guard case .fact(let label, let value) = line, value.displayWidth > valueWidth else { return [line] }
            let wrapped = TextWrapper.wrap(value, width: valueWidth)
            return wrapped.enumerated().map { .fact(label: $0.offset == 0 ? label : "", value: $0.element) }
        }
    }
}
