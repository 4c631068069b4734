/// A feature's logic as a pure state machine: ActorMVVM's replacement for a
/// `ViewModel { Input; Output; transform }`.
///
/// `reduce(into:_:)` is synchronous, so no `await` can interleave two
/// transitions: a ``Feature`` runs it one input at a time. Everything
/// asynchronous (requests, timers, persistence) is described by the returned
/// ``Effect`` and fed back as inputs, so every change of state is an input
/// you can name, log and test.
///
/// Dependencies (use cases, clocks, stores) are stored properties of the
/// conforming type and injected by its initialiser, so a machine must be
/// `Sendable`: its effects capture them and run off the feature's actor.
///
/// ```swift
/// struct Counter: StateMachine {
///   struct State: Equatable, Sendable { var count = 0 }
///   enum Input: Sendable { case incrementTapped, resetTapped }
///   enum Output: Sendable { case reachedTen }
///
///   func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
///     switch input {
///     case .incrementTapped:
///       state.count += 1
///       return state.count == 10 ? .emit(.reachedTen) : .none
///     case .resetTapped:
///       state.count = 0
///       return .none
///     }
///   }
/// }
/// ```
public protocol StateMachine: Sendable {
  /// Everything the view renders. Compared to skip publishing unchanged states.
  associatedtype State: Equatable & Sendable
  /// What happened: user events, and results fed back by effects.
  associatedtype Input: Sendable
  /// What should happen outside the screen: navigation, alerts, URLs.
  associatedtype Output: Sendable

  /// Applies `input` to `state` and says what to do next. Must not block.
  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output>
}
