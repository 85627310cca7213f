import Foundation
import Presentation
import Settings
import SharedKernel
import Terminal
import TerminalUI

/// Applies the config file again whenever it is saved while the app runs: what it changes
/// takes effect from the next frame, and a broken edit keeps the settings in force, the
/// footer saying why.
@MainActor
final class ConfigReload {
    private let watcher: ConfigWatcher
    private var following: Task<Void, Never>?
    private var settings: Settings

    /// `nil` when the file's folder cannot be watched.
    /// `language`: the UI's language with these settings (`--language` and the locale come first).
    init?(
        path: String, explicit: Bool, settings: Settings, terminal: NcursesTerminal, shell: ShellController,
        accessibleOption: Bool, language: @escaping @MainActor (Settings) -> Language
    ) {
        guard let watcher = ConfigWatcher(path: path) else { return nil }
        self.watcher = watcher
        self.settings = settings
        let name = URL(fileURLWithPath: path).lastPathComponent
        following = Task { [weak self, changes = watcher.changes] in
            for await _ in changes {
                // An editor's save is several events; the last of a burst is the one read.
                try? await shell.clock.clock.sleep(for: Self.settle)
                guard let self else { return }
                switch Result(catching: { () throws(ConfigProblem) -> Settings in
                    try ConfigFile.load(path: path, explicit: explicit, contexts: GlobalKeys.contexts)
                }) {
                case .success(let fresh):
                    if fresh == self.settings, shell.settingsProblem != nil {
                        // Mended back to what is in force: nothing to apply, nothing refused.
                        shell.settingsProblem = nil
                        shell.report(.success("Settings applied from \(name)"))
                    }
                    guard fresh != self.settings else { continue }
                    if fresh.theme != self.settings.theme { terminal.apply(theme: fresh.theme) }
                    shell.layout.wideFrom = fresh.wideLayoutColumns
                    shell.layout.review = fresh.review
                    shell.look.bindings = fresh.keys
                    if fresh.language != self.settings.language { shell.look.texts = Texts(language(fresh)) }
                    if fresh.accessible != self.settings.accessible { shell.look.accessible = fresh.accessible || accessibleOption }
                    self.settings = fresh
                    shell.settingsProblem = nil
                    shell.report(.success("Settings applied from \(name)"))
                case .failure(let problem):
                    // Said in the footer for its moment; kept in the header's mark, the help
                    // and the palette until the file is mended.
                    shell.settingsProblem = problem.text
                    shell.report(.error("Settings not applied: \(problem.brief)"))
                }
            }
        }
    }

    /// How long a burst of events settles before the file is read.
    static let settle: Duration = .milliseconds(50)

    func stop() {
        following?.cancel()
        watcher.stop()
    }
}
