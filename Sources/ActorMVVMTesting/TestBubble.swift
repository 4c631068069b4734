import ActorMVVM
import ActorMVVMJobCount
import Testing

/// Runs `body` in a test bubble: the library's tasks it starts — features'
/// drains, effect runs, bindings, operators' pumps, the testing tools' own
/// tasks — are counted apart from the rest of the process, so the virtual-time
/// waits made inside (`TestClock.advance`, its gates, `FeatureTimeline`,
/// `Marble`) know when *this bubble* can do nothing more.
///
/// Which count a wait uses (Guarantees, "Virtual time is exact"):
/// - Where the process-wide job count is installed (Linux; the executor
///   factory), it still decides: it sees every job, the main actor's too.
///   The bubble's jobs are counted by both.
/// - Elsewhere — an Apple build, or Linux with
///   `ACTORMVVM_JOB_COUNT=task-executor` — the bubble's own count decides
///   (iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2 and later; a
///   simulator of those runs the tests of an iOS 17 app). It does not see
///   main-actor jobs, or a `Task {}` the code under test starts itself; work a
///   neighbouring test keeps running never delays it.
/// - Below those versions there is no bubble: `body` runs as it is, and
///   waits say that idle cannot be known.
///
/// Isolation: `body` runs on the caller's actor; its tasks keep their own.
/// Nothing is buffered; cancellation passes through to `body`.
public func withTestBubble<R, E: Error>(
  isolation: isolated (any Actor)? = #isolation, _ body: () async throws(E) -> R
) async throws(E) -> R {
  if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
    let executor = ScopeExecutor()
    return try await withTaskExecutorPreference(executor, isolation: isolation) { () async throws(E) -> R in
      try await TaskScope.binding(executor, isolation: isolation, body)
    }
  }
  return try await body()
}

/// The test bubble the current task is in.
public enum TestBubble {
  /// The bubble's counting executor, if the current task is in a bubble:
  /// `Task(executorPreference: TestBubble.executor) { … }` starts a task of
  /// the test's own that the bubble counts (a plain `Task {}` it does not:
  /// an unstructured task does not inherit an executor preference). Nil
  /// outside a bubble, where that line starts an ordinary task.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  public static var executor: (any TaskExecutor)? { Quiescence.currentScope }

  /// Which job count the virtual-time waits of the current task use, named:
  /// "executor factory (process-wide)", "task executor (per test bubble)"
  /// or "none".
  public static var jobCount: String { Quiescence.tierInUse.rawValue }
}

/// Runs each test of a suite, or one test, in a test bubble
/// (``withTestBubble(isolation:_:)``): `@Suite(.testBubble)`, `@Test(.testBubble)`.
public struct TestBubbleTrait: SuiteTrait, TestTrait, TestScoping {
  /// Applies to every test of a suite it is on.
  public var isRecursive: Bool { true }

  /// Wraps a test case (not a whole suite) in a bubble.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }
    try await withTestBubble { try await function() }
  }
}

extension Trait where Self == TestBubbleTrait {
  /// Runs each test in a test bubble: see ``withTestBubble(isolation:_:)``.
  public static var testBubble: Self { Self() }
}
