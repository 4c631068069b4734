import ActorMVVM
import ActorMVVMTesting
import Foundation
import Testing

// The example of the article "Exploring every order": its code, compiled and run here.

enum SearchError: Error, Equatable { case offline, cancelled }

struct Finder: StateMachine {
  struct State: Equatable, Sendable {
    var query = ""
    var results: [String] = []
    var resultsQuery = ""
  }
  enum Input: Sendable { case queryChanged(String), found(String, [String]), failed(SearchError) }
  typealias Output = Never

  let search: ExploredCall<String, [String], SearchError>

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .queryChanged(let query):
      state.query = query
      let search = self.search
      return .run { (send) async throws(SearchError) in  // no `id:`: the bug
        send(.found(query, try await search(query)))
      } catch: {
        .failed($0)
      }
    case .found(let query, let results):
      state.results = results
      state.resultsQuery = query
      return .none
    case .failed:
      return .none
    }
  }
}

let finderExploration = Exploration<Finder>(inputs: .script([.queryChanged("a"), .queryChanged("ab")])) { world in
  let search = world.call(
    "search", answers: { (query: String) in [.success([query.uppercased()]), .failure(SearchError.offline)] },
    whenCancelled: SearchError.cancelled)
  return (Finder(search: search), .init())
}
.invariant("results are for the query shown") { $0.state.results.isEmpty || $0.state.resultsQuery == $0.state.query }

@Suite("The article \"Exploring every order\"", .testBubble)
struct ExplorationArticleTests {
  @Test("Its broken search is caught, and the report it prints is the article's, line for line")
  func articleReport() async throws {
    let report = await finderExploration.explore()
    let article = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(
          "Sources/ActorMVVMTesting/ActorMVVMTesting.docc/ExploringEveryOrder.md"), encoding: .utf8)
    let printed = try #require(article.components(separatedBy: "It prints:\n\n```text\n").dropFirst().first)
      .components(separatedBy: "\n```")[0]
    #expect("\(report)" == printed)
    let failure = try #require(report.failure)
    let replayed = await finderExploration.replay(failure.steps)
    #expect(replayed.brokenInvariant != nil)
  }
}
