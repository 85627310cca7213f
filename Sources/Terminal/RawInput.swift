/// One read from ncurses, before decoding: a character, a function-key code, or a mouse report.
public enum RawInput: Hashable, Sendable {
    /// `wget_wch` returned `OK` with this code point.
    case character(UInt32)
    /// `wget_wch` returned `KEY_CODE_YES` with this `KEY_*` code.
    case keyCode(Int32)
    /// `getmouse` after `KEY_MOUSE`: cell and ncurses button state bits.
    case mouse(x: Int, y: Int, buttons: UInt)
}
