import ActorMVVMCoordinator
import InterviewApp
import Testing

@testable import ReplCore

@Suite("REPL: screen views")
struct ScreenViewTests {
  @Test("Every kind of screen the interview app has a REPL view")
  func everyScreenHasAView() {
    let missing = InterviewApp.screens.filter { !($0 is any ScreenView.Type) }.map { $0.name }
    #expect(missing.isEmpty, "no ScreenView for \(missing)")
  }

  @Test("`open` knows every screen that opens by name, from the app's screens")
  func openByName() throws {
    #expect(try ReplSession.route("weather") == .weather)
    #expect(try ReplSession.route("MyPage") == .myPage)
    #expect(try ReplSession.route("report 101") == .report(termNo: 101))
    #expect(throws: ReplError.usage("open report <termNo>")) { try ReplSession.route("report") }
    #expect(throws: ReplError.usage("open report <termNo>")) { try ReplSession.route("report x") }
    #expect(throws: ReplError.usage(GlobalCommands.openUsage)) { try ReplSession.route("weather now") }
    #expect(throws: ReplError.usage(GlobalCommands.openUsage)) { try ReplSession.route("intro") }
    #expect(throws: ReplError.usage(GlobalCommands.openUsage)) { try ReplSession.route("declare 3") }
    #expect(
      GlobalCommands.openUsage == "open <weather|login|findnumber|directions|report <termNo>|messages|mypage|home>")
  }
}
