import ActorMVVM
import ActorMVVMTesting

/// A small machine that exercises every kind of effect.
struct Probe: StateMachine {
  let clock: TestClock

  struct State: Equatable, Sendable {
    var count = 0
    var total = 0
    var loaded: [Int] = []
    var errors: [String] = []
    /// Last sequence number seen per sender, and how often order broke.
    var lastSeen: [Int: Int] = [:]
    var outOfOrder = 0
  }

  enum Input: Sendable, Equatable {
    case add(Int)
    case record(sender: Int, sequence: Int)
    case emit(Int)
    case load(Int, after: Duration)
    case loadNow(Int)
    case loaded(Int)
    case cancelLoad
    case fail(String)
    case failed(String)
    case stream(count: Int)
  }

  enum Output: Sendable, Equatable { case emitted(Int) }

  struct Boom: Error, CustomStringConvertible { let description: String }
  enum CancelID: Hashable, Sendable { case load }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .add(let amount):
      state.count += 1
      state.total += amount
      return .none
    case .record(let sender, let sequence):
      state.count += 1
      if let last = state.lastSeen[sender], last >= sequence { state.outOfOrder += 1 }
      state.lastSeen[sender] = sequence
      return .none
    case .emit(let value):
      state.count += 1
      return .emit(.emitted(value))
    case .load(let value, let delay):
      let testClock = self.clock
      return .task(id: CancelID.load) {
        try await testClock.sleep(for: delay)
        return .loaded(value)
      } catch: {
        .failed("\($0)")
      }
    case .loadNow(let value):
      return .run(id: CancelID.load) { send in send(.loaded(value)) }
    case .loaded(let value):
      state.loaded.append(value)
      return .none
    case .cancelLoad:
      return .cancel(id: CancelID.load)
    case .fail(let message):
      return .run { _ in
        throw Boom(description: message)
      } catch: {
        .failed("\($0)")
      }
    case .failed(let message):
      state.errors.append(message)
      return .none
    case .stream(let count):
      return .run { send in
        for value in 0..<count { send(.add(value)) }
      }
    }
  }
}

/// Yields `elements`, then calls `onDrained` when asked for more (that is,
/// once the last element has been consumed downstream) and waits until
/// cancelled, without finishing. Lets a test order two concurrent upstreams.
struct SignallingSequence<Element: Sendable>: AsyncSequence, Sendable {
  typealias Failure = Never
  let elements: [Element]
  let onDrained: @Sendable () -> Void

  func makeAsyncIterator() -> Iterator { Iterator(elements: elements, onDrained: onDrained) }

  struct Iterator: AsyncIteratorProtocol {
    typealias Failure = Never
    var elements: [Element]
    let onDrained: @Sendable () -> Void
    var index = 0

    mutating func next() async -> Element? {
      if index < elements.count {
        defer { index += 1 }
        return elements[index]
      }
      onDrained()
      // Park until cancelled, never finishing on its own.
      let (parked, continuation) = AsyncStream<Never>.makeStream()
      await withTaskCancellationHandler {
        for await _ in parked {}
      } onCancel: {
        continuation.finish()
      }
      return nil
    }
  }
}
