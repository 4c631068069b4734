import ActorMVVM
import ActorMVVMSupport

/// How far a listener has got in a screen's outputs (its position: those
/// it handled and those the screen's bounded buffering dropped for it), and
/// who waits for more.
final class OutputProgress: Sendable {
  private let state = Locked<
    (handled: Int, nextID: UInt64, waiters: [UInt64: (Int, CheckedContinuation<Void, Never>)])
  >(
    (0, 0, [:]))

  /// The listener has handled the output at `position` (from 1); those
  /// before it it handled or were dropped.
  func handled(upTo position: Int) {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.handled = max(state.handled, position)
      let handled = state.handled
      let ready = state.waiters.filter { $0.value.0 <= handled }
      for id in ready.keys { state.waiters.removeValue(forKey: id) }
      return ready.values.map(\.1)
    }
    for waiter in ready { waiter.resume() }
  }

  /// Returns once the listener's position reaches `count`, the listener
  /// ended, or the calling task is cancelled.
  func wait(until count: Int) async {
    let id = state.withLock { state -> UInt64 in
      defer { state.nextID &+= 1 }
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let done = state.withLock { state -> Bool in
          if state.handled >= count || Task.isCancelled { return true }
          state.waiters[id] = (count, continuation)
          return false
        }
        if done { continuation.resume() }
      }
    } onCancel: {
      // Under the same lock as the registration: either it finds the waiter
      // or the registration sees the cancellation.
      state.withLock { $0.waiters.removeValue(forKey: id) }?.1.resume()
    }
  }

  /// Releases every waiter (the listener is gone).
  func close() {
    let waiters = state.withLock { state in
      state.handled = .max / 2
      defer { state.waiters = [:] }
      return state.waiters.values.map(\.1)
    }
    for waiter in waiters { waiter.resume() }
  }
}
