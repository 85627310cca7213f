import EduGoAPI
import Foundation
import SharedKernel

/// The learner's tokens for one server: the short-lived access token every `/v1/me` call
/// carries, and the refresh token that renews it (kept in `SessionFile`). One refresh at a
/// time: however many calls find the token expired together, they all wait for the same one.
actor RemoteSession {
    struct Tokens: Sendable {
        var access: String
        var expiresAt: Date
        var user: User
    }

    private let requests: APIRequests
    private let server: URL
    private let file: SessionFile
    private let now: @Sendable () -> Date
    private let report: @Sendable (RemoteEvent) -> Void
    private var tokens: Tokens?
    /// The refresh under way, which every caller that needs one awaits.
    private var refreshing: Task<Tokens, any Error>?
    /// How many refreshes were sent (for tests of the de-duplication).
    private(set) var refreshCount = 0
    /// Moves on at every sign-in and sign-out, so a refresh that ends after one is not taken.
    private var generation = 0
    /// The learner let in while the server could not be reached (`restore(knowing:)`): their
    /// first call renews the stored token, once the server answers.
    private var awaited: User?
    /// What the renewal of a start that lets a known learner in waits for (the app's first frame).
    private let hold: StartHold?

    init(
        requests: APIRequests, server: URL, file: SessionFile, now: @escaping @Sendable () -> Date,
        report: @escaping @Sendable (RemoteEvent) -> Void, hold: StartHold? = nil
    ) {
        self.requests = requests
        self.server = server
        self.file = file
        self.now = now
        self.report = report
        self.hold = hold
    }

    // MARK: - Starting and ending

    /// Takes a new session from a sign-in or a new account: its refresh token goes to disk.
    func adopt(_ session: Components.Schemas.Session) throws(AppError) -> User {
        generation += 1
        refreshing = nil
        awaited = nil
        return try store(session).user
    }

    /// The learner of the stored refresh token, renewed now; nil when none is stored or the
    /// server refused it (then it is forgotten).
    /// `known`: the learner this data directory last had signed in (remote mode's replica
    /// keeps them): let in at once with the stored token, renewed meanwhile (or on their first
    /// call the server answers, while it cannot be reached).
    func restore(knowing known: User? = nil) async throws(AppError) -> User? {
        guard file.read() != nil else { return nil }
        if let known {
            // Let in at once, so the first frame waits on no renewal: the renewal starts now,
            // their first call awaits it, and a session the server ended says so then
            // (`sessionEnded`, reported once).
            awaited = known
            if refreshing == nil {
                let started = generation
                refreshing = Task { [hold] in
                    // After the first frame (`StartHold`); never, when the app ends before it,
                    // or when the learner signed out (or in again) meanwhile: that session is
                    // not this renewal's to renew, nor to say it ended.
                    if let hold, await !hold.wait() { throw AppError.cancelled }
                    guard generation == started else { throw AppError.cancelled }
                    return try await self.sendRefresh()
                }
            }
            return known
        }
        do {
            return try await refresh().user
        } catch .sessionEnded {
            return nil
        } catch {
            guard let known, error.isUnreachable else { throw error }
            awaited = known
            return known
        }
    }

    /// Ends the session here at once, and on the server through `revoke` (given the access
    /// token), which the caller bounds in time: a learner never waits on a dead server to leave.
    func signOut(userID: UserID, revoke: @Sendable (String) async -> Void) async {
        if tokens == nil, awaited?.id == userID {
            // Let in offline and never renewed: no access token to revoke with; the stored
            // one is forgotten here, and lapses on the server.
            forget()
            return
        }
        guard let tokens, tokens.user.id == userID else { return }
        let access = tokens.access
        forget()
        await revoke(access)
    }

    /// Which sign-in this is: it moves on at every sign-in and sign-out here.
    var signInGeneration: Int { generation }

    /// The server said the sign-in of `generation` ended (its event stream's `signed_out`: a
    /// log out elsewhere, or a replayed refresh token): if it is still the one here, it ends
    /// here too, and the app is told once. The session file is left to the next refresh to
    /// judge, since another instance on this data directory may have signed in meanwhile.
    func signInEnded(generation ended: Int) -> Bool {
        guard ended == generation, tokens != nil else { return false }
        generation += 1
        refreshing = nil
        tokens = nil
        report(.sessionEnded)
        return true
    }

    /// Waits for the refresh under way, if any, to store its new token: a refresh the server
    /// answered but whose token was never stored would leave a used token in the file, which
    /// the next start presents and the server takes for a stolen one.
    func settle() async {
        // A renewal the start still holds is never sent: there is no token to wait for.
        _ = hold?.shut()
        _ = try? await refreshing?.value
    }

    private func forget() {
        generation += 1
        refreshing = nil
        tokens = nil
        awaited = nil
        file.remove()
    }

    private func store(_ session: Components.Schemas.Session) throws(AppError) -> Tokens {
        do {
            try file.write(session.refreshToken, server: server)
        } catch {
            throw .storage(.saving, detail: "session file \(file.url.path): \(error)")
        }
        let stored = Tokens(access: session.accessToken, expiresAt: expiry(in: session.expiresIn), user: User(session.user))
        tokens = stored
        return stored
    }

    // MARK: - Authorized calls

    /// Runs `call` with a fresh access token for `userID` (the learner signed in here):
    /// renewed first when it is about to expire, and once more if the server says it has.
    func authorized<T: Sendable>(as userID: UserID, _ call: @Sendable () async throws(RemoteFailure) -> T) async throws(RemoteFailure) -> T
    {
        var access: String
        if let current = tokens, current.user.id == userID {
            access = current.access
            if current.expiresAt <= now() { access = try await renewed(replacing: access) }
        } else if tokens == nil, awaited?.id == userID {
            // Let in offline: the stored token is renewed now (and says whose it is).
            access = try await renewed(replacing: "")
            guard tokens?.user.id == userID else { throw .app(.notSignedIn) }
        } else {
            throw .app(.notSignedIn)
        }
        do {
            return try await Self.run(call, with: access)
        } catch {
            guard case .api(401, let code?, _, _) = error, [.tokenExpired, .unauthorized].contains(code) else { throw error }
        }
        access = try await renewed(replacing: access)
        return try await Self.run(call, with: access)
    }

    /// `call` with `access` in its Authorization header.
    private static func run<T: Sendable>(_ call: @Sendable () async throws(RemoteFailure) -> T, with access: String)
        async throws(RemoteFailure) -> T
    {
        do {
            return try await Bearer.$token.withValue(access) { try await call() }
        } catch {
            throw RemoteFailure.from(error)
        }
    }

    /// An access token newer than `stale`: the one another caller already got, the refresh
    /// under way, or a new refresh.
    private func renewed(replacing stale: String) async throws(RemoteFailure) -> String {
        if let tokens, tokens.access != stale { return tokens.access }
        do {
            return try await refresh().access
        } catch {
            throw .app(error)
        }
    }

    /// One refresh for everyone who asks while it runs.
    private func refresh() async throws(AppError) -> Tokens {
        let task: Task<Tokens, any Error>
        if let refreshing {
            task = refreshing
        } else {
            guard file.read() != nil else { throw endedHere() }
            task = Task { try await self.sendRefresh() }
            refreshing = task
        }
        do {
            return try await task.value
        } catch {
            throw error as? AppError ?? .connectivity
        }
    }

    /// The refresh itself, under the session file's lock: another instance on this data
    /// directory may have rotated the token meanwhile, so the token presented is the one
    /// stored when the lock is taken, and the new one is stored before it is let go. What
    /// another sign-in or a sign-out here did meanwhile wins over it.
    private func sendRefresh() async throws(AppError) -> Tokens {
        let started = generation
        refreshCount += 1
        defer { if generation == started { refreshing = nil } }
        return try await file.lock.withLock { () async throws(AppError) -> Tokens in
            guard let refreshToken = file.read() else { throw endedHere() }
            let session: Components.Schemas.Session
            do throws(RemoteFailure) {
                session = try await requests.send { client in
                    try await client.refreshSession(body: .json(.init(refreshToken: refreshToken))).ok.body.json
                }
            } catch {
                if case .api(401, _, _, _) = error, generation == started { throw endedHere() }
                throw error.appError
            }
            guard generation == started else {
                guard let tokens else { throw .sessionEnded }
                return tokens
            }
            return try store(session)
        }
    }

    /// The server no longer knows this session: forget it and say so once.
    private func endedHere() -> AppError {
        let hadSession = tokens != nil || file.read() != nil
        forget()
        if hadSession { report(.sessionEnded) }
        return .sessionEnded
    }

    private func expiry(in seconds: Int64) -> Date {
        // Renew a little early, so a token never expires on its way to the server.
        let lifetime = TimeInterval(max(seconds, 1))
        return now().addingTimeInterval(lifetime - min(5, lifetime / 4))
    }
}

/// The access token of the call in progress, which `BearerMiddleware` puts in its header.
enum Bearer {
    @TaskLocal static var token: String?
}
