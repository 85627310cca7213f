import SharedKernel
import Testing

@testable import Server

@Suite("Accept-Language: the language of the API's messages")
struct ServerLanguagesTests {
    @Test(
        "the first language the app has, by quality then order; English for anything else",
        arguments: [
            ("es", Language.spanish), ("es-ES,es;q=0.9,en;q=0.8", .spanish), ("fr-FR, es;q=0.5", .spanish),
            ("en;q=0.4, es;q=0.6", .spanish), ("es;q=0, en", .english), ("fr, de", .english), ("*", .english),
            ("", .english), (";;;,,,q=", .english), ("es;q=abc", .spanish), ("es;q=nan", .spanish),
        ] as [(String, Language)])
    func choice(header: String, expected: Language) {
        #expect(ServerLanguages().texts(accepting: header).language == expected)
    }
}
