import ActorMVVM
import Testing

/// Tests a ``StateMachine`` exhaustively, transition by transition: our
/// take on TCA's `TestStore`.
///
/// ```swift
/// let tester = FeatureTester(FindNumber(numbers: stub), initialState: .init())
/// await tester.send(.checkNumber(1)) { $0.isLoading = true }
/// await tester.receive(.numberFetched(3)) {
///   $0.isLoading = false
///   $0.target = 3
///   $0.round = 2
/// }
/// await tester.finish()
/// ```
///
/// - ``send(_:sourceLocation:_:)`` reduces one input synchronously and fails
///   the test unless the new state equals the old one changed by the
///   closure: a state change that is not asserted is a failure.
/// - Effects run for real (inject a ``TestClock`` for time). Inputs they feed
///   back must be asserted, in order, with ``receive(_:timeout:sourceLocation:_:)``;
///   outputs with ``expectOutput(_:sourceLocation:)``. Superseded and
///   cancelled effects' inputs are discarded exactly as a ``Feature`` does.
/// - ``finish(sourceLocation:)`` fails for every output, fed-back input or
///   running effect left unasserted, then cancels what still runs.
///
/// Isolation: an actor; call it from the test's task. `receive` waits for
/// effects in real time, bounded by `timeout`, which only guards against a
/// hang: when no effect is running it fails at once instead of waiting.
public actor FeatureTester<Machine: StateMachine> {
  public typealias State = Machine.State
  public typealias Input = Machine.Input
  public typealias Output = Machine.Output

  private let machine: Machine
  private var current: State
  private let inbox = Inbox<Input>()
  private var runner: EffectRunner<Input, Output>
  private var pendingOutputs: [Output] = []
  private var pendingReceived: [Input] = []

  /// Creates a tester in `initialState`.
  public init(_ machine: Machine, initialState: State, counters: LifetimeCounters = LifetimeCounters()) {
    self.machine = machine
    self.current = initialState
    let inbox = self.inbox
    self.runner = EffectRunner(counters: counters) { inbox.push($0) }
  }

  /// The state after everything sent and received so far.
  public var state: State { current }

  /// Reduces `input` and asserts the resulting state: `update` mutates a
  /// copy of the previous state into the expected one (omit it when the
  /// state must not change). Fails if fed-back inputs are still unasserted.
  public func send(
    _ input: Input,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) {
    collect()
    if !pendingReceived.isEmpty {
      Issue.record(
        "Must assert \(pendingReceived.count) fed-back input(s) before sending \(input): \(pendingReceived)",
        sourceLocation: sourceLocation)
    }
    reduce(input, update: update, sourceLocation: sourceLocation)
  }

  /// Waits for the next input an effect feeds back, asserts it equals
  /// `expected`, reduces it and asserts the resulting state like `send`.
  public func receive(
    _ expected: Input,
    timeout: Duration = .seconds(5),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async where Input: Equatable {
    await receive(
      where: { $0 == expected }, describing: "\(expected)", timeout: timeout,
      sourceLocation: sourceLocation, update)
  }

  /// Waits for the next fed-back input and asserts it satisfies `matches`
  /// (for inputs that are not `Equatable`, such as ones carrying errors).
  public func receive(
    where matches: @Sendable (Input) -> Bool,
    describing description: String = "a matching input",
    timeout: Duration = .seconds(5),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async {
    guard let input = await nextReceived(timeout: timeout) else {
      let why = runner.liveCount == 0 ? "no effect is running" : "none arrived within \(timeout)"
      Issue.record(
        "Expected to receive \(description), but no effect fed back an input (\(why))",
        sourceLocation: sourceLocation)
      return
    }
    if !matches(input) {
      Issue.record("Received \(input), expected \(description)", sourceLocation: sourceLocation)
    }
    reduce(input, update: update, sourceLocation: sourceLocation)
  }

  /// Asserts the oldest unasserted output equals `expected`.
  public func expectOutput(
    _ expected: Output,
    sourceLocation: SourceLocation = #_sourceLocation
  ) where Output: Equatable {
    expectOutput(where: { $0 == expected }, describing: "\(expected)", sourceLocation: sourceLocation)
  }

  /// Asserts the oldest unasserted output satisfies `matches`.
  public func expectOutput(
    where matches: (Output) -> Bool,
    describing description: String = "a matching output",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard !pendingOutputs.isEmpty else {
      Issue.record("Expected output \(description), but none was emitted", sourceLocation: sourceLocation)
      return
    }
    let output = pendingOutputs.removeFirst()
    if !matches(output) {
      Issue.record("Output \(output) does not match \(description)", sourceLocation: sourceLocation)
    }
  }

  /// Waits until every running effect has ended, handling what they fed
  /// back as unasserted inputs (which `finish` then reports).
  public func settle(timeout: Duration = .seconds(5)) async {
    while runner.liveCount > 0, await inbox.wait(timeout: timeout) {
      collect()
    }
    collect()
  }

  /// Ends the test: fails for anything unasserted (outputs, fed-back inputs,
  /// running effects), then cancels the effects and waits for them.
  public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
    collect()
    if !pendingOutputs.isEmpty {
      Issue.record("\(pendingOutputs.count) unasserted output(s): \(pendingOutputs)", sourceLocation: sourceLocation)
    }
    if !pendingReceived.isEmpty {
      Issue.record(
        "\(pendingReceived.count) unasserted fed-back input(s): \(pendingReceived)", sourceLocation: sourceLocation)
    }
    if runner.liveCount > 0 {
      Issue.record("\(runner.liveCount) effect(s) still running at the end of the test", sourceLocation: sourceLocation)
    }
    await cancelEffects()
  }

  /// Cancels every running effect and waits until their tasks return,
  /// without asserting anything (for tests that end mid-flight on purpose).
  public func cancelEffects() async {
    let tasks = runner.cancelAll()
    for task in tasks { await task.value }
    pendingOutputs.removeAll()
    pendingReceived.removeAll()
  }

  // MARK: Internals

  private func reduce(
    _ input: Input,
    update: (@Sendable (inout State) throws -> Void)?,
    sourceLocation: SourceLocation
  ) {
    var expected = current
    do {
      try update?(&expected)
    } catch {
      Issue.record("The state update closure threw \(error)", sourceLocation: sourceLocation)
    }
    let effect = machine.reduce(into: &current, input)
    runner.perform(effect) { pendingOutputs.append($0) }
    runner.startPending()  // each input is a batch of its own
    if expected != current {
      Issue.record(
        """
        State after \(input) does not match the expectation.
          expected: \(expected)
            actual: \(current)
        """,
        sourceLocation: sourceLocation)
    }
  }

  /// Moves fed-back messages from the inbox into the books.
  private func collect() {
    for message in inbox.drain() {
      switch message {
      case .sent(let input, let generation):
        if runner.isLive(generation) { pendingReceived.append(input) }
      case .ended(let generation):
        runner.ended(generation)
      }
    }
  }

  private func nextReceived(timeout: Duration) async -> Input? {
    collect()
    while pendingReceived.isEmpty, runner.liveCount > 0 {
      guard await inbox.wait(timeout: timeout) else { break }
      collect()
    }
    return pendingReceived.isEmpty ? nil : pendingReceived.removeFirst()
  }
}

/// Messages from effects, collected under a lock until the tester reads them.
final class Inbox<Input: Sendable>: Sendable {
  private struct State {
    var messages: [EffectMessage<Input>] = []
    var waiter: CheckedContinuation<Bool, Never>?
  }

  private let state = Locked(State())

  func push(_ message: EffectMessage<Input>) {
    let waiter = state.withLock { state in
      state.messages.append(message)
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: true)
  }

  func drain() -> [EffectMessage<Input>] {
    state.withLock { state in
      defer { state.messages = [] }
      return state.messages
    }
  }

  /// Waits until a message is pending. Returns false if `timeout` passes first.
  func wait(timeout: Duration) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await withCheckedContinuation { continuation in
          let ready = self.state.withLock { state -> Bool in
            if !state.messages.isEmpty { return true }
            state.waiter = continuation
            return false
          }
          if ready { continuation.resume(returning: true) }
        }
      }
      group.addTask {
        // A deadline against a hang, not a pause for things to settle.
        try? await ContinuousClock().sleep(for: timeout)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      if !first {
        // Release the waiting child so the group can return.
        let waiter = state.withLock { state in
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume(returning: false)
      }
      return first
    }
  }
}
