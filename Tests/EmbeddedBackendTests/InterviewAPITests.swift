import ActorMVVMNetworking
import ActorMVVMTesting
import Foundation
import Testing

@testable import EmbeddedBackend

@Suite("Embedded backend: interview API", .testBubble)
struct InterviewAPITests {
  struct Member: Decodable, Equatable {
    let memIdx: Int
    let id: String
    let name: String
  }
  struct Auth: Decodable {
    let member: Member
    let accessToken: String
    let refreshToken: String
    let expiresIn: Int
  }

  let clock = TestClock()
  let backend: EmbeddedBackend

  init() { backend = EmbeddedBackend(.init(clock: clock, accessTokenLifetime: .seconds(60))) }

  func call(_ method: HTTPRequest.Method, _ path: String, token: String? = nil, body: [String: String]? = nil)
    async throws -> HTTPResponse
  {
    var request = try HTTPRequest(
      method: method, host: "api.interview.example", path: path,
      headers: token.map { [(name: "Authorization", value: "Bearer \($0)")] } ?? [])
    if let body { try request.setJSONBody(body) }
    return try await backend.send(request)
  }

  func login(_ id: String = "alice", _ password: String = "secret") async throws -> Auth {
    try await call(.post, "/v1/auth/login", body: ["id": id, "password": password]).decode(Auth.self)
  }

  @Test("Login issues a token pair; a wrong password is a 401")
  func loginFlow() async throws {
    let auth = try await login()
    #expect(auth.member == Member(memIdx: 1, id: "alice", name: "Alice Kim"))
    #expect(auth.expiresIn == 60)
    let wrong = try await call(.post, "/v1/auth/login", body: ["id": "alice", "password": "nope"])
    #expect(wrong.status == 401)
  }

  @Test("Access tokens expire on the clock; refresh rotates the pair")
  func expiryAndRefresh() async throws {
    let auth = try await login()
    #expect(try await call(.get, "/v1/home", token: auth.accessToken).status == 200)
    await clock.advance(by: .seconds(61))
    #expect(try await call(.get, "/v1/home", token: auth.accessToken).status == 401)
    let renewed = try await call(.post, "/v1/auth/refresh", body: ["refreshToken": auth.refreshToken])
      .decode(Auth.self)
    #expect(try await call(.get, "/v1/home", token: renewed.accessToken).status == 200)
    // The old refresh token is spent.
    #expect(try await call(.post, "/v1/auth/refresh", body: ["refreshToken": auth.refreshToken]).status == 401)
    #expect(await backend.refreshCount == 1)
  }

  @Test("Home, report, rooms, messages and declare answer for the member who owns them")
  func memberData() async throws {
    let token = try await login().accessToken
    struct Home: Decodable {
      let unreadCount: Int
      let interviews: [Interview]
      struct Interview: Decodable { let termNo: Int }
    }
    let home = try await call(.get, "/v1/home", token: token).decode(Home.self)
    #expect(home.unreadCount == 3)
    #expect(home.interviews.map(\.termNo) == [101, 102])
    struct Analysis: Decodable {
      struct Report: Decodable {
        let keywords: [String]
        enum CodingKeys: String, CodingKey { case keywords = "keyword" }
      }
      let result: Report
    }
    #expect(try await call(.get, "/v1/analysis/101", token: token).decode(Analysis.self).result.keywords.count == 4)
    #expect(try await call(.get, "/v1/analysis/201", token: token).status == 404)  // Bob's
    #expect(try await call(.get, "/v1/analysis/102", token: token).status == 409)  // not analysed yet
    struct Declare: Decodable {
      let result: String
      let url: String?
    }
    let web = try await call(.post, "/v1/messages/13/declare", token: token, body: ["reason": "spam"])
    #expect(try web.decode(Declare.self).url == "https://help.interview.example/declare/13")
    let done = try await call(.post, "/v1/messages/14/declare", token: token, body: ["reason": "abuse"])
    #expect(try done.decode(Declare.self).result == "complete")
    #expect(try await call(.post, "/v1/messages/31/declare", token: token).status == 404)  // Bob's room
  }

  @Test("Service check reports maintenance")
  func serviceCheck() async throws {
    struct Check: Decodable {
      let available: Bool
      let notice: String?
    }
    #expect(try await call(.get, "/v1/service/check").decode(Check.self).available)
    await backend.setInterviewMaintenance("점검 중입니다.")
    let check = try await call(.get, "/v1/service/check").decode(Check.self)
    #expect(!check.available && check.notice == "점검 중입니다.")
  }
}
