import AppShell
import Foundation
import Testing

@Suite("Where the data lives")
struct DataDirectoryTests {
    @Test(
        "option, then EDUGO_DATA_DIR, then XDG_DATA_HOME, then ~/.local/share",
        arguments: [
            ("/opt/data", ["EDUGO_DATA_DIR": "/env", "XDG_DATA_HOME": "/xdg"], "/opt/data"),
            (nil, ["EDUGO_DATA_DIR": "/env", "XDG_DATA_HOME": "/xdg"], "/env"),
            (nil, ["XDG_DATA_HOME": "/xdg"], "/xdg/edugo"),
            (nil, ["XDG_DATA_HOME": "relative"], "/home/ana/.local/share/edugo"),
            (nil, [:], "/home/ana/.local/share/edugo"),
            ("~/edugo", [:], "/home/ana/edugo"),
        ] as [(String?, [String: String], String)])
    func resolve(option: String?, environment: [String: String], expected: String) {
        #expect(DataDirectory.resolve(option: option, environment: environment, home: "/home/ana").path == expected)
    }
}

@Suite("Config file on the command line")
struct ConfigOptionTests {
    @Test(
        "--config is found for the help before the options are parsed, in either form, not past --",
        arguments: [
            (["--help", "--config", "a.toml"], "a.toml"), (["--config=b.toml", "--help"], "b.toml"), (["--help"], nil),
            (["--", "--config", "c.toml"], nil), (["--config"], nil),
        ] as [([String], String?)])
    func configOption(arguments: [String], expected: String?) {
        #expect(ConfigCommand.configOption(in: arguments) == expected)
    }
}
