import ActorMVVM
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
