import ActorMVVM
import Testing

@testable import ActorMVVMTesting

/// Waits a user calls never hang silently and never lose a wake-up.
@Suite("Waits return, and say why they gave up", .testBubble)
struct WaitTests {
  /// A machine whose one effect never ends, as a live query does.
  struct LiveQuery: StateMachine {
    struct State: Equatable, Sendable {}
    enum Input: Sendable, Equatable { case observe }
    typealias Output = Never
    enum CancelID: Hashable, Sendable { case postsQuery }
    func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
      .run(id: CancelID.postsQuery) { _ in
        // Until cancelled, as a database observation would.
        let (changes, continuation) = AsyncStream<Never>.makeStream()
        await withTaskCancellationHandler {
          for await _ in changes {}
        } onCancel: {
          continuation.finish()
        }
      }
    }
  }

  @Test("FeatureTester.settle() with an effect that never ends fails at its bound, naming the effect")
  func settleNamesTheNeverEndingEffect() async {
    let tester = FeatureTester(LiveQuery(), initialState: .init())
    await tester.send(.observe)
    await withKnownIssue {
      await tester.settle(timeout: .milliseconds(50))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("postsQuery") && $0.rawValue.contains("still running") }
    }
    await tester.cancelEffects()
  }

  @Test("A wait with a zero timeout returns at once, 10,000 times, however the deadline races registration")
  func zeroTimeoutNeverHangs() async {
    let log = TesterLog<LiveQuery>(.init())
    for _ in 0..<10_000 {
      #expect(await log.wait(after: 0, timeout: .zero) == false)
    }
    log.traced(.effect(.ended(run: 1, id: nil)))
    #expect(await log.wait(after: 0, timeout: .zero))
  }

  @Test("A message pushed while the deadline fires is never lost: every wait returns, 10,000 times")
  func pushRacingTheDeadline() async {
    for round in 0..<10_000 {
      let log = TesterLog<LiveQuery>(.init())
      let pusher = Task { log.traced(.effect(.ended(run: UInt64(round), id: nil))) }
      let got = await log.wait(after: 0, timeout: .microseconds(round % 3))
      await pusher.value
      // Either the event came in time, or it is there for the next look.
      let later = got ? true : await log.wait(after: 0, timeout: .zero)
      #expect(later)
    }
  }

  @Test("A wait returns when its task is cancelled")
  func cancelledWaitReturns() async {
    let log = TesterLog<LiveQuery>(.init())
    let waiter = Task { await log.wait(after: 0, timeout: .seconds(3600)) }
    waiter.cancel()
    #expect(await waiter.value == false)
  }

  @Test("LifetimeCounters.waitForFeatures returns when its task is cancelled, a feature still alive")
  func waitForFeaturesHonoursCancellation() async {
    let counters = LifetimeCounters()
    let feature = Feature(LiveQuery(), initialState: .init(), counters: counters)
    let waiter = Task { await counters.waitForFeatures(atMost: 0) }
    waiter.cancel()
    await waiter.value
    #expect(counters.features == 1)
    withExtendedLifetime(feature) {}
  }
}
