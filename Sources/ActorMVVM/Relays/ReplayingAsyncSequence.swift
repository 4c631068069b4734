/// An `AsyncSequence` whose every new iteration starts with an element it
/// has right now: a `BehaviorRelay`'s shape. ``StateRelay/Values`` is one;
/// so is `combineLatest(_:_:)` of two of them (in `ActorMVVMOperators`).
///
/// `withLatestFrom(_:)` reads ``currentElement`` when it
/// starts, which is how it matches Rx, where subscribing to a
/// `BehaviorRelay` delivers its value synchronously: a tap that arrives
/// before the other sequence's task has run still pairs with that value.
public protocol ReplayingAsyncSequence: AsyncSequence {
  /// The element an iteration started now would begin with, or nil if
  /// there is none yet. Never suspends; callable from any thread.
  var currentElement: Element? { get }
}
