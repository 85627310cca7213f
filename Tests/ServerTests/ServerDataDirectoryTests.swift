import Foundation
import Server
import Testing

@Suite("edugo-server's data directory")
struct ServerDataDirectoryTests {
    @Test("--data-dir (a ~ expanded), else $XDG_DATA_HOME/edugo-server; a relative XDG_DATA_HOME is ignored as the app ignores it")
    func resolution() {
        let home = NSHomeDirectory()
        #expect(ServerConfiguration.dataDirectory(option: "/srv/edugo", environment: ["XDG_DATA_HOME": "/xdg"]).path == "/srv/edugo")
        #expect(ServerConfiguration.dataDirectory(option: "~/data", environment: [:]).path == home + "/data")
        #expect(
            ServerConfiguration.dataDirectory(option: nil, environment: ["XDG_DATA_HOME": "/xdg", "EDUGO_DATA_DIR": "/app"]).path
                == "/xdg/edugo-server")
        #expect(
            ServerConfiguration.dataDirectory(option: nil, environment: ["XDG_DATA_HOME": "relative"]).path == home
                + "/.local/share/edugo-server")
    }
}
