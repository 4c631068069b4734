/// An `AsyncSequence` whose every new iteration starts with an element it
/// has right now: a `BehaviorRelay`'s shape. ``StateRelay/Values`` is one;
/// so are the operators over one that emit when it does, as Rx's emit
/// inside `subscribe`: ActorMVVM's `map`, `filter` and `compactMap`, and in
/// `ActorMVVMOperators` `combineLatest` of two, `merge`, `removeDuplicates`
/// and `prepend`.
///
/// `withLatestFrom(_:)` reads ``currentElement`` when it
/// starts, which is how it matches Rx, where subscribing to a
/// `BehaviorRelay` delivers its value synchronously: a tap that arrives
/// before the other sequence's task has run still pairs with that value.
public protocol ReplayingAsyncSequence: AsyncSequence {
  /// The element an iteration started now would begin with, or nil if
  /// there is none yet. Never suspends; callable from any thread.
  var currentElement: Element? { get }

  /// Every element an iteration started now begins with before it could
  /// wait for anything, in order: what an Rx observable emits inside
  /// `subscribe`. `[currentElement]` (or none) unless the sequence says
  /// otherwise: `merge(relay.values, AsyncJust(1))` begins with two.
  /// Never suspends.
  var elementsAtStart: [Element] { get }
}

extension ReplayingAsyncSequence {
  /// `currentElement`, if there is one.
  public var elementsAtStart: [Element] { currentElement.map { [$0] } ?? [] }
}
