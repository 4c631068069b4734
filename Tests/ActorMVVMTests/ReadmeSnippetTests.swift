import ActorMVVMTestSupport
import Foundation
import Testing

/// The repository's root.
private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// Every ```swift block in the README appears, line for line (indentation
/// aside), in one Swift file under Tests/, where it is compiled and run: a
/// README snippet cannot drift from the code that proves it. (A snippet's
/// paragraphs, split at blank lines, may stand apart in that file: a type
/// and the test that drives it.)
@Test("README: every Swift snippet is a copy of compiled test code")
func readmeSnippetsAreCompiled() throws {
  let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  let snippets = snippets(in: readme, after: "```swift\n")
  #expect(!snippets.isEmpty)
  try expectCompiled(snippets, from: "README")
}

/// The articles' snippets marked `<!-- compiled -->` (the line before the
/// block) are held to the same rule as the README's.
@Test("Articles: every snippet marked compiled is a copy of compiled test code")
func articleSnippetsAreCompiled() throws {
  var found: [[[String]]] = []
  let articles = FileManager.default.enumerator(
    at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
  while let file = articles?.nextObject() as? URL {
    guard file.pathExtension == "md", file.path.contains(".docc/") else { continue }
    found += snippets(in: try String(contentsOf: file, encoding: .utf8), after: "<!-- compiled -->\n```swift\n")
  }
  #expect(found.count >= 4)
  try expectCompiled(found, from: "Article")
}

/// Each block of `text` that follows `opening`, as paragraphs of trimmed lines.
private func snippets(in text: String, after opening: String) -> [[[String]]] {
  text.components(separatedBy: opening).dropFirst().map { block in
    block.components(separatedBy: "```")[0].components(separatedBy: "\n\n").map(lines(of:)).filter { !$0.isEmpty }
  }
}

/// Expects every paragraph of each snippet in one Swift file under Tests/.
private func expectCompiled(_ snippets: [[[String]]], from place: String) throws {
  var sources: [[String]] = []
  let files = FileManager.default.enumerator(at: root.appendingPathComponent("Tests"), includingPropertiesForKeys: nil)
  while let file = files?.nextObject() as? URL {
    guard file.pathExtension == "swift", !file.path.contains("/.build") else { continue }
    sources.append(lines(of: try String(contentsOf: file, encoding: .utf8)))
  }
  for snippet in snippets {
    let found = sources.contains { source in snippet.allSatisfy { contains(source, $0) } }
    #expect(found, "\(place) snippet not found in Tests/:\n\(snippet.joined().joined(separator: "\n"))")
  }
}

/// Whether `lines` appear in `source`, one after another.
private func contains(_ source: [String], _ lines: [String]) -> Bool {
  guard source.count >= lines.count else { return false }
  return (0...(source.count - lines.count)).contains { Array(source[$0..<$0 + lines.count]) == lines }
}

/// The non-empty lines, trimmed.
private func lines(of text: String) -> [String] {
  text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}
