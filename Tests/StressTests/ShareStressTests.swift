import ActorMVVM
import ActorMVVMOperators
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

@Suite("share(replay:) stress", .testBubble)
struct ShareStressTests {
  @Test(
    "Subscribers churn while 50,000 elements flow: the ones that stay get every element in order; the upstream ends")
  func churn() async {
    let relay = EventRelay<Int>()
    let shared = relay.values.share(replay: 2)
    let stayers = (0..<4).map { _ in shared.makeAsyncIterator() }
    let total = 50_000
    let survivors = stayers.map { iterator in
      TestBubble.task {
        var (iterator, expected, ordered) = (iterator, 0, true)
        while let value = await iterator.next() {
          if value != expected { ordered = false }
          expected = value + 1
        }
        return (expected, ordered)
      }
    }
    let churners = (0..<500).map { index in
      TestBubble.task {
        var seen = 0
        for await _ in shared {
          seen += 1
          if seen > index % 7 { break }
        }
      }
    }
    // Let the first next() connect the upstream before anything is sent.
    await TestClock().settle()
    for value in 0..<total { relay.accept(value) }
    relay.finish()
    for churner in churners { await churner.value }
    for survivor in survivors {
      let (last, ordered) = await survivor.value
      #expect(last == total)
      #expect(ordered)
    }
    #expect(relay.subscriberCount == 0)
  }

  @Test(
    "Connect and disconnect race: 4 tasks × 300 rounds of subscribe, take one, drop; no upstream iteration outlives them"
  )
  func connectDisconnect() async {
    let upstream = Upstream()
    let shared = upstream.share(replay: 1)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<300 {
            var iterator = shared.makeAsyncIterator()
            _ = await iterator.next()
          }
        }
      }
    }
    await TestClock().settle()
    #expect(upstream.running == 0)
  }
}

/// An endless upstream counting its running iterations.
struct Upstream: AsyncSequence, Sendable {
  let counter = Locked(0)
  var running: Int { counter.withLock { $0 } }

  final class Iterator: AsyncIteratorProtocol {
    let counter: Locked<Int>
    var value = 0
    init(counter: Locked<Int>) {
      self.counter = counter
      counter.withLock { $0 += 1 }
    }
    deinit { counter.withLock { $0 -= 1 } }
    func next() async -> Int? {
      await Task.yield()
      if Task.isCancelled { return nil }
      value += 1
      return value
    }
  }

  func makeAsyncIterator() -> Iterator { Iterator(counter: counter) }
}
