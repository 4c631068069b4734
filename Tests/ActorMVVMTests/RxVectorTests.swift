import ActorMVVM
import ActorMVVMOperators
import ActorMVVMTesting
import Testing

/// RxTest's recorded events as a marble diagram: time 200 (RxTest's
/// subscription) is tick 0, one tick per `unit` of RxTest's virtual time;
/// events before the subscription are dropped (hot inputs).
func rxDiagram(_ events: [(time: Int, symbol: String)], unit: Int) -> String {
  var ticks: [Int: [String]] = [:]
  for (time, symbol) in events where time >= 200 { ticks[(time - 200) / unit, default: []].append(symbol) }
  guard let last = ticks.keys.max() else { return "" }
  return (0...last).map { tick in
    let symbols = ticks[tick] ?? []
    return symbols.isEmpty ? "-" : symbols.count == 1 ? symbols[0] : "(" + symbols.joined() + ")"
  }.joined()
}

/// RxSwift's own vectors (Tests/RxSwiftTests/Observable+ZipTests.swift,
/// Observable+CombineLatestTests+arity.swift), times and values translated
/// into marble diagrams on our public API.
@Suite("RxSwift's vectors: zip and combineLatest")
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

  @Test("zip of an empty array completes at once (testZip_NAry_emptyArray)")
  func zipEmptyArray() async {
    let output = await Marble.run([:]) { (_: MarbleInputs, _) in
      zip([MarbleSource]()).map { $0.joined() }
    }
    #expect(output == "|")
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
