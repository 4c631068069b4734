import ActorMVVM
import ActorMVVMSupport

/// A one-shot gate for ordering concurrent work in tests: ``wait()``
/// suspends until ``open()`` has been called (at once if it already was).
///
/// `wait()` ignores cancellation on purpose: a fake that waits on a gate
/// models work that cannot be interrupted and answers late, which is how a
/// test proves a superseded answer never lands.
public final class TestGate: Sendable {
  private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  /// A closed gate.
  public init() {}

  /// Whether ``open()`` has been called.
  public var isOpen: Bool { state.withLock { $0.open } }

  /// Opens the gate: resumes every waiter, and later waits return at once.
  public func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Suspends until the gate is open (returns at once if it is).
  public func wait() async {
    await withCheckedContinuation { continuation in
      let open = state.withLock { state -> Bool in
        if state.open { return true }
        state.waiters.append(continuation)
        return false
      }
      if open { continuation.resume() }
    }
  }
}
