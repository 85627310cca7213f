import AsyncHTTPClient
import EduGoAPI
import Foundation
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SharedKernel

// MARK: - FavouritesRepository

extension RemoteStore: FavouritesRepository {
    public func setFavourite(_ isFavourite: Bool, userID: UserID, courseID: CourseID) async throws(AppError) {
        let path = Operations.AddFavourite.Input.Path(courseId: courseID.rawValue)
        do {
            _ = try await authorized(as: userID) { client in
                if isFavourite {
                    _ = try await client.addFavourite(path: path).noContent
                } else {
                    _ = try await client.removeFavourite(path: .init(courseId: path.courseId)).noContent
                }
            }
        } catch {
            throw Self.appError(error, course: courseID)
        }
    }

    /// The course when the server says it is a favourite; none when it says it is not, or
    /// that there is no such course. A course out of range is garbage: connectivity.
    public func favourite(userID: UserID, courseID: CourseID) async throws(AppError) -> Course? {
        let state: Components.Schemas.FavouriteState
        do {
            state = try await authorized(as: userID) { client in
                try await client.getFavourite(path: .init(courseId: courseID.rawValue)).ok.body.json
            }
        } catch {
            switch error {
            case .api(404, .courseNotFound, _, _), .api(404, .notFound, _, _): return nil
            default: throw Self.appError(error, course: courseID)
            }
        }
        guard state.favourite else { return nil }
        let course: Course
        do {
            course = try Course.checked(state.course)
        } catch {
            throw refused(error)
        }
        guard course.id == courseID else { throw refusedAnswer("a favourite of \(course.id) where \(courseID) was asked for") }
        return course
    }

    public func favourites(userID: UserID) async throws(AppError) -> [Course] {
        do {
            return try await authorized(as: userID) { client in try await client.listFavourites().ok.body.json }.courses.compactMap(
                accepted)
        } catch {
            throw error.appError
        }
    }

    /// A favourite not asked about is garbage: connectivity.
    public func favourites(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [Course] {
        guard !ids.isEmpty else { return [] }
        let asked = Array(Set(ids.map(\.rawValue)))
        let courses: [Components.Schemas.Course]
        do {
            courses = try await authorized(as: userID) { client in
                try await client.listFavourites(query: .init(courseIds: asked)).ok.body.json
            }
            .courses
        } catch {
            throw error.appError
        }
        if let stray = courses.first(where: { !asked.contains($0.id) }) {
            throw refusedAnswer("a favourite \(stray.id) where \(asked.count) other courses were asked about")
        }
        return courses.compactMap(accepted)
    }
}
