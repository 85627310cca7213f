import AsyncHTTPClient
import EduGoAPI
import Foundation
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SharedKernel

// MARK: - ProfileRepository

extension RemoteStore: ProfileRepository {
    public func user(id: UserID) async throws(AppError) -> User {
        do {
            return User(try await authorized(as: id) { client in try await client.getMe().ok.body.json })
        } catch {
            throw error.appError
        }
    }

    public func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        do {
            return User(
                try await authorized(as: userID) { client in try await client.updateMe(body: .json(.init(name: name))).ok.body.json })
        } catch {
            if case .api(_, .invalidName?, _, _) = error {
                // The server's rules are the app's: the same check names the reason here.
                if case .failure(let rejection) = ProfileName.validate(name) { throw .invalidName(rejection) }
                throw .invalidName(.invalidCharacters)
            }
            throw error.appError
        }
    }
}
