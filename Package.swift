// swift-tools-version: 6.2
import PackageDescription

// MARK: - Settings shared by every target of ours

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "EduGoTerminal",
    defaultLocalization: "en",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tui", targets: ["tui"]),
        .executable(name: "tui-bench", targets: ["tui-bench"]),
        .executable(name: "edugo-server", targets: ["edugo-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", exact: "2.1.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // Already built for Hummingbird; the server reads an HTTP/1 head before its conversion.
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The server's store when one machine is not enough (PostgresStore).
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // The server's metrics (GET /metrics): swift-metrics' API, written in Prometheus text.
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // The terminal's client of the server (RemoteStore).
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", exact: "1.5.0"),
        // The config file (Settings): TOML, read with toml++ underneath. apple/swift-configuration
        // 1.4.0 reads JSON, YAML and property lists, not TOML.
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        // Tests only: random key sequences for the text field and the key decoder.
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    targets: [
        // MARK: - Executable

        .executableTarget(
            name: "tui",
            dependencies: [
                "AppShell",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .executableTarget(
            name: "edugo-server",
            dependencies: [
                "Server",
                "ServerComposition",
                "SharedKernel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: - Benchmark (BENCHMARKS.md): the real tui in a pseudo-terminal, next to peers

        .executableTarget(
            name: "tui-bench",
            dependencies: [
                "CPty", "Platform", "PostgresStore", "Presentation", "RemoteStore", "ServerTestSupport", "SharedKernel", "Storage",
                "TerminalUI", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/tui-bench"
        ),
        .target(name: "CPty", path: "Benchmarks/CPty"),

        // MARK: - Composition root

        .target(
            name: "AppShell",
            dependencies: [
                "Catalog",
                "Courses",
                "Favourites",
                "Platform",
                "Presentation",
                "Profile",
                "Review",
                "Settings",
                "SharedKernel",
                "RemoteStore",
                "Storage",
                "Terminal",
                "TerminalUI",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: - The platform: its API contract and its server

        // Generated from openapi.yaml by Scripts/generate-api/run and committed (README: why).
        .target(
            name: "EduGoAPI",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            exclude: ["Generated/openapi.sha256"]
        ),
        .target(
            name: "Server",
            dependencies: [
                "EduGoAPI",
                "SharedKernel",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The executable's choice of store, built into the ports the server sees: SQLite or
        // PostgreSQL, and the import of course files into either (tests reach it too).
        .target(
            name: "ServerComposition",
            dependencies: [
                "Platform",
                "PostgresStore",
                "Server",
                "SharedKernel",
                "Storage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // The SharedKernel ports over the API's generated client, for `tui --server`.
        .target(
            name: "RemoteStore",
            dependencies: [
                "EduGoAPI",
                "SharedKernel",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),

        // MARK: - Features

        .target(name: "Catalog", dependencies: ["Presentation", "SharedKernel", "TerminalUI"]),
        .target(name: "Courses", dependencies: ["Presentation", "SharedKernel", "TerminalUI"]),
        .target(name: "Favourites", dependencies: ["Presentation", "SharedKernel", "TerminalUI"]),
        .target(name: "Profile", dependencies: ["Presentation", "SharedKernel", "TerminalUI"]),
        .target(name: "Review", dependencies: ["Presentation", "SharedKernel", "TerminalUI"]),
        .target(
            name: "Settings", dependencies: ["Presentation", "SharedKernel", "TerminalUI", .product(name: "TOMLKit", package: "TOMLKit")]),

        // MARK: - Infrastructure

        .target(
            name: "Storage",
            dependencies: [
                "Platform",
                "SharedKernel",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own calls, for the import's rows (`CourseRowWriter`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // What every store and the server share, with no database: course files, the built-in
        // catalog, the demo account and its progress, password hashing, data folders.
        .target(
            name: "Platform",
            dependencies: [
                "SharedKernel",
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Resources/catalog.json")]
        ),
        // Every port on PostgreSQL, for several server processes on one database.
        .target(
            name: "PostgresStore",
            dependencies: [
                "Platform",
                "SharedKernel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .target(name: "Terminal", dependencies: ["CNcurses", "CTerminalGuard", "Presentation", "TerminalUI"]),
        // The terminal put back before a fatal signal ends the process (signal-safe C).
        .target(name: "CTerminalGuard"),
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        // CommonMark's reference parser; only Markdown sees it.
        .systemLibrary(
            name: "CCmark",
            providers: [.apt(["libcmark-dev"])]
        ),

        // MARK: - Shared

        .target(name: "SharedKernel", resources: [.process("Resources")]),
        // What a screen's state is, apart from drawing it: view-models and Application layers use it.
        .target(name: "Presentation", dependencies: ["Markdown", "SharedKernel"]),
        // Lesson bodies: CommonMark into a small Sendable document model.
        .target(name: "Markdown", dependencies: ["CCmark"]),
        .target(name: "TerminalUI", dependencies: ["Markdown", "Presentation", "SharedKernel"]),

        // MARK: - Tests

        // What feature tests need, and nothing that builds a database or a server: the
        // in-memory store and the port contracts, fixtures, clocks, gates, the leak tracker.
        .target(
            name: "TestSupport",
            dependencies: [
                "SharedKernel",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport"
        ),
        // What the server, store and end-to-end tests need beside it: the built products, the
        // edugo-server process, a PostgreSQL test database, services listening in process, raw
        // connections, and stand-in HTTP servers (broken, hostile), in process and end to end.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "Platform", "PostgresStore", "SharedKernel", "Storage", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/ServerTestSupport"
        ),
        .testTarget(
            name: "AppShellTests",
            dependencies: [
                "AppShell", "Courses", "Favourites", "Presentation", "Profile", "SharedKernel", "Storage", "TerminalUI", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Presentation", "SharedKernel", "TerminalUI", "TestSupport"]),
        .testTarget(name: "CoursesTests", dependencies: ["Courses", "Presentation", "SharedKernel", "TerminalUI", "TestSupport"]),
        // GRDB only to inspect the database the real binary left behind (integrity, rows);
        // Hummingbird for stand-in servers that are not EduGo's (a hostile one).
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ServerTestSupport", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(name: "EduGoAPITests", dependencies: ["EduGoAPI", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "EduGoAPI", "Platform", "PostgresStore", "Server", "ServerComposition", "ServerTestSupport", "SharedKernel", "Storage",
                "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "RemoteStoreTests",
            dependencies: [
                "EduGoAPI", "Platform", "RemoteStore", "Server", "ServerComposition", "ServerTestSupport", "SharedKernel", "Storage",
                "TestSupport",
                // A misbehaving server (garbage, silence) for the outage tests.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "FavouritesTests", dependencies: ["Favourites", "Presentation", "SharedKernel", "TerminalUI", "TestSupport"]),
        .testTarget(name: "MarkdownTests", dependencies: ["Markdown"]),
        .testTarget(name: "ProfileTests", dependencies: ["Profile", "Presentation", "SharedKernel", "TerminalUI", "TestSupport"]),
        .testTarget(name: "ReviewTests", dependencies: ["Review", "Presentation", "SharedKernel", "TerminalUI", "TestSupport"]),
        .testTarget(name: "SharedKernelTests", dependencies: ["SharedKernel", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "SettingsTests", dependencies: ["Presentation", "Settings", "SharedKernel", "TerminalUI"]),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Platform", "SharedKernel", "Storage", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "SharedKernel", "TestSupport"]),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "Platform", "PostgresStore", "ServerTestSupport", "SharedKernel", "Storage", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "TerminalTests",
            dependencies: [
                "CNcurses", "Presentation", "Terminal", "TerminalUI", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "Markdown", "Presentation", "TerminalUI", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
    ]
)

// One loop gives every target the same strict settings (Swift 6 mode is the tools default).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
