import ActorMVVMNetworking
import Foundation
import LoginFeature

/// The interview API behind every interview use case (the article *The reference app*: "The
/// interview API"). Authenticated calls take their token from the
/// ``SessionUseCase`` — refreshed first if expired — and a 401 from the
/// server ends the session.
///
/// A `Sendable` struct holding only constants: calls run concurrently, in
/// the caller's task, with no actor hop; what has state (the `HTTPClient`
/// actor, the session) guards it itself.
public struct InterviewAPIClient: Sendable, ServiceCheckUseCase, HomeUseCase, AnalysisUseCase, MessagesUseCase,
  DeclareUseCase, MyPageUseCase
{
  private let client: any HTTPClient
  private let session: any SessionUseCase
  private let host: String

  public init(client: any HTTPClient, session: any SessionUseCase, host: String = "api.interview.example") {
    self.client = client
    self.session = session
    self.host = host
  }

  // MARK: Wire models

  struct Member: Decodable {
    let memIdx: Int
    let id: String
    let name: String
    var user: User { User(id: id, name: name, memIdx: memIdx) }
  }
  struct Interview: Decodable {
    let termNo: Int
    let title: String
    let companyName: String
    let careerName: String
    let occupationName: String
    let regDate: String
    let completed: Bool
    var summary: InterviewSummary {
      InterviewSummary(
        termNo: termNo, title: title, companyName: companyName, careerName: careerName,
        occupationName: occupationName, regDate: regDate, completed: completed)
    }
  }
  struct Home: Decodable {
    let member: Member
    let unreadCount: Int
    let interviews: [Interview]
  }
  struct Analysis: Decodable {
    struct Report: Decodable {
      struct Tips: Decodable {
        let good: [String]
        let improve: [String]
      }
      struct Character: Decodable {
        let type: String
        let description: String
      }
      struct Aptitude: Decodable {
        struct Score: Decodable {
          let name: String
          let score: Int
        }
        let scores: [Score]
      }
      let tips: Tips?
      let character: Character?
      let aptitude: Aptitude?
      let keywords: [String]?
      enum CodingKeys: String, CodingKey {
        case tips, character, aptitude
        case keywords = "keyword"
      }
    }
    let result: Report?
  }
  struct Room: Decodable {
    let roomId: Int
    let companyName: String
    let title: String
    let unreadCount: Int
  }
  struct Rooms: Decodable { let rooms: [Room] }
  struct Messages: Decodable {
    struct Item: Decodable {
      let messageId: Int
      let sender: String
      let text: String
      let sentAt: String
    }
    let messages: [Item]
  }
  struct Declare: Decodable {
    let result: String
    let url: String?
  }
  struct MyPage: Decodable {
    let member: Member
    let membershipDaysLeft: Int
  }
  struct Check: Decodable {
    let available: Bool
    let notice: String?
  }

  // MARK: Use cases

  public func serviceStatus() async throws(InterviewError) -> ServiceStatus {
    let check = try await call(.get, "/v1/service/check", as: Check.self, authenticated: false)
    return ServiceStatus(available: check.available, notice: check.notice)
  }

  public func home() async throws(InterviewError) -> HomeData {
    let home = try await call(.get, "/v1/home", as: Home.self)
    return HomeData(member: home.member.user, unreadCount: home.unreadCount, interviews: home.interviews.map(\.summary))
  }

  public func interview(termNo: Int) async throws(InterviewError) -> InterviewSummary {
    try await call(.get, "/v1/interviews/\(termNo)", as: Interview.self).summary
  }

  public func analysisReport(termNo: Int) async throws(InterviewError) -> AnalysisReport {
    guard let report = try await call(.get, "/v1/analysis/\(termNo)", as: Analysis.self).result else {
      throw .notReady
    }
    return AnalysisReport(
      goodPoints: report.tips?.good ?? [], improvements: report.tips?.improve ?? [],
      characterType: report.character?.type ?? "", characterDescription: report.character?.description ?? "",
      aptitude: (report.aptitude?.scores ?? []).map { AnalysisReport.Score(name: $0.name, score: $0.score) },
      keywords: report.keywords ?? [])
  }

  public func rooms() async throws(InterviewError) -> [MessageRoom] {
    try await call(.get, "/v1/rooms", as: Rooms.self).rooms.map {
      MessageRoom(roomId: $0.roomId, companyName: $0.companyName, title: $0.title, unreadCount: $0.unreadCount)
    }
  }

  public func messages(roomId: Int) async throws(InterviewError) -> [Message] {
    try await call(.get, "/v1/rooms/\(roomId)/messages", as: Messages.self).messages.map {
      Message(messageId: $0.messageId, sender: $0.sender, text: $0.text, sentAt: $0.sentAt)
    }
  }

  public func declare(messageId: Int, reason: String) async throws(InterviewError) -> DeclareResult {
    let declare = try await call(
      .post, "/v1/messages/\(messageId)/declare", as: Declare.self, body: ["reason": reason])
    switch (declare.result, declare.url) {
    case ("url", let url?): return .openURL(url)
    case ("complete", _): return .completed
    default: throw .invalidData("unknown declare result \(declare.result)")
    }
  }

  public func myPage() async throws(InterviewError) -> MyPageData {
    let page = try await call(.get, "/v1/me", as: MyPage.self)
    return MyPageData(member: page.member.user, membershipDaysLeft: page.membershipDaysLeft)
  }

  // MARK: Transport

  private func call<T: Decodable>(
    _ method: HTTPRequest.Method, _ path: String, as type: T.Type, authenticated: Bool = true,
    body: [String: String]? = nil
  ) async throws(InterviewError) -> T {
    let token = authenticated ? try await session.validAccessToken() : nil
    let (client, host) = (self.client, self.host)
    let response = try await HTTPError.mapping(Self.failure) { () async throws(HTTPError) in
      var request = try HTTPRequest(method: method, host: host, path: path)
      if let token { request.headers.append((name: "Authorization", value: "Bearer \(token)")) }
      if let body { try request.setJSONBody(body) }
      return try await client.send(request)
    }
    switch response.status {
    case 200..<300: break
    case 401:
      await session.logout()
      throw .sessionExpired
    case 404, 403: throw .notFound
    case 409: throw .notReady
    case 503: throw .serviceUnavailable("The service is under maintenance")
    default: throw .status(response.status)
    }
    return try await HTTPError.mapping(Self.failure) { () async throws(HTTPError) in try response.decode(T.self) }
  }

  static func failure(_ error: HTTPError) -> InterviewError {
    switch error {
    case .undecodable, .emptyBody: .invalidData(error.description)
    case .status(let code, _, _): .status(code)
    default: .failedRequest(error.description)
    }
  }
}
