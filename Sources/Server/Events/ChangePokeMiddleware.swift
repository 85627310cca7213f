import Hummingbird

/// After a request that may have written (any method but GET and HEAD), asks the hub to read
/// the change log: this process's own writes reach its streams at once, without waiting for
/// the database's wake-up (which still brings every other process's).
struct ChangePokeMiddleware<Context: RequestContext>: RouterMiddleware {
    let hub: ChangeHub

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        defer { if request.method != .get, request.method != .head { hub.poke() } }
        return try await next(request, context)
    }
}
