import Foundation

/// Where the database lives: `--data-dir`, else `EDUGO_DATA_DIR`, else
/// `$XDG_DATA_HOME/edugo`, else `~/.local/share/edugo`.
public enum DataDirectory {
    public static func resolve(option: String?, environment: [String: String], home: String = NSHomeDirectory()) -> URL {
        if let option, !option.isEmpty { return URL(fileURLWithPath: expandTilde(option, home: home)) }
        if let fromEnvironment = environment["EDUGO_DATA_DIR"], !fromEnvironment.isEmpty {
            return URL(fileURLWithPath: expandTilde(fromEnvironment, home: home))
        }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("edugo")
        }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/edugo")
    }

    private static func expandTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }
}
