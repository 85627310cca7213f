import Testing

/// Every end-to-end suite runs inside this one, one test at a time: each starts a real app
/// in its own tmux server, and on a 2-core CI machine running them side by side only adds
/// noise.
@Suite("End to end", .serialized)
enum EndToEnd {}
