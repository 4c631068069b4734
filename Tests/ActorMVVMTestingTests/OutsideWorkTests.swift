import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import Dispatch
import Testing

/// Starts a task (in the bubble, if the caller is in one) that awaits a
/// Dispatch callback due in 300 ms inside `withOutsideWork`; returns whether
/// it had gone on when `settle()` returned.
func callbackAwaitedInOutsideWorkLanded() async -> Bool {
  let landed = Locked(false)
  let task = TestBubble.task {
    await withOutsideWork {
      await withCheckedContinuation { (callback: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { callback.resume() }
      }
    }
    landed.withLock { $0 = true }
  }
  #expect(await TestClock().settle())
  let seen = landed.withLock { $0 }
  await task.value
  return seen
}

/// Outside work holds virtual time's idle open, in the tier each test is in.
@Suite("withOutsideWork: a callback the count cannot see is waited for", .testBubble)
struct OutsideWorkTests {
  @Test("A Dispatch callback awaited inside withOutsideWork has landed when settle() returns")
  func held() async {
    let landed = await callbackAwaitedInOutsideWorkLanded()
    #expect(landed, "settle() took the wait for the callback for idle")
  }

  @Test(
    "Without it the same wait is idle: settle() returns while the callback is pending (what withOutsideWork is for)")
  func notHeld() async {
    let landed = Locked(false)
    let pending = Locked<CheckedContinuation<Void, Never>?>(nil)
    let task = TestBubble.task {
      await withCheckedContinuation { (callback: CheckedContinuation<Void, Never>) in
        pending.withLock { $0 = callback }
      }
      landed.withLock { $0 = true }
    }
    #expect(await TestClock().settle())
    #expect(!landed.withLock { $0 })
    pending.withLock { $0 }?.resume()  // registered before the task parked, so before settle() returned
    await task.value
  }

  @Test("Outside work that ends by throwing stops counting: the next settle() returns")
  func endsByThrowing() async {
    struct Failed: Error {}
    await #expect(throws: Failed.self) {
      try await withOutsideWork { () async throws(Failed) in throw Failed() }
    }
    #expect(await TestClock().settle())
  }
}

/// A callback from a thread with no task (a Dispatch queue, a delegate) that
/// sends a feature an input: the drain it starts is the bubble's, because the
/// feature was made in the bubble.
@Suite("withOutsideWork: a Dispatch callback that sends an input", .testBubble)
struct OutsideWorkSendTests {
  private struct Tally: StateMachine {
    enum Input: Sendable { case add }
    typealias Output = Never
    func reduce(into state: inout Int, _ input: Input) -> Effect<Input, Never> {
      state += 1
      return .none
    }
  }

  @Test("A callback that sends inside withOutsideWork: settle() returns only after the input is reduced")
  func callbackSends() async {
    let feature = Feature(Tally(), initialState: 0)
    let task = TestBubble.task {
      await withOutsideWork {
        await withCheckedContinuation { (callback: CheckedContinuation<Void, Never>) in
          DispatchQueue.global().async {
            feature.send(.add)
            callback.resume()
          }
        }
      }
    }
    #expect(await TestClock().settle())
    #expect(await feature.state == 1, "settle() returned before the callback's input was reduced")
    await task.value
    await feature.finish()
  }
}
