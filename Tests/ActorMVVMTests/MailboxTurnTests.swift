import ActorMVVM
import ActorMVVMSupport
import Testing

/// The scheduled drain reduces in turns and gives the actor back between
/// them (`Feature.drainTurn()`, `Mailbox.push`; Guarantees, row 1).
@Suite("The drain gives its actor back between turns")
struct MailboxTurnTests {
  /// Every `.tick` sends the next one to the same feature from inside
  /// `reduce`: the ticks outstanding stay as many as were sent to start
  /// with, and the mailbox never empties.
  struct Looping: StateMachine {
    struct State: Equatable, Sendable { var ticks = 0 }
    enum Input: Sendable { case tick }
    typealias Output = Never
    /// The feature to send the next tick to, held weakly (the machine
    /// must not keep its own feature alive).
    let target = Target()
    /// Told once, at tick `signalAt`: the drain has taken turns by then.
    let looping: AsyncStream<Void>.Continuation
    let signalAt: Int

    final class Target: Sendable {
      struct Weak { weak var feature: Feature<Looping>? }
      let reference = Locked(Weak())
      func set(_ feature: Feature<Looping>) { reference.withLock { $0.feature = feature } }
      func send(_ input: Input) { reference.withLock { $0.feature }?.send(input) }
    }

    func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
      state.ticks += 1
      if state.ticks == signalAt { looping.yield() }
      target.send(.tick)
      return .none
    }
  }

  /// One tick outstanding: every batch is small, and a small batch ends
  /// the turn. A hundred: every batch (once the test's sends are in) is
  /// large, and the turn ends after `batchesPerTurn` of them.
  @Test(
    "A feature that never lets its mailbox empty does not hold its actor: finish() gets in between turns",
    .timeLimit(.minutes(1)), arguments: [1, 100])
  func finishGetsIn(outstanding: Int) async {
    let counters = LifetimeCounters()
    let (looping, loopingContinuation) = AsyncStream<Void>.makeStream()
    let machine = Looping(looping: loopingContinuation, signalAt: outstanding * 40)
    do {
      let feature = Feature(machine, initialState: .init(), counters: counters)
      machine.target.set(feature)
      for _ in 0..<outstanding { feature.send(.tick) }
      // The scheduled drain is looping now (finish() did not get in before
      // the drain ever ran). A drain that kept taking batches until the
      // mailbox was empty would never end, and finish() would never get
      // the actor.
      for await _ in looping { break }
      await feature.finish()
      // finish() reduced the ticks pending; the ticks those reductions sent
      // came after finish began, so they were dropped: one per tick
      // outstanding.
      #expect(await feature.state.ticks >= outstanding * 40)
      #expect(feature.droppedInputCount == outstanding)
    }
    // The drain's task ended too: it held no reference across its yields.
    await counters.waitForFeatures(atMost: 0)
    #expect(counters.features == 0)
  }

  /// Guarantee 6 with turns: the drain's task holds the feature only during
  /// a turn, never across the yield between turns, so a feature released
  /// while its drain loops is freed (its deinit closes the mailbox, and the
  /// next turn finds no feature).
  @Test(
    "A feature released while its drain loops is freed: the drain holds no reference across its yields",
    .timeLimit(.minutes(1)), arguments: [1, 100])
  func releasedWhileLooping(outstanding: Int) async {
    let counters = LifetimeCounters()
    let (looping, loopingContinuation) = AsyncStream<Void>.makeStream()
    let machine = Looping(looping: loopingContinuation, signalAt: outstanding * 40)
    do {
      let feature = Feature(machine, initialState: .init(), counters: counters)
      machine.target.set(feature)
      for _ in 0..<outstanding { feature.send(.tick) }
      for await _ in looping { break }
    }
    // The test's reference is gone; the loop would keep a drain that held
    // the feature between turns running, and the feature alive, forever.
    await counters.waitForFeatures(atMost: 0)
    #expect(counters.features == 0)
  }
}
