import Presentation
import SharedKernel

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

    /// The status's first part: the directory, or the server with `●` connected or `⚠`
    /// reconnecting.
    func status(isReconnecting: Bool) -> [String] {
        switch self {
        case .local(let path): path.isEmpty ? [] : [path]
        case .server(let host): [host + (isReconnecting ? " ⚠" : " ●")]
        }
    }
}
