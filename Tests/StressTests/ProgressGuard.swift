import ActorMVVMSupport
import Dispatch
import Testing

/// Steps a guarded body has completed (``withProgressGuard(stall:sourceLocation:_:)``).
final class Progress: Sendable {
  private let steps = Locked(0)

  /// One more step done: a feature finished, a subscription ended, a round over.
  func tick() { steps.withLock { $0 += 1 } }

  /// Steps done so far.
  var count: Int { steps.withLock { $0 } }
}

/// Runs `body` under a hang guard that does not depend on pace: the test
/// fails, at `sourceLocation`, when `body` completes no step for `stall` of
/// real time *and* then for `rounds` passes of the cooperative pool's queue,
/// however long it takes as a whole. (A `.timeLimit` bounds the whole: in
/// the sanitized suite, where every stress test shares two cores, a starved
/// test that is making steady progress runs past any limit tight enough to
/// catch a hang soon.)
///
/// Why the rounds: real time alone is a pace. In the sanitized suite another
/// test can queue so many jobs that this body's next job waits behind them
/// for a minute (`outputSubscriptionsRaceFinish` did, in CI). A round is a
/// probe task, enqueued behind everything queued when it starts, awaited to
/// its end: by then every job queued before it has run. A starved body gets
/// a turn in each round and so completes a step within a few; a hung body
/// has nothing queued and completes none, and on an idle pool the rounds
/// take microseconds.
///
/// On a stall the guard records an issue and cancels `body`, then waits for
/// it to return: it returns nil. Otherwise it returns `body`'s result. The
/// guard's clock is a Dispatch timer, outside the cooperative pool the body
/// runs on, so a body that starves the pool does not stop the clock.
func withProgressGuard<Result: Sendable>(
  stall: Duration = .seconds(60),
  rounds: Int = 100,
  round: @escaping @Sendable () async -> Void = { await Task {}.value },
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable (Progress) async -> Result
) async -> Result? {
  let progress = Progress()
  return await withTaskGroup(of: GuardEnding<Result>.self) { group in
    group.addTask { .returned(await body(progress)) }
    group.addTask {
      var watch = ProgressWatch(seen: progress.count)
      while await RealTimePause.of(stall) {
        guard watch.stalled(now: progress.count) else { continue }
        var passes = 0
        while passes < rounds, !watch.progressed(now: progress.count), !Task.isCancelled {
          await round()  // a pass of the pool's queue: see the doc
          passes += 1
        }
        if Task.isCancelled { return .guardCancelled }
        if passes == rounds {
          Issue.record(
            """
            No progress for \(stall) and then \(rounds) passes of the pool's queue \
            (\(progress.count) step(s) done): a hang, not a starved test.
            """,
            sourceLocation: sourceLocation)
          return .stalled
        }
      }
      return .guardCancelled
    }
    var result: Result?
    var stalled = false
    while let ending = await group.next() {
      switch ending {
      case .returned(let value):
        if !stalled { result = value }  // a body cancelled by the guard returns what cancellation made it
        group.cancelAll()  // the guard's pause ends at once
      case .stalled:
        stalled = true
        group.cancelAll()  // the body is told; the group waits for it to return
      case .guardCancelled:
        break
      }
    }
    return result
  }
}

/// How one of the guard's two tasks ended.
enum GuardEnding<Result: Sendable>: Sendable {
  case returned(Result)
  case stalled
  case guardCancelled
}

/// The guard's verdict at each check: stalled when no step was completed
/// since the previous check.
struct ProgressWatch {
  var seen: Int

  mutating func stalled(now: Int) -> Bool {
    defer { seen = now }
    return now == seen
  }

  /// During the rounds after a stall: whether a step was completed since.
  mutating func progressed(now: Int) -> Bool { !stalled(now: now) }
}

/// A real-time pause on a Dispatch timer that ends early when the waiting
/// task is cancelled: true when the time passed, false when cancelled.
enum RealTimePause {
  static func of(_ duration: Duration) async -> Bool {
    let pause = Locked(PauseState.pending)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let ended = pause.withLock { state -> Bool? in
          if case .ended(let elapsed) = state { return elapsed }
          state = .waiting(continuation)
          return nil
        }
        if let ended { return continuation.resume(returning: ended) }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
          end(pause, elapsed: true)
        }
      }
    } onCancel: {
      end(pause, elapsed: false)
    }
  }

  enum PauseState {
    case pending
    case waiting(CheckedContinuation<Bool, Never>)
    case ended(Bool)
  }

  /// Ends the pause once: the first of the timer and the cancellation decides.
  private static func end(_ pause: Locked<PauseState>, elapsed: Bool) {
    let waiting = pause.withLock { state -> CheckedContinuation<Bool, Never>? in
      switch state {
      case .ended: return nil
      case .pending:
        state = .ended(elapsed)
        return nil
      case .waiting(let continuation):
        state = .ended(elapsed)
        return continuation
      }
    }
    waiting?.resume(returning: elapsed)
  }
}

@Suite("The stress suite's progress guard")
struct ProgressGuardTests {
  /// A body that never completes a step fails its test once the stall
  /// bound and the passes after it are spent, and is cancelled: the guard
  /// returns nil. (Ten passes, not the default 100: in the sanitized suite
  /// each pass waits behind every other test's queued jobs. The body's
  /// pause ends by itself only after ten minutes, so a guard that never
  /// fires fails the test rather than hanging it.)
  @Test func aBodyWithoutProgressFails() async {
    var result: Bool?
    await withKnownIssue {
      result = await withProgressGuard(stall: .milliseconds(50), rounds: 10) { _ in
        await RealTimePause.of(.seconds(600))  // until the guard cancels it: false
      }
    }
    #expect(result == nil)
  }

  /// A starved body is not failed: a step that comes during the rounds
  /// after the real-time check found none (as a starved body's does, its
  /// job queued behind others) clears the stall. Here the body's step waits
  /// for the guard's first round, so the real-time check always finds it
  /// stalled; without the rounds the guard would fail it.
  @Test func aStepDuringTheRoundsClearsTheStall() async {
    let (firstRound, beginRound) = AsyncStream<Void>.makeStream()
    let result = await withProgressGuard(
      stall: .milliseconds(20), rounds: 100,
      round: {
        beginRound.yield()
        await Task {}.value
      }
    ) { progress in
      for await _ in firstRound { break }
      progress.tick()
      return progress.count
    }
    #expect(result == 1)
  }

  /// The verdict: a check that finds no step since the one before is a
  /// stall, however many steps came earlier; one that finds any is not.
  @Test func aCheckWithoutNewStepsIsAStall() {
    var watch = ProgressWatch(seen: 0)
    let verdicts = [1, 500, 500, 501].map { watch.stalled(now: $0) }
    #expect(verdicts == [false, false, true, false])
  }
}
