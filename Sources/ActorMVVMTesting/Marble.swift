import ActorMVVM
import ActorMVVMSupport
import Testing

/// Marble-diagram tests on virtual time: a diagram string per input in,
/// the diagram of what came out, so a test reads like the behaviour it
/// pins. Works over any `AsyncSequence` — an operator, a `Feature`'s
/// outputs, a sequence fed by tasks the test starts itself.
///
/// ```swift
/// let output = await Marble.run(["a": "-1-2----3---|"]) { inputs, clock in
///   inputs["a"].debounce(for: .milliseconds(300), clock: clock)
/// }
/// #expect(output == "-----2------(3|)")
/// ```
///
/// **Diagrams.** Each character is one tick (`tick`, 100 ms by default,
/// on a ``TestClock``):
/// - `-` nothing; a letter or digit: an element (the one-character string);
/// - `[u1]`: one element with a longer name, at one tick;
/// - a name listed in `names` (`u1`, `p2`): one element at the tick of its
///   first character, taking as many ticks as it has characters — RxTest's
///   own timeline notation (`"e---u1----u2---"`), so RxSwift's vectors are
///   pasted as they are;
/// - `|` the end, `^` (or `#`) a ``MarbleError``, `(…)` several events at
///   one tick, in order. Spaces are ignored.
///
/// The output diagram uses the same symbols: a one-character element as
/// itself, a longer one as `[…]`. It ends at its last event: trailing `-`
/// are dropped, so an output with no `|` or `^` did not end during the run
/// (RxTest's "never completes").
///
/// **Inputs are hot**, as RxTest's hot observables: an event reaches the
/// task iterating the input at that tick, and is lost if nothing iterates
/// it then (an inner sequence of `flatMapLatest` not yet, or no longer,
/// subscribed).
///
/// **Time, exactly.** Tick by tick, the harness fires the timers due
/// before the tick, moves `now` to the tick, delivers that tick's input
/// events one at a time, then fires the timers due at the tick — after
/// each step waiting until nothing in the process can run (the exact
/// count of ``TestClock``, never a sleep, a yield or a real-time limit).
/// So an input at instant T is handled before timers due at T (RxTest's
/// order for hot observables, which are scheduled before the run: what was
/// scheduled first runs first; see ``FeatureTimeline`` for where RxTest
/// differs), and the output is the same on every run, however loaded the
/// machine. Something that never parks (a task spinning on
/// `Task.yield()`) keeps the harness waiting; put a `.timeLimit` on the
/// test, which cancels the run.
public enum Marble {
  /// Runs `build` over the inputs' diagrams and returns the output diagram.
  /// - Parameters:
  ///   - inputs: each input's name and diagram.
  ///   - names: the multi-character element names the diagrams use
  ///     without brackets (RxTest's notation; see ``Marble``).
  ///   - tick: the virtual time one character stands for.
  ///   - extraTicks: ticks to keep running after the longest input diagram,
  ///     for timers to fire.
  ///   - fileID: the caller's `#fileID` (a default), with `filePath`,
  ///     `line` and `column` where a failure of the run is reported.
  ///   - filePath: the caller's `#filePath` (a default).
  ///   - line: the caller's `#line` (a default).
  ///   - column: the caller's `#column` (a default).
  ///   - build: makes the sequence under test from the inputs and the clock.
  ///
  /// Runs in the calling task's test bubble, or in one of its own if it is
  /// in none.
  public static func run<Output: AsyncSequence>(
    _ inputs: KeyValuePairs<String, String>,
    names: Set<String> = [],
    tick: Duration = .milliseconds(100),
    extraTicks: Int = 10,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ build: @escaping @Sendable (MarbleInputs, TestClock) -> Output
  ) async -> String where Output: SendableMetatype, Output.Element: CustomStringConvertible {
    return await run(
      inputs, names: names, tick: tick, extraTicks: extraTicks,
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column), build)
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package static func run<Output: AsyncSequence>(
    _ inputs: KeyValuePairs<String, String>,
    names: Set<String> = [],
    tick: Duration = .milliseconds(100),
    extraTicks: Int = 10,
    sourceLocation: SourceLocation,
    _ build: @escaping @Sendable (MarbleInputs, TestClock) -> Output
  ) async -> String where Output: SendableMetatype, Output.Element: CustomStringConvertible {
    XCTestCases.observe()
    return await inTestBubble(sourceLocation: sourceLocation) {
      await runInBubble(
        inputs, names: names, tick: tick, extraTicks: extraTicks, sourceLocation: sourceLocation, build)
    }
  }

  private static func runInBubble<Output: AsyncSequence>(
    _ inputs: KeyValuePairs<String, String>, names: Set<String>, tick: Duration, extraTicks: Int,
    sourceLocation: SourceLocation, _ build: @escaping @Sendable (MarbleInputs, TestClock) -> Output
  ) async -> String where Output: SendableMetatype, Output.Element: CustomStringConvertible {
    let malformed = inputs.compactMap { name, diagram in
      MarbleEvent.problem(in: diagram).map { "\(name): \"\(diagram)\" has \($0)" }
    }
    guard malformed.isEmpty else {
      TestFailure.record(
        "Marble: \(malformed.joined(separator: "; ")). The run did not start.", sourceLocation: sourceLocation)
      return ""
    }
    let clock = TestClock()
    var timelines: [(source: MarbleSource, ticks: [[MarbleEvent<String>]])] = []
    var sources: [String: MarbleSource] = [:]
    for (name, diagram) in inputs {
      let source = MarbleSource(name: name)
      sources[name] = source
      timelines.append((source, MarbleEvent.parse(diagram, names: names).map { $0.map { $0.map { $0 } } }))
    }
    let recorder = MarbleRecorder()
    let marbleInputs = MarbleInputs(sources: sources, sourceLocation: sourceLocation)

    let collector = TaskScope.start(named: "Marble recorder") {
      await record(build, marbleInputs, clock, into: recorder)
    }
    let lastTick = (timelines.map(\.ticks.count).max() ?? 0) + extraTicks
    await drive(clock: clock, tick: tick, ticks: lastTick, recorders: [recorder], sourceLocation: sourceLocation) {
      index in
      for (source, ticks) in timelines where index < ticks.count {
        for event in ticks[index] {
          source.deliver(event)
          guard await clock.settle(sourceLocation: sourceLocation) else { return false }
        }
      }
      return true
    }
    recorder.close()  // what the cancellation below ends is not the output's own end
    collector.cancel()
    await collector.value
    return recorder.diagram()
  }

  /// Iterates what `build` makes, recording each event at its tick.
  static func record<Output: AsyncSequence>(
    _ build: @Sendable (MarbleInputs, TestClock) -> Output, _ inputs: MarbleInputs, _ clock: TestClock,
    into recorder: MarbleRecorder
  ) async where Output.Element: CustomStringConvertible {
    var iterator = build(inputs, clock).makeAsyncIterator()
    do {
      while let element = try await iterator.next() { recorder.record(element.description) }
      recorder.record("|")
    } catch {
      recorder.record("^")
    }
  }

  /// The tick loop every marble harness shares: at each tick, the timers
  /// due before it, then `deliver` (the tick's inputs), then the timers due
  /// at it, settling after each step and calling `afterEachStep` once
  /// settled. Every recorder's tick follows the loop's. Stops early once
  /// the first recorder has seen the end, or when the calling task is
  /// cancelled.
  static func drive(
    clock: TestClock, tick: Duration, ticks: Int, recorders: [MarbleRecorder], sourceLocation: SourceLocation,
    afterEachStep: (@Sendable () async -> Void)? = nil,
    deliver: (Int) async -> Bool
  ) async {
    guard await clock.settle(sourceLocation: sourceLocation) else { return }
    await afterEachStep?()
    for index in 0..<ticks {
      for recorder in recorders { recorder.tick = index }
      let instant = ManualInstant(offset: tick * index)
      guard
        await clock.fire(
          through: instant, including: false, sourceLocation: sourceLocation, afterEachStep: afterEachStep)
      else { return }
      guard await deliver(index) else { return }
      guard
        await clock.fire(
          through: instant, including: true, sourceLocation: sourceLocation, afterEachStep: afterEachStep)
      else { return }
      if recorders.first?.ended == true { return }
    }
  }
}

/// The error a marble input throws at `^`.
public struct MarbleError: Error, Equatable, Sendable {
  /// The error a `^` in a diagram throws.
  public init() {}
}

/// The named inputs of a marble test.
public struct MarbleInputs: Sendable {
  let sources: [String: MarbleSource]
  let sourceLocation: SourceLocation

  /// The input with `name`. A name the run did not declare fails the test
  /// (at the run's call) and gives an input that ends at once.
  public subscript(_ name: String) -> MarbleSource {
    guard let source = sources[name] else {
      TestFailure.record(
        "Marble: no input named \"\(name)\"; the run declares \(sources.keys.sorted())", sourceLocation: sourceLocation)
      return MarbleSource(name: name, ended: true)
    }
    return source
  }
}

enum MarbleEvent<Value: Sendable>: Sendable {
  case element(Value)
  case finish
  case fail

  func map<T: Sendable>(_ transform: (Value) -> T) -> MarbleEvent<T> {
    switch self {
    case .element(let value): .element(transform(value))
    case .finish: .finish
    case .fail: .fail
    }
  }
}

extension MarbleEvent where Value == String {
  /// What is malformed in `diagram` (an unclosed `[` or `(`, a nested `(`,
  /// a `)` or `]` with no opening), or nil: the harnesses check each diagram
  /// first and fail the test at the run instead of trapping.
  static func problem(in diagram: String) -> String? {
    var inGroup = false
    var inName = false
    for character in diagram {
      switch character {
      case "[" where !inName: inName = true
      case "]" where inName: inName = false
      case "]": return "a ] with no ["
      case _ where inName: continue
      case "(" where inGroup: return "a ( inside a ("
      case "(": inGroup = true
      case ")" where inGroup: inGroup = false
      case ")": return "a ) with no ("
      default: continue
      }
    }
    if inName { return "an unclosed [" }
    if inGroup { return "an unclosed (" }
    return nil
  }

  /// One entry per tick: the events at that tick (see ``Marble`` for the
  /// notation). A name in `names` takes as many ticks as it has characters.
  static func parse(_ diagram: String, names: Set<String> = []) -> [[MarbleEvent]] {
    let characters = Array(diagram.filter { $0 != " " })
    let longestFirst = names.filter { $0.count > 1 }.sorted { $0.count > $1.count }.map(Array.init)
    var ticks: [[MarbleEvent]] = []
    var group: [MarbleEvent]?
    var index = 0
    func add(_ event: MarbleEvent?, span: Int = 1) {
      if group != nil {
        if let event { group!.append(event) }
      } else {
        ticks.append(event.map { [$0] } ?? [])
        for _ in 1..<max(span, 1) { ticks.append([]) }
      }
    }
    while index < characters.count {
      let character = characters[index]
      switch character {
      case "-": add(nil)
      case "|": add(.finish)
      case "^", "#": add(.fail)
      case "(":
        group = group ?? []  // a nested ( is reported by `problem(in:)`
      case ")":
        ticks.append(group ?? [])
        group = nil
      case "[":
        // An unclosed [ (reported by `problem(in:)`) takes the rest as its name.
        let close = characters[index...].firstIndex(of: "]") ?? characters.count
        add(.element(String(characters[(index + 1)..<close])))
        index = close
      default:
        if let name = longestFirst.first(where: { characters[index...].starts(with: $0) }) {
          add(.element(String(name)), span: group == nil ? name.count : 1)
          index += name.count
          continue
        }
        add(.element(String(character)))
      }
      index += 1
    }
    return ticks
  }
}

/// A hot marble input: the elements of one diagram, each delivered at its
/// tick to the task iterating it (lost if none is), throwing ``MarbleError``
/// at `^`. One iteration at a time; iterating again starts at the current
/// tick. ``MarbleSource`` is the string form that ``Marble`` hands out;
/// ``FeatureTimeline`` hands out inputs of the feature's own values.
public final class MarbleInput<Element: Sendable>: AsyncSequence, Sendable {
  /// The type of error iteration can throw.
  public typealias Failure = MarbleError

  private struct State {
    var subscribed = false
    /// An input made for a name the run does not declare: it ends at once.
    var ended = false
    var queue: [MarbleEvent<Element>] = []
    var waiter: UnsafeContinuation<MarbleEvent<Element>?, Never>?
  }

  let name: String
  private let state = Locked(State())

  init(name: String, ended: Bool = false) {
    self.name = name
    if ended { state.withLock { $0.ended = true } }
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  public func makeAsyncIterator() -> Iterator {
    state.withLock { state in
      state.subscribed = true
      state.queue = []
    }
    return Iterator(source: self)
  }

  /// Hands `event` to the iterating task; lost if nothing iterates.
  func deliver(_ event: MarbleEvent<Element>) {
    let waiter = state.withLock { state -> UnsafeContinuation<MarbleEvent<Element>?, Never>? in
      guard state.subscribed else { return nil }
      guard let waiter = state.waiter else {
        state.queue.append(event)
        return nil
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume(returning: event)
  }

  fileprivate func next() async -> MarbleEvent<Element>? {
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<MarbleEvent<Element>?, Never>) in
        let immediate = state.withLock { state -> MarbleEvent<Element>?? in
          if !state.queue.isEmpty { return .some(state.queue.removeFirst()) }
          if !state.subscribed || state.ended { return .some(nil) }
          state.waiter = continuation
          return nil
        }
        if let immediate { continuation.resume(returning: immediate) }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        state.subscribed = false
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: nil)
    }
  }

  fileprivate func unsubscribe() {
    state.withLock { state in
      state.subscribed = false
      state.queue = []
    }
  }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    let source: MarbleInput
    var done = false

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    public mutating func next() async throws(MarbleError) -> Element? {
      guard !done else { return nil }
      switch await source.next() {
      case .element(let value)?: return value
      case .fail?:
        done = true
        source.unsubscribe()
        throw MarbleError()
      case .finish?, nil:
        done = true
        source.unsubscribe()
        return nil
      }
    }
  }
}

/// A hot marble input of one-character (or `[bracketed]`) strings: what
/// ``Marble/run(_:names:tick:extraTicks:fileID:filePath:line:column:_:)`` hands its `build` closure.
public typealias MarbleSource = MarbleInput<String>

/// What a marble harness saw, tick by tick.
final class MarbleRecorder: Sendable {
  private struct State {
    var tick = 0
    var events: [(tick: Int, text: String)] = []
    var ended = false
    var closed = false
  }

  private let state = Locked(State())

  var tick: Int {
    get { state.withLock { $0.tick } }
    set { state.withLock { $0.tick = newValue } }
  }

  var ended: Bool { state.withLock { $0.ended } }

  /// Ends the recording: later events are not recorded (the run is over).
  func close() {
    state.withLock { $0.closed = true }
  }

  /// Records `text` at the current tick: `|` and `^` end the diagram.
  func record(_ text: String) {
    state.withLock { state in
      guard !state.closed else { return }
      state.events.append((state.tick, text))
      if text == "|" || text == "^" { state.ended = true }
    }
  }

  /// The recorded events as a diagram (see ``Marble``).
  func diagram() -> String {
    state.withLock { state in Self.diagram(state.events) }
  }

  static func diagram(_ events: [(tick: Int, text: String)]) -> String {
    guard let last = events.last?.tick else { return "" }
    var byTick = [[String]](repeating: [], count: last + 1)
    for (tick, text) in events {
      byTick[tick].append(text.count == 1 || text == "|" || text == "^" ? text : "[\(text)]")
    }
    return byTick.map { symbols in
      switch symbols.count {
      case 0: "-"
      case 1: symbols[0]
      default: "(" + symbols.joined() + ")"
      }
    }.joined()
  }
}
