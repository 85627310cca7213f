/// A screen that only shows a few centred lines, e.g. for a tab whose feature is not there yet.
@MainActor
public final class NoticeScreen: Screen {
    private let lines: [String]

    public init(lines: [String]) {
        self.lines = lines
    }

    public var keyHints: [KeyHint] { [] }

    public func draw(in canvas: inout some Canvas, frame: Frame) {
        StateView.drawMessage(lines, in: &canvas, area: frame.area, styles: [.bold, .dim])
    }

    public func handle(_ event: InputEvent) -> EventResult { .ignored }
}
