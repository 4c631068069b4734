import ActorMVVM
import ActorMVVMStorage
import ActorMVVMSupport
import Foundation
import Testing

@testable import ReplCore

/// The REPL prints outputs as text and as JSON (`--json`) through `Reflect`:
/// a secret inside them never reaches either.
@Suite("REPL: outputs never print a secret")
struct ReflectSecretsTests {
  struct Credentials: Sendable {
    var user: String
    var password: String
  }
  indirect enum Output: Sendable {
    case signedIn(Credentials)
    case headers([String: String])
    case nested([Output])
    case maybe(Credentials?)
    case pair((label: Int, inner: Output))
    case tokenIssued(String)
  }

  static func generate(_ seed: inout UInt64, secret: String, depth: Int) -> Output {
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let pick = Int((seed >> 33) % 5)
    if depth == 0 {
      switch pick {
      case 0: return .signedIn(Credentials(user: "alice", password: secret))
      case 1: return .headers(["Authorization": "Bearer \(secret)", "Accept": "json"])
      case 2: return .maybe(Credentials(user: "bob", password: secret))
      default: return .tokenIssued(secret)
      }
    }
    let inner = generate(&seed, secret: secret, depth: depth - 1)
    return pick.isMultiple(of: 2) ? .nested([inner]) : .pair((label: depth, inner: inner))
  }

  @Test("2,000 generated outputs hiding a secret: neither the text nor the JSON line shows it")
  func generatedOutputs() throws {
    var seed: UInt64 = 7
    for index in 0..<2_000 {
      let secret = "hunter\(index)x"
      let output = Self.generate(&seed, secret: secret, depth: index % 9)
      let (name, value, text) = Reflect.output(output)
      let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
      #expect(!text.contains(secret), "\(name): \(text)")
      #expect(!json.contains(secret), "\(name): \(json)")
    }
  }
}

/// A node that points at itself: a cyclic class graph.
final class CyclicNode {
  var name: String
  var next: CyclicNode?
  init(name: String) { self.name = name }
}

@Suite("Walks of a cyclic class graph end at the depth bound")
struct CyclicWalkTests {
  @Test("Reflect's JSON and text, and StateDiff, stop at the bound instead of recursing forever")
  func cyclicGraphIsBounded() {
    let node = CyclicNode(name: "a")
    node.next = node
    let json = Reflect.json(node)
    #expect("\(json)".contains("…"))
    let other = CyclicNode(name: "b")
    other.next = other
    let changes = StateDiff.changes(from: node, to: other)
    #expect(changes.first?.path == "name")
    #expect(changes.count <= Secrets.maximumDepth)  // one per level, down to the bound
  }
}
