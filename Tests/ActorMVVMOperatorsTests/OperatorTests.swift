import ActorMVVM
import ActorMVVMOperators
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

@Suite("Operators")
struct OperatorTests {
  @Test("combineLatest emits once both have produced, then on every element")
  func combineLatestEmits() async throws {
    let (a, ca) = AsyncStream<Int>.makeStream()
    let (b, cb) = AsyncStream<String>.makeStream()
    var iterator = combineLatest(a, b).makeAsyncIterator()
    ca.yield(1)
    cb.yield("x")
    var pair = await iterator.next()
    #expect(pair?.0 == 1 && pair?.1 == "x")
    ca.yield(2)
    pair = await iterator.next()
    #expect(pair?.0 == 2 && pair?.1 == "x")
    cb.yield("y")
    pair = await iterator.next()
    #expect(pair?.0 == 2 && pair?.1 == "y")
    ca.finish()
    cb.yield("z")
    pair = await iterator.next()
    #expect(pair?.0 == 2 && pair?.1 == "z")
    cb.finish()
    #expect(await iterator.next() == nil)
  }

  @Test("combineLatest throws the first upstream error")
  func combineLatestThrows() async throws {
    struct Failure: Error {}
    let (a, ca) = AsyncThrowingStream<Int, any Error>.makeStream()
    let (b, cb) = AsyncThrowingStream<Int, any Error>.makeStream()
    var iterator = combineLatest(a, b).makeAsyncIterator()
    ca.yield(1)
    cb.yield(2)
    #expect(try await iterator.next()?.0 == 1)
    cb.finish(throwing: Failure())
    await #expect(throws: Failure.self) { _ = try await iterator.next() }
    ca.finish()
  }

  @Test("combineLatest of three")
  func combineLatestThree() async {
    let (a, ca) = AsyncStream<Int>.makeStream()
    let (b, cb) = AsyncStream<Int>.makeStream()
    let (c, cc) = AsyncStream<Int>.makeStream()
    ca.yield(1)
    cb.yield(2)
    cc.yield(3)
    for continuation in [ca, cb, cc] { continuation.finish() }
    var triples: [String] = []
    for await (x, y, z) in combineLatest(a, b, c) { triples.append("\(x)\(y)\(z)") }
    #expect(triples == ["123"])
  }

  @Test("Cancelling the consumer cancels the upstream tasks")
  func combineLatestCancels() async {
    let drained = TestGate()
    let a = SignallingSequence(elements: [1], onDrained: { drained.open() })
    let b = SignallingSequence(elements: [2], onDrained: {})
    let consumer = Task {
      var count = 0
      for await _ in combineLatest(a, b) { count += 1 }
      return count
    }
    await drained.wait()
    consumer.cancel()
    #expect(await consumer.value <= 1)  // ended instead of hanging on the parked upstreams
  }

  @Test("withLatestFrom pairs with the latest other element and drops earlier taps")
  func withLatestFrom() async {
    let otherDrained = TestGate()
    let (taps, tapContinuation) = AsyncStream<Int>.makeStream()
    let other = SignallingSequence(elements: ["id", "id+pw"], onDrained: { otherDrained.open() })
    let paired = taps.withLatestFrom(other)
    let consumer = Task { await Array(paired).map { "\($0.0):\($0.1)" } }
    await otherDrained.wait()
    tapContinuation.yield(1)
    tapContinuation.yield(2)
    tapContinuation.finish()
    #expect(await consumer.value == ["1:id+pw", "2:id+pw"])
  }

  @Test("withLatestFrom drops every tap when the other side never produces")
  func withLatestFromNoOther() async {
    let other = AsyncStream<Int> { $0.finish() }
    let taps = AsyncStream<Int> { continuation in
      for value in 0..<5 { continuation.yield(value) }
      continuation.finish()
    }
    #expect(await Array(taps.withLatestFrom(other)).isEmpty)
  }

  @Test("removeDuplicates skips consecutive repeats only")
  func removeDuplicates() async {
    let values = [1, 1, 2, 2, 2, 1, 3, 3].async
    #expect(await Array(values.removeDuplicates()) == [1, 2, 1, 3])
  }

  @Test("flatMapLatest switches to the newest inner sequence; stale elements never surface")
  func flatMapLatest() async {
    let (outer, outerInput) = AsyncStream<Int>.makeStream()
    let mapped = outer.flatMapLatest { value -> AsyncStream<Int> in
      AsyncStream { continuation in
        if value == 1 {
          // An endless inner: superseded, it must stop surfacing.
          let task = Task {
            var next = 1_000
            while !Task.isCancelled {
              continuation.yield(next)
              next += 1
              await Task.yield()
            }
            continuation.finish()
          }
          continuation.onTermination = { _ in task.cancel() }
        } else {
          continuation.yield(value * 10)
          continuation.yield(value * 10 + 1)
          continuation.finish()
        }
      }
    }
    var iterator = mapped.makeAsyncIterator()
    outerInput.yield(1)
    #expect(await iterator.next() == 1_000)
    outerInput.yield(2)
    outerInput.finish()
    var rest: [Int] = []
    while let value = await iterator.next() { rest.append(value) }
    let switchPoint = rest.firstIndex(of: 20)
    #expect(switchPoint != nil)
    if let switchPoint {
      #expect(Array(rest[switchPoint...]) == [20, 21])
      #expect(rest[..<switchPoint].allSatisfy { $0 >= 1_000 })
    }
  }

  @Test("flatMapLatest under bursts: superseded inners may never start; order holds; the last inner is whole")
  func flatMapLatestBursts() async {
    for round in 0..<200 {
      let count = round * 37 % 60 + 1  // 1…60, varied
      let (outer, input) = AsyncStream<Int>.makeStream()
      for value in 0..<count { input.yield(value) }  // a burst, faster than any inner starts
      input.finish()
      let transformed = Locked(0)
      let values = await Array(
        outer.flatMapLatest { value in
          transformed.withLock { $0 += 1 }
          return [value, value, value].async
        })
      // Every outer element is transformed (Rx calls the selector for each) …
      #expect(transformed.withLock { $0 } == count)
      // … an inner's elements never follow a newer inner's, and the last inner is delivered whole.
      #expect(values == values.sorted())
      #expect(values.suffix(3) == Array(repeating: count - 1, count: 3))
    }
  }

  @Test("flatMapLatest finishes only after the outer and the current inner finish")
  func flatMapLatestFinishes() async {
    let outer = [1, 2].async
    let mapped = outer.flatMapLatest { value in [value, value].async }
    let values = await Array(mapped)
    #expect(values.suffix(2) == [2, 2])
  }
}
