import SharedKernel

/// Signs in with email and password.
struct SignInUseCase: Sendable {
    let sessions: any SessionRepository

    func execute(email: String, password: String) async throws(AppError) -> User {
        try await sessions.signIn(email: email, password: password)
    }
}

/// Creates an account and signs it in.
struct CreateAccountUseCase: Sendable {
    let sessions: any SessionRepository

    func execute(name: String, email: String, password: String) async throws(AppError) -> User {
        try await sessions.createAccount(name: name, email: email, password: password)
    }
}

/// Ends the session.
struct SignOutUseCase: Sendable {
    let sessions: any SessionRepository

    func execute() async throws(AppError) {
        try await sessions.signOut()
    }
}
