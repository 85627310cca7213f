import Foundation
import TestSupport
import Testing

extension EndToEnd {
    /// Issue 5's session journey: sign in, stay signed in, log out, create an account.
    @Suite("Journey: sign in and out")
    struct SignInJourneyTests {
        @Test("wrong password, demo sign-in, restart signed in, log out, restart at login, create an account")
        func session() async throws {
            let directory = TemporaryDirectory(prefix: "edugo-e2e")
            defer { directory.remove() }
            do {
                let first = try TmuxSession(dataDirectory: directory)
                try await first.waitFor("Sign in to EduGo")
                try first.type("demo@edugo.dev")
                try first.send("Tab")
                try first.type("not-the-password")
                try first.send("Enter")
                let refused = try await first.waitFor("Invalid email or password")
                #expect(!refused.contains { $0.contains("not-the-password") })
                try first.type("edugo-demo")
                try first.send("Enter")
                let catalog = try await first.waitFor("Agile and Scrum")
                #expect(catalog[0].hasSuffix("Demo Learner"))
                try first.send("q")
                #expect(try await first.waitForExit() == 0)
            }
            do {
                let second = try TmuxSession(dataDirectory: directory)
                try await second.waitFor("Agile and Scrum")
                try second.send("4")
                try await second.waitFor("Member since")
                try second.send("l")
                try await second.waitFor("Log out? (y/n)")
                try second.send("y")
                let login = try await second.waitFor("Sign in to EduGo")
                #expect(!login.contains { $0.contains("1 Catalog") })
                try second.send("Escape", "2", "Tab")
                try await second.waitFor("Sign in to EduGo")
                try second.send("C-c")
                #expect(try await second.waitForExit() == 0)
            }
            let third = try TmuxSession(dataDirectory: directory)
            try await third.waitFor("Sign in to EduGo")
            try third.send("C-n")
            try await third.waitFor("Create an EduGo account")
            try third.type("Ana Lima")
            try third.send("Tab")
            try third.type("ana@edugo.dev")
            try third.send("Tab")
            try third.type("s3cret-pass")
            try third.send("Enter")
            let signedIn = try await third.waitFor("Agile and Scrum")
            #expect(signedIn[0].hasSuffix("Ana Lima"))
        }
    }
}
