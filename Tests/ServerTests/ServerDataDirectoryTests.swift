import Foundation
import ServerComposition
import Testing

@Suite("edugo-server's data directory")
struct ServerDataDirectoryTests {
    @Test("--data-dir (a ~ expanded), else $XDG_DATA_HOME/edugo-server; a relative XDG_DATA_HOME is ignored as the app ignores it")
    func resolution() {
        let home = NSHomeDirectory()
        #expect(ServerStore.dataDirectory(option: "/srv/edugo", environment: ["XDG_DATA_HOME": "/xdg"]).path == "/srv/edugo")
        #expect(ServerStore.dataDirectory(option: "~/data", environment: [:]).path == home + "/data")
        #expect(
            ServerStore.dataDirectory(option: nil, environment: ["XDG_DATA_HOME": "/xdg", "EDUGO_DATA_DIR": "/app"]).path
                == "/xdg/edugo-server")
        #expect(
            ServerStore.dataDirectory(option: nil, environment: ["XDG_DATA_HOME": "relative"]).path == home
                + "/.local/share/edugo-server")
    }

    @Test("--database chooses PostgreSQL, whatever --data-dir says; without it the SQLite database of the data directory")
    func choice() {
        #expect(
            ServerStore(databaseURL: "postgres://a@b/c", dataDirectory: "/srv/edugo", environment: [:])
                == .postgres(url: "postgres://a@b/c"))
        #expect(
            ServerStore(databaseURL: nil, dataDirectory: "/srv/edugo", environment: [:])
                == .sqlite(dataDirectory: URL(fileURLWithPath: "/srv/edugo")))
    }
}
