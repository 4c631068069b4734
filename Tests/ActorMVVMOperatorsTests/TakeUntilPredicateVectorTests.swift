import ActorMVVM
import ActorMVVMOperators
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// RxSwift's own vectors for `take(until:behavior:)` with a predicate
/// (Tests/RxSwiftTests/Observable+TakeUntilTests.swift, "TakeUntil Predicate
/// Tests"), and its `take(while:)` vectors whose predicate throws
/// (Observable+TakeWhileTests.swift: RxSwift's `take(while:)` is
/// `take(until: { try !predicate($0) })`), on marble diagrams as in
/// `TakeUntilVectorTests`: the hot source is subscribed at 200, 5 units a
/// tick. A throwing predicate throws the sequence's own `Failure`: here
/// `MarbleError`, RxSwift's `testError`.
@Suite("take(until:) with a predicate: RxSwift's vectors (issue #51)", .testBubble)
struct TakeUntilPredicateVectorTests {
  static let l: [(time: Int, symbol: String)] = [
    (150, "1"), (210, "2"), (220, "3"), (230, "4"), (240, "5"), (250, "|"),
  ]
  static let failing: [(time: Int, symbol: String)] = [(150, "1"), (210, "2"), (220, "3"), (225, "^")]

  static func take(
    _ l: [(time: Int, symbol: String)], unit: Int = 5,
    until predicate: @escaping @Sendable (String) throws(MarbleError) -> Bool, _ behavior: TakeUntilBehavior
  ) async -> String {
    await Marble.run(["l": rxDiagram(l, unit: unit)], tick: .milliseconds(unit)) { inputs, _ in
      inputs["l"].take(until: predicate, behavior: behavior)
    }
  }

  @Test("testTakeUntilPredicate_Exclusive_Preempt_SomeData_Next: 2, 3, completed at 230 without 4")
  func exclusiveNext() async {
    let output = await Self.take(Self.l, until: { $0 == "4" }, .exclusive)
    #expect(output == rxDiagram([(210, "2"), (220, "3"), (230, "|")], unit: 5))
  }

  @Test("testTakeUntilPredicate_Inclusive_Preempt_SomeData_Next: 2, 3, then 4 and completed at 230")
  func inclusiveNext() async {
    let output = await Self.take(Self.l, until: { $0 == "4" }, .inclusive)
    #expect(output == rxDiagram([(210, "2"), (220, "3"), (230, "4"), (230, "|")], unit: 5))
  }

  @Test("testTakeUntilPredicate_Exclusive_Preempt_SomeData_Error: the source's error at 225")
  func exclusiveError() async {
    let output = await Self.take(Self.failing, until: { $0 == "4" }, .exclusive)
    #expect(output == rxDiagram([(210, "2"), (220, "3"), (225, "^")], unit: 5))
  }

  @Test("testTakeUntilPredicate_Inclusive_Preempt_SomeData_Error: the source's error at 225")
  func inclusiveError() async {
    let output = await Self.take(Self.failing, until: { $0 == "4" }, .inclusive)
    #expect(output == rxDiagram([(210, "2"), (220, "3"), (225, "^")], unit: 5))
  }

  @Test("testTakeUntilPredicate_Exclusive_AlwaysFailingPredicate: everything, completed at 250")
  func exclusiveAlwaysFailing() async {
    #expect(await Self.take(Self.l, until: { _ in false }, .exclusive) == rxDiagram(Array(Self.l.dropFirst()), unit: 5))
  }

  @Test("testTakeUntilPredicate_Inclusive_AlwaysFailingPredicate: everything, completed at 250")
  func inclusiveAlwaysFailing() async {
    #expect(await Self.take(Self.l, until: { _ in false }, .inclusive) == rxDiagram(Array(Self.l.dropFirst()), unit: 5))
  }

  @Test("testTakeUntilPredicate_Exclusive_ImmediatelySuccessfulPredicate: completed at 210")
  func exclusiveImmediatelySuccessful() async {
    #expect(await Self.take(Self.l, until: { _ in true }, .exclusive) == rxDiagram([(210, "|")], unit: 5))
  }

  @Test("testTakeUntilPredicate_Inclusive_ImmediatelySuccessfulPredicate: 2 and completed at 210")
  func inclusiveImmediatelySuccessful() async {
    #expect(await Self.take(Self.l, until: { _ in true }, .inclusive) == rxDiagram([(210, "2"), (210, "|")], unit: 5))
  }

  @Test(
    "testTakeWhile_Exclusive_Throw, Inclusive_Throw: the predicate's third call throws at 290, as the source's type",
    arguments: [TakeUntilBehavior.exclusive, .inclusive])
  func predicateThrows(behavior: TakeUntilBehavior) async {
    let xs: [(time: Int, symbol: String)] = [
      (90, "[-1]"), (110, "[-1]"), (210, "2"), (260, "5"), (290, "[13]"), (320, "3"), (350, "7"), (390, "4"),
      (410, "[17]"), (450, "8"), (500, "[23]"), (600, "|"),
    ]
    let invoked = TestCounter()
    let untilNotPrime: @Sendable (String) throws(MarbleError) -> Bool = { element throws(MarbleError) in
      invoked.increment()
      if invoked.value == 3 { throw MarbleError() }  // RxSwift's `throw testError`
      let number = Int(element)!
      return !(number > 1 && (2..<number).allSatisfy { number % $0 != 0 })
    }
    let output = await Self.take(xs, unit: 10, until: untilNotPrime, behavior)
    #expect(output == rxDiagram([(210, "2"), (260, "5"), (290, "^")], unit: 10))
    #expect(invoked.value == 3)
  }

  @Test("A consumer cancelled while it waits gets nil, not the late answer, even one the predicate would end on")
  func cancelledWhileWaiting() async {
    // Uncancelled, these give [1, 2, 3] and [1, 2, nil].
    let never = await LateAnswer.cancelledWhileSecondWaits { $0.take(until: { _ in false }, behavior: .exclusive) }
    let atTwo = await LateAnswer.cancelledWhileSecondWaits { $0.take(until: { $0 == 2 }, behavior: .inclusive) }
    #expect(never == [1, nil, nil])
    #expect(atTwo == [1, nil, nil])
  }
}
