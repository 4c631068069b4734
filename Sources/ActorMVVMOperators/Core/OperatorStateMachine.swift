import ActorMVVM

/// The pure half of an operator: what it does with each event, with no
/// tasks, locks or clocks in sight (STYLE §3). An ``OperatorCore`` owns one,
/// calls ``handle(_:output:)`` under its lock for every event an upstream,
/// inner sequence or timer delivers, and performs the command it returns
/// once the lock is released.
///
/// Time operators receive events already stamped with the instant they
/// arrived, so what a machine decides never depends on when its consumer
/// pulls.
@usableFromInline
protocol OperatorStateMachine: SendableMetatype {
  associatedtype Event: Sendable
  associatedtype Element: Sendable
  /// Work to do outside the lock (start a timer, switch an inner sequence).
  associatedtype Command

  /// Handles `event`: appends what it emits to `output`, and sets
  /// `output.end` when the operator is over (after which it is never
  /// called again).
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Command?
}

/// What an operator has emitted and not yet handed to its consumer, and how
/// it ended, if it has.
@usableFromInline
struct OperatorOutput<Element> {
  @usableFromInline
  enum End {
    case finished
    case failed(any Error)
  }

  @usableFromInline var elements: [Element] = []
  @usableFromInline var end: End?

  @inlinable init() {}

  @inlinable mutating func emit(_ element: Element) { elements.append(element) }
  @inlinable mutating func finish() { if end == nil { end = .finished } }
  @inlinable mutating func fail(_ error: any Error) { if end == nil { end = .failed(error) } }
}
