import ActorMVVMTesting
import Foundation
import Testing

/// The README's REPL session and trace excerpt, checked against what the REPL prints.
@Suite("README: the REPL session", .testBubble)
struct ReadmeTranscriptTests {
  static let readme = goldenDirectory.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("README.md")

  /// The lines of the `text` block that follows `marker`.
  func block(after marker: String) throws -> [String] {
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    let start = try #require(text.range(of: marker)?.upperBound)
    let open = try #require(text.range(of: "```text\n", range: start..<text.endIndex)?.upperBound)
    let close = try #require(text.range(of: "\n```", range: open..<text.endIndex)?.lowerBound)
    return text[open..<close].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test("Every line the README's session shows is in flow.out, in that order; every command is in flow.txt")
  func session() throws {
    let script = try String(contentsOf: goldenDirectory.appendingPathComponent("flow.txt"), encoding: .utf8)
      .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    var golden = try String(contentsOf: goldenDirectory.appendingPathComponent("flow.out"), encoding: .utf8)
      .split(separator: "\n").map(String.init)[...]
    let lines = try block(after: "A session (lines from")
    #expect(lines.count > 20)
    for line in lines where line != "…" && !line.hasPrefix("$ ") && !script.contains(line) {
      guard let index = golden.firstIndex(of: line) else {
        Issue.record("README line not in flow.out (in order): \(line)")
        return
      }
      golden = golden[(index + 1)...]
    }
  }

  @Test("The README's trace excerpt is what --trace prints for the overlapping lookups")
  func trace() async throws {
    let excerpt = try block(after: "whose work each line is (the cancelled lookup is Chicago's):")
    let lines = await transcript(
      of: ["open weather", "city Seoul", "city Chicago &", "wait 100", "city Richmond, VA"], trace: true)
    let start = try #require(lines.firstIndex(of: excerpt[0]))
    #expect(Array(lines[start..<min(lines.count, start + excerpt.count)]) == excerpt)
  }
}
