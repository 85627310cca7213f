import Crypto
import EduGoAPI
import Foundation
import Testing

/// The generated code is committed (README: a clean build need not build the generator), so
/// nothing regenerates it by itself: this fails when openapi.yaml or the generator's
/// configuration changed after the last `Scripts/generate-api/run`.
@Suite("EduGoAPI: generated code")
struct GeneratedCodeTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the committed code was generated from the openapi.yaml of this commit; else run Scripts/generate-api/run")
    func generatedCodeIsCurrent() throws {
        let document = try Data(contentsOf: Self.root.appendingPathComponent("openapi.yaml"))
        let configuration = try Data(contentsOf: Self.root.appendingPathComponent("Scripts/generate-api/openapi-generator-config.yaml"))
        let recorded = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/EduGoAPI/Generated/openapi.sha256"), encoding: .utf8
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)

        let actual = SHA256.hash(data: document + configuration).map { String(format: "%02x", $0) }.joined()

        #expect(actual == recorded, "openapi.yaml changed since the code was generated: run Scripts/generate-api/run")
    }

    @Test("a session decodes from the API's snake_case JSON")
    func decodesASession() throws {
        let json = Data(
            """
            {"access_token": "a", "refresh_token": "r", "expires_in": 900,
             "user": {"id": 1, "name": "Demo Learner", "email": "demo@edugo.dev", "role": "learner", "member_since": "2026-01-02T03:04:05Z"}}
            """.utf8)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601

        let session = try decoder.decode(Components.Schemas.Session.self, from: json)

        #expect(session.expiresIn == 900)
        #expect(session.user.role == .learner)
        #expect(session.user.name == "Demo Learner")
    }
}
