import AsyncHTTPClient
import EduGoAPI
import Foundation
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SharedKernel

// MARK: - SessionRepository

extension RemoteStore: SessionRepository {
    public func restoreSession() async throws(AppError) -> User? {
        try await session.restore()
    }

    /// `restoreSession`, letting `known` (the learner last signed in on this data directory,
    /// as a replica keeps them) in while the server cannot be reached: their calls renew the
    /// stored token once it answers.
    public func restoreSession(knowing known: User?) async throws(AppError) -> User? {
        try await session.restore(knowing: known)
    }

    public func signIn(email: String, password: String) async throws(AppError) -> User {
        let started: Components.Schemas.Session
        do {
            started = try await open { client in
                try await client.signIn(body: .json(.init(email: email, password: password))).created.body.json
            }
        } catch {
            throw error.appError
        }
        return try await session.adopt(started)
    }

    public func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        let started: Components.Schemas.Session
        do {
            started = try await open { client in
                try await client.createAccount(body: .json(.init(name: name, email: email, password: password))).created.body.json
            }
        } catch {
            if case .api(_, .invalidName?, let message, _) = error {
                throw .invalidAccount(AccountRejection(field: .name, message: .verbatim(message)))
            }
            throw error.appError
        }
        return try await session.adopt(started)
    }

    public func signOut(userID: UserID) async throws(AppError) {
        await session.signOut(userID: userID) { access in
            _ = try? await Bearer.$token.withValue(access) {
                try await requests.send(within: Self.signOutTimeLimit) { client in try await client.signOut() }
            }
        }
    }
}
