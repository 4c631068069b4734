import ActorMVVM
import ActorMVVMJobCount
import Testing

/// Runs `body` in a test bubble: the library's tasks it starts — features'
/// drains, effect runs, bindings, operators' pumps, the testing tools' own
/// tasks — and the body's own jobs are counted apart from the rest of the
/// process, so the virtual-time waits made inside (``TestClock/advance(by:fileID:filePath:line:column:)``,
/// its gates, ``FeatureTimeline``, ``Marble``) know when *this bubble* can
/// do nothing more. Every virtual-time wait needs one; outside a bubble a
/// wait records a failure at the test's line saying so.
///
/// What the bubble sees (Guarantees, "Virtual time is exact"): every job of
/// its tasks that runs off the main actor, and what they queue on the main
/// actor — idle is its count at zero across main-actor barrier rounds
/// (``TestBubble``). It does not see a `Task {}` the code under test starts
/// itself once it leaves the main actor (start the test's own with
/// `TestBubble.task { }`). Work a neighbouring test keeps
/// running never delays it, nor fails it.
///
/// XCTest: `await withTestBubble { … }` around the test's body (`try await`
/// if it throws). Swift Testing: `@Suite(.testBubble)` or `@Test(.testBubble)`.
///
/// When `body` returns, the bubble waits until its work has stopped; the
/// library's tasks it started that have not returned (an effect blocked on
/// a gate, a binding of a feature never finished, a sleeper never woken)
/// then fail the test, named — Go's `synctest` rule.
///
/// Isolation: `body` runs on the caller's actor; its tasks keep their own.
/// Nothing is buffered; cancellation passes through to `body`.
public func withTestBubble<R, E: Error>(
  isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, filePath: String = #filePath,
  line: Int = #line, column: Int = #column,
  _ body: () async throws(E) -> R
) async throws(E) -> R {
  return try await withTestBubble(
    isolation: isolation, sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column), body)
}

/// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
package func withTestBubble<R, E: Error>(
  isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation,
  _ body: () async throws(E) -> R
) async throws(E) -> R {
  XCTestCases.observe()
  let executor = ScopeExecutor()
  let result = await withTaskExecutorPreference(executor, isolation: isolation) { () async -> Result<R, E> in
    do throws(E) {
      return .success(try await TaskScope.binding(executor, isolation: isolation, body))
    } catch {
      return .failure(error)
    }
  }
  await reportUnfinished(in: executor, sourceLocation: sourceLocation)
  return try result.get()
}

/// The end of a bubble: once its work has stopped, the library's tasks it
/// started that have not returned — blocked, or still asleep — fail the
/// test, by name.
private func reportUnfinished(in executor: ScopeExecutor, sourceLocation: SourceLocation) async {
  guard await executor.untilIdle() == .idle else { return }
  let unfinished = executor.unfinishedTasks
  guard !unfinished.isEmpty else { return }
  TestFailure.record(
    """
    The test bubble ended with \(unfinished.count) of the library's tasks still running or blocked: \
    \(unfinishedSummary(unfinished)). End them before the test ends (`await feature.finish()`, \
    `await tester.finish()`, cancel a binding, or advance the clock they sleep on).
    """,
    sourceLocation: sourceLocation)
}

/// The names, each once in the order first started, with a count where
/// several share one; at most `limit` names, then how many more.
package func unfinishedSummary(_ names: [String], limit: Int = 8) -> String {
  var order: [String] = []
  var counts: [String: Int] = [:]
  for name in names {
    if counts[name] == nil { order.append(name) }
    counts[name, default: 0] += 1
  }
  let shown = order.prefix(limit).map { name in
    counts[name, default: 1] > 1 ? "\(name) ×\(counts[name, default: 1])" : name
  }
  let more = order.count - shown.count
  return shown.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
}

/// Runs `body` in a bubble of its own unless the calling task is in one:
/// how ``FeatureTimeline`` and ``Marble``, which own their whole run, need no ceremony.
func inTestBubble<R>(
  isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation, _ body: () async -> R
) async -> R {
  if Quiescence.currentScope != nil { return await body() }
  return await withTestBubble(isolation: isolation, sourceLocation: sourceLocation, body)
}

/// The test bubble the current task is in.
public enum TestBubble {
  /// Whether the current task is in a test bubble (its virtual-time waits can know idle).
  public static var isActive: Bool { Quiescence.currentScope != nil }

  /// The bubble's counting executor, if the current task is in a bubble:
  /// `Task(executorPreference: TestBubble.executor) { … }` starts a task of
  /// the test's own that the bubble counts (a plain `Task {}` it does not:
  /// an unstructured task does not inherit an executor preference). Nil
  /// outside a bubble, where that line starts an ordinary task.
  public static var executor: (any TaskExecutor)? { Quiescence.currentScope }

  /// Starts a task of the test's own that the bubble counts: what
  /// `Task { … }` is outside a bubble, where it runs as one (nonisolated,
  /// inheriting the task-locals). In a bubble the task prefers the bubble's
  /// executor, so a ``TestClock`` gate or advance waits for it; a plain
  /// `Task {}` there is not seen (an unstructured task does not inherit an
  /// executor preference).
  @discardableResult
  public static func task<Success: Sendable>(
    _ operation: sending @escaping () async -> Success
  ) -> Task<Success, Never> {
    if let executor = Quiescence.currentScope {
      return Task(executorPreference: executor, operation: operation)
    }
    return Task(operation: operation)
  }

  /// ``task(_:)`` for a throwing operation.
  @discardableResult
  public static func task<Success: Sendable>(
    _ operation: sending @escaping () async throws -> Success
  ) -> Task<Success, any Error> {
    if let executor = Quiescence.currentScope {
      return Task(executorPreference: executor, operation: operation)
    }
    return Task(operation: operation)
  }
}

/// Runs each test of a suite, or one test, in a test bubble
/// (``withTestBubble(isolation:fileID:filePath:line:column:_:)``): `@Suite(.testBubble)`, `@Test(.testBubble)`.
public struct TestBubbleTrait: SuiteTrait, TestTrait, TestScoping {
  /// Applies to every test of a suite it is on.
  public var isRecursive: Bool { true }

  /// Wraps a test case (not a whole suite) in a bubble.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }
    try await withTestBubble(sourceLocation: test.sourceLocation) { try await function() }
  }
}

extension Trait where Self == TestBubbleTrait {
  /// Runs each test in a test bubble: see ``withTestBubble(isolation:fileID:filePath:line:column:_:)``.
  public static var testBubble: Self { Self() }
}
