import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMSupport
import ActorMVVMTesting
import EmbeddedBackend
import Foundation
import ReplCore
import Testing

let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

/// Runs a script through a fresh REPL on the embedded backend and returns
/// every line it printed.
func transcript(of lines: [String], json: Bool = false, trace: Bool = false) async -> [String] {
  var options = ReplOptions()
  options.json = json
  let output = OutputLines()
  let clock = VirtualClock()
  let traceLines = trace ? TraceLines() : nil
  let coordinator = ReplApp.makeCoordinator(
    options: options, environment: [:], clock: clock, trace: traceLines, warn: { _ in })
  let session = ReplSession(coordinator: coordinator, clock: clock, trace: traceLines, format: json ? .json : .text) {
    output.append($0)
  }
  await session.start()
  for line in lines {
    guard await session.handle(line) else { break }
  }
  await session.finish()
  return output.lines
}

/// Lines collected from any task.
final class OutputLines: Sendable {
  private let storage = Locked<[String]>([])
  func append(_ line: String) { storage.withLock { $0.append(line) } }
  var lines: [String] { storage.withLock { $0 } }
}

@Suite("REPL", .testBubble)
struct ReplTests {
  func compare(script: String, golden: String, json: Bool) async throws {
    let lines = try String(contentsOf: goldenDirectory.appendingPathComponent(script), encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let output = await transcript(of: lines, json: json).joined(separator: "\n") + "\n"
    let goldenURL = goldenDirectory.appendingPathComponent(golden)
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
      try output.write(to: goldenURL, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: goldenURL, encoding: .utf8)
    guard output != expected else { return }
    let actual = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(golden)")
    try output.write(to: actual, atomically: true, encoding: .utf8)
    Issue.record("transcript differs from \(golden): see diff \(goldenURL.path) \(actual.path)")
  }

  @Test("The tour script prints its golden transcript")
  func tourText() async throws {
    try await compare(script: "tour.txt", golden: "tour.out", json: false)
  }

  @Test("The flow script shows loading states, overlapping commands and cancellation, with their times")
  func flowText() async throws {
    try await compare(script: "flow.txt", golden: "flow.out", json: false)
  }

  @Test("The tour script in --json prints its golden transcript")
  func tourJSON() async throws {
    try await compare(script: "tour.txt", golden: "tour.jsonl", json: true)
  }

  @Test("Every --json line is a JSON object with a type")
  func jsonLines() async throws {
    let lines = await transcript(of: ["open weather", "city Seoul", "nonsense", "state"], json: true)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(
        ["state", "output", "navigation", "error", "help", "unchanged"].contains(object?["type"] as? String ?? ""))
    }
    #expect(lines.contains(#"{"type":"state","screen":"weather","field":"temp","value":"75℉","ms":600}"#))
  }

  @Test("The same script prints the same bytes on 20 runs")
  func deterministic() async {
    let script = ["id alice", "password secret", "login", "open findnumber", "check 3", "open weather", "city Seoul"]
    let first = await transcript(of: script)
    for _ in 0..<19 { #expect(await transcript(of: script) == first) }
  }

  @Test("--trace: the superseded lookup and its dropped result are shown, at their instants; secrets masked")
  func trace() async {
    let lines = await transcript(
      of: ["id alice", "password secret", "login", "open weather", "city Seoul &", "city Busan"], trace: true)
    #expect(lines.contains("[login] input passwordChanged(•••) (caused by `password •••`)"))
    #expect(!lines.joined().contains("secret") && !lines.joined().contains("at-1-"))
    let busan = lines.firstIndex(of: "[weather] input cityEntered(\"Busan\") (caused by `city Busan`)")
    let superseded = lines.firstIndex {
      $0.hasPrefix("[weather]   effect #") && $0.hasSuffix("superseded (id: lookup)")
    }
    // Seoul's cancelled lookup is Seoul's work: its dropped result is credited to it.
    let dropped = lines.firstIndex { $0.hasPrefix("+0ms [city Seoul] [weather]   stale result dropped: ") }
    #expect(busan != nil && superseded != nil && dropped != nil)
    #expect(busan! < superseded! && superseded! < dropped!)
    #expect(lines.contains("+300ms weather.locationName = \"Busan, South Korea\""))
    #expect(
      lines.contains(
        "+300ms [weather] input located(Location(name: \"Busan, South Korea\", latitude: 35.10168, longitude: 129.03004)) (caused by `city Busan`)"
      ))
    #expect(!lines.contains { $0.contains("Seoul, South Korea") })
  }

  @Test("Small things a user meets: the answer hidden, silence acknowledged, errors escaped and cut, fields cleared")
  func userFacing() async {
    let long = String(repeating: "x", count: 100_000)
    let lines = await transcript(of: [
      "back", "login", "id alice", "id", "back", "open findnumber", "state --all", "refresh", "submit",
      "bogus\u{1b}[2J", long, "deeplink actormvvm://expiration?days=7",
    ])
    // FindNumber's answer is not on screen, only in `state --all`.
    #expect(!lines.contains { $0.hasPrefix("findnumber.target") && !lines.contains("findnumber.target = 3") })
    #expect(lines.filter { $0.hasPrefix("findnumber.target") } == ["findnumber.target = 3"])
    // A login field can be cleared; the intro offers login after it is closed.
    #expect(lines.contains("login.id = \"alice\"") && lines.contains("login.id = \"\""))
    #expect(lines.contains("intro commands: retry; login") || lines.contains("→ present login"))
    // No suggestion that is not close; the unknown word escaped, a long one cut.
    #expect(
      lines.contains(
        "error: unknown command \"refresh\"; commands: start, check, reset, help, state, wait, back, open, deeplink, maintenance, quit"
      ))
    #expect(lines.contains { $0.hasPrefix("error: unknown command \"submit\"; commands:") })
    #expect(lines.contains { $0.hasPrefix("error: unknown command \"bogus\\u001b[2J\"") })
    #expect(lines.allSatisfy { !$0.contains("\u{1b}") && $0.count < 400 })
    #expect(lines.contains { $0.hasPrefix("error: unknown command \"xxxxxxxx") && $0.contains("…\"") })
    // A deep link before login is kept, and the user is told.
    #expect(lines.last == "· deep link kept until login")
  }

  @Test("A command that changes nothing visible says so")
  func acknowledged() async {
    let lines = await transcript(of: ["open findnumber", "reset", "wait 10"])
    #expect(lines.suffix(2) == ["· no change", "+10ms · no change"])
    let guess = await transcript(of: ["open findnumber", "check 1"])  // wrong at round 1: the streak stays 0
    #expect(
      guess.suffix(2) == [
        "+300ms findnumber.isLoading = false",
        "· no change: a wrong guess at round 1 stays at round 1, with no streak to lose",
      ])
  }

  @Test("FindNumber's overlapping guesses, typed with &: a wrong guess cancels the win, a start keeps it")
  func overlappingGuesses() async {
    // The first target of the seeded backend is 3 (see `userFacing`).
    let wrong = await transcript(of: ["open findnumber", "check 3 &", "check 1"])
    #expect(!wrong.contains { $0.contains("findnumber.round = 2") })
    #expect(wrong.last == "findnumber.isLoading = false")
    // The win lands after `start` was typed: it is `check 3`'s, and says so.
    let start = await transcript(of: ["open findnumber", "check 3 &", "start"])
    #expect(start.contains("+300ms [check 3] findnumber.round = 2"))
    #expect(start.contains("+300ms [check 3] findnumber.currentRecord = 1"))
    // `start`'s own request ends its loading state, unnamed.
    #expect(start.last == "+300ms findnumber.isLoading = false")
  }

  @Test("No secret is ever printed")
  func secrets() async {
    let lines = await transcript(of: ["id alice", "password secret", "login", "state"])
    #expect(!lines.joined().contains("secret"))
    #expect(!lines.joined().contains("at-1-"))
    #expect(lines.contains("login.password = \"•••\""))
  }

  @Test("A few thousand bad lines: one error line each, nothing changes, the REPL keeps going")
  func fuzz() async {
    var options = ReplOptions()
    options.json = false
    let output = OutputLines()
    let clock = VirtualClock()
    let coordinator = ReplApp.makeCoordinator(options: options, environment: [:], clock: clock, warn: { _ in })
    let session = ReplSession(coordinator: coordinator, clock: clock) { output.append($0) }
    await session.start()
    _ = await session.handle("open findnumber")
    let before = await coordinator.state
    // Seeded: a failure names its seed; FUZZ_SEED=N replays it.
    let seed =
      ProcessInfo.processInfo.environment["FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
    var lines = BadLines(SeededRandom(seed: seed))
    for _ in 0..<3_000 {
      let line = lines.next()!
      let printed = output.lines.count
      #expect(await session.handle(line), "the REPL stopped on \(line) (FUZZ_SEED=\(seed))")
      let new = Array(output.lines[printed...])
      #expect(new.count == 1 && new[0].hasPrefix("error: "), "\(line) printed \(new) (FUZZ_SEED=\(seed))")
      #expect(!new.joined().contains("\u{1b}"), "an escape reached the terminal (FUZZ_SEED=\(seed))")
    }
    #expect(await coordinator.state == before)
    await session.finish()
  }

  @Test("The built binary runs a piped script and exits 0 at EOF")
  func endToEnd() throws {
    let run = try runBinary([], script: "open weather\ncity Richmond, VA\n")
    #expect(run.status == 0)
    #expect(run.stdout.contains("weather.locationName = \"Richmond, VA\""))
    #expect(run.stdout.contains("weather.temp = \"72℉\""))
    #expect(!run.stdout.contains("> "))  // no prompt without a terminal
  }

  @Test("A slow backend answer lands at its virtual instant: a 60,000-character city, same bytes on every run")
  func slowBackendSameInstant() throws {
    // The lookup of a long name keeps the embedded backend busy for real
    // time; the script clock waits for it (no real-time give-up), so the
    // result is printed at +300ms, then the next command runs.
    let script = "open weather\ncity " + String(repeating: "x", count: 60_000) + "\ncity Seoul\n"
    let first = try runBinary([], script: script)
    #expect(first.status == 0)
    #expect(first.stdout.contains("+300ms weather.locationName = \"Not found\"\n"))
    #expect(first.stdout.contains("+300ms weather.locationName = \"Seoul, South Korea\"\n"))
    let second = try runBinary([], script: script)
    #expect(second.stdout == first.stdout)
  }

  @Test("The binary prints the flow script's golden transcript, its session in a bubble of its own")
  func flowBinary() throws {
    let script = try String(contentsOf: goldenDirectory.appendingPathComponent("flow.txt"), encoding: .utf8)
    let golden = try String(contentsOf: goldenDirectory.appendingPathComponent("flow.out"), encoding: .utf8)
    let run = try runBinary([], script: script)
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty)
    #expect(run.stdout == golden)
  }

  /// Runs the built `repl` binary with `arguments`, feeding it `script`;
  /// `environment` is added to the test process's own.
  func runBinary(_ arguments: [String], script: String, environment: [String: String] = [:]) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
      "repl")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the repl product first")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let (input, output, errors) = (Pipe(), Pipe(), Pipe())
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(script.utf8))
    try input.fileHandleForWriting.close()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
  }

  @Test("A corrupt data file is set aside with a warning; the app starts from defaults and saves again")
  func corruptDataDirectory() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("repl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("store.json")
    try Data("{ not json".utf8).write(to: file)

    // Guessing 1, 2, 3 in turn wins at least one round, whatever the target: records change and are saved.
    let first = try runBinary(["--data-dir", directory.path], script: "open findnumber\ncheck 1\ncheck 2\ncheck 3\n")
    #expect(first.status == 0)
    #expect(first.stderr.contains("store.json was corrupt; kept it as \(file.path).corrupt and started from defaults"))
    #expect(try Data(contentsOf: file.appendingPathExtension("corrupt")) == Data("{ not json".utf8))
    #expect(first.stdout.contains("findnumber.stage = \"스테이지: 1\""))

    // The next run reads what the first saved, and has nothing to warn about.
    let second = try runBinary(["--data-dir", directory.path], script: "open findnumber\n")
    #expect(second.status == 0)
    #expect(second.stderr.isEmpty)
    #expect(second.stdout.contains("findnumber.bestRecord = "))
    #expect(!second.stdout.contains("findnumber.bestRecord = 0"))
    #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) is [String: Any])
  }

  @Test("A relaunch with the same --data-dir comes back as the same member, renewed; both data files 0600")
  func sessionRestored() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = try runBinary(["--data-dir", directory.path], script: "id alice\npassword secret\nlogin\n")
    #expect(first.status == 0)
    #expect(first.stdout.contains("home.member = \"Alice Kim\""))

    // The relaunch renews the stored session before going home; the member's own link then opens their report.
    let link = "deeplink actormvvm://analysis-complete?memIdx=1&termNo=101"
    let second = try runBinary(["--data-dir", directory.path], script: "\(link)\n")
    #expect(second.status == 0)
    let lines = second.stdout.split(separator: "\n").map(String.init)
    #expect(!lines.contains { $0.contains("present login") || $0.contains("sessionExpired") })
    #expect(lines.contains("+600ms intro ! showHome: id: alice, name: Alice Kim, memIdx: 1"))  // check, then refresh
    #expect(lines.contains("→ present report(101)"))
    #expect(!second.stdout.contains("secret") && !second.stdout.contains("rt-1-"))

    // Both files hold tokens: owner-only.
    for name in ["store.json", "server.json"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
      #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(name)")
    }
  }

  @Test(
    "A relaunch whose stored session the server refuses goes to login, which says why, and the stale member acts on nothing"
  )
  func staleSessionRefused() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try runBinary(["--data-dir", directory.path], script: "id alice\npassword secret\nlogin\n")
    try FileManager.default.removeItem(at: directory.appendingPathComponent("server.json"))  // the server forgot
    let link = "deeplink actormvvm://analysis-complete?memIdx=1&termNo=101"
    let run = try runBinary(["--data-dir", directory.path], script: "\(link)\n")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("+600ms → present login"))
    #expect(lines.contains("· deep link kept until login"))
    #expect(lines.contains("+600ms intro ! sessionExpired"))
    #expect(lines.contains(#"+600ms login.error = "Your session has expired: log in again""#))
    #expect(!lines.contains { $0.contains("root home") || $0.contains("report(101)") })
    #expect(
      lines.filter { $0.contains("sessionExpired") }.count == 1, "only the intro's: no screen of the stale member ran")
  }

  @Test("--replay of a missing or malformed file: one clear line on stderr, exit 2")
  func replayErrorsEndToEnd() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = directory.appendingPathComponent("nope.jsonl").path
    let run = try runBinary(["--replay", missing], script: "")
    #expect(run.status == 2)
    #expect(run.stderr == "repl: cannot replay \(missing): no such file\n")
    let bad = directory.appendingPathComponent("bad.jsonl")
    try Data("{\"atMilliseconds\":0,\"line\":\"help\"}\nhelp\n".utf8).write(to: bad)
    let malformed = try runBinary(["--replay", bad.path], script: "")
    #expect(malformed.status == 2)
    #expect(malformed.stderr.hasPrefix("repl: \(bad.path):2: not a recorded command"))
    #expect(malformed.stderr.split(separator: "\n").count == 1)
  }

  @Test("Options parse, and bad ones are typed errors")
  func options() throws {
    let options = try ReplOptions(arguments: ["--json", "--seed", "7", "--latency", "20"])
    #expect(options.json && options.seed == 7 && options.latencyMilliseconds == 20)
    #expect(throws: OptionsError.unknown("--bogus")) { try ReplOptions(arguments: ["--bogus"]) }
    #expect(throws: OptionsError.badValue("--seed", "x")) { try ReplOptions(arguments: ["--seed", "x"]) }
    #expect(throws: OptionsError.conflict("--record", "--replay")) {
      try ReplOptions(arguments: ["--record", "a", "--replay", "b"])
    }
  }
}
