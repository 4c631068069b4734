import ActorMVVM
import ActorMVVMSupport
import Testing

@Suite("Relay stress")
struct RelayStressTests {
  @Test("Subscriber churn while 100,000 states flow: survivors end on the final state; the count returns to zero")
  func churn() async {
    let counters = LifetimeCounters()
    let relay = StateRelay(0, counters: counters)
    let total = 100_000
    let survivors = (0..<8).map { _ in
      let values = relay.values
      return Task {
        var last = -1
        for await value in values { last = value }
        return last
      }
    }
    let churners = (0..<1_000).map { index in
      let values = relay.values
      return Task {
        var seen = 0
        for await _ in values {
          seen += 1
          if seen > index % 5 { break }
        }
      }
    }
    for value in 1...total { relay.accept(value) }
    relay.finish()
    for churner in churners { await churner.value }
    for survivor in survivors { #expect(await survivor.value == total) }
    #expect(relay.subscriberCount == 0)
    #expect(counters.subscriptions == 0)
  }

  @Test("EventRelay under 8 concurrent producers: every subscriber gets every event, per-producer order kept")
  func eventFanIn() async {
    let relay = EventRelay<Int>()
    let subscribers = (0..<10).map { _ in
      let values = relay.values
      return Task {
        var next = Array(repeating: 0, count: 8)
        var ordered = true
        var count = 0
        for await event in values {
          let (producer, sequence) = event.quotientAndRemainder(dividingBy: 1_000_000)
          if next[producer] != sequence { ordered = false }
          next[producer] = sequence + 1
          count += 1
        }
        return (count, ordered)
      }
    }
    await withTaskGroup(of: Void.self) { group in
      for producer in 0..<8 {
        group.addTask {
          for sequence in 0..<10_000 { relay.accept(producer * 1_000_000 + sequence) }
        }
      }
    }
    relay.finish()
    for subscriber in subscribers {
      let (count, ordered) = await subscriber.value
      #expect(count == 80_000)
      #expect(ordered)
    }
  }
}

@Suite("Locked")
struct LockedStressTests {
  /// The proof obligation of `Locked`'s `@unchecked Sendable`: every access
  /// is serialised. Lost increments would show here, and under the thread
  /// sanitizer (Scripts/stress.sh) an unsynchronised access fails the run.
  @Test("8 tasks × 50,000 increments through one Locked: none lost")
  func noLostUpdates() async {
    let counter = Locked(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<50_000 { counter.withLock { $0 += 1 } } }
      }
    }
    #expect(counter.withLock { $0 } == 400_000)
  }
}
