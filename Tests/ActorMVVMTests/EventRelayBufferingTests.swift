import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

@Suite("EventRelay's buffering policy (issue #33, item 12)")
struct EventRelayBufferingTests {
  /// Accepts 1…5 while a subscriber reads nothing, then reads what it kept.
  func kept(_ policy: EventRelay<Int>.BufferingPolicy) async -> [Int] {
    let relay = EventRelay<Int>(counters: LifetimeCounters(), bufferingPolicy: policy)
    let values = relay.values
    for n in 1...5 { relay.accept(n) }
    relay.finish()
    var kept: [Int] = []
    for await n in values { kept.append(n) }
    return kept
  }

  @Test("Unbounded (the default) keeps every event")
  func unbounded() async {
    #expect(await kept(.unbounded) == [1, 2, 3, 4, 5])
    #expect(EventRelay<Int>().bufferingPolicy == .unbounded)
  }

  @Test("bufferingOldest keeps the first events of a full backlog")
  func oldest() async {
    #expect(await kept(.bufferingOldest(2)) == [1, 2])
    #expect(await kept(.bufferingOldest(1)) == [1])
  }

  @Test("bufferingNewest keeps the last events of a full backlog")
  func newest() async {
    #expect(await kept(.bufferingNewest(2)) == [4, 5])
    #expect(await kept(.bufferingNewest(1)) == [5])
  }

  @Test("The bound is per subscriber: a reader that keeps up loses nothing")
  func perSubscriber() async {
    let relay = EventRelay<Int>(counters: LifetimeCounters(), bufferingPolicy: .bufferingNewest(1))
    var fast = relay.values.makeAsyncIterator()
    let slow = relay.values
    var seen: [Int] = []
    for n in 1...3 {
      relay.accept(n)
      seen.append(await fast.next()!)
    }
    relay.finish()
    #expect(seen == [1, 2, 3])
    var late: [Int] = []
    for await n in slow { late.append(n) }
    #expect(late == [3])
  }

  @Test("A feature's outputs take a policy: a slow consumer keeps only the newest")
  func featureOutputs() async {
    struct Emitter: StateMachine {
      typealias State = Int
      func reduce(into state: inout Int, _ input: Int) -> Effect<Int, Int> { .emit(input) }
    }
    let feature = Feature(
      Emitter(), initialState: 0, counters: LifetimeCounters(), outputBuffering: .bufferingNewest(2))
    let outputs = feature.outputs
    for n in 1...5 { feature.send(n) }
    await feature.finish()
    var kept: [Int] = []
    for await n in outputs { kept.append(n) }
    #expect(kept == [4, 5])
  }
}

/// A bounded policy against `AsyncStream`'s of the same name, with the
/// subscriber parked when the events arrive: the first event goes straight
/// to the waiting consumer and does not count against the bound.
///
/// The expected values are `AsyncStream`'s: it resumes a waiting consumer
/// with the element directly and buffers only what comes after. (An
/// `AsyncStream` consumer's `next` leaves the caller's actor before it
/// parks, so the same harness cannot order one deterministically; it
/// printed these values whenever the consumer was parked in time.)
///
/// Deterministic: the consumer and the producer run on one actor. The
/// consumer opens `parked` and parks in the same job (its `next` is isolated
/// to the actor: no hop), so the producer, waiting on `parked`, reaches the
/// actor only once the consumer has parked; and the consumer, resumed by
/// the first event, runs only once the producer's job has given all five.
@Suite("EventRelay's bounded policies match AsyncStream's (issue #47)")
struct EventRelayParkedBufferingTests {
  actor Stage {
    func consume<S: AsyncSequence<Int, Never> & Sendable>(_ sequence: S, parked: TestGate) async -> [Int] {
      var seen: [Int] = []
      parked.open()
      for await n in sequence { seen.append(n) }
      return seen
    }

    func produce(_ body: @Sendable () -> Void) { body() }
  }

  func delivered<S: AsyncSequence<Int, Never> & Sendable>(
    _ sequence: S, produce: @escaping @Sendable () -> Void
  ) async -> [Int] {
    let (stage, parked) = (Stage(), TestGate())
    async let seen = stage.consume(sequence, parked: parked)
    await parked.wait()
    await stage.produce(produce)
    return await seen
  }

  func relayDelivers(_ policy: EventRelay<Int>.BufferingPolicy) async -> [Int] {
    let relay = EventRelay<Int>(counters: LifetimeCounters(), bufferingPolicy: policy)
    return await delivered(relay.values) {
      for n in 1...5 { relay.accept(n) }
      relay.finish()
    }
  }

  /// A policy by its shared name: its bound, `nil` for unbounded.
  enum Policy: Sendable, CustomTestStringConvertible {
    case newest(Int), oldest(Int), unbounded
    var relay: EventRelay<Int>.BufferingPolicy {
      switch self {
      case .newest(let n): .bufferingNewest(n)
      case .oldest(let n): .bufferingOldest(n)
      case .unbounded: .unbounded
      }
    }
    var testDescription: String { "\(self)" }
  }

  @Test(
    "The handed-off event, then what the bound keeps of the backlog",
    arguments: [
      (Policy.newest(2), [1, 4, 5]), (.newest(1), [1, 5]), (.oldest(2), [1, 2, 3]), (.oldest(1), [1, 2]),
      (.unbounded, [1, 2, 3, 4, 5]),
    ])
  func parked(_ policy: Policy, expected: [Int]) async {
    let relay = await relayDelivers(policy.relay)
    #expect(relay == expected)
  }
}

/// One subscriber driven step by step, the same script against
/// `AsyncStream` and an `EventRelay` of the same policy: after each step the
/// test bubble is idle, so the consumer has its element or is parked
/// (issue #61, item 3). Producer and consumer share the main actor, so a
/// step's accepts are never interleaved with the consumer: the order is
/// the script's, on every run.
@MainActor
@Suite("EventRelay's bounded policies are AsyncStream's, script by script", .testBubble)
struct EventRelayScriptTests {
  enum Step: Sendable, CustomStringConvertible {
    /// The producer accepts (yields) these, in order.
    case accept([Int])
    /// The consumer asks for one element (it gets one, or parks).
    case next

    var description: String {
      switch self {
      case .accept(let values): "accept\(values)"
      case .next: "next"
      }
    }
  }

  /// What a subscriber received, and how many events its bound dropped.
  struct Delivery: Equatable, CustomStringConvertible {
    var values: [Int]
    var dropped: Int
    var description: String { "\(values) with \(dropped) dropped" }
  }

  /// Runs `script` with `consume` iterating in a task of the bubble, then
  /// ends the producer and lets the consumer drain.
  static func run(
    _ script: [Step], produce: @escaping @Sendable (Int) -> Void, finish: @escaping @Sendable () -> Void,
    consume: @escaping @MainActor @Sendable (AsyncStream<Void>, @escaping @Sendable (Int?) -> Void) async -> Int
  ) async -> Delivery {
    let clock = TestClock()
    let (commands, command) = AsyncStream.makeStream(of: Void.self)
    let received = Locked<[Int]>([])
    let record: @Sendable (Int?) -> Void = { value in if let value { received.withLock { $0.append(value) } } }
    // Made on the main actor (the suite's), the task runs there.
    let consumer = TestBubble.task { await consume(commands, record) }
    await clock.settle()
    for step in script {
      switch step {
      case .accept(let values): for value in values { produce(value) }
      case .next: command.yield()
      }
      await clock.settle()
    }
    finish()
    command.finish()
    let dropped = await consumer.value
    return Delivery(values: received.withLock { $0 }, dropped: dropped)
  }

  /// The script against `AsyncStream` with `policy`.
  static func asyncStream(_ script: [Step], _ policy: AsyncStream<Int>.Continuation.BufferingPolicy) async -> Delivery {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: policy)
    let dropped = Locked(0)
    var delivery = await run(
      script,
      produce: { value in
        if case .dropped = continuation.yield(value) { dropped.withLock { $0 += 1 } }
      },
      finish: { continuation.finish() },
      consume: { commands, record in
        var iterator = stream.makeAsyncIterator()
        for await _ in commands { record(await iterator.next()) }
        while let value = await iterator.next() { record(value) }
        return 0
      })
    delivery.dropped = dropped.withLock { $0 }
    return delivery
  }

  /// The script against an `EventRelay` with `policy`.
  static func relay(_ script: [Step], _ policy: EventRelay<Int>.BufferingPolicy) async -> Delivery {
    let relay = EventRelay<Int>(counters: LifetimeCounters(), bufferingPolicy: policy)
    let values = relay.values
    return await run(
      script, produce: { relay.accept($0) }, finish: { relay.finish() },
      consume: { commands, record in
        var iterator = values.makeAsyncIterator()
        for await _ in commands { record(await iterator.next()) }
        while let value = await iterator.next() { record(value) }
        return iterator.droppedCount
      })
  }

  /// A seeded script: accepts of one to three events and nexts, mixed.
  static func script(seed: UInt64) -> [Step] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    func random(_ bound: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(bound))
    }
    var next = 1
    return (0..<12).map { _ in
      guard random(2) == 0 else { return .next }
      let count = 1 + random(3)
      defer { next += count }
      return .accept(Array(next..<(next + count)))
    }
  }

  @Test("The issue's script: 1 handed to the parked consumer, 2 waiting when 3 to 6 arrive")
  func theIssuesScript() async {
    let script: [Step] = [.next, .accept([1, 2]), .accept([3, 4, 5, 6])]
    let stream = await Self.asyncStream(script, .bufferingNewest(2))
    #expect(stream == Delivery(values: [1, 5, 6], dropped: 3))
    #expect(await Self.relay(script, .bufferingNewest(2)) == stream)
  }

  @Test(
    "100 seeded scripts per bound, newest and oldest: the same elements and drop counts",
    arguments: [1, 2, 3])
  func seededScripts(bound: Int) async {
    for seed in UInt64(1)...100 {
      let script = Self.script(seed: seed)
      let newest = await Self.asyncStream(script, .bufferingNewest(bound))
      let relayNewest = await Self.relay(script, .bufferingNewest(bound))
      #expect(relayNewest == newest, "bufferingNewest(\(bound)), \(script)")
      let oldest = await Self.asyncStream(script, .bufferingOldest(bound))
      let relayOldest = await Self.relay(script, .bufferingOldest(bound))
      #expect(relayOldest == oldest, "bufferingOldest(\(bound)), \(script)")
    }
  }
}
