import ActorMVVM
import ActorMVVMTesting
import Foundation
import Testing

/// A use case that throws `any Error`, as a migrating team's often do.
struct PostsUseCase: Sendable {
  let posts: @Sendable () async throws -> [String]
}

/// A screen whose failure input carries the untyped error, wrapped.
struct PostsScreen: StateMachine {
  let useCase: PostsUseCase
  struct State: Equatable, Sendable {
    var posts: [String] = []
    var error: String?
  }
  enum Input: Equatable, Sendable {
    case appeared
    case postsLoaded([String])
    case failed(ComparableError)
  }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .appeared:
      let useCase = self.useCase
      return .run { send in
        send(.postsLoaded(try await useCase.posts()))
      } catch: {
        .failed(ComparableError($0))
      }
    case .postsLoaded(let posts):
      state.posts = posts
      return .none
    case .failed(let error):
      state.error = "\(error)"
      return .none
    }
  }
}

enum StubError: Error, Equatable { case offline, denied(code: Int) }
struct OpaqueError: Error { let reason: String }

@Suite("ComparableError: untyped errors in Equatable inputs (issue #33, item 6)", .testBubble)
struct ComparableErrorTests {
  @Test("An input carrying an untyped error is received by value")
  func receivedByValue() async {
    let tester = FeatureTester(
      PostsScreen(useCase: PostsUseCase(posts: { throw StubError.denied(code: 403) })), initialState: .init())
    await tester.send(.appeared)
    await tester.receive(.failed(ComparableError(StubError.denied(code: 403)))) { $0.error = "denied(code: 403)" }
    await tester.finish()
  }

  @Test("Equatable errors compare as values; others by type and description")
  func equality() {
    #expect(ComparableError(StubError.offline) == ComparableError(StubError.offline))
    #expect(ComparableError(StubError.offline) != ComparableError(StubError.denied(code: 1)))
    #expect(ComparableError(StubError.denied(code: 1)) != ComparableError(StubError.denied(code: 2)))
    #expect(ComparableError(OpaqueError(reason: "a")) == ComparableError(OpaqueError(reason: "a")))
    #expect(ComparableError(OpaqueError(reason: "a")) != ComparableError(OpaqueError(reason: "b")))
    // The same description from another type is another error.
    #expect(ComparableError(StubError.offline) != ComparableError(OpaqueError(reason: "offline")))
    let timedOut = URLError(.timedOut)
    #expect(ComparableError(timedOut) == ComparableError(URLError(.timedOut)))
    #expect(ComparableError(timedOut) != ComparableError(URLError(.cancelled)))
    // Wrapping twice changes nothing; the thrown error is there to switch on.
    #expect(ComparableError(ComparableError(StubError.offline)) == ComparableError(StubError.offline))
    #expect(ComparableError(StubError.offline).base as? StubError == .offline)
  }
}
