import Foundation
import Platform
import Storage

/// Where the app's data lives: `--data-dir`, else `EDUGO_DATA_DIR`, else
/// `$XDG_DATA_HOME/edugo`, else `~/.local/share/edugo`.
public enum DataDirectory {
    public static func resolve(option: String?, environment: [String: String], home: String = NSHomeDirectory()) -> URL {
        DataFolder.resolve(option: option, variable: "EDUGO_DATA_DIR", folder: "edugo", environment: environment, home: home)
    }
}
