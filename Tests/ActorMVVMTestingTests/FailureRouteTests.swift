import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing
import XCTest

/// The three failures a port inside `XCTestCase` classes once saw pass
/// silently, each run the same way from either framework.
enum SilentFailures {
  /// Each runs its failure and returns where it was reported.
  @discardableResult
  static func wrongState() async -> SourceLocation {
    let tester = FeatureTester(Probe(clock: TestClock()), initialState: .init())
    let here = #_sourceLocation
    await tester.send(.add(2), sourceLocation: here) {
      $0.count = 1
      $0.total = 3
    }
    await tester.finish()
    return here
  }

  @discardableResult
  static func unassertedOutput() async -> SourceLocation {
    let tester = FeatureTester(Probe(clock: TestClock()), initialState: .init())
    await tester.send(.emit(7)) { $0.count = 1 }
    let here = #_sourceLocation
    await tester.finish(sourceLocation: here)
    return here
  }

  @discardableResult
  static func unmeetableWait() async -> SourceLocation {
    let here = #_sourceLocation
    await TestClock().waitForSleepers(1, sourceLocation: here)
    return here
  }

  /// What each records, from either framework: the messages, in order (a
  /// message ending in "…" is matched up to it: the wait's may add a note
  /// on real-time timers other tests left pending).
  static let wrongStateMessages = [
    "State after add(2) does not match the expectation (− expected, + actual):\n  − total: 3\n  + total: 2"
  ]
  static let unassertedOutputMessages = ["1 unasserted output(s): [ActorMVVMTestSupport.Probe.Output.emitted(7)]"]
  static let unmeetableWaitMessages = [
    "TestClock at 0.0 seconds waited for 1 sleeper(s), but nothing can run and it never came; asleep: nothing…"
  ]

  static func matches(_ messages: [String], _ expected: [String]) -> Bool {
    messages.count == expected.count
      && zip(messages, expected).allSatisfy { message, pattern in
        pattern.hasSuffix("…") ? message.hasPrefix(String(pattern.dropLast())) : message == pattern
      }
  }
}

/// The tools' failures inside XCTest: recorded on the running case, at the
/// caller's file and line. This case keeps what is recorded on it instead
/// of failing (its `recordFailure` is the method XCTest itself records
/// through), and asserts it.
final class FailureRouteXCTests: XCTestCase {
  private let recorded = Locked<[(message: String, file: String, line: Int)]>([])

  /// The observer goes in before this class's first case starts (the tools
  /// register it at their first use, which in this process may be inside
  /// the first case: a failure there goes through `XCTFail`).
  override class func setUp() {
    super.setUp()
    XCTestCases.observe()
  }

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      recorded.withLock {
        $0.append(
          (
            issue.compactDescription, issue.sourceCodeContext.location?.fileURL.path ?? "",
            issue.sourceCodeContext.location?.lineNumber ?? 0
          ))
      }
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      recorded.withLock { $0.append((description, filePath, lineNumber)) }
    }
  #endif

  /// Takes what was recorded so far.
  private func take() -> [(message: String, file: String, line: Int)] {
    recorded.withLock { recorded in
      defer { recorded = [] }
      return recorded
    }
  }

  /// Fails this case for real (past the keeping override) when `condition` is false.
  private func require(_ condition: Bool, _ message: @autoclosure () -> String, line: Int = #line) {
    guard !condition else { return }
    #if canImport(Darwin)
      super.record(
        XCTIssue(
          type: .assertionFailure, compactDescription: message(),
          sourceCodeContext: XCTSourceCodeContext(
            location: XCTSourceCodeLocation(filePath: #filePath, lineNumber: line))))
    #else
      super.recordFailure(withDescription: message(), inFile: #filePath, atLine: line, expected: true)
    #endif
  }

  func testTheRunningCaseIsKnown() {
    require(TestFailure.currentRoute == .xctest, "route \(TestFailure.currentRoute)")
    require(
      XCTestCases.runningName?.contains("testTheRunningCaseIsKnown") == true,
      "\(String(describing: XCTestCases.runningName))")
  }

  func testAWrongStateFails() async {
    let here = await SilentFailures.wrongState()
    let messages = take()
    require(SilentFailures.matches(messages.map(\.message), SilentFailures.wrongStateMessages), "\(messages)")
    require(messages.allSatisfy { $0.file == here.filePath && $0.line == here.line }, "at the send: \(messages)")
  }

  func testAnUnassertedOutputFails() async {
    let here = await SilentFailures.unassertedOutput()
    let messages = take()
    require(SilentFailures.matches(messages.map(\.message), SilentFailures.unassertedOutputMessages), "\(messages)")
    require(messages.allSatisfy { $0.file == here.filePath && $0.line == here.line }, "at the finish: \(messages)")
  }

  func testAnUnmeetableWaitFails() async {
    // In a bubble, so the wait has a job count where the process has none (an Apple build).
    let here = await withTestBubble { await SilentFailures.unmeetableWait() }
    let messages = take()
    require(SilentFailures.matches(messages.map(\.message), SilentFailures.unmeetableWaitMessages), "\(messages)")
    require(messages.allSatisfy { $0.file == here.filePath && $0.line == here.line }, "at the wait: \(messages)")
  }

  func testFailuresFromOtherTasksReachTheCase() async {
    await Task.detached { TestFailure.record("from a detached task", sourceLocation: #_sourceLocation) }.value
    await MainActor.run { TestFailure.record("from the main actor", sourceLocation: #_sourceLocation) }
    let messages = take().map(\.message)
    require(messages == ["from a detached task", "from the main actor"], "\(messages)")
  }
}

@Suite("Failures reach the framework running the test", .testBubble)
struct FailureRouteTests {
  /// The comments of the issues `body` records, each one known.
  private func messages(of body: () async -> Void) async -> [String] {
    let seen = Locked<[String]>([])
    await withKnownIssue {
      await body()
    } matching: { issue in
      seen.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
      return true
    }
    return seen.withLock { $0 }
  }

  @Test("Swift Testing gets the same three failures XCTest gets")
  func sameMessages() async {
    #expect(
      SilentFailures.matches(await messages { await SilentFailures.wrongState() }, SilentFailures.wrongStateMessages))
    #expect(
      SilentFailures.matches(
        await messages { await SilentFailures.unassertedOutput() }, SilentFailures.unassertedOutputMessages))
    #expect(
      SilentFailures.matches(
        await messages { await SilentFailures.unmeetableWait() }, SilentFailures.unmeetableWaitMessages))
  }

  @Test("The route: the task's test, else the process's XCTest case, else standard error")
  func routeTable() async {
    #expect(TestFailure.route(testIsCurrent: true, xctestCaseIsRunning: true) == .swiftTesting)
    #expect(TestFailure.route(testIsCurrent: true, xctestCaseIsRunning: false) == .swiftTesting)
    #expect(TestFailure.route(testIsCurrent: false, xctestCaseIsRunning: true) == .xctest)
    #expect(TestFailure.route(testIsCurrent: false, xctestCaseIsRunning: false) == .standardError)
    #expect(TestFailure.currentRoute == .swiftTesting)
    // A detached task has no current test (task-locals do not cross).
    let detached = await Task.detached { TestFailure.currentRoute }.value
    #expect(detached != .swiftTesting)
  }

  @Test("Outside any test the failure is recorded and written to standard error")
  func loudOutsideTests() async {
    let written = Locked<[String]>([])
    let location = #_sourceLocation
    let recorded = await messages {
      TestFailure.$standardErrorWriter.withValue({ text in written.withLock { $0.append(text) } }) {
        TestFailure.record("nobody is listening", sourceLocation: location, route: .standardError)
        // An XCTest route with no case running is not silence either.
        if !XCTestCases.isRunning {
          TestFailure.record("no case is running", sourceLocation: location, route: .xctest)
        }
      }
    }
    let expected = XCTestCases.isRunning ? ["nobody is listening"] : ["nobody is listening", "no case is running"]
    #expect(recorded == expected)
    #expect(
      written.withLock { $0 }
        == expected.map { TestFailure.standardErrorLine($0, sourceLocation: location) + "\n" })
    #expect(
      TestFailure.standardErrorLine("x", sourceLocation: location)
        == "\(location.filePath):\(location.line): error: ActorMVVMTesting failure outside any test: x")
  }
}
