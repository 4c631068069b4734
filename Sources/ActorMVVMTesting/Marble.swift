import ActorMVVM

/// Marble-diagram tests for `AsyncSequence` operators on virtual time: a
/// diagram string per input in, the operator's diagram string out, so a
/// test reads like the behaviour it pins.
///
/// ```swift
/// let output = await Marble.run(["a": "-1-2----3---|"]) { inputs, clock in
///   inputs["a"].debounce(for: .milliseconds(300), clock: clock)
/// }
/// #expect(output == "-----2------(3|)")
/// ```
///
/// **Diagrams.** Each character is one tick (``run(_:tick:extraTicks:_:)``'s
/// `tick`, 100 ms by default, on a ``TestClock``): `-` nothing, a letter or
/// digit an element (the one-character string), `|` the end, `^` a
/// ``MarbleError``, `(…)` several events in one tick, in order. Spaces are
/// ignored. The output diagram uses the same symbols; an element whose
/// description is longer than one character is written `[…]`, and
/// trailing `-` are dropped.
///
/// **Inputs are hot**, as RxTest's hot observables: an event reaches the
/// task iterating the input at that tick, and is lost if nothing iterates
/// it then (an inner sequence of `flatMapLatest` not yet, or no longer,
/// subscribed).
///
/// **Determinism.** At each tick the harness advances the clock, delivers
/// that tick's events one at a time, and after each step waits until every
/// task of the operator under test is parked again (on an input, on the
/// clock, or waiting for its consumer): exact quiescence, counted by a
/// probe the operators report to, never a sleep or a yield. So the output
/// is the same on every run, whatever the machine's load. (The probe sees
/// ActorMVVM's operators, marble inputs and `TestClock`; an operator built
/// on other tasks keeps the harness waiting up to 5 s a step, and the
/// output then says `!` at that tick.)
public enum Marble {
  /// Runs `build` over the inputs' diagrams and returns the output diagram.
  /// - Parameters:
  ///   - inputs: each input's name and diagram.
  ///   - tick: the virtual time one character stands for.
  ///   - extraTicks: ticks to keep running after the longest input diagram,
  ///     for timers to fire.
  ///   - build: makes the sequence under test from the inputs and the clock.
  public static func run<Output: AsyncSequence>(
    _ inputs: KeyValuePairs<String, String>,
    tick: Duration = .milliseconds(100),
    extraTicks: Int = 10,
    _ build: @escaping @Sendable (MarbleInputs, TestClock) -> Output
  ) async -> String where Output.Element: CustomStringConvertible {
    let clock = TestClock()
    let probe = Quiescence()
    var timelines: [(source: MarbleSource, ticks: [[MarbleEvent]])] = []
    var sources: [String: MarbleSource] = [:]
    for (name, diagram) in inputs {
      let source = MarbleSource(name: name)
      sources[name] = source
      timelines.append((source, MarbleEvent.parse(diagram)))
    }
    let recorder = MarbleRecorder()
    let marbleInputs = MarbleInputs(sources: sources)

    probe.busy()
    let collector = Task {
      await Quiescence.$current.withValue(probe) {
        let sequence = build(marbleInputs, clock)
        var iterator = sequence.makeAsyncIterator()
        do {
          while let element = try await iterator.next() { recorder.record(element.description) }
          recorder.record("|")
        } catch {
          recorder.record("^")
        }
      }
      probe.idle()
    }

    let lastTick = (timelines.map(\.ticks.count).max() ?? 0) + extraTicks
    await settle(probe, recorder)
    for index in 0..<lastTick {
      recorder.tick = index
      if index > 0 {
        await clock.advance(by: tick)
        await settle(probe, recorder)
      }
      for (source, ticks) in timelines where index < ticks.count {
        for event in ticks[index] {
          source.deliver(event)
          await settle(probe, recorder)
        }
      }
      if recorder.ended { break }
    }
    collector.cancel()
    await collector.value
    return recorder.diagram
  }

  /// Waits for quiescence, at most 5 s of real time (a guard against an
  /// operator the probe cannot see; it marks the tick with `!`).
  static func settle(_ probe: Quiescence, _ recorder: MarbleRecorder) async {
    let timedOut = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await probe.quiet()
        return false
      }
      group.addTask {
        try? await ContinuousClock().sleep(for: .seconds(5))
        return !Task.isCancelled
      }
      let first = await group.next() ?? false
      group.cancelAll()
      if first { probe.releaseWaiters() }
      return first
    }
    if timedOut { recorder.record("!") }
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

  /// The input with `name`; traps if the test declared none by that name.
  public subscript(_ name: String) -> MarbleSource {
    guard let source = sources[name] else { preconditionFailure("no marble input named \(name)") }
    return source
  }
}

enum MarbleEvent: Sendable {
  case element(String)
  case finish
  case fail

  /// One entry per tick: the events at that tick.
  static func parse(_ diagram: String) -> [[MarbleEvent]] {
    var ticks: [[MarbleEvent]] = []
    var group: [MarbleEvent]?
    for character in diagram where character != " " {
      let event: MarbleEvent?
      switch character {
      case "-": event = nil
      case "|": event = .finish
      case "^": event = .fail
      case "(":
        precondition(group == nil, "nested ( in marble diagram \(diagram)")
        group = []
        continue
      case ")":
        ticks.append(group ?? [])
        group = nil
        continue
      default: event = .element(String(character))
      }
      if group != nil {
        if let event { group!.append(event) }
      } else {
        ticks.append(event.map { [$0] } ?? [])
      }
    }
    return ticks
  }
}

/// A hot marble input: an `AsyncSequence` of one-character strings that
/// throws ``MarbleError``. One iteration at a time.
public final class MarbleSource: AsyncSequence, Sendable {
  /// The type of the elements.
  public typealias Element = String
  /// The type of error iteration can throw.
  public typealias Failure = MarbleError

  private struct State {
    var subscribed = false
    var queue: [MarbleEvent] = []
    var waiter: (continuation: UnsafeContinuation<MarbleEvent?, Never>, probe: Quiescence?)?
  }

  let name: String
  private let state = Locked(State())

  init(name: String) { self.name = name }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  public func makeAsyncIterator() -> Iterator {
    state.withLock { state in
      state.subscribed = true
      state.queue = []
    }
    return Iterator(source: self)
  }

  /// Hands `event` to the iterating task; lost if nothing iterates.
  func deliver(_ event: MarbleEvent) {
    let waiter = state.withLock { state -> (UnsafeContinuation<MarbleEvent?, Never>, Quiescence?)? in
      guard state.subscribed else { return nil }
      guard let waiter = state.waiter else {
        state.queue.append(event)
        return nil
      }
      state.waiter = nil
      return waiter
    }
    if let (continuation, probe) = waiter {
      probe?.busy()
      continuation.resume(returning: event)
    }
  }

  fileprivate func next() async -> MarbleEvent? {
    let probe = Quiescence.current
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<MarbleEvent?, Never>) in
        let immediate = state.withLock { state -> MarbleEvent?? in
          if !state.queue.isEmpty { return .some(state.queue.removeFirst()) }
          if !state.subscribed { return .some(nil) }
          state.waiter = (continuation, probe)
          return nil
        }
        if let immediate { continuation.resume(returning: immediate) } else { probe?.idle() }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        state.subscribed = false
        defer { state.waiter = nil }
        return state.waiter
      }
      if let (continuation, probe) = waiter {
        probe?.busy()
        continuation.resume(returning: nil)
      }
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
    /// The type of the elements.
    public typealias Element = String
    /// The type of error iteration can throw.
    public typealias Failure = MarbleError
    let source: MarbleSource
    var done = false

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    public mutating func next() async throws(MarbleError) -> String? {
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

/// What the collector saw, tick by tick.
final class MarbleRecorder: Sendable {
  private struct State {
    var tick = 0
    var events: [(tick: Int, text: String)] = []
    var ended = false
  }

  private let state = Locked(State())

  var tick: Int {
    get { state.withLock { $0.tick } }
    set { state.withLock { $0.tick = newValue } }
  }

  var ended: Bool { state.withLock { $0.ended } }

  func record(_ text: String) {
    state.withLock { state in
      let symbol = text.count == 1 || text == "|" ? text : "[\(text)]"
      state.events.append((state.tick, symbol))
      if text == "|" || text == "^" { state.ended = true }
    }
  }

  var diagram: String {
    state.withLock { state in
      guard let last = state.events.last?.tick else { return "" }
      var diagram = ""
      for tick in 0...last {
        let symbols = state.events.filter { $0.tick == tick }.map(\.text)
        switch symbols.count {
        case 0: diagram += "-"
        case 1: diagram += symbols[0]
        default: diagram += "(" + symbols.joined() + ")"
        }
      }
      return diagram
    }
  }
}
