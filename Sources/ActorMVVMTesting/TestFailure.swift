import ActorMVVM
import ActorMVVMSupport
import Foundation
import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// Where the testing tools' failures go: to the framework running the test.
///
/// ``FeatureTester``, ``TestClock`` and the other tools report a failure here,
/// and it is recorded where it fails a test:
///
/// 1. **Swift Testing** when a `@Test` is current on the reporting task
///    (`Test.current`): `Issue.record`, at the caller's source location.
/// 2. **XCTest** when an `XCTestCase` is running in the process: recorded on
///    that case as a failure at the caller's file and line, as `XCTFail`
///    would (XCTest runs one case at a time; a failure from any task during
///    the case is the case's).
/// 3. **Neither** (a detached task of a Swift Testing test, or code outside
///    any test): `Issue.record`, which a Swift Testing run records as a
///    failure of the run, *and* the message on standard error — never
///    silence.
///
/// The XCTest case is known from an `XCTestObservation` observer that the
/// tools register the first time one is used (``withTestBubble(isolation:fileID:filePath:line:column:_:)``,
/// ``TestClock``, ``FeatureTester``, ``Marble``, ``FeatureTimeline``): every
/// case that starts after that is known from its start. The case already
/// running when the first tool was used is not known by name; a failure in
/// it goes to XCTest's own current case through `XCTFail`, with the caller's
/// file and line in its message, as well as to standard error.
package enum TestFailure {
  /// Which framework a failure goes to.
  package enum Route: Equatable, Sendable {
    case swiftTesting
    case xctest
    case standardError
  }

  /// The route for a failure reported now, on this task.
  package static var currentRoute: Route {
    route(testIsCurrent: Test.current != nil, xctestCaseIsRunning: XCTestCases.isRunning)
  }

  /// The rule: the task's Swift Testing test first (it is the precise one:
  /// a task-local), then the process's XCTest case, then standard error.
  package static func route(testIsCurrent: Bool, xctestCaseIsRunning: Bool) -> Route {
    if testIsCurrent { return .swiftTesting }
    if xctestCaseIsRunning { return .xctest }
    return .standardError
  }

  /// Records `message` as a failure at `sourceLocation` (see ``TestFailure``).
  /// Synchronous; callable from any task or thread, and from a `deinit`.
  package static func record(_ message: String, sourceLocation: SourceLocation) {
    record(message, sourceLocation: sourceLocation, route: currentRoute)
  }

  /// Records `message` by `route` (an XCTest route with no case running
  /// falls through to standard error).
  package static func record(_ message: String, sourceLocation: SourceLocation, route: Route) {
    switch route {
    case .swiftTesting:
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    case .xctest:
      if !XCTestCases.recordFailure(message, sourceLocation: sourceLocation) {
        record(message, sourceLocation: sourceLocation, route: .standardError)
      }
    case .standardError:
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
      standardErrorWriter(standardErrorLine(message, sourceLocation: sourceLocation) + "\n")
      XCTestCases.failCaseRunningBeforeObserving(message, sourceLocation: sourceLocation)
    }
  }

  /// The loud line: where, and what.
  package static func standardErrorLine(_ message: String, sourceLocation: SourceLocation) -> String {
    "\(sourceLocation.filePath):\(sourceLocation.line): error: ActorMVVMTesting failure outside any test: \(message)"
  }

  /// Where the loud line is written: standard error, unless a test of the
  /// route binds a recorder for its own task.
  @TaskLocal package static var standardErrorWriter: @Sendable (String) -> Void = { text in
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// The XCTest case running in this process, if any, as an observer sees it.
package enum XCTestCases {
  #if canImport(XCTest)
    /// The case between its `testCaseWillStart` and `testCaseDidFinish`.
    ///
    /// Safe to share across threads (`Locked` is `@unchecked Sendable`)
    /// though `XCTestCase` is not `Sendable`: the lock guards the reference, and the one method called on it from
    /// other threads is the one `XCTFail` itself calls, from whatever thread
    /// `XCTFail` runs on, on the case XCTest has current
    /// (`recordFailure(withDescription:inFile:atLine:expected:)`). `XCTestFailureRouteTests` records from detached
    /// tasks and from the main actor while a case runs.
    fileprivate struct Current {
      var testCase: XCTestCase?
    }
    fileprivate static let current = Locked(Current())

    final class Observer: NSObject, XCTestObservation {
      func testCaseWillStart(_ testCase: XCTestCase) {
        XCTestCases.observing.withLock { $0.sawACaseStart = true }
        XCTestCases.current.withLock { $0.testCase = testCase }
      }
      func testCaseDidFinish(_ testCase: XCTestCase) {
        XCTestCases.current.withLock { current in
          if current.testCase === testCase { current.testCase = nil }
        }
      }
    }

    /// Whether ``observe()`` registered the observer, and whether a case
    /// has started since (until then, a case may have been running unseen).
    fileprivate struct Observing {
      var registered = false
      var sawACaseStart = false
    }
    fileprivate static let observing = Locked(Observing())
  #endif

  /// Registers the observer with XCTest, once: called by each tool when it
  /// is first used, from any thread.
  package static func observe() {
    #if canImport(XCTest)
      let first = observing.withLock { observing -> Bool in
        defer { observing.registered = true }
        return !observing.registered
      }
      guard first else { return }
      XCTestObservationCenter.shared.addTestObserver(Observer())
    #endif
  }

  /// A failure with no case known, while the observer has seen no case
  /// start: the case running when it was registered may be XCTest's
  /// current one, so `XCTFail` fails it (naming the caller's location in
  /// the message: `XCTFail` takes only a static file name). Outside any
  /// XCTest case `XCTFail` records nothing.
  static func failCaseRunningBeforeObserving(_ message: String, sourceLocation: SourceLocation) {
    #if canImport(XCTest)
      guard observing.withLock({ $0.registered && !$0.sawACaseStart }) else { return }
      XCTFail("\(sourceLocation.fileID):\(sourceLocation.line): \(message)")
    #endif
  }

  /// Whether an XCTest case is running now.
  package static var isRunning: Bool {
    #if canImport(XCTest)
      current.withLock { $0.testCase != nil }
    #else
      false
    #endif
  }

  /// The name of the running case, if any (for tests of the route).
  package static var runningName: String? {
    #if canImport(XCTest)
      current.withLock { $0.testCase?.name }
    #else
      nil
    #endif
  }

  /// Records a failure on the running case; false if none is running.
  fileprivate static func recordFailure(_ message: String, sourceLocation: SourceLocation) -> Bool {
    #if canImport(XCTest)
      guard let testCase = current.withLock({ $0.testCase }) else { return false }
      // One call for both frameworks, compiled and tested here: the method
      // swift-corelibs-xctest's `XCTFail` calls, which Apple's XCTest also
      // has (it turns it into an `XCTIssue`). Called through a protocol, so
      // Apple's deprecation of the name in favour of `record(_:)` is no
      // warning in an app's build.
      (testCase as any XCTestFailureRecording).recordFailure(
        withDescription: message, inFile: sourceLocation.filePath, atLine: sourceLocation.line, expected: true)
      return true
    #else
      return false
    #endif
  }
}

#if canImport(XCTest)
  /// The failure entry point `XCTestCase` has on every platform:
  /// swift-corelibs-xctest's and Apple's XCTest declare it alike.
  protocol XCTestFailureRecording {
    func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool)
  }

  extension XCTestCase: XCTestFailureRecording {}
#endif
