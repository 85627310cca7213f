import Foundation
import Presentation
import SharedKernel
import TerminalUI

/// What the config file sets of how the shell looks and takes keys.
struct ShellLook {
    /// The keys the config file binds to actions (`[keys]`), in place of their defaults.
    var bindings = KeyBindings.none
    /// The words of the language in force, for every text drawn.
    var texts = Texts.english
    /// The accessible mode (`--accessible`): the cursor follows the focus, words for marks,
    /// no box drawing or animation.
    var accessible = false
}

/// Where the data is, as the header's status names it: the data directory, or the server's
/// `host:port`.
enum StoreLabel {
    case local(path: String)
    case server(host: String)

    var isServer: Bool {
        if case .server = self { true } else { false }
    }

    /// The status's first part: the directory, or the server with `●` connected or `⚠`
    /// reconnecting (`words` in their place in the accessible mode: a screen reader says them
    /// as they mean).
    func status(
        isReconnecting: Bool, words: (online: String, offline: String)? = nil,
        home: String? = ProcessInfo.processInfo.environment["HOME"]
    ) -> String? {
        switch self {
        case .local(let path): path.isEmpty ? nil : Self.shortened(path, home: home)
        case .server(let host): host + " " + (isReconnecting ? words?.offline ?? "⚠" : words?.online ?? "●")
        }
    }

    /// A data directory as the header names it: the home directory as `~`, and a long path
    /// by its first and last parts (`~/…/edugo`), so it fits beside the tabs at 80 columns.
    static func shortened(_ path: String, home: String?) -> String {
        var path = path
        if let home, home.count > 1, path == home || path.hasPrefix(home.hasSuffix("/") ? home : home + "/") {
            path = "~" + path.dropFirst(home.hasSuffix("/") ? home.count - 1 : home.count)
        }
        guard path.displayWidth > 16 else { return path }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count > 2, let first = parts.first, let last = parts.last else { return path }
        return (path.hasPrefix("/") ? "/" : "") + "\(first)/…/\(last)"
    }
}
