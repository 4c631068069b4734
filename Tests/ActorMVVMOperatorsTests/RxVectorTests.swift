import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Foundation
import Testing

@testable import ActorMVVMOperators

/// RxSwift's own vectors (Tests/RxSwiftTests/Observable+ZipTests.swift,
/// Observable+CombineLatestTests+arity.swift), times and values translated
/// into marble diagrams on our public API.
@Suite("RxSwift's vectors on our operators", .testBubble)
struct RxVectorTests {
  // zip: 5 units a tick (RxSwift's zip vectors use 215, 225, …).

  @Test("testZip_NeverEmpty: a never-ending and an empty source never complete")
  func zipNeverEmpty() async {
    let output = await Marble.run(
      ["n": "", "e": rxDiagram([(210, "|")], unit: 5)], tick: .milliseconds(5), extraTicks: 40
    ) { inputs, _ in
      zip(inputs["n"], inputs["e"]).map { $0 + $1 }
    }
    #expect(output == "")
  }

  @Test("testZip_EmptyNonEmpty: completes when both have, at 220")
  func zipEmptyNonEmpty() async {
    let output = await Marble.run(
      ["e": rxDiagram([(210, "|")], unit: 5), "o": rxDiagram([(215, "2"), (220, "|")], unit: 5)],
      tick: .milliseconds(5)
    ) { inputs, _ in zip(inputs["e"], inputs["o"]).map { $0 + $1 } }
    #expect(output == rxDiagram([(220, "|")], unit: 5))
  }

  @Test("testZip_NonEmptyNonEmpty: 5 at 220, completed at 240")
  func zipNonEmptyNonEmpty() async {
    let output = await Marble.run(
      [
        "a": rxDiagram([(215, "2"), (230, "|")], unit: 5),
        "b": rxDiagram([(220, "3"), (240, "|")], unit: 5),
      ], tick: .milliseconds(5)
    ) { inputs, _ in zip(inputs["a"], inputs["b"]).map { String(Int($0)! + Int($1)!) } }
    #expect(output == rxDiagram([(220, "5"), (240, "|")], unit: 5))
  }

  @Test("testZip_LeftCompletesFirst and RightCompletesFirst: completed at 225")
  func zipEitherCompletesFirst() async {
    let o1 = rxDiagram([(210, "2"), (220, "|")], unit: 5)
    let o2 = rxDiagram([(215, "4"), (225, "|")], unit: 5)
    let expected = rxDiagram([(215, "6"), (225, "|")], unit: 5)
    let left = await Marble.run(["o1": o1, "o2": o2], tick: .milliseconds(5)) { inputs, _ in
      zip(inputs["o1"], inputs["o2"]).map { String(Int($0)! + Int($1)!) }
    }
    let right = await Marble.run(["o1": o1, "o2": o2], tick: .milliseconds(5)) { inputs, _ in
      zip(inputs["o2"], inputs["o1"]).map { String(Int($0)! + Int($1)!) }
    }
    #expect(left == expected)
    #expect(right == expected)
  }

  /// RxSwift's two-source zip vectors not spelled out above: (name, first
  /// source, second source, expected), 5 units a tick.
  static let zipVectors: [(String, [(Int, String)], [(Int, String)], [(Int, String)])] = [
    ("EmptyNever", [(210, "|")], [], []),
    ("NonEmptyEmpty", [(215, "2"), (220, "|")], [(210, "|")], [(220, "|")]),
    ("NeverNonEmpty", [], [(215, "2"), (220, "|")], []),
    ("NonEmptyNever", [(215, "2"), (220, "|")], [], []),
    ("EmptyError", [(230, "|")], [(220, "^")], [(220, "^")]),
    ("ErrorEmpty", [(220, "^")], [(230, "|")], [(220, "^")]),
    ("NeverError", [], [(220, "^")], [(220, "^")]),
    ("ErrorNever", [(220, "^")], [], [(220, "^")]),
    ("ErrorError", [(230, "^")], [(220, "^")], [(220, "^")]),
    ("SomeError", [(215, "2"), (230, "|")], [(220, "^")], [(220, "^")]),
    ("ErrorSome", [(220, "^")], [(215, "2"), (230, "|")], [(220, "^")]),
  ]

  @Test("testZip_EmptyNever … ErrorSome: ends and errors of two sources", arguments: zipVectors.indices)
  func zipEndsAndErrors(index: Int) async {
    let (name, a, b, expected) = Self.zipVectors[index]
    let output = await Marble.run(
      ["a": rxDiagram(a.map { ($0.0, $0.1) }, unit: 5), "b": rxDiagram(b.map { ($0.0, $0.1) }, unit: 5)],
      tick: .milliseconds(5), extraTicks: 40
    ) { inputs, _ in zip(inputs["a"], inputs["b"]).map { $0 + $1 } }
    #expect(output == rxDiagram(expected.map { ($0.0, $0.1) }, unit: 5), "testZip_\(name)")
  }

  @Test("testZip_NAry_error: [1,2,3] at 230, then e0's error at 250")
  func zipArrayError() async {
    let output = await Marble.run(
      [
        "e0": rxDiagram([(210, "1"), (250, "^")], unit: 10),
        "e1": rxDiagram([(220, "2"), (240, "5"), (410, "|")], unit: 10),
        "e2": rxDiagram([(230, "3"), (260, "6"), (400, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in zip([inputs["e0"], inputs["e1"], inputs["e2"]]).map { $0.joined() } }
    #expect(output == rxDiagram([(230, "[123]"), (250, "^")], unit: 10))
  }

  @Test("testZip_NAry_symmetric: [1,2,3] at 230, [4,5,6] at 260, completed at 420")
  func zipArraySymmetric() async {
    let output = await Marble.run(
      [
        "e0": rxDiagram([(210, "1"), (250, "4"), (420, "|")], unit: 10),
        "e1": rxDiagram([(220, "2"), (240, "5"), (410, "|")], unit: 10),
        "e2": rxDiagram([(230, "3"), (260, "6"), (400, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in zip([inputs["e0"], inputs["e1"], inputs["e2"]]).map { $0.joined() } }
    #expect(output == rxDiagram([(230, "[123]"), (260, "[456]"), (420, "|")], unit: 10))
  }

  @Test("testZip_NAry_asymmetric: completed at 310, when e1's 9 cannot be paired and the others are done")
  func zipArrayAsymmetric() async {
    let output = await Marble.run(
      [
        "e0": rxDiagram([(210, "1"), (250, "4"), (270, "|")], unit: 10),
        "e1": rxDiagram([(220, "2"), (240, "5"), (290, "7"), (310, "9"), (410, "|")], unit: 10),
        "e2": rxDiagram([(230, "3"), (260, "6"), (280, "8"), (300, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in zip([inputs["e0"], inputs["e1"], inputs["e2"]]).map { $0.joined() } }
    #expect(output == rxDiagram([(230, "[123]"), (260, "[456]"), (310, "|")], unit: 10))
  }

  @Test("combineLatest of an empty array emits the empty array, then completes (testCombineLatest_emptyArrayN)")
  func combineLatestEmptyArray() async {
    let output = await Marble.run([:]) { (_: MarbleInputs, _) in
      combineLatest([MarbleSource]()).map { String($0.count) }
    }
    #expect(output == "(0|)")
    var sums: [Int] = []
    for await sum in combineLatest([AsyncStream<Int>]()).map({ $0.reduce(0, +) }) { sums.append(sum) }
    #expect(sums == [0])
  }

  @Test("zip of an empty array completes at once (testZip_NAry_emptyArray)")
  func zipEmptyArray() async {
    let output = await Marble.run([:]) { (_: MarbleInputs, _) in
      zip([MarbleSource]()).map { $0.joined() }
    }
    #expect(output == "|")
  }

  // timeout: 5 units a tick; 42, 43, 44, 45 written a, b, c, d.

  @Test("testTimeout_Duetime_Simple: every element and the end in time")
  func timeoutSimple() async {
    let input = rxDiagram([(210, "a"), (225, "b"), (240, "c"), (250, "d"), (260, "|")], unit: 5)
    let output = await Marble.run(["xs": input], tick: .milliseconds(5)) { inputs, clock in
      inputs["xs"].timeout(.milliseconds(30), clock: clock)
    }
    #expect(output == input)
  }

  @Test("testTimeout_Duetime_Timeout_Exact: an element exactly at the deadline passes")
  func timeoutExact() async {
    let input = rxDiagram([(210, "a"), (220, "b"), (250, "c"), (260, "d"), (270, "|")], unit: 5)
    let output = await Marble.run(["xs": input], tick: .milliseconds(5)) { inputs, clock in
      inputs["xs"].timeout(.milliseconds(30), clock: clock)
    }
    #expect(output == input)
  }

  @Test("testTimeout_Duetime_Timeout: silent past the deadline throws at 245")
  func timeoutOccurs() async {
    let input = rxDiagram([(210, "a"), (220, "b"), (250, "c"), (260, "d"), (270, "|")], unit: 5)
    let output = await Marble.run(["xs": input], tick: .milliseconds(5)) { inputs, clock in
      inputs["xs"].timeout(.milliseconds(25), clock: clock)
    }
    #expect(output == rxDiagram([(210, "a"), (220, "b"), (245, "^")], unit: 5))
  }

  @Test("timeout: an end that reaches the machine after the deadline is a timeout, like an element")
  func timeoutLateEnd() async {
    var machine = TimeoutStateMachine<Int, ManualInstant>(
      interval: .milliseconds(100), deadline: ManualInstant(offset: .milliseconds(100)))
    var output = OperatorOutput<Int>()
    _ = machine.handle(.ended(nil, at: ManualInstant(offset: .milliseconds(101))), output: &output)
    guard case .failed(let error)? = output.end else {
      Issue.record("a late end finished normally")
      return
    }
    #expect(error is TimeoutError)
  }

  // throttle: 10 units a tick.

  static let throttleInput = rxDiagram(
    [(210, "2"), (250, "3"), (310, "4"), (350, "5"), (410, "6"), (450, "7"), (500, "|")], unit: 10)

  @Test("test_ThrottleTimeSpan_NotLatest_Completed: 2 at 210, 6 at 410, completed at 500")
  func throttleNotLatest() async {
    let output = await Marble.run(["xs": Self.throttleInput], tick: .milliseconds(10)) { inputs, clock in
      inputs["xs"].throttle(for: .milliseconds(200), clock: clock, latest: false)
    }
    #expect(output == rxDiagram([(210, "2"), (410, "6"), (500, "|")], unit: 10))
  }

  @Test("test_ThrottleTimeSpan_Completed: 6 at 410 (sent at once, one interval after 2), 7 and the end at 610")
  func throttleLatest() async {
    let output = await Marble.run(["xs": Self.throttleInput], tick: .milliseconds(10), extraTicks: 20) {
      inputs, clock in
      inputs["xs"].throttle(for: .milliseconds(200), clock: clock, latest: true)
    }
    #expect(output == rxDiagram([(210, "2"), (410, "6"), (610, "7"), (610, "|")], unit: 10))
  }

  /// Throttles `events` by 200 (10 units a tick).
  static func throttled(_ events: [(time: Int, symbol: String)], latest: Bool) async -> String {
    await Marble.run(["xs": rxDiagram(events, unit: 10)], tick: .milliseconds(10), extraTicks: 50) { inputs, clock in
      inputs["xs"].throttle(for: .milliseconds(200), clock: clock, latest: latest)
    }
  }

  static let throttleNoEnd: [(time: Int, symbol: String)] = [
    (210, "2"), (250, "3"), (310, "4"), (350, "5"), (410, "6"), (450, "7"),
  ]
  static let throttleError: [(time: Int, symbol: String)] = [
    (210, "2"), (250, "3"), (310, "4"), (350, "5"), (410, "^"), (450, "7"), (500, "|"),
  ]

  @Test("test_ThrottleTimeSpan_Never and NotLatest_Never: nothing", arguments: [true, false])
  func throttleNever(latest: Bool) async {
    #expect(await Self.throttled([], latest: latest) == "")
  }

  @Test("test_ThrottleTimeSpan_Empty and NotLatest_Empty: completed at 500", arguments: [true, false])
  func throttleEmpty(latest: Bool) async {
    #expect(await Self.throttled([(500, "|")], latest: latest) == rxDiagram([(500, "|")], unit: 10))
  }

  @Test("test_ThrottleTimeSpan_Error and NotLatest_Error: 2 at 210, the error at 410", arguments: [true, false])
  func throttleError(latest: Bool) async {
    let expected = rxDiagram([(210, "2"), (410, "^")], unit: 10)
    #expect(await Self.throttled(Self.throttleError, latest: latest) == expected)
  }

  @Test("test_ThrottleTimeSpan_NoEnd: 2, 6, 7 at 610; NotLatest_NoEnd: 2, 6")
  func throttleNoEnd() async {
    #expect(
      await Self.throttled(Self.throttleNoEnd, latest: true)
        == rxDiagram([(210, "2"), (410, "6"), (610, "7")], unit: 10))
    #expect(await Self.throttled(Self.throttleNoEnd, latest: false) == rxDiagram([(210, "2"), (410, "6")], unit: 10))
  }

  @Test("test_ThrottleTimeSpan_CompletedAfterDueTime: 2, 6, 7 at 610, completed at 900")
  func throttleCompletedAfterDueTime() async {
    let output = await Self.throttled(Self.throttleNoEnd + [(900, "|")], latest: true)
    #expect(output == rxDiagram([(210, "2"), (410, "6"), (610, "7"), (900, "|")], unit: 10))
  }

  // catch, catchAndReturn, scan(into:): 10 units a tick.

  @Test("testCatch_ErrorSpecific_Caught: 2, 3, then the fallback's 4 at 240, completed at 250")
  func catchSwitchesToTheFallback() async {
    let output = await Marble.run(
      [
        "o1": rxDiagram([(210, "2"), (220, "3"), (230, "^")], unit: 10),
        "o2": rxDiagram([(240, "4"), (250, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in
      inputs["o1"].catch { _ in inputs["o2"] }
    }
    #expect(output == rxDiagram([(210, "2"), (220, "3"), (240, "4"), (250, "|")], unit: 10))
  }

  @Test("catchAndReturn: the element and the end at the error's instant; the sequence never throws")
  func catchAndReturn() async {
    let output = await Marble.run(["o1": rxDiagram([(210, "2"), (230, "^")], unit: 10)], tick: .milliseconds(10)) {
      inputs, _ in
      let recovered: AsyncCatchSequence<MarbleSource, CatchAndReturnElement<String>> = inputs["o1"].catchAndReturn("9")
      return recovered
    }
    #expect(output == rxDiagram([(210, "2"), (230, "9"), (230, "|")], unit: 10))
  }

  @Test("testScan_Seed_SomeData, with scan(into:): 44, 47, 51, 56, completed at 250")
  func scanInto() async {
    let output = await Marble.run(
      ["xs": rxDiagram([(210, "2"), (220, "3"), (230, "4"), (240, "5"), (250, "|")], unit: 10)],
      tick: .milliseconds(10)
    ) { inputs, _ in
      inputs["xs"].scan(into: 42) { total, element in total += Int(element)! }
    }
    #expect(output == rxDiagram([(210, "[44]"), (220, "[47]"), (230, "[51]"), (240, "[56]"), (250, "|")], unit: 10))
  }

  @Test("flatMapLatest: an inner that never throws under an outer that can, with no error type to spell")
  func flatMapLatestNeverFailingInner() async {
    let output = await Marble.run(["outer": "-a--b--^"]) { inputs, _ in
      inputs["outer"].flatMapLatest { value in
        AsyncStream<String> { continuation in
          continuation.yield(value + "1")
          continuation.finish()
        }
      }
    }
    #expect(output == "-[a1]--[b1]--^")
  }

  // combineLatest: 10 units a tick.

  @Test("testCombineLatest_Typical3: 6, 9, 12, 15, completed at 800")
  func combineLatestTypical3() async {
    let output = await Marble.run(
      [
        "e0": rxDiagram([(210, "1"), (410, "4"), (800, "|")], unit: 10),
        "e1": rxDiagram([(220, "2"), (420, "5"), (800, "|")], unit: 10),
        "e2": rxDiagram([(230, "3"), (430, "6"), (800, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in
      combineLatest(inputs["e0"], inputs["e1"], inputs["e2"]).map { String(Int($0)! + Int($1)! + Int($2)!) }
    }
    #expect(
      output == rxDiagram([(230, "6"), (410, "9"), (420, "[12]"), (430, "[15]"), (800, "|")], unit: 10))
  }

  @Test("testCombineLatest_WillNeverBeAbleToCombine3: completed at 500")
  func combineLatestNeverCombines3() async {
    let output = await Marble.run(
      [
        "e0": rxDiagram([(250, "|")], unit: 10),
        "e1": rxDiagram([(260, "|")], unit: 10),
        "e2": rxDiagram([(500, "2"), (800, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in combineLatest(inputs["e0"], inputs["e1"], inputs["e2"]).map { _ in "x" } }
    #expect(output == rxDiagram([(500, "|")], unit: 10))
  }

  @Test("testCombineLatest_Typical4: 10, 14, 18, 22, 26, completed at 800")
  func combineLatestTypical4() async {
    let output = await Marble.run(
      [
        "e0": rxDiagram([(210, "1"), (410, "5"), (800, "|")], unit: 10),
        "e1": rxDiagram([(220, "2"), (420, "6"), (800, "|")], unit: 10),
        "e2": rxDiagram([(230, "3"), (430, "7"), (800, "|")], unit: 10),
        "e3": rxDiagram([(240, "4"), (440, "8"), (800, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in
      combineLatest(inputs["e0"], inputs["e1"], inputs["e2"], inputs["e3"])
        .map { String(Int($0)! + Int($1)! + Int($2)! + Int($3)!) }
    }
    #expect(
      output
        == rxDiagram(
          [(240, "[10]"), (410, "[14]"), (420, "[18]"), (430, "[22]"), (440, "[26]"), (800, "|")], unit: 10))
  }

  @Test("testCombineLatest_WillNeverBeAbleToCombine4: completed at 500")
  func combineLatestNeverCombines4() async {
    let output = await Marble.run(
      [
        "e0": rxDiagram([(250, "|")], unit: 10),
        "e1": rxDiagram([(260, "|")], unit: 10),
        "e2": rxDiagram([(270, "|")], unit: 10),
        "e3": rxDiagram([(500, "2"), (800, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in combineLatest(inputs["e0"], inputs["e1"], inputs["e2"], inputs["e3"]).map { _ in "x" } }
    #expect(output == rxDiagram([(500, "|")], unit: 10))
  }

  @Test("Three-way combineLatest with one source ending empty: completes at 800 when all have, not at 400")
  func combineLatestOneEmptyOfThree() async {
    let output = await Marble.run(
      [
        "e0": rxDiagram([(250, "|")], unit: 10),
        "e1": rxDiagram([(300, "1"), (800, "|")], unit: 10),
        "e2": rxDiagram([(400, "2"), (800, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in combineLatest(inputs["e0"], inputs["e1"], inputs["e2"]).map { _ in "x" } }
    #expect(output == rxDiagram([(800, "|")], unit: 10))
  }

  @Test("combineLatest over an array: the latest of each, as the three-way form")
  func combineLatestArray() async {
    let output = await Marble.run(
      [
        "e0": rxDiagram([(210, "1"), (410, "4"), (800, "|")], unit: 10),
        "e1": rxDiagram([(220, "2"), (420, "5"), (800, "|")], unit: 10),
        "e2": rxDiagram([(230, "3"), (430, "6"), (800, "|")], unit: 10),
      ], tick: .milliseconds(10)
    ) { inputs, _ in combineLatest([inputs["e0"], inputs["e1"], inputs["e2"]]).map { $0.joined() } }
    #expect(
      output
        == rxDiagram([(230, "[123]"), (410, "[423]"), (420, "[453]"), (430, "[456]"), (800, "|")], unit: 10))
  }

  @Test("merge over an array: every element as it arrives, completed when all have")
  func mergeArray() async {
    let output = await Marble.run(["a": "-1--4-|", "b": "--2---5|", "c": "---3|"]) { inputs, _ in
      merge([inputs["a"], inputs["b"], inputs["c"]])
    }
    #expect(output == "-1234-5|")
  }
}

/// An upstream that never ends and ignores cancellation: 1, 2, 3, … (it
/// yields between elements, so upstreams pulled side by side take turns).
struct Stubborn: AsyncSequence, Sendable {
  typealias Element = Int
  typealias Failure = Never
  struct Iterator: AsyncIteratorProtocol {
    typealias Element = Int
    typealias Failure = Never
    var count = 0
    mutating func next() async -> Int? {
      await Task.yield()
      count += 1
      return count
    }
  }
  func makeAsyncIterator() -> Iterator { Iterator() }
}

@Suite("A cancelled consumer stops at its next next(), over an upstream that ignores cancellation", .testBubble)
struct CancelledConsumerTests {
  /// Takes one element, cancels its own task, then counts what else comes.
  func elementsAfterCancelling<S: AsyncSequence & Sendable>(_ sequence: S) async -> Int where S.Failure == Never {
    await TestBubble.task {
      var (first, after) = (true, 0)
      for await _ in sequence {
        if first {
          first = false
          withUnsafeCurrentTask { $0?.cancel() }
        } else {
          after += 1
          if after == 100 { break }
        }
      }
      return after
    }.value
  }

  @Test func scan() async { #expect(await elementsAfterCancelling(Stubborn().scan(0, +)) == 0) }
  @Test func scanInto() async { #expect(await elementsAfterCancelling(Stubborn().scan(into: 0) { $0 += $1 }) == 0) }
  @Test func catchAndReturn() async { #expect(await elementsAfterCancelling(Stubborn().catchAndReturn(0)) == 0) }
  @Test func prepend() async { #expect(await elementsAfterCancelling(Stubborn().prepend(0)) == 0) }
  @Test func removeDuplicates() async { #expect(await elementsAfterCancelling(Stubborn().removeDuplicates()) == 0) }
  @Test func combineLatestOfThree() async {
    #expect(await elementsAfterCancelling(combineLatest(Stubborn(), Stubborn(), Stubborn()).map { $0.0 }) == 0)
  }
  @Test func combineLatestOfFour() async {
    #expect(
      await elementsAfterCancelling(combineLatest(Stubborn(), Stubborn(), Stubborn(), Stubborn()).map { $0.0 }) == 0)
  }
  @Test func inlineStagesOverARelay() async {
    let relay = EventRelay<Int>()
    let chain = relay.values.map { $0 }.filter { _ in true }.compactMap { $0 }
    for value in 0..<200 { relay.accept(value) }
    #expect(await elementsAfterCancelling(chain) == 0)
  }
  @Test func combineLatestOfAnArray() async {
    #expect(await elementsAfterCancelling(combineLatest([Stubborn(), Stubborn()])) == 0)
  }
  @Test func zipOfAnArray() async { #expect(await elementsAfterCancelling(zip([Stubborn(), Stubborn()])) == 0) }
  @Test func mergeOfAnArray() async { #expect(await elementsAfterCancelling(merge([Stubborn(), Stubborn()])) == 0) }
  @Test func flatMapMerge() async {
    #expect(await elementsAfterCancelling(Stubborn().flatMapMerge { _ in Stubborn() }) == 0)
  }
  @Test func concatMap() async { #expect(await elementsAfterCancelling(Stubborn().concatMap { _ in Stubborn() }) == 0) }
  @Test func sample() async { #expect(await elementsAfterCancelling(Stubborn().sample(Stubborn())) == 0) }
  @Test func takeUntil() async {
    #expect(await elementsAfterCancelling(Stubborn().take(until: AsyncStream<Int> { _ in })) == 0)
  }
  @Test func delay() async {
    #expect(await elementsAfterCancelling(Stubborn().delay(for: .zero, clock: ContinuousClock())) == 0)
  }
  @Test func buffer() async {
    #expect(await elementsAfterCancelling(Stubborn().buffer(timeSpan: .seconds(3600), count: 1)) == 0)
  }
  @Test func debug() async { #expect(await elementsAfterCancelling(Stubborn().debug("s", log: { _ in })) == 0) }
  @Test func interval() async {
    #expect(await elementsAfterCancelling(AsyncTimerSequence.interval(.zero, clock: ContinuousClock())) == 0)
  }
  @Test func share() async { #expect(await elementsAfterCancelling(Stubborn().share(replay: 1)) == 0) }
  @Test func flatMapFirst() async {
    #expect(await elementsAfterCancelling(Stubborn().flatMapFirst { _ in Stubborn() }) == 0)
  }

  /// `elementsAfterCancelling` for a sequence that can throw (a throw
  /// counts as the end).
  func elementsAfterCancelling<S: AsyncSequence & Sendable>(throwing sequence: S) async -> Int {
    await TestBubble.task {
      var (first, after) = (true, 0)
      do {
        for try await _ in sequence {
          if first {
            first = false
            withUnsafeCurrentTask { $0?.cancel() }
          } else {
            after += 1
            if after == 100 { break }
          }
        }
      } catch {}
      return after
    }.value
  }

  @Test func timeoutSwitchingBeforeTheSwitch() async {
    let clock = TestClock()
    #expect(
      await elementsAfterCancelling(
        throwing: Stubborn().timeout(.seconds(1), clock: clock, switchingTo: Stubborn())) == 0)
  }
  @Test func timeoutSwitchingAfterTheSwitch() async {
    let clock = TestClock()
    let silent = AsyncStream<Int> { _ in }
    let sequence = silent.timeout(.seconds(1), clock: clock, switchingTo: Stubborn())
    let counting = TestBubble.task { await elementsAfterCancelling(throwing: sequence) }
    await clock.advance(by: .seconds(1))
    #expect(await counting.value == 0)
  }
}

/// RxTest's cold observable on a `TestClock`: its events at offsets from
/// when it is first pulled (RxTest: from subscription); nil is the end,
/// `^` an error.
struct ColdTimeline: AsyncSequence, Sendable {
  typealias Element = String
  typealias Failure = MarbleError
  let events: [(offset: Int, symbol: String?)]
  let unit: Duration
  let clock: TestClock

  struct Iterator: AsyncIteratorProtocol {
    typealias Element = String
    typealias Failure = MarbleError
    let timeline: ColdTimeline
    var start: ManualInstant?
    var index = 0

    mutating func next() async throws(MarbleError) -> String? {
      guard index < timeline.events.count else { return nil }
      let start = self.start ?? timeline.clock.now
      self.start = start
      let (offset, symbol) = timeline.events[index]
      index += 1
      do {
        try await timeline.clock.sleep(until: start.advanced(by: timeline.unit * offset))
      } catch {
        return nil  // cancelled: superseded or torn down
      }
      if symbol == "^" { throw MarbleError() }
      return symbol
    }
  }

  func makeAsyncIterator() -> Iterator { Iterator(timeline: self) }
}

@Suite("RxSwift's vectors: flatMapFirst, concatMap, flatMapMerge (Observable+MergeTests.swift)", .testBubble)
struct FlatMapVectorTests {
  /// One tick per 5 units of RxTest's time; cold inners by name.
  static func run(
    outer: [(time: Int, symbol: String)], inners: [String: [(offset: Int, symbol: String?)]],
    _ operate:
      @escaping @Sendable (MarbleSource, @escaping @Sendable (String) -> ColdTimeline) -> some AsyncSequence<
        String, MarbleError
      > & Sendable
  ) async -> String {
    await Marble.run(["xs": rxDiagram(outer, unit: 5)], tick: .milliseconds(5), extraTicks: 200) { inputs, clock in
      operate(inputs["xs"]) { name in
        ColdTimeline(events: inners[name]!.map { ($0.offset / 5, $0.symbol) }, unit: .milliseconds(5), clock: clock)
      }
    }
  }

  static let flatMapFirstInners: [String: [(offset: Int, symbol: String?)]] = [
    "c": [(10, "[102]"), (90, "[103]"), (110, "[104]"), (190, "[105]"), (440, "[106]"), (460, nil)],
    "d": [(180, "[202]"), (190, "[203]"), (205, nil)],
    "e": [(10, "[301]"), (50, "[302]"), (70, "[303]"), (260, "[304]"), (310, "[305]"), (410, nil)],
    "f": [(40, nil)],
    "g": [(80, "[401]"), (90, "[402]"), (100, nil)],
  ]
  static let flatMapFirstOuter: [(time: Int, symbol: String)] = [
    (300, "c"), (400, "d"), (550, "e"), (750, "f"), (850, "g"), (900, "|"),
  ]

  @Test("testFlatMapFirst_Complete: inners arriving while one runs are dropped")
  func flatMapFirstComplete() async {
    let output = await Self.run(outer: Self.flatMapFirstOuter, inners: Self.flatMapFirstInners) { xs, inner in
      xs.flatMapFirst { inner($0) }.map { $0.trimmingCharacters(in: ["[", "]"]) }
    }
    let expected = rxDiagram(
      [
        (310, "[102]"), (390, "[103]"), (410, "[104]"), (490, "[105]"), (740, "[106]"), (930, "[401]"),
        (940, "[402]"), (950, "|"),
      ], unit: 5)
    #expect(output == expected)
  }

  /// RxSwift's testFlatMap_Complete output, up to 860 (the variants share it).
  static let flatMapOutput: [(time: Int, symbol: String)] = [
    (310, "[102]"), (390, "[103]"), (410, "[104]"), (490, "[105]"), (560, "[301]"), (580, "[202]"), (590, "[203]"),
    (600, "[302]"), (620, "[303]"), (740, "[106]"), (810, "[304]"), (860, "[305]"),
  ]

  static func flatMap(
    outer: [(time: Int, symbol: String)] = flatMapFirstOuter,
    inners: [String: [(offset: Int, symbol: String?)]] = flatMapFirstInners
  ) async -> String {
    await Self.run(outer: outer, inners: inners) { xs, inner in
      xs.flatMapMerge { inner($0) }.map { $0.trimmingCharacters(in: ["[", "]"]) }
    }
  }

  @Test("testFlatMap_Complete: every inner interleaved, completed at 960 when the last inner ends")
  func flatMapComplete() async {
    let expected = rxDiagram(Self.flatMapOutput + [(930, "[401]"), (940, "[402]"), (960, "|")], unit: 5)
    #expect(await Self.flatMap() == expected)
  }

  @Test("testFlatMap_Complete_InnerNotComplete: the outer never ends, so neither does the result")
  func flatMapOuterNeverEnds() async {
    let outer = Array(Self.flatMapFirstOuter.dropLast())
    let expected = rxDiagram(Self.flatMapOutput + [(930, "[401]"), (940, "[402]")], unit: 5)
    #expect(await Self.flatMap(outer: outer) == expected)
  }

  @Test("testFlatMap_Complete_OuterNotComplete: an inner that never ends keeps the result open")
  func flatMapInnerNeverEnds() async {
    var inners = Self.flatMapFirstInners
    inners["d"] = [(180, "[202]"), (190, "[203]"), (100_000, nil)]  // never ends within the run
    let expected = rxDiagram(Self.flatMapOutput + [(930, "[401]"), (940, "[402]")], unit: 5)
    #expect(await Self.flatMap(inners: inners) == expected)
  }

  @Test("testFlatMap_Complete_ErrorOuter: the outer's error at 900 ends everything")
  func flatMapOuterError() async {
    let outer = Array(Self.flatMapFirstOuter.dropLast()) + [(900, "^")]
    #expect(await Self.flatMap(outer: outer) == rxDiagram(Self.flatMapOutput + [(900, "^")], unit: 5))
  }

  @Test("testFlatMap_Error_Inner: an inner's error at 760 ends everything")
  func flatMapInnerError() async {
    var inners = Self.flatMapFirstInners
    inners["c"] = [(10, "[102]"), (90, "[103]"), (110, "[104]"), (190, "[105]"), (440, "[106]"), (460, "^")]
    let expected = rxDiagram(Array(Self.flatMapOutput.prefix(10)) + [(760, "^")], unit: 5)
    #expect(await Self.flatMap(inners: inners) == expected)
  }

  static let flatMapFirstOutput: [(time: Int, symbol: String)] = [
    (310, "[102]"), (390, "[103]"), (410, "[104]"), (490, "[105]"), (740, "[106]"),
  ]

  @Test("testFlatMapFirst_Complete_ErrorOuter: the outer's error at 900")
  func flatMapFirstOuterError() async {
    let outer = Array(Self.flatMapFirstOuter.dropLast()) + [(900, "^")]
    let output = await Self.run(outer: outer, inners: Self.flatMapFirstInners) { xs, inner in
      xs.flatMapFirst { inner($0) }.map { $0.trimmingCharacters(in: ["[", "]"]) }
    }
    #expect(output == rxDiagram(Self.flatMapFirstOutput + [(900, "^")], unit: 5))
  }

  @Test("testFlatMapFirst_Error_Inner: the running inner's error at 760")
  func flatMapFirstInnerError() async {
    var inners = Self.flatMapFirstInners
    inners["c"] = [(10, "[102]"), (90, "[103]"), (110, "[104]"), (190, "[105]"), (440, "[106]"), (460, "^")]
    let output = await Self.run(outer: Self.flatMapFirstOuter, inners: inners) { xs, inner in
      xs.flatMapFirst { inner($0) }.map { $0.trimmingCharacters(in: ["[", "]"]) }
    }
    #expect(output == rxDiagram(Self.flatMapFirstOutput + [(760, "^")], unit: 5))
  }

  static let concatMapInners: [String: [(offset: Int, symbol: String?)]] = [
    "c": [(10, "[102]"), (90, "[103]"), (110, "[104]"), (190, "[105]"), (440, "[106]"), (460, nil)],
    "d": [(180, "[202]"), (190, "[203]"), (100_000, nil)],
    "e": [(10, "[301]"), (50, "[302]"), (60, nil)],
    "f": [(40, nil)],
    "g": [(80, "[401]"), (90, "[402]"), (100, nil)],
  ]

  @Test("testConcatMap_OuterComplete_InnerNotComplete: the inners wait in turn; one that never ends holds the rest")
  func concatMapInnerNeverEnds() async {
    let output = await Self.run(outer: Self.flatMapFirstOuter, inners: Self.concatMapInners) { xs, inner in
      xs.concatMap { inner($0) }.map { $0.trimmingCharacters(in: ["[", "]"]) }
    }
    #expect(output == rxDiagram(Self.flatMapFirstOutput + [(940, "[202]"), (950, "[203]")], unit: 5))
  }

  @Test("testConcatMap_InnerComplete_OuterNotComplete: the second inner after the first, no end")
  func concatMapOuterNeverEnds() async {
    var inners = Self.concatMapInners
    inners["d"] = [(180, "[202]"), (190, "[203]"), (205, nil)]
    let output = await Self.run(outer: [(300, "c"), (400, "d")], inners: inners) { xs, inner in
      xs.concatMap { inner($0) }.map { $0.trimmingCharacters(in: ["[", "]"]) }
    }
    #expect(output == rxDiagram(Self.flatMapFirstOutput + [(940, "[202]"), (950, "[203]")], unit: 5))
  }

  @Test("testConcatMap_InnerCompleteFasterThanOuterElementsAreProduced: 102 at 260, 202 at 320, completed at 900")
  func concatMapInnersFaster() async {
    let inners: [String: [(offset: Int, symbol: String?)]] = [
      "a": [(10, "[102]"), (20, nil)], "b": [(20, "[202]"), (25, nil)],
    ]
    let output = await Self.run(outer: [(250, "a"), (300, "b"), (900, "|")], inners: inners) { xs, inner in
      xs.concatMap { inner($0) }.map { $0.trimmingCharacters(in: ["[", "]"]) }
    }
    #expect(output == rxDiagram([(260, "[102]"), (320, "[202]"), (900, "|")], unit: 5))
  }

  @Test("concatMap: an outer element arriving while an inner runs waits for it, in order")
  func concatMapQueues() async {
    let inners: [String: [(offset: Int, symbol: String?)]] = [
      "a": [(10, "1"), (30, "2"), (40, nil)], "b": [(10, "3"), (20, nil)],
    ]
    let output = await Self.run(outer: [(200, "a"), (210, "b"), (300, "|")], inners: inners) { xs, inner in
      xs.concatMap { inner($0) }
    }
    // b starts when a ends (240): 3 at 250, b ends at 260; the outer at 300.
    #expect(output == rxDiagram([(210, "1"), (230, "2"), (250, "3"), (300, "|")], unit: 5))
  }

  @Test("flatMapMerge: inners interleave; with maxConcurrent 1 it is concatMap")
  func flatMapMergeInterleaves() async {
    let inners: [String: [(offset: Int, symbol: String?)]] = [
      "a": [(10, "1"), (30, "2"), (40, nil)], "b": [(10, "3"), (20, nil)],
    ]
    let merged = await Self.run(outer: [(200, "a"), (210, "b"), (300, "|")], inners: inners) { xs, inner in
      xs.flatMapMerge { inner($0) }
    }
    #expect(merged == rxDiagram([(210, "1"), (220, "3"), (230, "2"), (300, "|")], unit: 5))
    let one = await Self.run(outer: [(200, "a"), (210, "b"), (300, "|")], inners: inners) { xs, inner in
      xs.flatMapMerge(maxConcurrent: 1) { inner($0) }
    }
    #expect(one == rxDiagram([(210, "1"), (230, "2"), (250, "3"), (300, "|")], unit: 5))
  }

  /// When `transform` ran, in ticks, for each outer element.
  static func transformTimes(
    _ operate:
      @escaping @Sendable (MarbleSource, @escaping @Sendable (String) -> ColdTimeline) -> some AsyncSequence<
        String, MarbleError
      > & Sendable
  ) async -> (output: String, calls: [String]) {
    let calls = Locked<[String]>([])
    let inners: [String: [(offset: Int, symbol: String?)]] = [
      "a": [(10, "1"), (30, "2"), (40, nil)], "b": [(10, "3"), (20, nil)], "c": [(5, "4"), (10, nil)],
    ]
    let output = await Marble.run(
      ["xs": rxDiagram([(200, "a"), (210, "b"), (215, "c"), (300, "|")], unit: 5)], tick: .milliseconds(5)
    ) { inputs, clock in
      operate(inputs["xs"]) { name in
        // In RxTest's time: the diagram starts at 200, one unit a millisecond.
        calls.withLock { $0.append("\(name)@\(200 + Int(clock.now.offset / .milliseconds(1)))") }
        return ColdTimeline(
          events: inners[name]!.map { ($0.offset / 5, $0.symbol) }, unit: .milliseconds(5), clock: clock)
      }
    }
    return (output, calls.withLock { $0 })
  }

  @Test("concatMap and flatMapMerge(maxConcurrent:) call transform when the outer element arrives, as MergeLimitedSink")
  func transformOnArrival() async {
    // Elements at 200, 210, 215; a's inner runs to 240, b's to 260.
    let concat = await Self.transformTimes { xs, inner in xs.concatMap { inner($0) } }
    #expect(concat.calls == ["a@200", "b@210", "c@215"])
    // Each inner is still iterated in turn, from when its slot frees: b's 3 at 250, c's 4 at 265.
    #expect(concat.output == rxDiagram([(210, "1"), (230, "2"), (250, "3"), (265, "4"), (300, "|")], unit: 5))
    let limited = await Self.transformTimes { xs, inner in xs.flatMapMerge(maxConcurrent: 2) { inner($0) } }
    #expect(limited.calls == ["a@200", "b@210", "c@215"])
    // b ends at 230, freeing a slot for c: 4 at 235.
    #expect(limited.output == rxDiagram([(210, "1"), (220, "3"), (230, "2"), (235, "4"), (300, "|")], unit: 5))
  }

  @Test("flatMapFirst calls transform only for the elements it starts")
  func flatMapFirstMapsWhatItStarts() async {
    let first = await Self.transformTimes { xs, inner in xs.flatMapFirst { inner($0) } }
    #expect(first.calls == ["a@200"])
    #expect(first.output == rxDiagram([(210, "1"), (230, "2"), (300, "|")], unit: 5))
  }
}

/// A fallback that counts how often it is iterated (RxTest's
/// `ys.subscriptions`).
struct CountingFallback: AsyncSequence, Sendable {
  let base: ColdTimeline
  let iterations: TestCounter

  func makeAsyncIterator() -> ColdTimeline.Iterator {
    iterations.increment()
    return base.makeAsyncIterator()
  }
}

/// RxSwift's Observable+TimeoutTests.swift, `timeout(_:other:scheduler:)`:
/// 10 units a tick; the hot source's values are digits, the cold
/// fallback's -1, -2, -3 are written x, y, z.
@Suite("RxSwift's vectors: timeout switching to another sequence", .testBubble)
struct TimeoutSwitchVectorTests {
  static func run(
    xs: [(time: Int, symbol: String)], ys: [(offset: Int, symbol: String?)], ysIterations: TestCounter = TestCounter()
  ) async -> String {
    await Marble.run(["xs": rxDiagram(xs, unit: 10)], tick: .milliseconds(10), extraTicks: 80) { inputs, clock in
      let fallback = ColdTimeline(events: ys.map { ($0.offset / 10, $0.symbol) }, unit: .milliseconds(10), clock: clock)
      return inputs["xs"].timeout(
        .milliseconds(100), clock: clock, switchingTo: CountingFallback(base: fallback, iterations: ysIterations))
    }
  }

  static let ys: [(offset: Int, symbol: String?)] = [(50, "x"), (200, "y"), (310, "z"), (320, nil)]

  @Test("testTimeout_TimeoutOccurs_1: the fallback from 300, x at 350, y at 500, z at 610, completed at 620")
  func occurs1() async {
    let output = await Self.run(xs: [(70, "1"), (130, "2"), (310, "3"), (400, "4"), (500, "|")], ys: Self.ys)
    #expect(output == rxDiagram([(350, "x"), (500, "y"), (610, "z"), (620, "|")], unit: 10))
  }

  @Test("testTimeout_TimeoutOccurs_2: 3 and 4 in time, the fallback from 410")
  func occurs2() async {
    let output = await Self.run(
      xs: [(70, "1"), (130, "2"), (240, "3"), (310, "4"), (430, "5"), (500, "|")], ys: Self.ys)
    #expect(output == rxDiagram([(240, "3"), (310, "4"), (460, "x"), (610, "y"), (720, "z"), (730, "|")], unit: 10))
  }

  @Test("testTimeout_TimeoutOccurs_Never: a fallback that never emits never ends")
  func occursNever() async {
    // RxTest's never: one event beyond the run (an empty timeline ends at once).
    let never = await Self.run(
      xs: [(70, "1"), (130, "2"), (240, "3"), (310, "4"), (430, "5"), (500, "|")], ys: [(100_000, nil)])
    #expect(never == rxDiagram([(240, "3"), (310, "4")], unit: 10))
  }

  @Test("testTimeout_TimeoutOccurs_Completed: a source ending after the deadline is too late; x at 400")
  func occursCompleted() async {
    let output = await Self.run(xs: [(500, "|")], ys: [(100, "x"), (100_000, nil)])
    #expect(output == rxDiagram([(400, "x")], unit: 10))
  }

  @Test("testTimeout_TimeoutOccurs_Error: a source failing after the deadline is too late; x at 400")
  func occursError() async {
    let output = await Self.run(xs: [(500, "^")], ys: [(100, "x"), (100_000, nil)])
    #expect(output == rxDiagram([(400, "x")], unit: 10))
  }

  @Test("testTimeout_TimeoutOccurs_NextIsError: the fallback's error at 400")
  func occursNextIsError() async {
    let output = await Self.run(xs: [(500, "4")], ys: [(100, "^")])
    #expect(output == rxDiagram([(400, "^")], unit: 10))
  }

  @Test(
    "testTimeout_TimeoutNotOccurs_Completed and _Error: the source's end at 250; the fallback is never iterated",
    arguments: ["|", "^"])
  func notOccursEnd(end: String) async {
    let iterations = TestCounter()
    let output = await Self.run(xs: [(250, end)], ys: [(100, "x")], ysIterations: iterations)
    #expect(output == rxDiagram([(250, end)], unit: 10))
    #expect(iterations.value == 0)
  }

  @Test("testTimeout_TimeoutNotOccurs: every element in time, completed at 500; the fallback is never iterated")
  func notOccurs() async {
    let iterations = TestCounter()
    let output = await Self.run(
      xs: [(70, "1"), (130, "2"), (240, "3"), (320, "4"), (410, "5"), (500, "|")], ys: Self.ys,
      ysIterations: iterations)
    #expect(output == rxDiagram([(240, "3"), (320, "4"), (410, "5"), (500, "|")], unit: 10))
    #expect(iterations.value == 0)
  }

  @Test("A TimeoutError thrown by the source is the source's error, not a switch")
  func upstreamTimeoutIsNotASwitch() async {
    let iterations = TestCounter()
    let clock = TestClock()
    let source = AsyncThrowingStream<String, any Error> { $0.finish(throwing: TimeoutError()) }
    let fallback = CountingFallback(
      base: ColdTimeline(events: [(0, "x")], unit: .milliseconds(10), clock: clock), iterations: iterations)
    var iterator = source.timeout(.milliseconds(100), clock: clock, switchingTo: fallback).makeAsyncIterator()
    await #expect(throws: TimeoutError.self) { _ = try await iterator.next() }
    #expect(iterations.value == 0)
  }
}

/// A value that counts the copies its storage makes on write: how
/// `scan(into:)` is held to "updated in place".
struct CopyCounted {
  final class Storage {
    var values: [Int] = []
    init(_ values: [Int]) { self.values = values }
  }
  var storage = Storage([])
  let copies: TestCounter

  mutating func append(_ value: Int) {
    if !isKnownUniquelyReferenced(&storage) {
      storage = Storage(storage.values)
      copies.increment()
    }
    storage.values.append(value)
  }
}

@Suite("scan(into:) updates in place")
struct ScanInPlaceTests {
  @Test("100 elements into a value the consumer does not keep: no copy")
  func noCopyPerElement() async {
    let copies = TestCounter()
    var last: [Int] = []
    for await value in AsyncStream(
      Int.self,
      { continuation in
        for n in 1...100 { continuation.yield(n) }
        continuation.finish()
      }
    ).scan(into: CopyCounted(copies: copies), { $0.append($1) }) {
      last = value.storage.values
    }
    #expect(last == Array(1...100))
    #expect(copies.value == 0)
  }
}
