import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Profile

@Suite("Sign-in and account forms")
@MainActor
final class LoginTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    @Test("a wrong password says so under the form, clears the password and puts the focus there")
    func wrongPassword() async {
        let (sut, signedIn) = makeSUT()
        type(sut, "demo@edugo.dev", then: .tab, "wrong-password")

        await sut.submit()

        #expect(sut.formError?.english == "Invalid email or password")
        #expect(sut.fields[1].text == "")
        #expect(sut.focus == 1)
        #expect(signedIn.users == [])
    }

    @Test("the demo account signs in")
    func signIn() async {
        let (sut, signedIn) = makeSUT()
        type(sut, "demo@edugo.dev", then: .tab, "edugo-demo")

        await sut.submit()

        #expect(signedIn.users == [.demo])
    }

    @Test("a profile's email starts in its field, the password focused: typing it and Enter signs in")
    func profileEmail() async {
        let signedIn = SignedIn()
        let sut = LoginViewModel(sessions: InMemoryStore(), email: "demo@edugo.dev") { signedIn.users.append($0) }
        leaks.track(sut)
        #expect(sut.fields[0].text == "demo@edugo.dev")
        #expect(sut.focus == sut.passwordIndex)

        type(sut, "edugo-demo")
        await sut.submit()

        #expect(signedIn.users == [.demo])
    }

    @Test(
        "each account error shows under its own field with the focus there; the password is kept unless it was the problem",
        arguments: [
            ("", "ana@example.com", "password-1", AccountField.name, "Enter a name", "password-1"),
            ("Ana", "ana@", "password-1", .email, "Enter a valid email address", "password-1"),
            ("Ana", "demo@edugo.dev", "password-1", .email, "An account with that email already exists", "password-1"),
            ("Ana", "ana@example.com", "short", .password, "Use a password of 8 or more characters", ""),
        ])
    func accountErrors(name: String, email: String, password: String, field: AccountField, message: String, keptPassword: String) async {
        let (sut, signedIn) = makeSUT()
        sut.toggleMode()
        type(sut, name, then: .tab, email)
        sut.moveFocus(by: 1)
        type(sut, password)

        await sut.submit()

        #expect(sut.error(for: field)?.english == message)
        #expect(sut.focus == sut.mode.fields.firstIndex(of: field))
        #expect(sut.fields[2].text == keptPassword)
        #expect(signedIn.users == [])
    }

    @Test("every field at fault is said at once, each under its field, the focus on the first; nothing is sent")
    func allErrorsAtOnce() async {
        let (sut, signedIn) = makeSUT()
        sut.toggleMode()
        type(sut, "Ana", then: .tab, "bad-email")
        sut.moveFocus(by: 1)
        type(sut, "short")

        await sut.submit()

        #expect(sut.error(for: .name) == nil)
        #expect(sut.error(for: .email)?.english == "Enter a valid email address")
        #expect(sut.error(for: .password)?.english == "Use a password of 8 or more characters")
        #expect(sut.focus == 1)
        #expect(sut.fields[2].text == "", "the password was at fault: cleared")
        #expect(signedIn.users == [])
        sut.edit(.character("x"))
        #expect(sut.error(for: .email) == nil, "typing in a field clears its own error")
        #expect(sut.error(for: .password) != nil)
    }

    @Test("Esc leaves account creation, keeping the email; a long error wraps under its field")
    func escapeAndWrap() async {
        let (sut, _) = makeSUT()
        let screen = LoginScreen(viewModel: sut)
        _ = await screen.handle(.key(.control("n")))
        type(sut, "Ana", then: .tab, "ana@")
        await sut.submit()

        var canvas = TextCanvas(size: Size(width: 60, height: 16))
        screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 60, height: 14)))
        #expect(canvas.text.contains("Enter a valid email address"))
        _ = await screen.handle(.key(.escape))

        #expect(sut.mode == .signIn)
        #expect(sut.fields[0].text == "ana@")
    }

    @Test("against a server the form names it, not the local demo account; locally the demo account is offered")
    func namesTheServer() async {
        let (sut, _) = makeSUT()
        func text(_ screen: LoginScreen) -> String {
            var canvas = TextCanvas(size: Size(width: 80, height: 24))
            screen.draw(in: &canvas, frame: Frame(area: Rect(x: 0, y: 1, width: 80, height: 22)))
            return canvas.text
        }
        let remote = LoginScreen(viewModel: sut, server: "edugo.example.org:8080")
        #expect(text(remote).contains("On the server edugo.example.org:8080"))
        #expect(!text(remote).contains("demo@edugo.dev"))
        _ = await remote.handle(.key(.control("n")))
        #expect(text(remote).contains("On the server edugo.example.org:8080"))
        #expect(text(remote).contains("Passwords need 8 or more characters"))
        _ = await remote.handle(.key(.escape))
        #expect(text(LoginScreen(viewModel: sut)).contains("Demo account: demo@edugo.dev / edugo-demo"))
    }

    // MARK: - Helpers

    @MainActor
    final class SignedIn {
        var users: [User] = []
    }

    private func makeSUT() -> (LoginViewModel, SignedIn) {
        let signedIn = SignedIn()
        let sut = LoginViewModel(sessions: InMemoryStore()) { signedIn.users.append($0) }
        leaks.track(sut)
        return (sut, signedIn)
    }

    private func type(_ sut: LoginViewModel, _ text: String, then key: Key? = nil, _ more: String = "") {
        for character in text { sut.edit(.character(character)) }
        if key == .tab { sut.moveFocus(by: 1) }
        for character in more { sut.edit(.character(character)) }
    }
}
