import Foundation
import Platform

/// Where `edugo-server` keeps its data: the SQLite database of a data directory (one process),
/// or a PostgreSQL database (any number of processes on it are one platform).
public enum ServerStore: Sendable, Equatable {
    case sqlite(dataDirectory: URL)
    case postgres(url: String)

    /// `--database URL` when given, else the SQLite database in `dataDirectory(option:environment:)`.
    public init(databaseURL: String?, dataDirectory option: String?, environment: [String: String]) {
        if let databaseURL {
            self = .postgres(url: databaseURL)
        } else {
            self = .sqlite(dataDirectory: Self.dataDirectory(option: option, environment: environment))
        }
    }

    /// `--data-dir`, else `$XDG_DATA_HOME/edugo-server`, else `~/.local/share/edugo-server`.
    public static func dataDirectory(option: String?, environment: [String: String]) -> URL {
        DataFolder.resolve(option: option, variable: nil, folder: "edugo-server", environment: environment)
    }
}
