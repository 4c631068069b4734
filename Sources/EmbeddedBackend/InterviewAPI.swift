import ActorMVVMNetworking
import ActorMVVMStorage
import Foundation

/// The interview app's own JSON API, served in-process. Documented in the
/// DocC article *The reference app* ("The interview API"). Members, interviews, reports and messages
/// are fixed demo data; tokens are issued, expired and rotated for real, on
/// the backend's clock.
///
/// Like a real server's database, the refresh tokens it has issued live in
/// its state store (when given one) and outlive the process; access tokens
/// live in memory, so after a restart a client refreshes first.
actor InterviewAPI {
  static let host = "api.interview.example"

  struct Member: Codable, Sendable {
    let memIdx: Int
    let id: String
    let name: String
  }

  struct Account {
    let member: Member
    let password: String
    let membershipDaysLeft: Int
  }

  struct Interview: Encodable {
    let termNo: Int
    let title: String
    let companyName: String
    let careerName: String
    let occupationName: String
    let regDate: String
    let completed: Bool
  }

  struct Message: Encodable {
    let messageId: Int
    let sender: String
    let text: String
    let sentAt: String
  }

  struct Room: Encodable {
    let roomId: Int
    let companyName: String
    let title: String
    let unreadCount: Int
  }

  struct Session {
    let memIdx: Int
    let expiresAt: Duration
  }

  static let accounts: [Account] = [
    Account(member: Member(memIdx: 1, id: "alice", name: "Alice Kim"), password: "secret", membershipDaysLeft: 3),
    Account(member: Member(memIdx: 2, id: "bob", name: "Bob Lee"), password: "hunter2", membershipDaysLeft: 30),
  ]

  private let interviews: [Int: [Interview]] = [
    1: [
      Interview(
        termNo: 101, title: "iOS 개발자 모의 면접", companyName: "Kakao", careerName: "신입",
        occupationName: "iOS Developer", regDate: "2024-05-10", completed: true),
      Interview(
        termNo: 102, title: "백엔드 개발자 모의 면접", companyName: "Naver", careerName: "경력 3년",
        occupationName: "Backend Developer", regDate: "2024-05-12", completed: false),
    ],
    2: [
      Interview(
        termNo: 201, title: "프로덕트 디자이너 모의 면접", companyName: "Toss", careerName: "신입",
        occupationName: "Product Designer", regDate: "2024-05-11", completed: true)
    ],
  ]

  private let rooms: [Int: [(room: Room, messages: [Message])]] = [
    1: [
      (
        Room(roomId: 1, companyName: "Kakao", title: "Kakao 채용팀", unreadCount: 2),
        [
          Message(messageId: 11, sender: "Kakao 채용팀", text: "면접 일정 안내드립니다.", sentAt: "2024-05-13T10:00:00"),
          Message(messageId: 12, sender: "alice", text: "확인했습니다. 감사합니다.", sentAt: "2024-05-13T10:05:00"),
          Message(messageId: 13, sender: "Kakao 채용팀", text: "[광고] 지금 가입하면 포인트 지급!", sentAt: "2024-05-13T11:00:00"),
          Message(messageId: 14, sender: "Kakao 채용팀", text: "불쾌한 표현이 담긴 메시지", sentAt: "2024-05-13T12:00:00"),
        ]
      ),
      (
        Room(roomId: 2, companyName: "Naver", title: "Naver 인사팀", unreadCount: 1),
        [Message(messageId: 21, sender: "Naver 인사팀", text: "서류 합격을 축하드립니다.", sentAt: "2024-05-14T09:00:00")]
      ),
    ],
    2: [
      (
        Room(roomId: 3, companyName: "Toss", title: "Toss 채용팀", unreadCount: 0),
        [Message(messageId: 31, sender: "Toss 채용팀", text: "결과는 다음 주에 안내드립니다.", sentAt: "2024-05-14T15:00:00")]
      )
    ],
  ]

  private let elapsed: @Sendable () -> Duration
  private let tokenLifetime: Duration
  private var random: SeededRandom
  private var sessions: [String: Session] = [:]
  private var refreshTokens: [String: Int] = [:]
  /// Numbers every token issued, across restarts: no token string repeats.
  private var serial = 0
  private let stateStore: (any KeyValueStore)?
  private var tokensLoaded = false
  private var savingTokens = false
  private var tokensChanged = false
  private var serviceNotice: String?
  private(set) var refreshCount = 0

  init(clock: any Clock<Duration>, tokenLifetime: Duration, seed: UInt64, stateStore: (any KeyValueStore)?) {
    elapsed = Self.stopwatch(clock)
    self.tokenLifetime = tokenLifetime
    self.stateStore = stateStore
    random = SeededRandom(seed: seed &+ 0x1D)
  }

  private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  /// Puts the service under maintenance (`notice` set) or back (`nil`).
  func setMaintenance(_ notice: String?) { serviceNotice = notice }

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let route = Path(request)
    if route.is(.get, "v1/service/check") {
      return Reply.json(200, ServiceCheck(available: serviceNotice == nil, notice: serviceNotice))
    }
    if route.is(.post, "v1/auth/login") { return await changingTokens { login(request) } }
    if route.is(.post, "v1/auth/refresh") { return await changingTokens { refresh(request) } }
    let memIdx: Int
    switch authenticate(request) {
    case .success(let member): memIdx = member
    case .failure(let rejection): return rejection.reply
    }
    let account = Self.accounts.first { $0.member.memIdx == memIdx }!
    let myRooms = rooms[memIdx, default: []]
    let unread = myRooms.reduce(0) { $0 + $1.room.unreadCount }
    if route.is(.get, "v1/home") {
      return Reply.json(200, Home(member: account.member, unreadCount: unread, interviews: interviews[memIdx] ?? []))
    }
    if route.is(.get, "v1/me") {
      return Reply.json(200, MyPage(member: account.member, membershipDaysLeft: account.membershipDaysLeft))
    }
    if route.is(.get, "v1/messages/unread") { return Reply.json(200, Unread(unreadCount: unread)) }
    if let term = route.match(.get, "v1/interviews/*") {
      guard let interview = interviews[memIdx]?.first(where: { "\($0.termNo)" == term }) else { return notFound }
      return Reply.json(200, interview)
    }
    if let term = route.match(.get, "v1/analysis/*") {
      guard let interview = interviews[memIdx]?.first(where: { "\($0.termNo)" == term }) else { return notFound }
      guard interview.completed else { return Reply.json(409, Failure(code: 409, message: "analysis not ready")) }
      return Reply.json(200, AnalysisResult(result: report(for: interview.termNo)))
    }
    if route.is(.get, "v1/rooms") { return Reply.json(200, Rooms(rooms: myRooms.map(\.room))) }
    if let room = route.match(.get, "v1/rooms/*/messages") {
      guard let entry = myRooms.first(where: { "\($0.room.roomId)" == room }) else { return notFound }
      return Reply.json(200, Messages(messages: entry.messages))
    }
    if let message = route.match(.post, "v1/messages/*/declare") {
      guard let id = Int(message), myRooms.contains(where: { $0.messages.contains { $0.messageId == id } }) else {
        return notFound
      }
      // Odd messages are declared on a web form; even ones are handled at once.
      return id % 2 == 1
        ? Reply.json(200, DeclareResult(result: "url", url: "https://help.interview.example/declare/\(id)"))
        : Reply.json(200, DeclareResult(result: "complete", url: nil))
    }
    return notFound
  }

  /// A request's method and path, matched against patterns where `*` is one segment.
  struct Path {
    let method: HTTPRequest.Method
    let segments: [Substring]

    init(_ request: HTTPRequest) {
      method = request.method
      segments = request.url.path.split(separator: "/")
    }

    func `is`(_ method: HTTPRequest.Method, _ pattern: String) -> Bool { match(method, pattern) != nil }

    /// The segment matched by the pattern's `*` ("" when it has none), or nil.
    func match(_ method: HTTPRequest.Method, _ pattern: String) -> String? {
      let expected = pattern.split(separator: "/")
      guard method == self.method, expected.count == segments.count else { return nil }
      var captured = ""
      for (want, have) in zip(expected, segments) {
        if want == "*" { captured = String(have) } else if want != have { return nil }
      }
      return captured
    }
  }

  // MARK: Auth

  private func login(_ request: HTTPRequest) -> HTTPResponse {
    struct Credentials: Decodable {
      let id: String
      let password: String
    }
    guard let body = request.body, let credentials = try? JSONDecoder().decode(Credentials.self, from: body) else {
      return Reply.json(400, Failure(code: 400, message: "id and password are required"))
    }
    guard let account = Self.accounts.first(where: { $0.member.id == credentials.id }),
      account.password == credentials.password
    else {
      return Reply.json(401, Failure(code: 401, message: "invalid id or password"))
    }
    return Reply.json(200, issueTokens(for: account.member))
  }

  private func refresh(_ request: HTTPRequest) -> HTTPResponse {
    struct Body: Decodable { let refreshToken: String }
    guard let body = request.body, let token = try? JSONDecoder().decode(Body.self, from: body).refreshToken,
      let memIdx = refreshTokens.removeValue(forKey: token),
      let account = Self.accounts.first(where: { $0.member.memIdx == memIdx })
    else {
      return Reply.json(401, Failure(code: 401, message: "refresh token invalid"))
    }
    refreshCount += 1
    return Reply.json(200, issueTokens(for: account.member))
  }

  /// Runs a login or refresh over the refresh tokens loaded from the state
  /// store, then saves them. The table is loaded before `body` and `body`
  /// does not suspend, so a token is checked and rotated in one step.
  private func changingTokens(_ body: () -> HTTPResponse) async -> HTTPResponse {
    if !tokensLoaded {
      tokensLoaded = true
      // An unreadable state starts empty: clients then log in again.
      if let stored = try? await stateStore?.value(StoredTokens.self, forKey: StoredTokens.key) {
        refreshTokens.merge(stored.refreshTokens) { issuedNow, _ in issuedNow }
        serial = max(serial, stored.serial)
      }
    }
    let response = body()
    await saveTokens()
    return response
  }

  /// Writes the table; saves asked for while one is being written are
  /// folded into one more write of the newest table, so the store never
  /// ends on an older one.
  private func saveTokens() async {
    guard let stateStore else { return }
    tokensChanged = true
    guard !savingTokens else { return }
    savingTokens = true
    while tokensChanged {
      tokensChanged = false
      // A failed write keeps the tokens in memory; only a restart forgets them.
      try? await stateStore.set(StoredTokens(refreshTokens: refreshTokens, serial: serial), forKey: StoredTokens.key)
    }
    savingTokens = false
  }

  /// The keys and types the server state holds, for a store's shape check.
  static var storedShape: [(key: String, type: any Decodable.Type)] { [(StoredTokens.key, StoredTokens.self)] }

  struct StoredTokens: Codable, Sendable {
    static let key = "interview.refreshTokens"
    let refreshTokens: [String: Int]
    let serial: Int
  }

  private func issueTokens(for member: Member) -> Auth {
    serial += 1
    let access = "at-\(member.memIdx)-\(serial)-" + String(random.next(), radix: 36)
    let refresh = "rt-\(member.memIdx)-\(serial)-" + String(random.next(), radix: 36)
    sessions[access] = Session(memIdx: member.memIdx, expiresAt: elapsed() + tokenLifetime)
    refreshTokens[refresh] = member.memIdx
    let seconds = Int(tokenLifetime.components.seconds)
    return Auth(member: member, accessToken: access, refreshToken: refresh, expiresIn: seconds)
  }

  private func authenticate(_ request: HTTPRequest) -> Result<Int, Rejection> {
    guard let header = request.header("Authorization"), header.hasPrefix("Bearer "),
      let session = sessions[String(header.dropFirst("Bearer ".count))]
    else {
      return .failure(Rejection(Reply.json(401, Failure(code: 401, message: "unauthorized"))))
    }
    guard elapsed() < session.expiresAt else {
      return .failure(Rejection(Reply.json(401, Failure(code: 401, message: "access token expired"))))
    }
    return .success(session.memIdx)
  }

  struct Rejection: Error {
    let reply: HTTPResponse
    init(_ reply: HTTPResponse) { self.reply = reply }
  }

  private var notFound: HTTPResponse { Reply.json(404, Failure(code: 404, message: "not found")) }

  // MARK: Reports

  private func report(for termNo: Int) -> Report {
    var random = SeededRandom(seed: UInt64(termNo))
    let skills = ["의사소통", "문제 해결", "협업", "전문성", "성장 가능성"]
    return Report(
      tips: Tips(
        good: ["결론부터 명확하게 답변했습니다.", "경험을 수치로 설명했습니다."],
        improve: ["답변 속도를 조금 늦춰 보세요.", "지원 동기를 회사와 더 연결해 보세요."]),
      character: Character(type: ["분석가형", "리더형", "조율가형"][termNo % 3], description: "논리적으로 상황을 정리하고 근거를 들어 설명합니다."),
      aptitude: Aptitude(
        scores: skills.map { Aptitude.Score(name: $0, score: Int.random(in: 60...95, using: &random)) }),
      keyword: ["Swift", "협업", "문제 해결", "꼼꼼함"])
  }
}

// MARK: Wire models

struct ServiceCheck: Encodable {
  let available: Bool
  let notice: String?
}

struct Failure: Encodable {
  let code: Int
  let message: String
}

struct Auth: Encodable {
  let member: InterviewAPI.Member
  let accessToken: String
  let refreshToken: String
  let expiresIn: Int
}

struct Home: Encodable {
  let member: InterviewAPI.Member
  let unreadCount: Int
  let interviews: [InterviewAPI.Interview]
}

struct MyPage: Encodable {
  let member: InterviewAPI.Member
  let membershipDaysLeft: Int
}

struct Unread: Encodable { let unreadCount: Int }

struct Rooms: Encodable { let rooms: [InterviewAPI.Room] }

struct Messages: Encodable { let messages: [InterviewAPI.Message] }

struct DeclareResult: Encodable {
  let result: String
  let url: String?
}

struct AnalysisResult: Encodable { let result: Report }

/// The article's `Model.Analysis.Report`: tips, character, aptitude and
/// `keyword` (its CodingKeys map `keywords` to `keyword`).
struct Report: Encodable {
  let tips: Tips
  let character: Character
  let aptitude: Aptitude
  let keyword: [String]
}

struct Tips: Encodable {
  let good: [String]
  let improve: [String]
}

struct Character: Encodable {
  let type: String
  let description: String
}

struct Aptitude: Encodable {
  struct Score: Encodable {
    let name: String
    let score: Int
  }
  let scores: [Score]
}

extension EmbeddedBackend {
  /// Puts the interview service under maintenance (`notice`) or back (`nil`).
  public func setInterviewMaintenance(_ notice: String?) async {
    await interview.setMaintenance(notice)
  }
}
