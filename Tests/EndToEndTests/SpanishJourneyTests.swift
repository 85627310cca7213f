import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 27: a learner whose locale is Spanish reads the whole journey in Spanish.
    @Suite("Journey: in Spanish")
    struct SpanishJourneyTests {
        /// Words of the app's English that a Spanish screen never shows (course data aside:
        /// the seeded titles are English, and stay as their authors wrote them).
        static let english = [
            "Sign in", "Catalog", "My courses", "Favourites", "Profile", "Review", " open", "search", " help", "Loading",
            "Seats", "Price", "Level", "Duration", "Enrolled", "Name updated", "Log out", "Press ", "courses", "matches",
        ]

        static func expectSpanish(_ screen: [String], _ moment: String, sourceLocation: SourceLocation = #_sourceLocation) {
            for word in english {
                #expect(!screen.contains { $0.contains(word) }, "\(moment): \"\(word)\" in \(screen)", sourceLocation: sourceLocation)
            }
        }

        @Test(
            "LANG=es_ES.UTF-8: sign in, a Spanish filter, enroll, a lesson done, a favourite, a rename, log out; every screen in Spanish",
            arguments: [(80, 24), (60, 16)])
        func journey(width: Int, height: Int) async throws {
            let session = try TmuxSession(width: width, height: height, environment: ["LANG": "es_ES.UTF-8"])
            let login = try await session.waitFor("Inicia sesión en EduGo")
            #expect(login.contains { $0.contains("Correo") } && login.contains { $0.contains("Contraseña") })
            Self.expectSpanish(login, "sign-in")
            try await session.signInIfAsked(inSpanish: true)

            let catalog = try await session.waitFor("Catálogo  64 cursos")
            // Up to 80 columns and more the tabs take their short names, as in English: at 80 to
            // leave room for the data directory's name.
            #expect(catalog[0].contains("1 Catálogo  2 Míos  3 Favs  4 Perfil  5 Repaso"))
            #expect(catalog.contains { $0.contains("Título") && $0.contains("Precio") })
            #expect(catalog.last?.contains("? ayuda") == true)
            Self.expectSpanish(catalog, "catalog")

            // `s` sorts in Spanish too (it is no `sí` where nothing is asked), and the title line
            // says how: by currency, then amount; in a word where the line is short.
            try session.send("s")
            try await session.waitFor(width >= 80 ? "↕ precio por moneda, de menor a mayor" : "↕ precio ↑")
            try session.send("s", "s", "s", "s")
            try await session.waitFor("↕ título A–Z")

            // A Spanish filter: the free beginners' courses.
            try session.send("/")
            try session.type("nivel:principiante es:gratis")
            let found = try await session.waitFor("the matches counted") { $0.contains { $0.contains("resultado") } }
            Self.expectSpanish(found, "search")
            try session.send("Enter")
            try session.send("Enter")
            let page = try await session.waitFor("Plazas libres")
            #expect(page.contains { $0.contains("Precio") && $0.contains("Gratis") })
            #expect(page.contains { $0.contains("Nivel") && $0.contains("Principiante") })
            Self.expectSpanish(page, "course page")

            try session.send("e")
            let enrolled = try await session.waitFor("Te has inscrito en ")
            #expect(enrolled.contains { $0.contains("Progreso") && $0.contains("de") && $0.contains("lecciones") })
            try session.send("Space")
            let done = try await session.waitFor("Lección hecha: ")
            Self.expectSpanish(done, "a lesson done")
            try session.send("f")
            try await session.waitFor("a favoritos")

            try session.send("2")
            let mine = try await session.waitFor("Mis cursos  3 inscripciones")
            #expect(mine.contains { $0.contains("Progreso") && $0.contains("Estado") })
            Self.expectSpanish(mine, "my courses")

            try session.send("4")
            try await session.waitFor("Miembro desde")
            try session.send("e", "C-u")
            try session.type("Lucía Pérez")
            try session.send("Enter")
            let renamed = try await session.waitFor("Nombre actualizado")
            #expect(renamed[0].hasSuffix(width < 80 ? "Lucía Pé…" : "Lucía Pérez"))
            Self.expectSpanish(renamed, "profile")

            try session.send("?")
            // The help is a whole new frame, and a capture can land while it is half written:
            // wait for the section below its title rather than expect it beside the title.
            try await session.waitFor("the help's Everywhere section") { screen in
                screen.contains { $0.contains("Teclas") } && screen.contains { $0.contains("En todas partes") }
            }
            try session.send("Escape")

            try session.send("l")
            let question = try await session.waitFor("¿Cerrar sesión? (s/n)")
            Self.expectSpanish(question, "log out")
            #expect(question.last?.contains("s sí") == true, "the footer's key for yes is s")
            // s for sí (issue 42 item 7).
            try session.send("s")
            try await session.waitFor("Inicia sesión en EduGo")
            try session.send("C-c")
            #expect(try await session.waitForExit() == 0)
        }

        @Test("60×16 in Spanish: the tabs, the table and the footer keep their words whole")
        func smallest() async throws {
            let session = try TmuxSession(arguments: ["--language", "es"], width: 60, height: 16)
            try await session.signInIfAsked(inSpanish: true)
            let catalog = try await session.waitFor("Catálogo  64 cursos")
            #expect(catalog[0].contains("1 Catálogo") && catalog[0].contains("5 Repaso"))
            #expect(catalog.contains { $0.contains("Título") && $0.contains("Precio") })
            #expect(catalog.last?.hasSuffix("? ayuda") == true)
            Self.expectSpanish(catalog, "catalog at 60×16")
            try session.send("4")
            let profile = try await session.waitFor("Miembro desde")
            #expect(profile.contains { $0.contains("Inscripciones") })
            Self.expectSpanish(profile, "profile at 60×16")
        }
    }
}
