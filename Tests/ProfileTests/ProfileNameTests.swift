import SharedKernel
import Testing

@Suite("Profile name rules")
struct ProfileNameTests {
    @Test(
        "names are trimmed and checked",
        arguments: [
            ("", Result<String, ProfileNameRejection>.failure(.empty)),
            ("    ", .failure(.empty)),
            (String(repeating: "a", count: 61), .failure(.tooLong(maximum: 60))),
            (String(repeating: "a", count: 60), .success(String(repeating: "a", count: 60))),
            ("Ana\u{07}", .failure(.invalidCharacters)),
            ("Ana\tMaria", .failure(.invalidCharacters)),
            ("R2-D2", .failure(.invalidCharacters)),
            ("Ana 🙂", .failure(.invalidCharacters)),
            ("Zoë 山田", .success("Zoë 山田")),
            ("O'Brien-Smith Jr.", .success("O'Brien-Smith Jr.")),
            ("  María José  ", .success("María José")),
            ("José\u{301}", .success("José\u{301}")),
            ("Ива́н Петро́в", .success("Ива́н Петро́в")),
        ])
    func rules(raw: String, expected: Result<String, ProfileNameRejection>) {
        #expect(ProfileName.validate(raw) == expected)
    }

    @Test(
        "each refusal reads as a reason",
        arguments: [
            (ProfileNameRejection.empty, "Enter a name"),
            (.tooLong(maximum: 60), "Use at most 60 characters"),
            (.invalidCharacters, "Use letters, spaces, apostrophes, hyphens and dots only"),
        ])
    func messages(rejection: ProfileNameRejection, text: String) {
        #expect(rejection.message.english == text)
    }
}
