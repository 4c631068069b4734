import ActorMVVM
import ActorMVVMJobCount
import ActorMVVMSupport
import Testing

/// Tests a `StateMachine` transition by transition: our take on TCA's
/// `TestStore`.
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
/// - It drives a real `Feature` of the machine, so batching, when
///   effects start, causes and discarding are the app's own; it watches the
///   feature through the public door (`Feature.observeTransitions(_:)`
///   and a `FeatureTrace`), as any tool built on the library could.
/// - ``send(_:fileID:filePath:line:column:_:)`` sends one input, returns once the
///   feature has reduced it (and started the effects its batch asks for),
///   and fails the test unless the new state equals the old one changed by
///   the closure: a state change that is not asserted is a failure. The
///   failure lists the fields that differ, not two whole states.
/// - Effects run for real (inject a ``TestClock`` for time, and pass it as
///   `clock:` so a `receive` that times out can say a task is asleep on
///   it). The inputs they feed back are **reduced as they arrive**, by the
///   feature (as TCA's `TestStore` does too): one that
///   cancels an effect cancels it then, not when the test gets to it. Each
///   must still be asserted, in order, with
///   ``receive(_:timeout:fileID:filePath:line:column:_:)`` (or by case alone, nested
///   cases too, with ``receive(case:timeout:fileID:filePath:line:column:_:)``), which
///   checks the input and the state change it made; outputs with
///   ``expectOutput(_:fileID:filePath:line:column:)``. Superseded and cancelled effects'
///   inputs are discarded by the feature. An input sent through a `Send`
///   after its operation returned fails the test (the feature discards it).
/// - ``bind(_:to:)`` binds a sequence (a service's events) to the
///   feature, as `Feature.bind(_:to:)` does in the app; what it delivers is
///   asserted with `receive`, as a fed-back input is.
/// - ``record(_:_:)`` keeps every value a field takes, transition by
///   transition (RxTest's `TestableObserver` for one field of state).
/// - ``finish(timeout:fileID:filePath:line:column:)`` waits for running effects to
///   return (bounded by `timeout`), then fails for every output, received
///   input or effect still running, and cancels what still runs and its bindings. A tester
///   released without `finish()` reports the same leftovers.
/// - ``Exhaustivity/off`` turns it into an integration-style tester:
///   `receive` skips to the fed-back input it names
///   (found whether it arrived before or after a `send` in between: what a
///   test asserts never depends on scheduling), the update closures assert
///   only the fields they set, and `finish` fails for nothing.
///
/// Isolation: an actor; call it from the test's task. Real time is used
/// only as a bound against hangs (`timeout`), never to let things settle:
/// it fires only when an effect never feeds back — a bug in the machine or
/// a missing `advance` — and its failure says so.
public actor FeatureTester<Machine: StateMachine> {
  /// The machine's state.
  public typealias State = Machine.State
  /// The machine's inputs.
  public typealias Input = Machine.Input
  /// The machine's outputs.
  public typealias Output = Machine.Output

  /// How strictly a tester asserts.
  public enum Exhaustivity: Sendable, Equatable {
    /// Every state change, fed-back input, output and running effect must be
    /// asserted (the default).
    case on
    /// Only what a test asserts is checked; see ``FeatureTester``.
    case off
  }

  /// The feature under test (internal: the runtime's own tests reach it to
  /// take the start path of Apple OSes below 26).
  let feature: Feature<Machine>
  /// What the feature reported, as it happened (see ``TesterLog``).
  private let log: TesterLog<Machine>
  private var observing = false
  private var pendingOutputs: [Output] = []
  /// Fed-back inputs not yet asserted, already reduced (on arrival), each
  /// with the state before and after it.
  private var pendingReceived: [(input: Input, before: State, after: State)] = []
  /// Transitions of inputs this tester sent, not yet checked by `send`.
  private var pendingSent: [(input: Input, before: State, after: State)] = []
  private let exhaustivity: Exhaustivity
  private let clock: TestClock?
  private let createdAt: SourceLocation
  private var finished = false
  /// The tasks of ``bind(_:to:)``, cancelled when the test ends.
  private var bindings: [Task<Void, Never>] = []

  /// Creates a tester in `initialState`.
  /// - Parameters:
  ///   - machine: the state machine under test.
  ///   - initialState: the state before the first input.
  ///   - counters: where the feature, and the effects it starts, are counted.
  ///   - exhaustivity: `.on` (the default) or `.off`.
  ///   - clock: the test clock the machine's effects sleep on, if any; only
  ///     used to explain a `receive` that times out.
  ///   - fileID: the caller's `#fileID` (a default), with `filePath`,
  ///     `line` and `column` where a tester released unfinished reports.
  ///   - filePath: the caller's `#filePath` (a default).
  ///   - line: the caller's `#line` (a default).
  ///   - column: the caller's `#column` (a default).
  public init(
    _ machine: Machine, initialState: State, counters: LifetimeCounters = LifetimeCounters(),
    exhaustivity: Exhaustivity = .on, clock: TestClock? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    self.init(
      machine, initialState: initialState, counters: counters, exhaustivity: exhaustivity, clock: clock,
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package init(
    _ machine: Machine, initialState: State, counters: LifetimeCounters = LifetimeCounters(),
    exhaustivity: Exhaustivity = .on, clock: TestClock? = nil,
    sourceLocation: SourceLocation
  ) {
    XCTestCases.observe()
    self.exhaustivity = exhaustivity
    self.clock = clock
    self.createdAt = sourceLocation
    let log = TesterLog<Machine>(initialState)
    self.log = log
    self.feature = Feature(
      machine, initialState: initialState, counters: counters, trace: FeatureTrace { log.traced($0) })
  }

  deinit {
    guard !finished else { return }
    // Released without finish(): report what `finish` would have. The
    // feature, released with it, cancels its effects.
    var (outputs, received, running) = log.leftovers()
    outputs += pendingOutputs.count
    received += pendingReceived.count
    if exhaustivity == .off { (outputs, received) = (0, 0) }
    guard outputs + received + running > 0 else { return }
    TestFailure.record(
      """
      FeatureTester released without finish(): \(outputs) unasserted output(s), \(received) unasserted \
      received input(s) (fed back or bound), \(running) effect(s) still running. End the test with `await tester.finish()`.
      """,
      sourceLocation: createdAt)
  }

  /// The state after everything sent and received so far.
  public var state: State { log.current }

  /// Reduces `input` and asserts the resulting state: `update` mutates a
  /// copy of the previous state into the expected one (omit it when the
  /// state must not change). Fails if fed-back inputs are still unasserted.
  public func send(
    _ input: Input,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async {
    await send(input, sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column), update)
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func send(
    _ input: Input,
    sourceLocation: SourceLocation,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async {
    await observe()
    collect()
    if exhaustivity == .on, !pendingReceived.isEmpty {
      TestFailure.record(
        """
        Must assert \(pendingReceived.count) received input(s) (fed back or bound) before sending \(input): \
        \(pendingReceived.map(\.input))
        """,
        sourceLocation: sourceLocation)
    }
    // Non-exhaustive: fed-back inputs already reduced stay findable by a
    // later `receive`, whether they arrived before or after this send.
    if exhaustivity == .on { pendingReceived.removeAll() }
    log.send(input, bound: false, to: feature)
    await feature.flush()
    collect()
    guard !pendingSent.isEmpty else {
      TestFailure.record(
        "\(input) was not reduced: the feature has finished (after cancelEffects() or finish())",
        sourceLocation: sourceLocation)
      return
    }
    let sent = pendingSent.removeFirst()
    check(sent.input, before: sent.before, after: sent.after, update: update, sourceLocation: sourceLocation)
  }

  /// Waits for the next input an effect feeds back, asserts it equals
  /// `expected`, reduces it and asserts the resulting state like `send`.
  /// With exhaustivity off, skips fed-back inputs until one equals `expected`.
  public func receive(
    _ expected: Input,
    timeout: Duration = .seconds(5),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async where Input: Equatable {
    await receive(
      expected, timeout: timeout,
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column), update)
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func receive(
    _ expected: Input,
    timeout: Duration = .seconds(5),
    sourceLocation: SourceLocation,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async where Input: Equatable {
    await receive(
      where: { $0 == expected }, describing: "\(expected)", timeout: timeout,
      sourceLocation: sourceLocation, update)
  }

  /// Waits for the next fed-back input and asserts it is of the case
  /// `embed` makes, whatever its payload: `receive(case: Input.numberFetched)`;
  /// nested cases too, `receive(case: { Parent.Input.row(.failed($0)) })`,
  /// so an input carrying a non-`Equatable` error needs no wrapper.
  /// Otherwise as ``receive(_:timeout:fileID:filePath:line:column:_:)``.
  public func receive<Payload>(
    case embed: @escaping @Sendable (Payload) -> Input,
    timeout: Duration = .seconds(5),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async {
    await receive(
      case: embed, timeout: timeout,
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column), update)
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func receive<Payload>(
    case embed: @escaping @Sendable (Payload) -> Input,
    timeout: Duration = .seconds(5),
    sourceLocation: SourceLocation,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async {
    await receive(
      where: { Self.input($0, isCase: embed) }, describing: "an input of the case given", timeout: timeout,
      sourceLocation: sourceLocation, update)
  }

  /// Whether `input` is of the case `embed` makes, at any depth: each
  /// value of type `Payload` found down `input`'s enum payloads and tuple
  /// elements (`.row(3, .failed(error))`) is tried; `embed` of it must give
  /// the same cases, level by level, with the same other values (compared
  /// by what they show: `3` must be `3`).
  package static func input<Payload>(_ input: Input, isCase embed: (Payload) -> Input) -> Bool {
    candidates(in: input, of: Payload.self).contains { shapesMatch(embed($0), input) }
  }

  /// The values of type `Payload` inside `value`'s enum payloads and tuples.
  static func candidates<Payload>(in value: Any, of type: Payload.Type) -> [Payload] {
    switch Reflection(value) {
    case .enumCase(_, let payload?):
      return (payload as? Payload).map { [$0] } ?? candidates(in: payload, of: type)
    case .tuple(let elements):
      return elements.flatMap { element in
        (element.value as? Payload).map { [$0] } ?? candidates(in: element.value, of: type)
      }
    default:
      return []
    }
  }

  /// Whether two values have the same cases and tuples all the way down,
  /// and the same description everywhere else.
  static func shapesMatch(_ lhs: Any, _ rhs: Any) -> Bool {
    switch (Reflection(lhs), Reflection(rhs)) {
    case (.enumCase(let left, let leftPayload), .enumCase(let right, let rightPayload)):
      guard left == right else { return false }
      switch (leftPayload, rightPayload) {
      case (nil, nil): return true
      case (let left?, let right?): return shapesMatch(left, right)
      default: return false
      }
    case (.tuple(let left), .tuple(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { shapesMatch($0.value, $1.value) }
    default:
      return String(reflecting: lhs) == String(reflecting: rhs)
    }
  }

  /// Waits for the next fed-back input and asserts it satisfies `matches`
  /// (for inputs that are not `Equatable`, such as ones carrying errors).
  public func receive(
    where matches: @Sendable (Input) -> Bool,
    describing description: String = "a matching input",
    timeout: Duration = .seconds(5),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async {
    await receive(
      where: matches, describing: description, timeout: timeout,
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column), update)
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func receive(
    where matches: @Sendable (Input) -> Bool,
    describing description: String = "a matching input",
    timeout: Duration = .seconds(5),
    sourceLocation: SourceLocation,
    _ update: (@Sendable (inout State) throws -> Void)? = nil
  ) async {
    while true {
      guard let (input, before, after) = await nextReceived(timeout: timeout) else {
        TestFailure.record(
          "Expected to receive \(description), but no effect fed back an input (\(whyNothingArrived(timeout)))",
          sourceLocation: sourceLocation)
        return
      }
      if exhaustivity == .off, !matches(input) { continue }  // skipped: already reduced
      if !matches(input) {
        TestFailure.record("Received \(input), expected \(description)", sourceLocation: sourceLocation)
      }
      check(input, before: before, after: after, update: update, sourceLocation: sourceLocation)
      return
    }
  }

  /// Asserts the oldest unasserted output equals `expected`.
  public func expectOutput(
    _ expected: Output,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) where Output: Equatable {
    expectOutput(expected, sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func expectOutput(
    _ expected: Output,
    sourceLocation: SourceLocation
  ) where Output: Equatable {
    expectOutput(where: { $0 == expected }, describing: "\(expected)", sourceLocation: sourceLocation)
  }

  /// Asserts the oldest unasserted output satisfies `matches`. With
  /// exhaustivity off, skips outputs until one matches.
  public func expectOutput(
    where matches: (Output) -> Bool,
    describing description: String = "a matching output",
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    expectOutput(
      where: matches, describing: description,
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func expectOutput(
    where matches: (Output) -> Bool,
    describing description: String = "a matching output",
    sourceLocation: SourceLocation
  ) {
    collect()
    if exhaustivity == .off {
      while let output = pendingOutputs.first {
        pendingOutputs.removeFirst()
        if matches(output) { return }
      }
    }
    guard !pendingOutputs.isEmpty else {
      TestFailure.record("Expected output \(description), but none was emitted", sourceLocation: sourceLocation)
      return
    }
    let output = pendingOutputs.removeFirst()
    if !matches(output) {
      TestFailure.record("Output \(output) does not match \(description)", sourceLocation: sourceLocation)
    }
  }

  /// Sends every element of `inputs` to the feature under test until the
  /// sequence ends or the test ends (``finish(timeout:fileID:filePath:line:column:)``
  /// and ``cancelEffects()`` cancel it): `Feature.bind(_:)` in a test, for a
  /// machine that listens to a service's event stream from its creation
  /// (ReactorKit's `transform(mutation:)`).
  ///
  /// What the binding delivers is asserted as a fed-back input is, in the
  /// order the feature reduced it: with ``receive(_:timeout:fileID:filePath:line:column:_:)``
  /// and the other `receive`s, never by `send`. While a binding is live,
  /// a `receive` waits for it (up to its `timeout`) even when no effect runs.
  /// The binding's task is started in the caller's test bubble, if any, so
  /// virtual time waits for what it delivers.
  public func bind<Inputs: AsyncSequence & Sendable>(
    _ inputs: Inputs
  ) async where Inputs.Element == Input, Inputs.Failure == Never {
    await bind(inputs, to: { $0 })
  }

  /// Sends `transform(element)` for every element of `values`, as
  /// ``bind(_:)`` does: `Feature.bind(_:to:)` in a test
  /// (`await tester.bind(service.events, to: Input.taskEvent)`).
  public func bind<Values: AsyncSequence & Sendable>(
    _ values: Values, to transform: @escaping @Sendable (Values.Element) -> Input
  ) async where Values.Failure == Never {
    await observe()
    guard !finished else { return }
    let (feature, log) = (self.feature, self.log)
    log.bindingStarted()
    bindings.append(
      TaskScope.start(named: "binding of FeatureTester<\(Machine.self)>") {
        for await value in values {
          if Task.isCancelled { break }
          log.send(transform(value), bound: true, to: feature)
        }
        log.bindingEnded()
      })
  }

  /// Records every value `field` takes from now on: its current value
  /// first, then the value after each reduce that changed it (sent,
  /// fed back, in the order they were reduced). RxTest's
  /// `TestableObserver` for one field of state, at transition granularity:
  /// a save that flips `saveEnabled` `true → false → true` within one
  /// instant records all three, where ``FeatureTimeline``, which samples
  /// state when nothing can run, shows the instant's last value.
  ///
  /// ```swift
  /// let saveEnabled = await tester.record(\.saveEnabled)
  /// …
  /// #expect(saveEnabled.values == [true, false, true])
  /// ```
  ///
  /// With `.everyTransition`, every reduce records the field's value, equal
  /// or not: what a ReactiveSwift property with `skipRepeats: false`
  /// emits, for a field the machine sets on every event (a page of results
  /// that may come back equal, a count re-announced). One transition still
  /// records one value: a blip inside one reduce (`false → true`) is not
  /// state, so emit it as an output and assert it with `expectOutput`.
  ///
  /// Each value also carries the time on the tester's clock it was
  /// recorded at (``TransitionRecorder/events``): RxTest's per-emission
  /// timeline, `[Recorded(.zero, true), Recorded(.milliseconds(100), true), …]`.
  public func record<Value: Equatable & Sendable>(
    _ field: @escaping @Sendable (State) -> Value, _ mode: RecordingMode = .changes
  ) -> TransitionRecorder<Value> {
    log.record(field, keepsRepeats: mode == .everyTransition, clock: clock)
  }

  /// Waits until every running effect has ended, handling what they fed
  /// back as unasserted inputs (which `finish` then reports); in a test
  /// bubble, first until nothing of the test can run (so what a binding was
  /// given has been delivered). Never hangs
  /// and never passes silently: if an effect is still running once
  /// `timeout` of real time has passed with nothing fed back (a guard
  /// against a hang, not a pause for things to settle), it records a test
  /// failure naming the effects still running — an effect that never ends
  /// (a live query, a timer) is ended with ``cancelEffects()`` or an input
  /// that cancels it first. Returns at once if the calling task is cancelled.
  public func settle(
    timeout: Duration = .seconds(5), fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) async {
    await settle(
      timeout: timeout, sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func settle(timeout: Duration = .seconds(5), sourceLocation: SourceLocation) async {
    guard await !settled(timeout: timeout), !Task.isCancelled else { return }
    let running = log.running
    TestFailure.record(
      """
      settle() gave up after \(timeout) with \(running.count) effect(s) still running: \
      \(running.joined(separator: ", ")); an effect that never ends needs \
      cancelEffects() or an input that cancels it before settle()\(clockHint)
      """, sourceLocation: sourceLocation)
  }

  /// Waits until every running effect has ended; false if `timeout` passed
  /// with one still running, or the task was cancelled.
  private func settled(timeout: Duration) async -> Bool {
    // In a test bubble, first let everything runnable run: what a binding
    // was given is delivered, what an effect can do without the clock done.
    if TestBubble.isActive { _ = await Quiescence.untilIdle() }
    var timedOut = false
    while true {
      let seen = log.eventCount
      let running = await runningEffects()
      collect()
      if running == 0 { return true }
      // Past the bound, one more look (above) before giving up.
      if timedOut { return false }
      timedOut = await !log.wait(after: seen, timeout: timeout, unless: advancing)
    }
  }

  /// The feature's running effects, read on its actor after reducing what
  /// its mailbox holds (from this task: an effect that has fed back is
  /// reduced even while the feature's own drain waits for a thread), so
  /// every transition and run event before it is in the log.
  private func runningEffects() async -> Int {
    await observe()
    await feature.flush()
    return await feature.runningEffectCount
  }

  /// Starts observing the feature's transitions, once, before the first
  /// input (only this tester sends to its feature).
  private func observe() async {
    guard !observing else { return }
    observing = true
    let log = self.log
    _ = await feature.observeTransitions { log.transitioned($0) }
  }

  /// Ends the test: waits up to `timeout` for running effects to return
  /// (so an effect that has sent its last input is never reported as still
  /// running), fails for anything unasserted (outputs, fed-back inputs,
  /// effects still running), then cancels the effects and waits for them.
  /// An effect meant to outlive the test (a timer) is ended with
  /// ``cancelEffects()`` first.
  public func finish(
    timeout: Duration = .seconds(5), fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) async {
    await finish(
      timeout: timeout, sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func finish(timeout: Duration = .seconds(5), sourceLocation: SourceLocation) async {
    finished = true
    _ = await settled(timeout: timeout)
    if exhaustivity == .on {
      if !pendingOutputs.isEmpty {
        TestFailure.record(
          "\(pendingOutputs.count) unasserted output(s): \(pendingOutputs)", sourceLocation: sourceLocation)
      }
      if !pendingReceived.isEmpty {
        TestFailure.record(
          "\(pendingReceived.count) unasserted received input(s) (fed back or bound): \(pendingReceived.map(\.input))",
          sourceLocation: sourceLocation)
      }
      let running = log.running
      if !running.isEmpty {
        TestFailure.record(
          """
          \(running.count) effect(s) still running \(timeout) after the end of the test: \
          \(running.joined(separator: ", "))\(clockHint)
          """,
          sourceLocation: sourceLocation)
      }
    }
    await cancelEffects()
  }

  /// Cancels every running effect and waits until their tasks return,
  /// without asserting anything (for tests that end mid-flight on purpose).
  public func cancelEffects() async {
    for binding in bindings { binding.cancel() }
    for binding in bindings { await binding.value }
    bindings.removeAll()
    await feature.finish()
    collect()
    pendingOutputs.removeAll()
    pendingReceived.removeAll()
  }

  // MARK: Internals

  /// Asserts `after` is `before` changed by `update` (with exhaustivity
  /// off: that `update` changes nothing in `after`).
  private func check(
    _ input: Input, before: State, after: State,
    update: (@Sendable (inout State) throws -> Void)?,
    sourceLocation: SourceLocation
  ) {
    var expected = exhaustivity == .on ? before : after
    do {
      try update?(&expected)
    } catch {
      TestFailure.record("The state update closure threw \(error)", sourceLocation: sourceLocation)
    }
    guard expected != after else { return }
    TestFailure.record(
      """
      State after \(input) does not match the expectation (− expected, + actual):
      \(StateDiff.lines(from: expected, to: after))
      """,
      sourceLocation: sourceLocation)
  }

  /// Moves what the feature reported into the tester's books: fed-back
  /// transitions, sent ones, outputs; `reporting` (a call from the test's
  /// task) records a failure for each input an effect sent too late.
  private func collect() {
    let taken = log.take()
    pendingSent += taken.sent
    pendingReceived += taken.received
    pendingOutputs += taken.outputs
    for input in taken.late {
      TestFailure.record(
        """
        An effect sent \(input) after its operation had returned; a Feature discards it. Await the \
        callback inside the operation (withCheckedContinuation) instead of sending from it later.
        """,
        sourceLocation: createdAt)
    }
  }

  private func nextReceived(timeout: Duration) async -> (Input, State, State)? {
    var timedOut = false
    while true {
      collect()
      if !pendingReceived.isEmpty { return pendingReceived.removeFirst() }
      let seen = log.eventCount
      // Read before the flush: a binding sends before it ends, so once it
      // has ended here, the flush below reduces all it sent.
      let bindingLive = log.hasLiveBinding
      let running = await runningEffects()
      collect()
      if !pendingReceived.isEmpty { return pendingReceived.removeFirst() }
      // No run is live between two batches and no binding can deliver:
      // nothing more can arrive.
      if running == 0, !bindingLive { return nil }
      // Past the bound, one more look (above) before giving up.
      if timedOut { return nil }
      timedOut = await !log.wait(after: seen, timeout: timeout, unless: advancing)
    }
  }

  private func whyNothingArrived(_ timeout: Duration) -> String {
    log.running.isEmpty && !log.hasLiveBinding
      ? "no effect is running"
      : """
      none arrived within \(timeout) of real time — a guard against a hang, never load: a running effect \
      or a binding never delivered (a bug in the machine, time not advanced, or nothing sent to the \
      bound sequence)\(clockHint)
      """
  }

  /// Whether the tester's clock is advancing: a `receive` parked while the
  /// test advances (under load, an advance can wait seconds for the main
  /// actor) keeps waiting past its real-time bound.
  private var advancing: @Sendable () -> Bool {
    let clock = self.clock
    return { clock?.isAdvancing ?? false }
  }

  /// Says so when a task is asleep on the tester's clock.
  private var clockHint: String {
    guard let clock, let next = clock.sleeperDeadlines.first else { return "" }
    return """
      ; \(clock.sleeperCount) task(s) asleep on the TestClock (next deadline \(next), now \(clock.now)): \
      advance the clock
      """
  }
}

/// What a tester's feature reported, under a lock: written on the
/// feature's actor (its transition observer and trace), read by the tester.
final class TesterLog<Machine: StateMachine>: Sendable {
  typealias Step = (input: Machine.Input, before: Machine.State, after: Machine.State)

  private struct State {
    var current: Machine.State
    var sent: [Step] = []
    var received: [Step] = []
    var outputs: [Machine.Output] = []
    var late: [Machine.Input] = []
    /// Started runs not yet ended, superseded or cancelled: number → description.
    var running: [UInt64: String] = [:]
    var recorders: [@Sendable (Machine.State) -> Void] = []
    /// Events so far; a wait returns once there are more than it saw.
    var events = 0
    var nextWait: UInt64 = 0
    var waiter: (id: UInt64, continuation: UnsafeContinuation<Bool, Never>)?
    /// Bindings whose sequence has not ended.
    var liveBindings = 0
  }

  private let state: Locked<State>
  /// Who sent each input sent but not yet reduced, in the mailbox's order:
  /// true for a binding. Its own lock, held across the send, so the order
  /// here is the mailbox's (a send only enqueues: it never reduces inline).
  private let senders = Locked<[Bool]>([])

  /// Sends `input` to `feature`, remembering who sent it.
  func send(_ input: Machine.Input, bound: Bool, to feature: Feature<Machine>) {
    senders.withLock { senders in
      senders.append(bound)
      feature.send(input)
    }
  }

  /// Whether a binding may still deliver.
  var hasLiveBinding: Bool { state.withLock { $0.liveBindings > 0 } }

  /// A binding began.
  func bindingStarted() { state.withLock { $0.liveBindings += 1 } }

  /// A binding's sequence ended (or it was cancelled): one event, so a
  /// waiting `receive` looks again and may conclude nothing more comes.
  func bindingEnded() { note { $0.liveBindings -= 1 } }

  init(_ initial: Machine.State) { state = Locked(State(current: initial)) }

  /// The state after the last transition reported.
  var current: Machine.State { state.withLock { $0.current } }

  /// How many events have been reported.
  var eventCount: Int { state.withLock { $0.events } }

  /// The running effects, by the description a failure prints.
  var running: [String] {
    state.withLock { state in state.running.keys.sorted().map { state.running[$0]! } }
  }

  /// A transition (the observer, on the feature's actor).
  func transitioned(_ transition: FeatureTransition<Machine>) {
    // A sent input is the tester's or a binding's, in the order they sent.
    let bound =
      transition.origin == .sent
      && senders.withLock { senders in senders.isEmpty ? false : senders.removeFirst() }
    note { state in
      let step = (transition.input, state.current, transition.state)
      state.current = transition.state
      switch transition.origin {
      case .sent where !bound: state.sent.append(step)
      case .sent, .fedBack: state.received.append(step)
      }
      // Recorded before the tester is woken: a `receive` that returns has
      // its transition in every recorder (each has a lock of its own).
      for record in state.recorders { record(transition.state) }
    }
  }

  /// A trace event (on the feature's actor).
  func traced(_ event: FeatureTrace<Machine>.Event) {
    switch event {
    case .output(let output): note { $0.outputs.append(output) }
    case .lateResultDropped(let input): note { $0.late.append(input) }
    case .effect(.started(let run, let id)):
      note { $0.running[run] = id ?? "an effect with no id" }
    case .effect(.ended(let run, _)), .effect(.superseded(let run, _)), .effect(.cancelled(let run, _)):
      note { $0.running.removeValue(forKey: run) }
    case .input, .stateChanged, .staleResultDropped: break
    }
  }

  /// Records `field` after every transition from now on, starting from
  /// the current state's.
  func record<Value: Equatable & Sendable>(
    _ field: @escaping @Sendable (Machine.State) -> Value, keepsRepeats: Bool, clock: TestClock?
  ) -> TransitionRecorder<Value> {
    state.withLock { state in
      let time: @Sendable () -> Duration = { clock?.now.offset ?? .zero }
      let recorder = TransitionRecorder(first: field(state.current), at: time(), keepsRepeats: keepsRepeats)
      state.recorders.append { recorder.append(field($0), at: time()) }
      return recorder
    }
  }

  /// Takes what the tester has not read yet.
  func take() -> (sent: [Step], received: [Step], outputs: [Machine.Output], late: [Machine.Input]) {
    state.withLock { state in
      defer { (state.sent, state.received, state.outputs, state.late) = ([], [], [], []) }
      return (state.sent, state.received, state.outputs, state.late)
    }
  }

  /// What a tester released unfinished left: outputs and fed-back inputs
  /// not taken, and runs still going.
  func leftovers() -> (outputs: Int, received: Int, running: Int) {
    state.withLock { ($0.outputs.count, $0.received.count, $0.running.count) }
  }

  /// Applies `change` as one event, then wakes the tester if it waits.
  @discardableResult
  private func note<R>(_ change: (inout State) -> R) -> R {
    let (result, waiter) = state.withLock { state in
      let result = change(&state)
      state.events += 1
      defer { state.waiter = nil }
      return (result, state.waiter)
    }
    waiter?.continuation.resume(returning: true)
    return result
  }

  /// Waits until more than `seen` events have been reported: true then;
  /// false if `timeout` of real time passes first and then nothing in the
  /// process can run (so a slow machine is never mistaken for a silent
  /// effect), or the task is cancelled. One waiter at a time.
  ///
  /// No wake-up is lost: the waiter registers and compares the count in
  /// one step under the lock, and the deadline (a Dispatch timer, outside
  /// the job count, so it never keeps virtual time from knowing idle) and
  /// cancellation resume only the wait they belong to, if it is still
  /// registered.
  func wait(after seen: Int, timeout: Duration, unless keepWaiting: @escaping @Sendable () -> Bool = { false }) async
    -> Bool
  {
    let id = state.withLock { state -> UInt64 in
      state.nextWait &+= 1
      return state.nextWait
    }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
        let verdict = state.withLock { state -> Bool? in
          if state.events > seen { return true }
          if Task.isCancelled || timeout <= .zero { return false }
          state.waiter = (id, continuation)
          return nil
        }
        if let verdict { return continuation.resume(returning: verdict) }
        // Past the deadline, "nothing arrived" is concluded only once
        // nothing can run: an effect whose jobs are still queued — a pool
        // other tests starve by blocking its threads — delivers first.
        self.expire(id, after: timeout, unless: keepWaiting)
      }
    } onCancel: {
      expire(id)
    }
  }

  /// Ends wait `id` with false once `timeout` has passed (see `wait`),
  /// unless `keepWaiting` says to wait another `timeout`.
  private func expire(_ id: UInt64, after timeout: Duration, unless keepWaiting: @escaping @Sendable () -> Bool) {
    IdleWait.afterDeadline(timeout) {
      if keepWaiting(), self.state.withLock({ $0.waiter?.id == id }) {
        return self.expire(id, after: timeout, unless: keepWaiting)
      }
      self.expire(id)
    }
  }

  /// Ends wait `id` with false, if it is still waiting.
  private func expire(_ id: UInt64) {
    let waiter = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
      guard let waiter = state.waiter, waiter.id == id else { return nil }
      state.waiter = nil
      return waiter.continuation
    }
    waiter?.resume(returning: false)
  }
}
