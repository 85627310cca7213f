import Foundation
import TestSupport

/// An executable of this package, built next to the test bundle (`swift test` builds every
/// product): `tui`, `edugo-server`.
public enum BuiltProduct {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The path of `name`, next to the tests, else in `.build/debug`.
    public static func path(_ name: String) throws -> String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/\(name)").standardized,
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Missing(description: "\(name) was not built next to the tests: \(candidates.map(\.path))")
        }
        return found.path
    }

    /// Runs `name` to its end with pipes for stdin, stdout and stderr (so not a terminal);
    /// `environment` is added to the test process's. The wait is on a thread of its own, never
    /// one of the few cooperative threads every suite shares.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> (
        status: Int32, output: String, errors: String
    ) {
        let path = try path(name)
        return try await onOwnThread { try runToEnd(path, arguments, environment: environment) }
    }

    private static func runToEnd(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (
        status: Int32, output: String, errors: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment, uniquingKeysWith: { $1 })
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = Pipe()
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, out, err)
    }
}
