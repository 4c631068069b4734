import ActorMVVM
import ActorMVVMSupport
import Foundation
import ReplTerminalShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The REPL in a terminal: a line editor on the terminal in raw mode, and
/// every line of output printed above the line being typed.
///
/// - **Keys** are ``LineEditor``'s: Left/Right/Home/End, Backspace/Delete,
///   Up/Down history, Tab completion, Ctrl-A/E/K/U/W, Ctrl-C clears the
///   line (twice on an empty line exits), Ctrl-D exits on an empty line.
///   What follows `password ` is never drawn.
/// - **Output** (``print(_:toStandardError:)``) clears the prompt line,
///   prints, and redraws the prompt with the typed text and the cursor
///   where they were: output never lands inside the line being typed.
/// - **Lines** have no length limit (raw mode has no canonical-mode
///   buffer); a line wider than the terminal scrolls sideways.
/// - **Threads:** one thread reads the terminal; everything it and the
///   printers touch is behind one lock, and each drawing is one `write`.
///   Lines typed while a command runs wait, in order, in ``lines``.
/// - **The terminal** is restored by ``restore()``; ``open()`` returns nil
///   when standard input is not a terminal that can do raw mode, and the
///   REPL then reads plain lines.
public final class TerminalConsole: Sendable {
  private struct State: Sendable {
    var editor: LineEditor
    var prompt = ""
    /// Whether the prompt is on screen (between commands).
    var prompting = false
    var original: termios
    var restored = false
  }

  private let state: Locked<State>
  /// Apart from `state`: the editor asks for candidates while `state` is held.
  private let completions = Locked<[String: [String]]>([:])
  private let input: Int32
  private let output: Int32
  /// The lines typed, in order; finishes on Ctrl-D, a second Ctrl-C, or
  /// the end of input.
  public let lines: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation

  private init(input: Int32, output: Int32, original: termios) {
    let (lines, continuation) = AsyncStream<String>.makeStream()
    self.lines = lines
    self.continuation = continuation
    self.input = input
    self.output = output
    state = Locked(State(editor: LineEditor(), original: original))
  }

  /// Puts `input` (a terminal) in raw mode and starts reading it, or
  /// returns nil if it cannot.
  public static func open(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> TerminalConsole? {
    guard isatty(input) == 1 else { return nil }
    var original = termios()
    guard tcgetattr(input, &original) == 0 else { return nil }
    var raw = original
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { return nil }
    let console = TerminalConsole(input: input, output: output, original: original)
    // On SIGTERM, SIGHUP or SIGQUIT the terminal is put back before the
    // process dies of the signal (a `kill`, a closed window, Ctrl-\ from
    // another terminal): a C handler, as a signal handler may only make
    // async-signal-safe calls. (Ctrl-C and Ctrl-\ typed here are keys in raw mode.)
    repl_restore_terminal_on_termination(input, &original)
    console.state.withLock { $0.editor = LineEditor(candidates: console.candidates) }
    let thread = Thread { console.readLoop() }
    thread.name = "repl terminal"
    thread.start()
    return console
  }

  /// Puts the terminal back as it was. Idempotent.
  public func restore() {
    state.withLock { state in
      guard !state.restored else { return }
      state.restored = true
      var original = state.original
      _ = tcsetattr(input, TCSAFLUSH, &original)
    }
  }

  /// Shows `prompt` and whatever was typed ahead, ready for the next line.
  public func showPrompt(_ prompt: String) {
    state.withLock { state in
      state.prompt = prompt
      state.prompting = true
      write(Self.drawing(state))
    }
  }

  /// Changes the prompt (the screen on top changed), redrawing it if it is
  /// on screen.
  public func setPrompt(_ prompt: String) {
    state.withLock { state in
      guard state.prompt != prompt else { return }
      state.prompt = prompt
      if state.prompting { write(Self.drawing(state)) }
    }
  }

  /// What Tab completes: the first words of commands (key `""`), and the
  /// words after a command (key: the command).
  public func setCompletions(_ completions: [String: [String]]) {
    self.completions.withLock { $0 = completions }
  }

  /// Prints `line` above the prompt, then redraws the prompt.
  public func print(_ line: String, toStandardError: Bool = false) {
    state.withLock { state in
      if state.prompting { write("\r\u{1b}[2K") }
      if toStandardError {
        Self.write(STDERR_FILENO, line + "\n")
      } else {
        write(line + "\n")
      }
      if state.prompting { write(Self.drawing(state)) }
    }
  }

  private func candidates(_ before: [String]) -> [String] {
    completions.withLock { completions in
      guard let command = before.first?.lowercased() else { return completions[""] ?? [] }
      return before.count == 1 ? completions[command] ?? [] : []
    }
  }

  private func readLoop() {
    var decoder = KeyDecoder()
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
      let count = read(input, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      let keys = decoder.keys(buffer[0..<count])
      // One drawing per read, however many keys it held (a paste).
      let (submitted, quit) = state.withLock { state -> ([String], Bool) in
        var (submitted, redraw) = ([String](), false)
        for key in keys {
          switch state.editor.handle(key) {
          case nil: break
          case .redraw: redraw = true
          case .show(let lines):
            write((state.prompting ? "\r\u{1b}[2K" : "") + lines.joined(separator: "\n") + "\n")
            redraw = true
          case .submit(let line):
            // The finished line stays on screen as typed, its secret part
            // hidden — every line, also one typed or pasted while a
            // command runs (then after what that command has printed).
            let visible = String(Array(line).prefix(LineEditor.visibleCount(of: Array(line))))
            write("\r\u{1b}[2K" + state.prompt + Self.scrolled(visible) + "\n")
            state.prompting = false
            redraw = false
            submitted.append(line)
          case .quit:
            if state.prompting { write("\n") }
            state.prompting = false
            return (submitted, true)
          }
        }
        if redraw, state.prompting { write(Self.drawing(state)) }
        return (submitted, false)
      }
      for line in submitted { continuation.yield(line) }
      if quit { break }
    }
    continuation.finish()
  }

  /// The prompt line: cleared, the prompt, the visible part of the text
  /// (scrolled sideways to keep the cursor on screen), the cursor placed.
  private static func drawing(_ state: State) -> String {
    let editor = state.editor
    let shown = Array(editor.text.prefix(editor.visibleCount))
    let cursor = min(editor.cursor, shown.count)
    let room = max(10, terminalWidth() - width(of: state.prompt) - 1)
    // Back from the cursor while the text fits, then forward: O(room), not O(line).
    var start = cursor
    var used = 0
    while start > 0, used + width(of: CollectionOfOne(shown[start - 1])) <= room {
      start -= 1
      used += width(of: CollectionOfOne(shown[start]))
    }
    var end = cursor
    while end < shown.count, used + width(of: CollectionOfOne(shown[end])) <= room {
      used += width(of: CollectionOfOne(shown[end]))
      end += 1
    }
    let after = width(of: shown[cursor..<end])
    return "\r\u{1b}[2K" + state.prompt + String(shown[start..<end]) + (after > 0 ? "\u{1b}[\(after)D" : "")
  }

  /// A finished line as it stays on screen: cut to the terminal's width.
  private static func scrolled(_ text: String) -> String {
    let characters = Array(text)
    let room = max(10, terminalWidth() - 10)
    return characters.count > room ? String(characters.prefix(room)) + "…" : text
  }

  /// Columns `characters` take: two for East Asian wide ones (Hangul,
  /// CJK, full-width forms, emoji, flags), one otherwise — by a
  /// character's first scalar, so a skin tone or a joiner adds nothing.
  static func width(of characters: some Sequence<Character>) -> Int {
    characters.reduce(0) { total, character in
      guard let scalar = character.unicodeScalars.first else { return total }
      switch scalar.value {
      case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F1E6...0x1F1FF, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
        return total + 2
      default: return total + 1
      }
    }
  }

  static func width(of text: String) -> Int { width(of: Array(text)) }

  private static func terminalWidth() -> Int { windowWidth() ?? 80 }

  /// The terminal window's width in columns, asked now (it changes when
  /// the window is resized); nil when standard output is not a terminal.
  public static func windowWidth() -> Int? {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  private func write(_ text: String) { Self.write(output, text) }

  private static func write(_ descriptor: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    #if canImport(Glibc)
      let systemWrite = Glibc.write
    #else
      let systemWrite = Darwin.write
    #endif
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }
}
