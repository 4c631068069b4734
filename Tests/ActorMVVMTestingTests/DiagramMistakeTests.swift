import ActorMVVM
import ActorMVVMTesting
import Testing

/// A mistake in a diagram fails the test at the run, with what is wrong,
/// and the process goes on: no trap (a trap ends every later test of the
/// process, and in Xcode the test host).
@Suite("Diagram mistakes fail the test, never the process")
struct DiagramMistakeTests {
  private struct Count: StateMachine {
    enum Input: Sendable { case add }
    typealias Output = Never
    func reduce(into state: inout Int, _ input: Input) -> Effect<Input, Never> {
      state += 1
      return .none
    }
  }

  private static func timeline(_ diagram: String, input: String = "taps") async -> [String: String] {
    await FeatureTimeline.run(
      inputs: ["taps": diagram],
      values: ["a": Count.Input.add],
      feature: { _ in Feature(Count(), initialState: 0) },
      bind: { feature, inputs in feature.bind(inputs[input], to: { $0 }) },
      record: ["count": { "\($0)" }])
  }

  @Test("An element with no value in `values:` is named, and the run does not start")
  func elementWithNoValue() async {
    await withKnownIssue {
      #expect(await Self.timeline("-a-x-|") == [:])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("no value in `values` for x (in taps: \"-a-x-|\")") }
    }
  }

  @Test("An input name the run does not declare is named; that input ends at once")
  func unknownInputName() async {
    await withKnownIssue {
      #expect(await Self.timeline("-a-a-|", input: "tap") == ["count": "0"])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("no input named \"tap\"; the run declares [\"taps\"]") }
    }
  }

  @Test("A malformed diagram is named, in both harnesses")
  func malformed() async {
    await withKnownIssue {
      #expect(await Self.timeline("-[a-|") == [:])
      let output = await Marble.run(["in": "-a-(b-|"]) { inputs, _ in inputs["in"] }
      #expect(output == "")
    } matching: { issue in
      issue.comments.contains { comment in
        comment.rawValue.contains("has an unclosed [") || comment.rawValue.contains("has an unclosed (")
      }
    }
  }

  @Test("The harness still runs a good diagram afterwards, in the same process")
  func goodDiagramAfterwards() async {
    let diagrams = await Self.timeline("-a-a-|")
    #expect(diagrams == ["count": "01-2"], "\(diagrams)")
  }
}
