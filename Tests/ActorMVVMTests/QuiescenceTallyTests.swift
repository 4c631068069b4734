import Testing

@testable import ActorMVVMJobCount

/// The stall tally (`Quiescence.watch`): enqueues are counted by task only
/// while a waiter that has lasted a while is still waiting. Before this
/// test, a waiter that reached idle left the tally running until its
/// two-minute bound, and overlapping waits kept it from ever being cleared:
/// in a long repetition run it grew with every task in the process and each
/// bound sorted it under the global lock, until the process crawled.
@Suite("Quiescence's stall tally")
struct QuiescenceTallyTests {
  @Test("A waiter released by idle stops the tally it started, and the tally is cleared")
  func tallyEndsWithItsWaiter() async {
    let verdict = await withUnsafeContinuation { (continuation: UnsafeContinuation<Quiescence.Idle, Never>) in
      var state = Quiescence.State()
      state.runnable = 1
      state.waiters[1] = Quiescence.Waiter(timers: [], continuation: continuation)
      let started = state.startSampling(1)
      #expect(started)
      state.tally[7, default: 0] += 3
      state.runnable = 0
      let ready = state.releaseQuietWaiters()
      #expect(ready.count == 1)
      #expect(state.sampling == 0)
      #expect(state.tally.isEmpty)
      for waiter in ready { waiter.resume(returning: .idle) }
    }
    #expect(verdict == .idle)
  }

  @Test("Sampling starts once per waiter still waiting; a waiter removed twice stops it once")
  func tallyRunsWhileAnySamplerWaits() async {
    let verdict = await withUnsafeContinuation { (first: UnsafeContinuation<Quiescence.Idle, Never>) in
      var state = Quiescence.State()
      state.runnable = 1
      state.waiters[1] = Quiescence.Waiter(timers: [], continuation: first)
      let started = state.startSampling(1)
      let startedForNobody = state.startSampling(2)  // no such waiter: nothing starts
      #expect(started)
      #expect(!startedForNobody)
      #expect(state.sampling == 1)
      state.tally[7, default: 0] += 1
      let removed = state.removeWaiter(1)
      let removedAgain = state.removeWaiter(1)
      #expect(removed != nil)
      #expect(removedAgain == nil)
      #expect(state.sampling == 0)
      #expect(state.tally.isEmpty)
      removed?.continuation.resume(returning: .cancelled)
    }
    #expect(verdict == .cancelled)
  }
}
