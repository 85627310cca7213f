import Presentation

/// A one-cell spinner; the frame comes from the shell's animation tick.
public enum Spinner {
    static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    public static func frame(tick: Int) -> String {
        frames[((tick % frames.count) + frames.count) % frames.count]
    }
}
