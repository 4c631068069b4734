import ActorMVVM
import ActorMVVMSupport
import Testing

/// RxTest's `TestScheduler` for a whole `Feature`: named marble
/// timelines in, the timelines of chosen state fields and of the outputs
/// out, on virtual time.
///
/// ```swift
/// let timelines = await FeatureTimeline.run(
///   inputs: [
///     "username": "e---u1----u2-----u3-----------------",
///     "password": "e----------------------p1-----------",
///   ],
///   values: ["e": "", "u1": "verysecret", "u2": "secretuser", "u3": "secretusername", "p1": "huge secret"],
///   tick: .milliseconds(200),
///   feature: { clock in Feature(Signup(api: MockAPI(clock: clock)), initialState: .init()) },
///   bind: { feature, inputs in
///     feature.bind(inputs["username"], to: Signup.Input.username)
///     feature.bind(inputs["password"], to: Signup.Input.password)
///   },
///   record: ["signupEnabled": { $0.signupEnabled ? "t" : "f" }]
/// )
/// #expect(timelines["signupEnabled"] == "f")
/// ```
///
/// - **Inputs** are hot ``TimelineInput``s of `Value`s: each element
///   named in a diagram is looked up in `values`, so RxTest's timelines
///   (`"e---u1----u2---"`, multi-character names taking as many ticks as
///   they have characters) are pasted as they are. Bind them to the feature
///   in `bind` (`Feature.bind(_:to:)` iterates in a task of its own: it is
///   seen like every other job).
/// - **Recorded timelines.** Each `record` entry names a diagram and turns
///   a state into the element name to show. The state is sampled every time
///   nothing can run — after each input event and after each instant's
///   timers — and a name is recorded when it differs from the last one
///   recorded (so the first sample, at tick 0, is always recorded). Two
///   changes that land between the same two samples show as the last one.
///   Outputs, if `output` names them, are recorded every one, at the tick
///   it was emitted, in the diagram named `"outputs"`.
/// - **Time.** As ``Marble``: ticks of `tick` on a ``TestClock``. Every
///   diagram event is scheduled before the run starts, as RxTest's hot
///   observables are scheduled when created, before `start()`; so by
///   RxTest's rule (at one instant, what was scheduled first runs first)
///   an input at tick T is handled before every timer due at T. RxTest
///   differs only for work scheduled during the run (a cold observable, a
///   `scheduleAt` inside an action), which has no counterpart here: to
///   have a timer at T go first, drive a ``TestClock`` yourself —
///   `advance(to: T)`, then send. Among timers due at one instant,
///   operators' deadline timers (timeout, debounce, throttle) wake after
///   the others even if they began first (RxTest would run them first), so
///   an element produced at a deadline is in time. The run ends
///   `extraTicks` after the longest input diagram, then the feature is
///   finished. Diagrams are rendered as ``Marble`` renders them
///   (multi-character names as `[name]`, trailing `-` dropped).
public enum FeatureTimeline {
  /// Runs a feature over marble timelines and returns the recorded
  /// diagrams by name (see ``FeatureTimeline``).
  /// - Parameters:
  ///   - inputs: each input's name and diagram.
  ///   - values: the value of every element name the diagrams use.
  ///   - tick: the virtual time one character stands for.
  ///   - extraTicks: ticks to keep running after the longest input diagram.
  ///   - makeFeature: makes the feature under test, given the clock its effects
  ///     must sleep on.
  ///   - bind: binds the named inputs to the feature.
  ///   - record: the diagrams to record from the state, by name.
  ///   - output: names an output for the `"outputs"` diagram; nil records none.
  ///   - isolation: the caller's actor, where the run's own code runs (a default).
  ///   - fileID: the caller's `#fileID` (a default), with `filePath`,
  ///     `line` and `column` where a failure of the run is reported.
  ///   - filePath: the caller's `#filePath` (a default).
  ///   - line: the caller's `#line` (a default).
  ///   - column: the caller's `#column` (a default).
  ///
  /// Runs in the calling task's test bubble, or in one of its own if it is
  /// in none. Isolation: on the caller's actor (so a `@MainActor` test
  /// passes its closures as they are); the feature and its effects run on
  /// their own.
  public static func run<Machine: StateMachine, Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    inputs: KeyValuePairs<String, String>,
    values: [String: Value],
    tick: Duration = .milliseconds(100),
    extraTicks: Int = 5,
    feature makeFeature: (TestClock) -> Feature<Machine>,
    bind: (Feature<Machine>, TimelineInputs<Value>) -> Void,
    record: KeyValuePairs<String, @Sendable (Machine.State) -> String>,
    output: (@Sendable (Machine.Output) -> String)? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async -> [String: String] {
    return await run(
      isolation: isolation, inputs: inputs, values: values, tick: tick, extraTicks: extraTicks, feature: makeFeature,
      bind: bind, record: record, output: output,
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package static func run<Machine: StateMachine, Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    inputs: KeyValuePairs<String, String>,
    values: [String: Value],
    tick: Duration = .milliseconds(100),
    extraTicks: Int = 5,
    feature makeFeature: (TestClock) -> Feature<Machine>,
    bind: (Feature<Machine>, TimelineInputs<Value>) -> Void,
    record: KeyValuePairs<String, @Sendable (Machine.State) -> String>,
    output: (@Sendable (Machine.Output) -> String)? = nil,
    sourceLocation: SourceLocation
  ) async -> [String: String] {
    XCTestCases.observe()
    return await inTestBubble(isolation: isolation, sourceLocation: sourceLocation) {
      await runInBubble(
        isolation: isolation, inputs: inputs, values: values, tick: tick, extraTicks: extraTicks, feature: makeFeature,
        bind: bind,
        record: record, output: output, sourceLocation: sourceLocation)
    }
  }

  private static func runInBubble<Machine: StateMachine, Value: Sendable>(
    isolation: isolated (any Actor)?, inputs: KeyValuePairs<String, String>, values: [String: Value], tick: Duration,
    extraTicks: Int,
    feature makeFeature: (TestClock) -> Feature<Machine>, bind: (Feature<Machine>, TimelineInputs<Value>) -> Void,
    record: KeyValuePairs<String, @Sendable (Machine.State) -> String>,
    output: (@Sendable (Machine.Output) -> String)?, sourceLocation: SourceLocation
  ) async -> [String: String] {
    let malformed = inputs.compactMap { name, diagram in
      MarbleEvent.problem(in: diagram).map { "\(name): \"\(diagram)\" has \($0)" }
    }
    guard malformed.isEmpty else {
      TestFailure.record(
        "FeatureTimeline: \(malformed.joined(separator: "; ")). The run did not start.", sourceLocation: sourceLocation)
      return [:]
    }
    let clock = TestClock()
    let names = Set(values.keys)
    var timelines: [(source: MarbleInput<Value>, ticks: [[MarbleEvent<Value>]])] = []
    var sources: [String: MarbleInput<Value>] = [:]
    var unknown: [String] = []
    for (name, diagram) in inputs {
      let source = MarbleInput<Value>(name: name)
      sources[name] = source
      let parsed = MarbleEvent.parse(diagram, names: names)
      for events in parsed {
        for case .element(let element) in events where values[element] == nil {
          unknown.append("\(element) (in \(name): \"\(diagram)\")")
        }
      }
      let ticks = parsed.map { events in
        events.compactMap { event -> MarbleEvent<Value>? in
          switch event {
          case .element(let element): values[element].map { .element($0) }
          case .finish: .finish
          case .fail: .fail
          }
        }
      }
      timelines.append((source, ticks))
    }
    // A typo in a diagram fails the test at the run, and the run does not start.
    guard unknown.isEmpty else {
      TestFailure.record(
        "FeatureTimeline: no value in `values` for \(unknown.joined(separator: ", ")); "
          + "the values are \(values.keys.sorted()). The run did not start.",
        sourceLocation: sourceLocation)
      return [:]
    }

    let feature = makeFeature(clock)
    let outputsRecorder = MarbleRecorder()
    let outputTask = output.map { name in
      let outputs = feature.outputs
      return TaskScope.start(named: "FeatureTimeline output recorder") {
        for await element in outputs { outputsRecorder.record(name(element)) }
      }
    }
    bind(feature, TimelineInputs(sources: sources, sourceLocation: sourceLocation))

    let recorders = record.map { (name: $0.key, sample: $0.value, recorder: MarbleRecorder()) }
    let lastNames = Locked([String?](repeating: nil, count: recorders.count))
    let sample: @Sendable () async -> Void = {
      let state = await feature.state
      for (index, entry) in recorders.enumerated() {
        let name = entry.sample(state)
        let changed = lastNames.withLock { last -> Bool in
          defer { last[index] = name }
          return last[index] != name
        }
        if changed { entry.recorder.record(name) }
      }
    }

    let ticks = (timelines.map(\.ticks.count).max() ?? 0) + extraTicks
    let all = recorders.map(\.recorder) + [outputsRecorder]
    await Marble.drive(
      clock: clock, tick: tick, ticks: ticks, recorders: all, sourceLocation: sourceLocation, afterEachStep: sample
    ) { index in
      for (source, ticks) in timelines where index < ticks.count {
        for event in ticks[index] {
          source.deliver(event)
          guard await clock.settle(sourceLocation: sourceLocation) else { return false }
          await sample()
        }
      }
      return true
    }
    for recorder in all { recorder.close() }
    await feature.finish()
    await outputTask?.value
    var diagrams: [String: String] = [:]
    for entry in recorders { diagrams[entry.name] = entry.recorder.diagram() }
    if output != nil { diagrams["outputs"] = outputsRecorder.diagram() }
    return diagrams
  }
}

/// The named inputs of a ``FeatureTimeline`` run.
public struct TimelineInputs<Value: Sendable>: Sendable {
  let sources: [String: MarbleInput<Value>]
  let sourceLocation: SourceLocation

  /// The input with `name`. A name the run did not declare fails the test
  /// (at the run's call) and gives an input that ends at once.
  public subscript(_ name: String) -> TimelineInput<Value> {
    guard let source = sources[name] else {
      TestFailure.record(
        "FeatureTimeline: no input named \"\(name)\"; the run declares \(sources.keys.sorted())",
        sourceLocation: sourceLocation)
      return TimelineInput(source: MarbleInput(name: name, ended: true))
    }
    return TimelineInput(source: source)
  }
}

/// A hot timeline input that never throws, for `Feature.bind(_:to:)`:
/// the elements of its diagram, each at its tick (lost if nothing iterates
/// then), ending at `|`. A `^` in its diagram ends it too (a feature's
/// inputs do not fail; feed a failure as an input value instead).
public struct TimelineInput<Element: Sendable>: AsyncSequence, Sendable {
  /// The type of error iteration can throw: none.
  public typealias Failure = Never
  let source: MarbleInput<Element>

  /// Makes this sequence's iterator (see the type's contract).
  public func makeAsyncIterator() -> Iterator { Iterator(base: source.makeAsyncIterator()) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    var base: MarbleInput<Element>.Iterator

    /// The next element, or nil once the diagram has ended.
    public mutating func next() async -> Element? {
      do { return try await base.next() } catch { return nil }
    }
  }
}
