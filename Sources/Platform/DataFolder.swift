import Foundation

/// Where a program of the platform keeps its data: `option` (`--data-dir`), else the
/// variable `variable` names, else `$XDG_DATA_HOME/<folder>`, else `~/.local/share/<folder>`.
/// The app and the server resolve theirs alike.
public enum DataFolder {
    public static func resolve(
        option: String?, variable: String?, folder: String, environment: [String: String], home: String = NSHomeDirectory()
    ) -> URL {
        if let option, !option.isEmpty { return URL(fileURLWithPath: expandTilde(option, home: home)) }
        if let variable, let fromEnvironment = environment[variable], !fromEnvironment.isEmpty {
            return URL(fileURLWithPath: expandTilde(fromEnvironment, home: home))
        }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent(folder)
        }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/\(folder)")
    }

    private static func expandTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }
}
