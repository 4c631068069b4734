import ActorMVVM
import ActorMVVMOperators
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// The runtime's edges as a migrating Rx user meets them: operators after
/// an error, relay sequences under cancellation, more than one iterator.
@Suite("Operators and relays: edges")
struct RelayAndOperatorEdgeTests {
  struct Boom: Error {}

  @Test("withLatestFrom(StateRelay.values) pairs every element, as Rx's BehaviorRelay does", arguments: 0..<50)
  func withLatestFromStateRelay(_ run: Int) async {
    let relay = StateRelay(run)
    let pairs = await Array([1, 2, 3].async.withLatestFrom(relay.values))
    #expect(pairs.map(\.0) == [1, 2, 3])
    #expect(pairs.map(\.1) == [run, run, run])
  }

  @Test("withLatestFrom(combineLatest(relays)) pairs from the first element: the README's login shape")
  func withLatestFromCombinedRelays() async {
    let id = StateRelay("alice")
    let password = StateRelay("secret")
    let taps = [1, 2].async.withLatestFrom(combineLatest(id.values, password.values))
    let pairs = await Array(taps)
    #expect(pairs.map { "\($0.0):\($0.1.0)/\($0.1.1)" } == ["1:alice/secret", "2:alice/secret"])
  }

  @Test("After an operator throws, next() returns nil, even with elements left over")
  func nilForeverAfterThrow() async throws {
    func drain<S: AsyncSequence>(_ sequence: S) async -> (values: Int, threw: Bool, after: [Bool]) {
      var iterator = sequence.makeAsyncIterator()
      var values = 0
      var threw = false
      do {
        while try await iterator.next() != nil { values += 1 }
      } catch { threw = true }
      var after: [Bool] = []
      for _ in 0..<3 { after.append((try? await iterator.next()) == nil) }
      return (values, threw, after)
    }
    let (a, ca) = AsyncThrowingStream<Int, any Error>.makeStream()
    let (b, cb) = AsyncThrowingStream<Int, any Error>.makeStream()
    ca.yield(1)
    for value in 0..<500 { cb.yield(value) }
    ca.finish(throwing: Boom())
    let combined = await drain(combineLatest(a, b))
    #expect(combined.threw && combined.after == [true, true, true])

    let (taps, ct) = AsyncThrowingStream<Int, any Error>.makeStream()
    let (other, co) = AsyncThrowingStream<Int, any Error>.makeStream()
    co.yield(0)
    for value in 0..<500 { ct.yield(value) }
    co.finish(throwing: Boom())
    let latest = await drain(taps.withLatestFrom(other))
    #expect(latest.threw && latest.after == [true, true, true])
    ct.finish()

    let (outer, cOuter) = AsyncThrowingStream<Int, any Error>.makeStream()
    for value in 0..<50 { cOuter.yield(value) }
    cOuter.finish(throwing: Boom())
    let switched = await drain(outer.flatMapLatest { value in [value, value].async.map { $0 } })
    #expect(switched.threw && switched.after == [true, true, true])
  }

  @Test("A cancelled EventRelay consumer stops at its next next(), backlog or not")
  func eventRelayCancelledWithBacklog() async {
    let relay = EventRelay<Int>()
    let values = relay.values
    let stream = relay.stream
    for event in 0..<10_000 { relay.accept(event) }
    let received = await Task {
      var count = 0
      for await _ in values {
        count += 1
        if count == 1 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return count
    }.value
    #expect(received == 1)
    let receivedFromStream = await Task {
      var count = 0
      for await _ in stream {
        count += 1
        if count == 1 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return count
    }.value
    #expect(receivedFromStream == 1)
    #expect(relay.subscriberCount == 0)
  }

  @Test("A cancelled StateRelay consumer stops at its next next(), even with a newer value waiting")
  func stateRelayCancelledWithNewValue() async {
    let relay = StateRelay(0)
    let values = relay.values
    let received = await Task {
      var seen: [Int] = []
      for await value in values {
        seen.append(value)
        relay.accept(value + 1)  // always something new to read
        if seen.count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return seen
    }.value
    #expect(received == [0, 1, 2])
    #expect(relay.subscriberCount == 0)
  }

  @Test("After it ends, a relay iterator returns nil forever")
  func relayNilForever() async {
    let relay = StateRelay(1)
    var iterator = relay.values.makeAsyncIterator()
    relay.finish()
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == nil)
    relay.accept(2)
    #expect(await iterator.next() == nil)
  }

  @Test("A second iterator over one EventRelay subscription traps with a message, never hangs")
  func eventRelaySecondIteratorTraps() async {
    await #expect(processExitsWith: .failure) {
      let values = EventRelay<Int>().values
      _ = values.makeAsyncIterator()
      _ = values.makeAsyncIterator()
    }
  }

  @Test("A second iterator over one StateRelay subscription traps with a message, never hangs")
  func stateRelaySecondIteratorTraps() async {
    await #expect(processExitsWith: .failure) {
      let values = StateRelay(0).values
      _ = values.makeAsyncIterator()
      _ = values.makeAsyncIterator()
    }
  }

  @Test(
    "An inner sequence started while its consumer goes away is cancelled, not leaked", .timeLimit(.minutes(1)))
  func innerStartedDuringTermination() async {
    let innerCancelled = TestGate()
    let consumerTask = Locked<Task<Void, Never>?>(nil)
    let (outer, outerInput) = AsyncStream<Int>.makeStream()
    let switched = outer.flatMapLatest { _ in
      // Starting the inner cancels the consumer: the operator closes while
      // the inner's task is still being registered.
      ParkedUntilCancelled(
        onStart: { consumerTask.withLock { $0 }?.cancel() }, onCancel: { innerCancelled.open() })
    }
    let consumer = Task { for await _ in switched {} }
    consumerTask.withLock { $0 = consumer }
    outerInput.yield(1)
    await consumer.value
    await innerCancelled.wait()  // hangs (time limit) if the inner's task was left running
    outerInput.finish()
  }
}

/// Calls `onStart` when iterated, then parks until its task is cancelled.
struct ParkedUntilCancelled: AsyncSequence, Sendable {
  typealias Element = Int
  typealias Failure = Never
  let onStart: @Sendable () -> Void
  let onCancel: @Sendable () -> Void

  func makeAsyncIterator() -> Iterator {
    onStart()
    return Iterator(onCancel: onCancel)
  }

  struct Iterator: AsyncIteratorProtocol {
    typealias Failure = Never
    let onCancel: @Sendable () -> Void

    mutating func next() async -> Int? {
      let (parked, continuation) = AsyncStream<Never>.makeStream()
      let onCancel = self.onCancel
      await withTaskCancellationHandler {
        for await _ in parked {}
      } onCancel: {
        continuation.finish()
        onCancel()
      }
      return nil
    }
  }
}
