import ActorMVVM
import ActorMVVMTestSupport
import Testing

@Suite("Relays")
struct RelayTests {
  let counters = LifetimeCounters()

  @Test("StateRelay replays the current value, then conflates to the latest")
  func stateRelayConflates() async {
    let relay = StateRelay(0, counters: counters)
    var iterator = relay.values.makeAsyncIterator()
    for value in 1...100 { relay.accept(value) }
    #expect(await iterator.next() == 100)  // skipped straight to the latest
    relay.accept(101)
    #expect(await iterator.next() == 101)
    relay.finish()
    #expect(await iterator.next() == nil)
    #expect(relay.value == 101)
  }

  @Test("StateRelay: a subscriber after finish gets the final value, then ends")
  func stateRelayAfterFinish() async {
    let relay = StateRelay("a", counters: counters)
    relay.accept("b")
    relay.finish()
    relay.accept("c")
    #expect(await Array(relay.stream) == ["b"])
  }

  @Test("StateRelay: a reader that keeps reading ends on the final value under concurrent writers")
  func stateRelayEndsOnFinal() async {
    let relay = StateRelay(0, counters: counters)
    let reader = Task {
      var last = -1
      var increasing = true
      for await value in relay.stream {
        if value < last { increasing = false }
        last = value
      }
      return (last, increasing)
    }
    for value in 1...20_000 { relay.accept(value) }
    relay.finish()
    let (last, increasing) = await reader.value
    #expect(last == 20_000)
    #expect(increasing)
  }

  @Test("EventRelay is lossless and ordered per subscriber, with no replay")
  func eventRelayLossless() async {
    let relay = EventRelay<Int>(counters: counters)
    relay.accept(-1)  // before anyone subscribed: nobody gets it
    let a = relay.values
    let b = relay.stream
    for value in 0..<10_000 { relay.accept(value) }
    relay.finish()
    #expect(await Array(a) == Array(0..<10_000))
    #expect(await Array(b) == Array(0..<10_000))
  }

  @Test("EventRelay delivers to a subscriber that is waiting")
  func eventRelayWakesWaiter() async {
    let relay = EventRelay<Int>(counters: counters)
    let values = relay.values
    let reader = Task { await Array(values) }
    relay.accept(1)
    relay.accept(2)
    relay.finish()
    #expect(await reader.value == [1, 2])
  }

  @Test("10,000 subscribe/cancel cycles leave no subscriber behind")
  func subscriptionChurn() async {
    let state = StateRelay(0, counters: counters)
    let events = EventRelay<Int>(counters: counters)
    for cycle in 0..<10_000 {
      switch cycle % 4 {
      case 0:
        _ = state.values  // dropped without iterating
        _ = events.stream
      case 1:
        var iterator = state.values.makeAsyncIterator()
        _ = await iterator.next()
      case 2:
        // Cancelled while waiting.
        let values = events.values
        let task = Task { await Array(values) }
        task.cancel()
        _ = await task.value
      default:
        let stream = state.stream
        let task = Task { for await _ in stream {} }
        task.cancel()
        await task.value
      }
      events.accept(cycle)
    }
    #expect(state.subscriberCount == 0)
    #expect(events.subscriberCount == 0)
    #expect(counters.subscriptions == 0)
  }

  @Test("A cancelled subscriber ends without waiting for the relay")
  func cancelledSubscriberEnds() async {
    let relay = EventRelay<Int>(counters: counters)
    let values = relay.values
    let task = Task { await Array(values) }
    task.cancel()
    #expect(await task.value == [])
    #expect(relay.subscriberCount == 0)
  }
}
