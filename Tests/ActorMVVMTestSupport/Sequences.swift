// Sequences and helpers shared by the test targets (`package` access).
import ActorMVVM
import ActorMVVMSupport

/// RxTest's recorded events as a marble diagram: time 200 (RxTest's
/// subscription) is tick 0, one tick per `unit` of RxTest's virtual time;
/// events before the subscription are dropped (hot inputs).
package func rxDiagram(_ events: [(time: Int, symbol: String)], unit: Int) -> String {
  var ticks: [Int: [String]] = [:]
  for (time, symbol) in events where time >= 200 { ticks[(time - 200) / unit, default: []].append(symbol) }
  guard let last = ticks.keys.max() else { return "" }
  return (0...last).map { tick in
    let symbols = ticks[tick] ?? []
    return symbols.isEmpty ? "-" : symbols.count == 1 ? symbols[0] : "(" + symbols.joined() + ")"
  }.joined()
}

/// Whether overload resolution gave `value` the type `type` (checked at run
/// time in a generic context, so the compiler does not fold it).
package func has<Value, Expected>(_ value: Value, type: Expected.Type) -> Bool { value is Expected }

/// Every element of `sequence` until it throws or ends, its typed error,
/// and what one more `next()` returns after that.
package func drain<S: AsyncSequence<Int, FailingError>>(_ sequence: S) async -> (
  elements: [Int], error: FailingError?, afterwards: Int?
) {
  var iterator = sequence.makeAsyncIterator()
  var elements: [Int] = []
  var failure: FailingError?
  do throws(FailingError) {
    while let value = try await iterator.next(isolation: nil) { elements.append(value) }
  } catch {
    failure = error
  }
  return (elements, failure, try? await iterator.next(isolation: nil))
}

package enum FailingError: Error, Equatable { case boom }

/// A chainable sequence that yields `elements`, then throws, then ends.
package struct Failing: ChainableAsyncSequence, Sendable {
  package typealias Element = Int
  package typealias Failure = FailingError
  package let elements: [Int]
  package let failsWith: FailingError

  package init(elements: [Int], failsWith: FailingError) {
    self.elements = elements
    self.failsWith = failsWith
  }

  package func makeAsyncIterator() -> Iterator { Iterator(elements: elements[...], failsWith: failsWith) }

  package struct Iterator: AsyncIteratorProtocol {
    package var elements: ArraySlice<Int>
    package var failsWith: FailingError?

    package mutating func next() async throws(FailingError) -> Int? { try await next(isolation: nil) }

    package mutating func next(isolation actor: isolated (any Actor)?) async throws(FailingError) -> Int? {
      if let first = elements.popFirst() { return first }
      if let error = failsWith {
        failsWith = nil
        throw error
      }
      return nil
    }
  }
}

extension Array where Element: Sendable {
  /// The array as a non-throwing `AsyncSequence`.
  package var async: AsyncStream<Element> {
    AsyncStream { continuation in
      for element in self { continuation.yield(element) }
      continuation.finish()
    }
  }
}

extension Array {
  package init<S: AsyncSequence>(_ sequence: S) async where S.Element == Element, S.Failure == Never {
    var result: [Element] = []
    for await element in sequence { result.append(element) }
    self = result
  }
}

/// A thread-safe count for tests.
package final class TestCounter: Sendable {
  private let count = Locked(0)
  package init() {}
  package func increment() { count.withLock { $0 += 1 } }
  package var value: Int { count.withLock { $0 } }
}
