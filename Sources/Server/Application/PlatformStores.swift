import SharedKernel

/// The ports a server runs on, and what its processes must share: one SQLite database in a
/// data directory (one process), or one PostgreSQL database (any number of processes). The
/// executable chooses the store and builds these (`ServerComposition`); the server sees only
/// the ports.
public struct PlatformStores: Sendable {
    public var courses: any CourseRepository
    public var enrollments: any EnrollmentRepository
    public var favourites: any FavouritesRepository
    public var profiles: any ProfileRepository
    public var learning: any LearningRepository
    /// Terminals' queued writes, applied once each.
    public var operations: any OperationRepository
    public var accounts: any AccountRepository
    public var refreshTokens: any RefreshTokenRepository
    public var signingKey: [UInt8]
    /// Where failed sign-ins are kept: nil keeps them in this process's memory (one process);
    /// a database keeps them for every process on it.
    public var signInAttempts: (any SignInAttemptLog)?
    /// What the writes above noted, and what wakes whoever reads it when any process writes.
    public var changes: any ChangeLog
    public var changeWakeups: @Sendable () -> AsyncStream<Void>
    /// Whether the database answers now (`GET /ready`).
    public var ready: @Sendable () async throws(AppError) -> Void
    /// The pool's connections in use and waited for (metrics).
    public var databaseUse: DatabaseUse

    public init(
        courses: any CourseRepository, enrollments: any EnrollmentRepository, favourites: any FavouritesRepository,
        profiles: any ProfileRepository, learning: any LearningRepository, operations: any OperationRepository,
        accounts: any AccountRepository,
        refreshTokens: any RefreshTokenRepository, signingKey: [UInt8], signInAttempts: (any SignInAttemptLog)?, changes: any ChangeLog,
        changeWakeups: @escaping @Sendable () -> AsyncStream<Void>, ready: @escaping @Sendable () async throws(AppError) -> Void,
        databaseUse: DatabaseUse
    ) {
        self.courses = courses
        self.enrollments = enrollments
        self.favourites = favourites
        self.profiles = profiles
        self.learning = learning
        self.operations = operations
        self.accounts = accounts
        self.refreshTokens = refreshTokens
        self.signingKey = signingKey
        self.signInAttempts = signInAttempts
        self.changes = changes
        self.changeWakeups = changeWakeups
        self.ready = ready
        self.databaseUse = databaseUse
    }
}
