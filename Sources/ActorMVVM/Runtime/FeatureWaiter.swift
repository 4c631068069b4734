import ActorMVVMSupport
import Dispatch

/// What a caller of ``Feature/idle()``, ``Feature/idle(timeout:)`` or
/// ``Feature/finish()`` suspends with: released by the feature when what it
/// waits for happens (``resume()``), or — a bounded wait — by its deadline.
@usableFromInline
enum FeatureWaiter: Sendable {
  /// `idle()` or `finish()`: waits as long as it takes.
  case unbounded(CheckedContinuation<Void, Never>)
  /// `idle(timeout:)`: the first of the feature and the deadline resumes it.
  case bounded(BoundedWait)

  /// Lets the waiter go: what it waited for happened.
  @inlinable
  func resume() {
    switch self {
    case .unbounded(let continuation): continuation.resume()
    case .bounded(let wait): wait.resume(returning: true)
    }
  }
}

/// A one-shot wait that several parties race to end: the feature (true:
/// idle), a deadline and the waiting task's cancellation (false). Whoever
/// comes first decides; later calls find it ended and do nothing, so the
/// waiting task is resumed exactly once, whether it suspended before or
/// after the wait ended.
@usableFromInline
final class BoundedWait: Sendable {
  private enum State {
    case pending
    case waiting(CheckedContinuation<Bool, Never>)
    case ended(Bool)
  }

  private let state = Locked(State.pending)

  @usableFromInline
  init() {}

  /// Suspends until the wait ends (at once if it already has): its result.
  @usableFromInline
  var result: Bool {
    get async {
      await withCheckedContinuation { continuation in
        let ended = state.withLock { state -> Bool? in
          if case .ended(let result) = state { return result }
          state = .waiting(continuation)
          return nil
        }
        if let ended { continuation.resume(returning: ended) }
      }
    }
  }

  /// Ends the wait with `result` if nobody has; a later call does nothing.
  @usableFromInline
  func resume(returning result: Bool) {
    let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      switch state {
      case .ended: return nil
      case .pending:
        state = .ended(result)
        return nil
      case .waiting(let continuation):
        state = .ended(result)
        return continuation
      }
    }
    waiting?.resume(returning: result)
  }

  /// Arms the deadline: the wait ends with false once `timeout` has passed
  /// and nothing can run (``IdleWait/afterDeadline(_:then:)``), unless it
  /// ended first.
  @usableFromInline
  func armDeadline(after timeout: Duration) {
    IdleWait.afterDeadline(timeout) { self.resume(returning: false) }
  }
}

/// How a bounded wait tells a machine slowed by load from work that never
/// ends: in a test bubble, after its deadline it also waits until nothing
/// of the bubble can run.
///
/// The runtime knows no such thing itself (an app's executors are the
/// concurrency runtime's own): the scope bound for the waiting task
/// (``TaskScope``; a test bubble binds one) is asked. Without one, the
/// deadline alone decides.
public enum IdleWait {
  /// Calls `body` once `timeout` of real time has passed and then nothing
  /// of the calling task's scope can run (``TaskScopeLedger/waitUntilIdle()``):
  /// the deadline of a wait that must not hang, and must not mistake a
  /// machine slowed by load (jobs still queued) for work that never ends.
  /// The timer is a Dispatch one, outside any job count, so it never keeps
  /// virtual time from knowing idle; a scope that never idles calls `body`
  /// at its stall bound; with no scope bound (an app), the deadline alone
  /// decides. The scope is read here, in the calling task.
  public static func afterDeadline(_ timeout: Duration, then body: @escaping @Sendable () -> Void) {
    let ledger = TaskScope.preferred as? any TaskScopeLedger
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) {
      guard let ledger else { return body() }
      Task {
        await ledger.waitUntilIdle()
        body()
      }
    }
  }
}

/// A bounded wait for a feature gave up: what still runs, named.
///
/// Thrown by ``Feature/idle(timeout:)`` and by `FeatureModel.settled(timeout:)`
/// when an effect is still running once the timeout has passed. In a Swift
/// Testing test an uncaught `try` fails the test with ``description``.
public struct FeatureBusy: Error, Sendable, Equatable, CustomStringConvertible {
  /// Which feature: its machine's type.
  public let feature: String
  /// The running effects, by id (`"an effect with no id"` for one without),
  /// plus cancelled ones still winding down, counted.
  public let runningEffects: [String]
  /// How long the wait lasted before giving up.
  public let timeout: Duration

  /// Creates the error; for tests of code that reports one.
  public init(feature: String, runningEffects: [String], timeout: Duration) {
    self.feature = feature
    self.runningEffects = runningEffects
    self.timeout = timeout
  }

  public var description: String {
    """
    \(feature) is still busy after \(timeout): \(runningEffects.joined(separator: ", ")). \
    An effect that never ends (a live query, a timer, a sleep on a TestClock nobody advances) \
    keeps a wait for idle waiting: wait for what you need instead (a Feature's `state`, or `flush()`: \
    inputs reduced, effects left running; a FeatureModel's `caughtUp()`), advance the clock, or \
    cancel the effect with an input first.
    """
  }
}
