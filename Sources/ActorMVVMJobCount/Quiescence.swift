import ActorMVVM
import ActorMVVMSupport

/// The one question every virtual-time tool asks — "can anything of this
/// test still run without time moving?" (`TestClock.advance`, its gates,
/// `Marble`, `FeatureTimeline`, the REPL's script clock) — answered by the
/// calling task's test bubble (``ScopeExecutor``), on public API, the same
/// way on every platform. A task in no bubble gets ``Idle/unknowable(_:)``,
/// naming what to add, instead of a guess.
package enum Quiescence {
  /// What a wait for idle learned.
  package enum Idle: Equatable, Sendable {
    /// Nothing of the bubble can run (its executor is empty and the main
    /// actor has drained what was queued before, twice over).
    case idle
    /// The waiting task was cancelled first: nothing is known.
    case cancelled
    /// Idleness cannot be known for this task; the text says why.
    case unknowable(String)
    /// The bubble never stopped working for ``stallBound``: something keeps
    /// a job of it runnable (a task that yields in a loop, a sequence pulled
    /// forever), or the main actor stopped running jobs. The text names
    /// the bubble's tasks enqueued most meanwhile.
    case busy(String)
  }

  /// How long a wait for idle lasts, at most, while the bubble never stops:
  /// a bound against a hang, not a pause for things to settle (a wait that
  /// reaches idle returns as soon as it does). Two minutes: a bubble's
  /// count is its own, so only its own work (and a main actor kept busy by
  /// the whole process) can hold it.
  /// (A task-local, so a test of the bound itself can shorten it for its own waits.)
  @TaskLocal package static var stallBound: Duration = .seconds(120)

  /// The real-time horizon a failing gate looks ahead: before it concludes
  /// that what it waits for cannot come, it gives the sleepers this long of
  /// real time to change (work the bubble cannot see, such as a `Task {}`
  /// the test started itself, may still be on its way).
  package static let realTimeHorizon: Duration = .seconds(1)

  /// The calling task's bubble executor, if it is in one.
  package static var currentScope: ScopeExecutor? { TaskScope.bound as? ScopeExecutor }

  /// What every wait outside a bubble says: what to add.
  package static let outsideBubble =
    "this task is in no test bubble, so nothing can know when the work under test is idle: add "
    + "`.testBubble` to the `@Suite` or `@Test` (Swift Testing), or wrap the test's body in "
    + "`await withTestBubble { … }` (XCTest)"

  /// Suspends until nothing of the calling task's bubble can run — the
  /// caller's own job having ended (see ``ScopeExecutor/untilIdle()``).
  /// ``Idle/unknowable(_:)`` at once in no bubble, or where the bubble's
  /// self-check found a path of the runtime it relies on not taken.
  package static func untilIdle() async -> Idle {
    guard let scope = currentScope else { return .unknowable(outsideBubble) }
    if let simulated = simulatedMissingScopePaths { return .unknowable(ScopeExecutor.message(missing: simulated)) }
    if let verdict = await ScopeExecutor.checkedVerdict() { return .unknowable(verdict) }
    return await scope.untilIdle()
  }

  /// For tests of the self-check's verdict: these paths are reported
  /// missing instead of probed, for the waits of the task it is set on.
  @TaskLocal package static var simulatedMissingScopePaths: [BubblePath]?

  /// Runs `body` in a bubble of its own — a ``ScopeExecutor`` its task
  /// prefers and binds for the library's tasks, as a test bubble does —
  /// unless the task is in one already: how a program that is not a test
  /// (the REPL) gets exact virtual time.
  ///
  /// Isolation: `body` runs on the caller's actor. Cancellation passes
  /// through to `body`; nothing is buffered.
  package static func withScope<R>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async -> R
  ) async -> R {
    guard currentScope == nil else { return await body() }
    let executor = ScopeExecutor()
    return await withTaskExecutorPreference(executor, isolation: isolation) {
      await TaskScope.binding(executor, isolation: isolation, body)
    }
  }

  /// The toolchain this was compiled with, for the self-check's message.
  package static var toolchain: String {
    #if compiler(>=6.5)
      let version = "Swift 6.5 or later"
    #elseif compiler(>=6.4)
      let version = "Swift 6.4"
    #elseif compiler(>=6.3)
      let version = "Swift 6.3"
    #else
      let version = "Swift before 6.3"
    #endif
    #if os(Linux)
      return version + ", Linux"
    #elseif canImport(Darwin)
      return version + ", Darwin"
    #else
      return version
    #endif
  }
}
