// Helpers shared by the test targets of ActorMVVM's products (`package`
// access: visible inside this package only).
import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting

/// A small machine that exercises every kind of effect.
package struct Probe: StateMachine {
  package let clock: TestClock

  package init(clock: TestClock) { self.clock = clock }

  package struct State: Equatable, Sendable {
    package init() {}
    package var count = 0
    package var total = 0
    package var loaded: [Int] = []
    package var errors: [String] = []
    /// Last sequence number seen per sender, and how often order broke.
    package var lastSeen: [Int: Int] = [:]
    package var outOfOrder = 0
  }

  package enum Input: Sendable, Equatable {
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

  package enum Output: Sendable, Equatable { case emitted(Int) }

  package struct Boom: Error, CustomStringConvertible { package let description: String }
  package enum CancelID: Hashable, Sendable { case load }

  package func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
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
package struct SignallingSequence<Element: Sendable>: AsyncSequence, Sendable {
  package typealias Failure = Never
  package let elements: [Element]
  package let onDrained: @Sendable () -> Void

  package init(elements: [Element], onDrained: @escaping @Sendable () -> Void) {
    self.elements = elements
    self.onDrained = onDrained
  }

  package func makeAsyncIterator() -> Iterator { Iterator(elements: elements, onDrained: onDrained) }

  package struct Iterator: AsyncIteratorProtocol {
    package typealias Failure = Never
    package var elements: [Element]
    package let onDrained: @Sendable () -> Void
    package var index = 0

    package mutating func next() async -> Element? {
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

/// A machine whose effects call back into their own feature's lifecycle.
package struct Reentrant: StateMachine {
  package let feature: Locked<Feature<Reentrant>?>
  package let saved: Locked<[Int]>
  package let bridgeGate = TestGate()
  package let sentGate = TestGate()

  package init(feature: Locked<Feature<Reentrant>?>, saved: Locked<[Int]>) {
    self.feature = feature
    self.saved = saved
  }

  /// A feature running this machine, which the machine can reach.
  package static func makeFeature(_ counters: LifetimeCounters = LifetimeCounters()) -> (Feature<Reentrant>, Reentrant)
  {
    let machine = Reentrant(feature: Locked(nil), saved: Locked([]))
    let feature = Feature(machine, initialState: .init(), counters: counters)
    machine.feature.withLock { $0 = feature }
    return (feature, machine)
  }

  package struct State: Equatable, Sendable {
    package init() {}
    package var count = 0
    package var context = ""
  }

  package enum Input: Sendable, Equatable {
    case finishFromEffect
    case idleFromEffect
    case saveLast(Int)
    case bridge
    case bridged
    case readContext
    case context(String?, TaskPriority)
  }

  package enum Output: Sendable, Equatable { case done }

  @TaskLocal package static var sender: String?

  package func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    state.count += 1
    let (feature, saved, bridgeGate, sentGate) = (self.feature, self.saved, self.bridgeGate, self.sentGate)
    switch input {
    case .finishFromEffect:
      return .run { _ in await feature.withLock { $0 }?.finish() }
    case .idleFromEffect:
      return .run { send in
        await feature.withLock { $0 }?.idle()
        send(.bridged)
      }
    case .saveLast(let value):
      return .run(onFinish: .runToCompletion) { _ in
        // Most async I/O checks for cancellation first.
        guard !Task.isCancelled else { return }
        await Task.yield()
        guard !Task.isCancelled else { return }
        saved.withLock { $0.append(value) }
      }
    case .bridge:
      // A completion-handler bridge that sends after the operation returned.
      return .run { send in
        Task.detached {
          await bridgeGate.wait()
          send(.bridged)
          sentGate.open()
        }
      }
    case .bridged:
      return .none
    case .context(let sender, let priority):
      state.context = "\(sender ?? "no task-local") \(priority)"
      return .none
    case .readContext:
      return .run(priority: .low) { send in send(.context(Self.sender, Task.currentPriority)) }
    }
  }
}
