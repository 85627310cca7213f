// swift-tools-version: 6.2
import PackageDescription

// Builds swift-openapi-generator's command-line tool, only for `Scripts/generate-api/run`: the
// generated code is committed in Sources/EduGoAPI/Generated, so neither the app's build nor CI
// ever builds the generator (OpenAPIKit, Yams and friends) or runs a build plugin.
let package = Package(
    name: "generate-api",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ]
)
