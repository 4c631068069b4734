import ActorMVVM
import ActorMVVMOperators
import ActorMVVMTestSupport
import Testing

/// ActorMVVM's inline `map`, `filter` and `compactMap` (`ChainableAsyncSequence`).
@Suite("Inline map, filter and compactMap on ActorMVVM's sequences")
struct ChainableTests {
  @Test("A synchronous @Sendable closure selects the inline stage; an async one the standard library's")
  func overloadSelection() async {
    let relay = EventRelay<Int>()
    #expect(has(relay.values.map { $0 + 1 }, type: AsyncMappedSequence<EventRelay<Int>.Values, Int>.self))
    #expect(has(relay.values.filter { $0 > 0 }, type: AsyncFilteredSequence<EventRelay<Int>.Values>.self))
    #expect(
      has(
        relay.values.compactMap { $0 > 0 ? $0 : nil },
        type: AsyncCompactMappedSequence<EventRelay<Int>.Values, Int>.self))
    let chained = relay.values.map { $0 }.filter { _ in true }.compactMap { $0 }
    #expect(
      has(
        chained,
        type: AsyncCompactMappedSequence<AsyncFilteredSequence<AsyncMappedSequence<EventRelay<Int>.Values, Int>>, Int>
          .self))
    // An operator of ActorMVVMOperators chains inline too.
    #expect(
      relay.values.removeDuplicates().map { $0 }
        is AsyncMappedSequence<AsyncRemoveDuplicatesSequence<EventRelay<Int>.Values>, Int>)
    // An async transform is the standard library's, unchanged.
    #expect(has(relay.values.map { value async in value }, type: AsyncMapSequence<EventRelay<Int>.Values, Int>.self))
    // Another sequence keeps the standard library's.
    #expect(has([1].async.map { $0 }, type: AsyncMapSequence<AsyncStream<Int>, Int>.self))
  }

  @Test("Elements are transformed and filtered in order; the chain ends when its relay does")
  func elements() async {
    let relay = EventRelay<Int>()
    let chain = relay.values.map { $0 * 10 }.filter { $0 != 20 }.compactMap { $0 > 40 ? nil : "\($0)" }
    for value in 1...6 { relay.accept(value) }
    relay.finish()
    #expect(await Array(chain) == ["10", "30", "40"])
  }

  @Test("An error passes through every stage, typed, and the chain then ends as its base does")
  func errors() async {
    let chain = Failing(elements: [1, 2, 3], failsWith: .boom).map { $0 * 2 }.filter { $0 != 4 }.compactMap { $0 }
    let run = await drain(chain)
    #expect(run.elements == [2, 6] && run.error == .boom && run.afterwards == nil)
  }

  @Test("A cancelled consumer's chain over a relay ends at its next pull, backlog dropped")
  func cancellation() async {
    let relay = EventRelay<Int>()
    let chain = relay.values.map { $0 }.filter { _ in true }.compactMap { $0 }
    for value in 0..<10 { relay.accept(value) }
    let seen = await Task {
      var seen: [Int] = []
      for await value in chain {
        seen.append(value)
        withUnsafeCurrentTask { $0?.cancel() }
      }
      return seen
    }.value
    #expect(seen == [0])
    #expect(relay.subscriberCount == 0)
  }

  @Test("Over a state relay the stages replay: the current element transformed, or nil when filtered out")
  func replaying() async {
    let relay = StateRelay(3)
    #expect(relay.values.map { $0 * 2 }.currentElement == 6)
    #expect(relay.values.filter { $0 > 5 }.currentElement == nil)
    #expect(relay.values.filter { $0 > 2 }.currentElement == 3)
    #expect(relay.values.compactMap { $0 == 3 ? nil : $0 }.currentElement == nil)
    #expect(relay.values.compactMap { "\($0)" }.currentElement == "3")
  }

  @Test("withLatestFrom a mapped state relay pairs with its value at once, as Rx's BehaviorRelay.map replays")
  func withLatestFromMappedState() async {
    let taps = EventRelay<Void>()
    let name = StateRelay("alice")
    let greetings = taps.values.withLatestFrom(name.values.map { "hello, \($0)" })
    taps.accept(())
    taps.finish()
    var seen: [String] = []
    for await (_, greeting) in greetings { seen.append(greeting) }
    #expect(seen == ["hello, alice"])
  }
}
