import ActorMVVMSupport

/// Runs `body` as outside work in flight: work the job count cannot see —
/// a request on the wire, a callback a Dispatch queue or a thread of your
/// own will make — that virtual time must wait for instead of taking its
/// silence for idle. While `body` runs, a test's waits (`TestClock.advance`,
/// its gates, `settle()`) do not conclude that nothing more can happen; they
/// wait until `body` returns or their stall bound passes.
///
/// In a test bubble the work is counted there (the bubble of the task that
/// calls this); in an app there is none, and `body` runs as it is at the
/// cost of a relaxed load. The library's `URLSessionHTTPClient` sends every
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
/// bound scope's ledger (``TaskScope``).
public enum OutsideWork {
  /// One unit of outside work, counted until ``end()``.
  struct Hold: Sendable {
    let ledger: any TaskScopeLedger
    func end() { ledger.outsideWorkEnded() }
  }

  /// Starts counting a unit of outside work where the calling task is
  /// counted: its scope's ledger. Nil where there is none.
  static func begin() -> Hold? {
    guard let ledger = TaskScope.preferred as? any TaskScopeLedger else { return nil }
    ledger.outsideWorkBegan()
    return Hold(ledger: ledger)
  }
}
