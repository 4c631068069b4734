import ActorMVVM
import ActorMVVMOperators
import ActorMVVMTestSupport
import Testing

/// `AsyncJust` and the operators that take an `ImmediateAsyncSequence` without a task.
@Suite("Immediate sequences: AsyncJust inside flatMaps and combineLatest, no task")
struct ImmediateTests {
  @Test("A flatMap whose closure returns AsyncJust is the inline stage, for all four flatMaps")
  func overloadSelection() {
    let relay = EventRelay<Int>()
    typealias Inline = AsyncFlatMapImmediateSequence<EventRelay<Int>.Values, AsyncJust<Int>>
    #expect(has(relay.values.flatMapMerge { AsyncJust($0) }, type: Inline.self))
    #expect(has(relay.values.concatMap { AsyncJust($0) }, type: Inline.self))
    #expect(has(relay.values.flatMapFirst { AsyncJust($0) }, type: Inline.self))
    #expect(has(relay.values.flatMapLatest { AsyncJust($0) }, type: Inline.self))
    // Any other inner keeps the operator with tasks.
    #expect(
      has(
        relay.values.flatMapLatest { [$0].async },
        type: AsyncFlatMapLatestSequence<EventRelay<Int>.Values, AsyncStream<Int>>.self))
  }

  @Test("Every outer element's inner is emitted, as RxSwift's flatMapLatest and flatMapFirst do with just")
  func everyInnerEmits() async {
    let relay = EventRelay<Int>()
    let latest = relay.values.flatMapLatest { AsyncJust($0 * 10) }
    let first = relay.values.flatMapFirst { AsyncJust($0 + 1) }
    for value in 1...5 { relay.accept(value) }
    relay.finish()
    #expect(await Array(latest) == [10, 20, 30, 40, 50])
    #expect(await Array(first) == [2, 3, 4, 5, 6])
  }

  @Test("The outer's error is thrown, typed, after the elements before it; then nil forever")
  func outerError() async {
    let run = await drain(Failing(elements: [1, 2], failsWith: .boom).flatMapMerge { AsyncJust($0) })
    #expect(run.elements == [1, 2] && run.error == .boom && run.afterwards == nil)
  }

  @Test("A cancelled consumer stops at its next pull, even over an outer that ignores cancellation")
  func cancellation() async {
    #expect(await CancelledConsumerTests().elementsAfterCancelling(Stubborn().flatMapLatest { AsyncJust($0) }) == 0)
  }

  @Test("AsyncJust yields its element once per iterator, never suspending")
  func just() async {
    let just = AsyncJust("x")
    #expect(await Array(just) == ["x"])
    #expect(await Array(just) == ["x"])
    #expect(just.immediateElements == ["x"])
  }

  @Test("combineLatest with AsyncJust upstreams combines every element of the other, in order")
  func combineLatestWithJusts() async {
    let relay = EventRelay<Int>()
    let combined = combineLatest(AsyncJust(1), AsyncJust(2), AsyncJust(3), relay.values).map { $0 + $1 + $2 + $3 }
    // Before the relay's pump runs, the justs have been delivered: no
    // element of the relay is lost, whichever task runs first.
    for value in [10, 20, 30] { relay.accept(value) }
    relay.finish()
    #expect(await Array(combined) == [16, 26, 36])
  }

  @Test(
    "Four-way combineLatest with three AsyncJusts passes the fourth through, wherever it sits: every element, in order, then the end"
  )
  func fourWayPassThrough() async {
    func run(_ make: (EventRelay<Int>.Values) -> some AsyncSequence<Int, Never>) async -> [Int] {
      let relay = EventRelay<Int>()
      let combined = make(relay.values)
      for value in [10, 20, 30] { relay.accept(value) }
      relay.finish()
      return await Array(combined)
    }
    let (one, two, three) = (AsyncJust(1), AsyncJust(2), AsyncJust(3))
    #expect(
      await run { combineLatest($0, one, two, three).map { $0 * 1000 + $1 * 100 + $2 * 10 + $3 } } == [
        10123, 20123, 30123,
      ])
    #expect(
      await run { combineLatest(one, $0, two, three).map { $0 * 1000 + $1 * 100 + $2 * 10 + $3 } } == [
        2023, 3023, 4023,
      ])
    #expect(
      await run { combineLatest(one, two, $0, three).map { $0 * 1000 + $1 * 100 + $2 * 10 + $3 } } == [
        1303, 1403, 1503,
      ])
    #expect(
      await run { combineLatest(one, two, three, $0).map { $0 * 1000 + $1 * 100 + $2 * 10 + $3 } } == [
        1240, 1250, 1260,
      ])
    // Nested seven deep, as RxSwift's benchmark does: still every element.
    let relay = EventRelay<Int>()
    func level<S: AsyncSequence<Int, Never> & Sendable>(_ inner: S) -> some AsyncSequence<Int, Never> & Sendable {
      combineLatest(one, one, one, inner).map { _, _, _, x in x }
    }
    let nested = level(level(level(level(level(level(level(relay.values)))))))
    for value in 1...5 { relay.accept(value) }
    relay.finish()
    #expect(await Array(nested) == [1, 2, 3, 4, 5])
    // Two live upstreams: combined, not passed through.
    let (left, right) = (EventRelay<Int>(), EventRelay<Int>())
    let both = combineLatest(one, one, left.values, right.values).map { $2 + $3 }
    left.accept(1)
    left.finish()
    right.accept(10)
    right.finish()
    #expect(await Array(both) == [11])
  }

  @Test("Passing through, a cancelled consumer stops at its next pull, even over a stubborn upstream, wherever it sits")
  func fourWayPassThroughCancellation() async {
    let tester = CancelledConsumerTests()
    let one = AsyncJust(0)
    #expect(await tester.elementsAfterCancelling(combineLatest(Stubborn(), one, one, one).map { $0.0 }) == 0)
    #expect(await tester.elementsAfterCancelling(combineLatest(one, one, one, Stubborn()).map { $0.3 }) == 0)
  }

  @Test("With one upstream left to pull, a cancelled consumer stops at its next pull, even over a stubborn upstream")
  func inlineUpstreamCancellation() async {
    let tester = CancelledConsumerTests()
    #expect(await tester.elementsAfterCancelling(combineLatest(AsyncJust(0), Stubborn()).map { $1 }) == 0)
    #expect(await tester.elementsAfterCancelling(merge(AsyncJust(0), Stubborn())) == 0)
  }

  @Test("With one upstream left to pull, its end ends the operator as a pumped one's would")
  func inlineUpstreamEnds() async {
    let relay = EventRelay<Int>()
    let zipped = zip(AsyncJust(7), relay.values)
    let combined = combineLatest(AsyncJust(7), relay.values)
    relay.accept(1)
    relay.accept(2)
    relay.finish()
    #expect(await Array(zipped).map { $0 + $1 } == [8])
    #expect(await Array(combined).map { $0 + $1 } == [8, 9])
  }

  @Test("zip and merge take AsyncJust without a task: zip ends after one pair; merge emits it first")
  func zipAndMerge() async {
    let relay = EventRelay<Int>()
    let zipped = zip(AsyncJust(0), relay.values)
    let merged = merge(AsyncJust(0), relay.values)
    for value in [1, 2] { relay.accept(value) }
    relay.finish()
    #expect(await Array(zipped).map { "\($0)\($1)" } == ["01"])
    #expect(await Array(merged) == [0, 1, 2])
  }

  @Test(
    "merge and zip with one AsyncJust pass the other upstream through, wherever it sits; two live ones, or two justs, do not"
  )
  func zipAndMergePassThrough() async {
    func fed<S: AsyncSequence>(_ make: (EventRelay<Int>.Values) -> S) async -> (passing: S, relay: EventRelay<Int>) {
      let relay = EventRelay<Int>()
      return (make(relay.values), relay)
    }
    let just = AsyncJust(0)
    let (left, right) = (EventRelay<Int>(), EventRelay<Int>())
    #expect(merge(just, left.values).makeAsyncIterator().isPassingThrough)
    #expect(merge(left.values, just).makeAsyncIterator().isPassingThrough)
    #expect(zip(just, left.values).makeAsyncIterator().isPassingThrough)
    #expect(zip(left.values, just).makeAsyncIterator().isPassingThrough)
    #expect(!merge(left.values, right.values).makeAsyncIterator().isPassingThrough)
    #expect(!merge(just, just).makeAsyncIterator().isPassingThrough)
    #expect(!zip(left.values, right.values).makeAsyncIterator().isPassingThrough)
    #expect(!zip(just, just).makeAsyncIterator().isPassingThrough)
    // What each emits: the just's element first (merge), the one pair
    // (zip), then the end once the relay ends, as through the machine.
    let (mergedRight, relayOfRight) = await fed { merge(just, $0) }
    let (mergedLeft, relayOfLeft) = await fed { merge($0, just) }
    for relay in [relayOfRight, relayOfLeft] {
      for value in [1, 2, 3] { relay.accept(value) }
      relay.finish()
    }
    #expect(await Array(mergedRight) == [0, 1, 2, 3])
    #expect(await Array(mergedLeft) == [0, 1, 2, 3])
    let (zippedRight, relayRight) = await fed { zip(AsyncJust(7), $0) }
    let (zippedLeft, relayLeft) = await fed { zip($0, AsyncJust(7)) }
    for relay in [relayRight, relayLeft] {
      for value in [1, 2, 3] { relay.accept(value) }
      relay.finish()
    }
    #expect(await Array(zippedRight).map { "\($0)\($1)" } == ["71"])
    #expect(await Array(zippedLeft).map { "\($0)\($1)" } == ["17"])
    // An upstream that ends empty: nothing, then the end.
    let (emptyZip, emptyRelay) = await fed { zip(AsyncJust(7), $0) }
    emptyRelay.finish()
    #expect(await Array(emptyZip).isEmpty)
    // After the end, nil forever.
    let ended = EventRelay<Int>()
    var iterator = merge(just, ended.values).makeAsyncIterator()
    ended.finish()
    #expect(await iterator.next() == 0)
    #expect(await iterator.next() == nil)
    #expect(await iterator.next() == nil)
    #expect(!iterator.isPassingThrough)
  }

  @Test("Passing merge or zip through, a cancelled consumer stops at its next pull, wherever the just sits")
  func zipAndMergePassThroughCancellation() async {
    let tester = CancelledConsumerTests()
    let one = AsyncJust(0)
    #expect(await tester.elementsAfterCancelling(merge(Stubborn(), one)) == 0)
    #expect(await tester.elementsAfterCancelling(zip(one, Stubborn()).map { $1 }) == 0)
    #expect(await tester.elementsAfterCancelling(zip(Stubborn(), one).map { $0 }) == 0)
  }

  @Test("An array of AsyncJusts combines at once, with no task at all")
  func arrayOfJusts() async {
    #expect(await Array(combineLatest([AsyncJust(1), AsyncJust(2)])) == [[1, 2]])
    #expect(await Array(zip([AsyncJust(1), AsyncJust(2)])) == [[1, 2]])
    #expect(await Array(merge([AsyncJust(1), AsyncJust(2)])) == [1, 2])
  }
}
