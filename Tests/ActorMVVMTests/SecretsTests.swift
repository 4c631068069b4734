import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTestSupport
import Testing

/// A form whose state holds credentials in every shape a trace must walk:
/// an optional that becomes a value, an enum case with a payload, an array.
struct CredentialsForm: StateMachine {
  struct Credentials: Equatable, Sendable {
    var user: String
    var password: String
  }
  enum Phase: Equatable, Sendable {
    case idle
    case submitting(Credentials)
  }
  struct State: Equatable, Sendable {
    var pending: Credentials?
    var phase = Phase.idle
    var history: [Credentials] = []
    var headers: [String: String] = [:]
  }
  enum Input: Sendable {
    case submit(Credentials)
    case request(headers: [String: String])
  }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .submit(let credentials):
      state.pending = credentials
      state.phase = .submitting(credentials)
      state.history.append(credentials)
    case .request(let headers):
      state.headers = headers
    }
    return .none
  }
}

@Suite("Secrets: a trace never prints one")
struct SecretsTests {
  func trace(_ inputs: [CredentialsForm.Input]) async -> [String] {
    let lines = Locked<[String]>([])
    let feature = Feature(
      CredentialsForm(), initialState: .init(),
      trace: .printing("form", to: { line in lines.withLock { $0.append(line) } }))
    for input in inputs { feature.send(input) }
    await feature.finish()
    return lines.withLock { $0 }
  }

  @Test("nil → a value, a case with a payload, an array and a dictionary: the secrets inside are masked")
  func theFourShapes() async {
    let lines = await trace([
      .submit(.init(user: "alice", password: "hunter2")),
      .request(headers: ["Authorization": "Bearer s3cr3t-t0ken", "Accept": "application/json"]),
    ])
    let all = lines.joined(separator: "\n")
    #expect(!all.contains("hunter2"), "\(all)")
    #expect(!all.contains("s3cr3t"), "\(all)")
    #expect(all.contains(#"pending: nil → Optional(Credentials(user: "alice", password: •••))"#), "\(all)")
    #expect(all.contains(#"phase: idle → submitting(Credentials(user: "alice", password: •••))"#), "\(all)")
    #expect(all.contains(#"history: [] → [Credentials(user: "alice", password: •••)]"#), "\(all)")
    #expect(all.contains(#""Authorization": •••"#), "\(all)")
    #expect(all.contains(#""Accept": "application/json""#), "\(all)")
  }

  /// A value of a randomly chosen shape with `secret` somewhere under a
  /// secret name, `depth` levels down.
  indirect enum Generated: Sendable {
    case leaf(String)
    case secretField(password: String)
    case wrapped(Box)
    case list([Generated])
    case keyed([String: Generated])
    case maybe(Generated?)
    case pair((label: Int, value: Generated))

    struct Box: Sendable {
      var name: String
      var inner: Generated
      var token: String?
    }
  }

  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  static func generate(_ random: inout Random, secret: String, depth: Int) -> Generated {
    if depth == 0 {
      switch random.next(3) {
      case 0: return .secretField(password: secret)
      case 1: return .keyed(["x-api-key": .leaf(secret)])
      default: return .wrapped(.init(name: "n", inner: .leaf("plain"), token: secret))
      }
    }
    let inner = generate(&random, secret: secret, depth: depth - 1)
    switch random.next(6) {
    case 0: return .wrapped(.init(name: "box", inner: inner, token: nil))
    case 1: return .list([.leaf("a"), inner, .leaf("b")])
    case 2: return .keyed(["plain": inner, "other": .leaf("x")])
    case 3: return .maybe(inner)
    case 4: return .pair((label: 1, value: inner))
    default: return .list([inner])
    }
  }

  @Test("5,000 generated nested values hiding a secret: it never appears in a described value")
  func generatedValues() {
    var random = Random(state: 42)
    for index in 0..<5_000 {
      let secret = "S3CRET-\(index)"
      let value = Self.generate(&random, secret: secret, depth: random.next(20))
      let text = Secrets.describe(value)
      #expect(!text.contains(secret), "\(text)")
      #expect(Secrets.mayHoldSecret(value))
    }
  }

  @Test("The rule goes by the words of a name: apiKey and tokens are secrets, keywords and keyboard are not")
  func ruleByWords() {
    for name in [
      "password", "passwordChanged", "newPassword", "apiKey", "X-Api-Key", "apikey", "key", "weatherbitKey", "KEY",
      "accessToken", "refresh_token", "tokens", "tokenIssued", "client_secret", "X-Naver-Client-Secret",
      "Authorization", "secretKey", "passwords", "API_KEY", "privateKeys",
    ] {
      #expect(Secrets.isSecret(name), "\(name)")
    }
    for name in ["keywords", "keyboard", "id", "member", "summary", "keyword", "isLoading", "errorMessage"] {
      #expect(!Secrets.isSecret(name), "\(name)")
    }
  }

  @Test("Past the depth bound the walk prints …, never the value it did not walk")
  func depthBound() {
    var value = Generated.secretField(password: "deep-secret")
    for _ in 0..<(Secrets.maximumDepth * 2) { value = .list([value]) }
    let text = Secrets.describe(value)
    #expect(!text.contains("deep-secret"))
    #expect(text.contains("…"))
  }
}
