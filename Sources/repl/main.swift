import ActorMVVMStorage
import Foundation
import ReplCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `swift run repl`: the reference app, headless.
@MainActor
func main() async -> Int32 {
  let options: ReplOptions
  do {
    options = try ReplOptions(arguments: Array(CommandLine.arguments.dropFirst()))
  } catch .helpRequested {
    print(ReplOptions.usage)
    return 0
  } catch {
    FileHandle.standardError.write(Data("repl: \(error)\n\(ReplOptions.usage)\n".utf8))
    return 2
  }
  // One process per data directory: two would each write back their own
  // copy of the store and lose the other's changes.
  var lock: DataDirectoryLock?
  if let directory = options.dataDirectory {
    do {
      lock = try DataDirectoryLock.acquire(directory: directory)
    } catch {
      FileHandle.standardError.write(Data("repl: \(error)\n".utf8))
      return 2
    }
  }
  defer { withExtendedLifetime(lock) {} }
  let interactive = isatty(STDIN_FILENO) == 1 && options.replayPath == nil
  // In a terminal that can do raw mode, a line editor, and every line
  // printed above the line being typed.
  let console = interactive ? TerminalConsole.open() : nil
  defer { console?.restore() }
  let write: @Sendable (String) -> Void = { line in
    if let console { console.print(line) } else { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
  }
  let warn: @Sendable (String) -> Void = { text in
    if let console {
      console.print("warning: \(text)", toStandardError: true)
    } else {
      FileHandle.standardError.write(Data("warning: \(text)\n".utf8))
    }
  }
  let store = ReplApp.makeStore(options: options, warn: warn)
  let serverStore = ReplApp.makeServerStore(options: options, warn: warn)
  await ReplApp.reportStorageWarnings(of: store, warn: warn)
  if let serverStore { await ReplApp.reportStorageWarnings(of: serverStore, warn: warn) }
  // A script runs on virtual time (same transcript every run); a terminal on real time.
  let virtual = interactive ? nil : VirtualClock()
  let trace = options.trace ? TraceLines() : nil
  let coordinator = ReplApp.makeCoordinator(
    options: options, environment: ProcessInfo.processInfo.environment, store: store, serverStore: serverStore,
    clock: virtual ?? ContinuousClock() as any Clock<Duration>, trace: trace, warn: warn)
  // A --live script waits (at most 30 s a screen) for the real network's answers: they are outside the job count.
  let windowWidth: (@Sendable () -> Int?)? = console == nil ? nil : { @Sendable in TerminalConsole.windowWidth() }
  let session = ReplSession(
    coordinator: coordinator, clock: virtual, trace: trace, format: options.json ? .json : .text,
    outsideWork: options.live && virtual != nil ? .seconds(30) : nil,
    width: windowWidth, write: write)

  var lines: [String]? = nil
  var recorder: Recorder?
  do throws(RecordingError) {
    if let path = options.replayPath { lines = try Replay.lines(path: path) }
    if let path = options.recordPath { recorder = try Recorder(path: path) }
  } catch {
    FileHandle.standardError.write(Data("repl: \(error)\n".utf8))
    return 2
  }
  await session.start()
  if let console {
    // Output lands above the line being typed; the prompt follows the screen on top.
    let prompt: @Sendable () async -> String = { "\(await session.currentScreenName())> " }
    let watcher = Task {
      await session.watch(every: .milliseconds(30)) {
        Task {
          console.setCompletions(await session.completions())
          console.setPrompt(await prompt())
        }
      }
    }
    console.setCompletions(await session.completions())
    console.showPrompt(await prompt())
    for await line in console.lines {
      recorder?.record(line)
      guard await session.handle(line) else { break }
      console.setCompletions(await session.completions())
      console.showPrompt(await prompt())
    }
    watcher.cancel()
    await watcher.value
    await session.finish()
    recorder?.close()
    return 0
  }
  // In a terminal without raw mode, lines that land while the user types
  // appear at once, followed by a fresh prompt.
  let watcher: Task<Void, Never>? =
    interactive
    ? Task {
      await session.watch(every: .milliseconds(30)) {
        Task { FileHandle.standardOutput.write(Data("\(await session.currentScreenName())> ".utf8)) }
      }
    } : nil
  var replayIndex = 0
  while true {
    if interactive {
      FileHandle.standardOutput.write(Data("\(await session.currentScreenName())> ".utf8))
    }
    let line: String
    if let replay = lines {
      guard replayIndex < replay.count else { break }
      line = replay[replayIndex]
      replayIndex += 1
    } else {
      guard let read = readLine(strippingNewline: true) else { break }
      line = read
    }
    recorder?.record(line)
    guard await session.handle(line) else { break }
  }
  watcher?.cancel()
  await watcher?.value
  await session.finish()
  recorder?.close()
  return 0
}

// The session and every task the app starts run in a bubble of their own:
// a script needs to know when nothing more can happen before it moves
// virtual time, and a terminal when a command has settled.
exit(await ReplApp.withJobCountScope { await main() })
