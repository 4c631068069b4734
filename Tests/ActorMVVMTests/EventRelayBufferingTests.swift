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
