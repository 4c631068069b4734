import ActorMVVM

/// How many outputs a listener has handled, and who waits for more.
final class OutputProgress: Sendable {
  private let state = Locked<(handled: Int, waiters: [(Int, CheckedContinuation<Void, Never>)])>((0, []))

  func handledOne() {
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.handled &+= 1
      let handled = state.handled
      let ready = state.waiters.filter { $0.0 <= handled }.map(\.1)
      state.waiters.removeAll { $0.0 <= handled }
      return ready
    }
    for waiter in ready { waiter.resume() }
  }

  /// Returns once `count` outputs have been handled, or the listener ended.
  func wait(until count: Int) async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state -> Bool in
        if state.handled >= count { return true }
        state.waiters.append((count, continuation))
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// Releases every waiter (the listener is gone).
  func close() {
    let waiters = state.withLock { state in
      state.handled = .max / 2
      defer { state.waiters = [] }
      return state.waiters.map(\.1)
    }
    for waiter in waiters { waiter.resume() }
  }
}
