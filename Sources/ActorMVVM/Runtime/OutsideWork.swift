import ActorMVVMSupport

/// Runs `body` as outside work in flight: work the job count cannot see —
/// a request on the wire, a callback a Dispatch queue or a thread of your
/// own will make — that virtual time must wait for instead of taking its
/// silence for idle. While `body` runs, a test's waits (`TestClock.advance`,
/// its gates, `settle()`) do not conclude that nothing more can happen; they
/// wait until `body` returns or their stall bound passes.
///
/// Where there is a job count — a test bubble's, or the process-wide one a
/// test process installs — the work is counted there; in an app there is
/// none, and `body` runs as it is at the cost of a relaxed load and an
/// uncontended lock. The library's `URLSessionHTTPClient` sends every
/// request in one.
///
/// Isolation: `body` runs on the caller's actor. Cancellation passes through
/// to `body`; whatever way it ends, the work stops counting. Nothing is
/// buffered.
public func withOutsideWork<R, E: Error>(
  isolation: isolated (any Actor)? = #isolation, _ body: () async throws(E) -> R
) async throws(E) -> R {
  let hold = OutsideWork.begin()
  defer { hold?.end() }
  return try await body()
}

/// Where outside work (``withOutsideWork(isolation:_:)``) is counted: the
/// bound scope's ledger, else the process-wide job count's hooks, if one
/// registered them with ``register(began:ended:)``.
public enum OutsideWork {
  /// How the process-wide job count holds idle open: `began` when outside
  /// work starts, `ended` when it stops.
  private struct Hooks: Sendable {
    let began: @Sendable () -> Void
    let ended: @Sendable () -> Void
  }
  private static let hooks = Locked<Hooks?>(nil)

  /// Counts outside work in the process-wide job count from now on. Called
  /// by its install; a later call replaces the earlier one.
  public static func register(began: @escaping @Sendable () -> Void, ended: @escaping @Sendable () -> Void) {
    hooks.withLock { $0 = Hooks(began: began, ended: ended) }
  }

  /// One unit of outside work, counted until ``end()``.
  struct Hold: Sendable {
    let ended: @Sendable () -> Void
    func end() { ended() }
  }

  /// Starts counting a unit of outside work where the calling task is
  /// counted: its scope's ledger (which reports to the process-wide count
  /// as its jobs do), else the process-wide count. Nil where neither is.
  static func begin() -> Hold? {
    if let ledger = TaskScope.preferred as? any TaskScopeLedger {
      ledger.outsideWorkBegan()
      return Hold { ledger.outsideWorkEnded() }
    }
    guard let hooks = hooks.withLock({ $0 }) else { return nil }
    hooks.began()
    return Hold(ended: hooks.ended)
  }
}
