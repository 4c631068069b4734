import ActorMVVM
import ActorMVVMOperators
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// A replaying upstream whose iteration is slow to hand its current element
/// over (a pump that has not run yet, under load): it has `current` now,
/// but its iterator returns it only after 1 s on `clock`, then stays
/// silent until cancelled.
struct SlowReplay: ReplayingAsyncSequence, Sendable {
  typealias Element = Int
  typealias Failure = Never
  let current: Int
  let clock: TestClock
  var currentElement: Int? { current }
  func makeAsyncIterator() -> Iterator { Iterator(current: current, clock: clock) }
  struct Iterator: AsyncIteratorProtocol {
    var current: Int?
    let clock: TestClock
    mutating func next() async -> Int? {
      do { try await clock.sleep(for: current == nil ? .seconds(3600) : .seconds(1)) } catch { return nil }
      defer { current = nil }
      return current
    }
  }
}

/// 1 at once; the second pull opens `pulled`, then answers 2 only when
/// `answer` opens, ignoring cancellation: a stubborn, late upstream.
struct LateAnswer: AsyncSequence, Sendable {
  typealias Element = Int
  typealias Failure = Never
  let pulled: TestGate
  let answer: TestGate
  func makeAsyncIterator() -> Iterator { Iterator(pulled: pulled, answer: answer) }
  struct Iterator: AsyncIteratorProtocol {
    let pulled: TestGate
    let answer: TestGate
    var count = 0
    mutating func next() async -> Int? {
      count += 1
      if count == 2 {
        pulled.open()
        await answer.wait()
      }
      return count
    }
  }
}

extension LateAnswer {
  /// Three `next()`s of `make(LateAnswer)` by a consumer cancelled while
  /// its pull of the late 2 waits (the answer comes after the cancellation).
  static func cancelledWhileSecondWaits<S: AsyncSequence<Int, Never> & Sendable>(
    _ make: @escaping @Sendable (LateAnswer) -> S
  ) async -> [Int?] {
    let (pulled, answer) = (TestGate(), TestGate())
    let sequence = make(LateAnswer(pulled: pulled, answer: answer))
    let consumer = TestBubble.task {
      var iterator = sequence.makeAsyncIterator()
      var seen: [Int?] = []
      for _ in 0..<3 { seen.append(await iterator.next(isolation: nil)) }
      return seen
    }
    await pulled.wait()
    consumer.cancel()
    answer.open()
    return await consumer.value
  }
}

/// Rx subscribes in argument order, and a `BehaviorRelay` emits inside
/// `subscribe`: operators over a replaying upstream keep that order
/// whatever the threads do (issue #47).
@Suite("Operators over replaying upstreams keep Rx's subscription order (issue #47)", .testBubble)
struct ReplayOrderTests {
  @Test("merge(replaying, just) begins with the replayed element, as Rx; merge(just, replaying) with the just's")
  func mergeReplayingThenJust() async {
    let relay = StateRelay(5)
    relay.finish()  // a later subscription gets 5, then the end
    #expect(await Array(merge(relay.values, AsyncJust(0))) == [5, 0])
    #expect(await Array(merge(AsyncJust(0), relay.values)) == [0, 5])
  }

  @Test("sample: the sampler is iterated once a replaying source's current element is in")
  func sampleReplayingSource() async {
    let clock = TestClock()
    let sampled = SlowReplay(current: 5, clock: clock).sample(StateRelay(0).values, defaultValue: -1)
    let consumer = TestBubble.task {
      var iterator = sampled.makeAsyncIterator()
      return await iterator.next()
    }
    await clock.advance(by: .seconds(1), expectingSleepers: 1)
    #expect(await consumer.value == 5)
  }

  @Test("take(until:): a replaying trigger ends it before any element of the source")
  func takeUntilReplayingTrigger() async {
    let trigger = SlowReplay(current: 0, clock: TestClock())
    var iterator = StateRelay(5).values.take(until: trigger).makeAsyncIterator()
    #expect(await iterator.next() == nil)
    #expect(await iterator.next() == nil)
  }

  @Test("sample over two finished relays: the source's value, then the end, whichever pump runs first")
  func sampleFinishedRelays() async {
    let (source, sampler) = (StateRelay(5), StateRelay(0))
    source.finish()
    sampler.finish()
    #expect(await Array(source.values.sample(sampler.values)) == [5])
  }

  @Test("take(until:) under a replaying relay: nothing of the source, whichever pump runs first")
  func takeUntilReplayingRelay() async {
    let source = StateRelay(5)
    source.finish()
    let trigger = StateRelay(0)
    #expect(await Array(source.values.take(until: trigger.values)) == [])
  }

  @Test(
    "sample: the sampler's end handled before the source's still finishes, with what came since",
    .timeLimit(.minutes(1)))
  func sampleEndsOutOfOrder() async {
    let clock = TestClock()
    let (source, feed) = AsyncStream<Int>.makeStream()
    let sampler = EventRelay<Int>()
    sampler.finish()
    let sampled = source.sample(sampler.values)
    let consumer = TestBubble.task { await Array(sampled) }
    await clock.settle()  // the sampler's end is handled
    feed.yield(7)
    feed.finish()
    #expect(await consumer.value == [7])
  }

  @Test(
    "Passing through, a consumer cancelled while it waits gets nil, not the late answer: combineLatest, merge, zip")
  func passThroughCancelledWhileWaiting() async {
    let one = AsyncJust(0)
    #expect(await LateAnswer.cancelledWhileSecondWaits { combineLatest(one, one, one, $0).map(\.3) } == [1, nil, nil])
    #expect(await LateAnswer.cancelledWhileSecondWaits { merge($0, one) } == [0, 1, nil])
    #expect(await LateAnswer.cancelledWhileSecondWaits { zip(one, $0).map(\.1) } == [1, nil, nil])
  }
}

/// Rx's subscription order through operators over a replaying upstream
/// (issue #61, item 5): an operator that emits inside `subscribe` when its
/// upstream does is replaying too, whatever wraps it.
@Suite("Replay order survives composition (issue #61, item 5)", .testBubble)
struct ComposedReplayOrderTests {
  @Test("merge(merge(relay, just 1), just 2) is 5, 1, 2, as RxSwift")
  func nestedMerge() async {
    let relay = StateRelay(5)
    relay.finish()
    #expect(await Array(merge(merge(relay.values, AsyncJust(1)), AsyncJust(2))) == [5, 1, 2])
    #expect(await Array(merge(AsyncJust(2), merge(relay.values, AsyncJust(1)))) == [2, 5, 1])
  }

  @Test("merge(relay.removeDuplicates(), just 0) is 5, 0; over map and prepend too")
  func operatorsOverAReplayingRelay() async {
    let relay = StateRelay(5)
    relay.finish()
    #expect(await Array(merge(relay.values.removeDuplicates(), AsyncJust(0))) == [5, 0])
    #expect(await Array(merge(relay.values.map { $0 * 10 }, AsyncJust(0))) == [50, 0])
    #expect(await Array(merge(EventRelay<Int>().values.prepend(7), AsyncJust(0)).prefix(2)) == [7, 0])
  }

  @Test("take(until:) with relay.removeDuplicates() as its trigger lets nothing through: 400 tries")
  func takeUntilDeduplicatedTrigger() async {
    var leaked = 0
    for _ in 0..<400 {
      let source = StateRelay(5)
      source.finish()
      let trigger = StateRelay(0)
      if await Array(source.values.take(until: trigger.values.removeDuplicates())) != [] { leaked += 1 }
    }
    #expect(leaked == 0)
  }
}
