/// Counts the runnable tasks of one test's asynchronous world, so a test
/// harness can wait until every one of them is parked: the exact "nothing
/// left to do at this instant" that virtual-time tests need, without
/// sleeping or yielding and hoping.
///
/// A harness installs a probe as a task-local (``current``) around the
/// code it drives. Operators read it once, when their iterator starts, and
/// report through it; `TestClock` and the marble sources of
/// `ActorMVVMTesting` report through the probe of the task that parks on
/// them. The rule that keeps the count exact:
///
/// - whoever **starts or wakes** a task calls ``busy()`` *before* the task
///   can run (before `Task {}` or `resume`);
/// - a task calls ``idle()`` itself, *after* it has registered where it
///   parks, or as the last thing it does.
///
/// So the count can over-estimate for an instant, never under-estimate:
/// it reaches zero only when every counted task is parked somewhere that
/// only an outside event (the harness) can wake.
///
/// Production code never installs a probe; every hook is then one `nil`
/// check.
@usableFromInline
package final class Quiescence: Sendable {
  @usableFromInline @TaskLocal package static var current: Quiescence?

  private struct State {
    var busy = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Locked(State())

  package init() {}

  /// A task is about to start or be resumed.
  @usableFromInline package func busy() {
    state.withLock { $0.busy += 1 }
  }

  /// The calling task has parked, or is ending.
  @usableFromInline package func idle() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.busy -= 1
      precondition(state.busy >= 0, "Quiescence: idle() without a matching busy()")
      guard state.busy == 0 else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Resumes every `quiet()` waiter now, quiet or not: a harness's way
  /// out when something it drives never settles.
  package func releaseWaiters() {
    let waiters = state.withLock { state in
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once no counted task is runnable.
  package func quiet() async {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> Bool in
        if state.busy == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if ready { continuation.resume() }
    }
  }
}
