import Foundation
import SharedKernel

/// A `SessionRepository` that answers with a fixed learner (or nobody).
public struct SessionRepositoryStub: SessionRepository {
    public let user: User?

    public init(user: User?) {
        self.user = user
    }

    public static let demo = SessionRepositoryStub(user: .demo)
    public static let signedOut = SessionRepositoryStub(user: nil)

    public func currentUser() async throws(AppError) -> User? { user }

    public func signIn(email: String, password: String) async throws(AppError) -> User {
        guard let user, email == user.email else { throw .invalidCredentials }
        return user
    }

    public func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        User(id: UserID(2), name: name, email: email, memberSince: Date(timeIntervalSince1970: 1_800_000_000))
    }

    public func signOut() async throws(AppError) {}
}

extension User {
    public static let demo = User(id: UserID(1), name: "Demo Learner", email: "demo@edugo.dev", memberSince: Date(timeIntervalSince1970: 1_700_000_000))
}
