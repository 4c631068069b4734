import ActorMVVM
import ActorMVVMOperators
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// RxSwift's own vectors for sample, take(until:), delay, timer/interval,
/// buffer(timeSpan:count:) and debug (Tests/RxSwiftTests/Observable+
/// {Sample,TakeUntil,Delay,Timer,Buffer,Debug}Tests.swift), times and
/// values translated onto marble diagrams of our public API. Every RxTest
/// source there is hot, subscribed at 200: `rxDiagram` drops what comes
/// before. A tie at one instant is settled by RxTest's order of creation
/// (the source before the sampler); our marbles deliver the inputs of one
/// tick in the order they are listed, then the timers due then.
@Suite("RxSwift's vectors: sample", .testBubble)
struct SampleVectorTests {
  static let xs: [(time: Int, symbol: String)] = [
    (150, "1"), (220, "2"), (240, "3"), (290, "4"), (300, "5"), (310, "6"), (400, "|"),
  ]
  static let ys: [(time: Int, symbol: String)] = [
    (150, "a"), (210, "b"), (250, "c"), (260, "d"), (320, "e"), (500, "|"),
  ]

  static func sample(
    _ xs: [(time: Int, symbol: String)], _ ys: [(time: Int, symbol: String)], defaultValue: String? = nil
  ) async -> String {
    await Marble.run(["xs": rxDiagram(xs, unit: 10), "ys": rxDiagram(ys, unit: 10)], tick: .milliseconds(10)) {
      inputs, _ in inputs["xs"].sample(inputs["ys"], defaultValue: defaultValue)
    }
  }

  @Test("testSample_Sampler_Simple1: 3 at 250, 6 at 320, completed at 500")
  func simple1() async {
    #expect(await Self.sample(Self.xs, Self.ys) == rxDiagram([(250, "3"), (320, "6"), (500, "|")], unit: 10))
  }

  @Test("testSample_Sampler_Simple2: the sampler's end samples 7, then completes")
  func simple2() async {
    var xs = Self.xs
    xs.insert((360, "7"), at: 6)
    #expect(await Self.sample(xs, Self.ys) == rxDiagram([(250, "3"), (320, "6"), (500, "7"), (500, "|")], unit: 10))
  }

  @Test("testSample_Sampler_Simple3: completes at the first sample after the source ended")
  func simple3() async {
    let xs: [(time: Int, symbol: String)] = [(150, "1"), (220, "2"), (240, "3"), (290, "4"), (300, "|")]
    #expect(await Self.sample(xs, Self.ys) == rxDiagram([(250, "3"), (320, "4"), (320, "|")], unit: 10))
  }

  @Test("testSample_Sampler_DefaultValue: a sample with nothing new emits the default")
  func defaultValue() async {
    let expected = rxDiagram([(210, "0"), (250, "3"), (260, "0"), (320, "6"), (500, "0"), (500, "|")], unit: 10)
    #expect(await Self.sample(Self.xs, Self.ys, defaultValue: "0") == expected)
  }

  @Test("testSample_Sampler_SamplerThrows: the sampler's error at 320")
  func samplerThrows() async {
    let ys = Array(Self.ys.prefix(4)) + [(320, "^")]
    #expect(await Self.sample(Self.xs, ys) == rxDiagram([(250, "3"), (320, "^")], unit: 10))
  }

  @Test("testSample_Sampler_SourceThrows: 5 arrives before the sample at 300; the source's error at 320")
  func sourceThrows() async {
    let xs = Array(Self.xs.prefix(6)) + [(320, "^")]
    let ys: [(time: Int, symbol: String)] = [(150, "a"), (210, "b"), (250, "c"), (260, "d"), (300, "e"), (400, "|")]
    #expect(await Self.sample(xs, ys) == rxDiagram([(250, "3"), (300, "5"), (320, "^")], unit: 10))
  }
}

@Suite("RxSwift's vectors: take(until:)", .testBubble)
struct TakeUntilVectorTests {
  static let l: [(time: Int, symbol: String)] = [
    (150, "1"), (210, "2"), (220, "3"), (230, "4"), (240, "5"), (250, "|"),
  ]

  static func take(_ l: [(time: Int, symbol: String)], until r: [(time: Int, symbol: String)]) async -> String {
    await Marble.run(["l": rxDiagram(l, unit: 5), "r": rxDiagram(r, unit: 5)], tick: .milliseconds(5)) {
      inputs, _ in inputs["l"].take(until: inputs["r"])
    }
  }

  @Test("Preempt_SomeData_Next: the trigger's element at 225 completes")
  func preemptNext() async {
    let output = await Self.take(Self.l, until: [(150, "1"), (225, "9"), (230, "|")])
    #expect(output == rxDiagram([(210, "2"), (220, "3"), (225, "|")], unit: 5))
  }

  @Test("Preempt_SomeData_Error: the trigger's error at 225")
  func preemptError() async {
    let output = await Self.take(Self.l, until: [(150, "1"), (225, "^")])
    #expect(output == rxDiagram([(210, "2"), (220, "3"), (225, "^")], unit: 5))
  }

  @Test("NoPreempt_SomeData_Empty: a trigger that ends silently no longer matters")
  func noPreemptEmpty() async {
    let output = await Self.take(Self.l, until: [(150, "1"), (225, "|")])
    #expect(output == rxDiagram(Array(Self.l.dropFirst()), unit: 5))
  }

  @Test("NoPreempt_SomeData_Never: a silent trigger changes nothing")
  func noPreemptNever() async {
    #expect(await Self.take(Self.l, until: [(150, "1")]) == rxDiagram(Array(Self.l.dropFirst()), unit: 5))
  }

  @Test("Preempt_Never_Next, Preempt_Never_Error: the trigger ends a silent source")
  func preemptNever() async {
    #expect(
      await Self.take([(150, "1")], until: [(150, "1"), (225, "2"), (250, "|")]) == rxDiagram([(225, "|")], unit: 5))
    #expect(await Self.take([(150, "1")], until: [(150, "1"), (225, "^")]) == rxDiagram([(225, "^")], unit: 5))
  }

  @Test("NoPreempt_Never_Empty, NoPreempt_Never_Never: nothing, no end")
  func noPreemptNeverNever() async {
    #expect(await Self.take([(150, "1")], until: [(150, "1"), (225, "|")]) == "")
    #expect(await Self.take([(150, "1")], until: [(150, "1")]) == "")
  }

  @Test("Preempt_BeforeFirstProduced: completed at 210; the source's later error is never seen")
  func preemptBeforeFirst() async {
    let trigger: [(time: Int, symbol: String)] = [(150, "1"), (210, "2"), (220, "|")]
    #expect(await Self.take([(150, "1"), (230, "2"), (240, "|")], until: trigger) == rxDiagram([(210, "|")], unit: 5))
    #expect(await Self.take([(150, "1"), (215, "^"), (240, "|")], until: trigger) == rxDiagram([(210, "|")], unit: 5))
  }

  @Test("NoPreempt_AfterLastProduced, Error_Some: the source's own end or error comes first")
  func sourceEndsFirst() async {
    let afterLast = await Self.take([(150, "1"), (230, "2"), (240, "|")], until: [(150, "1"), (250, "2"), (260, "|")])
    #expect(afterLast == rxDiagram([(230, "2"), (240, "|")], unit: 5))
    let error = await Self.take([(150, "1"), (225, "^")], until: [(150, "1"), (240, "2")])
    #expect(error == rxDiagram([(225, "^")], unit: 5))
  }
}

@Suite("RxSwift's vectors: delay", .testBubble)
struct DelayVectorTests {
  static let xs: [(time: Int, symbol: String)] = [(150, "1"), (250, "2"), (350, "3"), (450, "4"), (550, "|")]

  static func delay(_ xs: [(time: Int, symbol: String)], by units: Int, unit: Int) async -> String {
    await Marble.run(
      ["xs": rxDiagram(xs, unit: unit)], tick: .milliseconds(unit), extraTicks: 200 / unit + 2
    ) { inputs, clock in
      inputs["xs"].delay(for: .milliseconds(units), clock: clock)
    }
  }

  @Test("TimeSpan_Simple1, 2, 3: every element and the end, shifted by 100, 50, 150")
  func simple() async {
    #expect(
      await Self.delay(Self.xs, by: 100, unit: 50)
        == rxDiagram([(350, "2"), (450, "3"), (550, "4"), (650, "|")], unit: 50))
    #expect(
      await Self.delay(Self.xs, by: 50, unit: 50)
        == rxDiagram([(300, "2"), (400, "3"), (500, "4"), (600, "|")], unit: 50))
    #expect(
      await Self.delay(Self.xs, by: 150, unit: 50)
        == rxDiagram([(400, "2"), (500, "3"), (600, "4"), (700, "|")], unit: 50))
  }

  @Test("TimeSpan_Positive: shifted by 42")
  func positive() async {
    #expect(
      await Self.delay(Self.xs, by: 42, unit: 1)
        == rxDiagram([(292, "2"), (392, "3"), (492, "4"), (592, "|")], unit: 1))
  }

  @Test("TimeSpan_Error, TimeSpan_Completed: an error is not delayed; the end is")
  func errorAndCompleted() async {
    #expect(await Self.delay([(150, "1"), (250, "^")], by: 150, unit: 50) == rxDiagram([(250, "^")], unit: 50))
    #expect(await Self.delay([(150, "1"), (250, "|")], by: 150, unit: 50) == rxDiagram([(400, "|")], unit: 50))
  }

  @Test("TimeSpan_Error1, Error2: the error at 550 drops what still waits (4, due at 600)")
  func errorDropsWaiting() async {
    let xs = Array(Self.xs.dropLast()) + [(550, "^")]
    #expect(
      await Self.delay(xs, by: 50, unit: 50) == rxDiagram([(300, "2"), (400, "3"), (500, "4"), (550, "^")], unit: 50))
    #expect(await Self.delay(xs, by: 150, unit: 50) == rxDiagram([(400, "2"), (500, "3"), (550, "^")], unit: 50))
  }
}

@Suite("RxSwift's vectors: timer and interval", .testBubble)
struct TimerVectorTests {
  /// A diagram of ticks, subscribed at 200; `stop` marks when the test ends it.
  static func run(stopAt stop: Int, _ make: @escaping @Sendable (TestClock) -> AsyncTimerSequence<TestClock>) async
    -> String
  {
    await Marble.run(["stop": rxDiagram([(stop, "s")], unit: 10)], tick: .milliseconds(10)) { inputs, clock in
      make(clock).map { String($0) }.take(until: NeverFailing(base: inputs["stop"]))
    }
  }

  @Test("testTimer_Basic: 0 and the end at 300")
  func timerBasic() async {
    let output = await Marble.run(["none": ""], tick: .milliseconds(10), extraTicks: 20) { _, clock in
      AsyncTimerSequence.timer(.milliseconds(100), clock: clock).map { String($0) }
    }
    #expect(output == rxDiagram([(300, "0"), (300, "|")], unit: 10))
  }

  @Test("testInterval_TimeSpan_Basic: 0 at 300, one every 100 (ended at 950 here: RxTest disposes at 1000)")
  func intervalBasic() async {
    let output = await Self.run(stopAt: 950) { AsyncTimerSequence.interval(.milliseconds(100), clock: $0) }
    let ticks = (0...6).map { (300 + 100 * $0, String($0)) }
    #expect(output == rxDiagram(ticks + [(950, "|")], unit: 10))
  }

  @Test("testInterval_TimeSpan_Disposed: a first tick after the end is never seen")
  func intervalDisposed() async {
    let output = await Self.run(stopAt: 1000) { AsyncTimerSequence.interval(.milliseconds(1000), clock: $0) }
    #expect(output == rxDiagram([(1000, "|")], unit: 10))
  }

  @Test("timer with a period: 0 at the due time, then one every period")
  func timerWithPeriod() async {
    let output = await Self.run(stopAt: 500) {
      AsyncTimerSequence.timer(.milliseconds(50), period: .milliseconds(100), clock: $0)
    }
    #expect(output == rxDiagram([(250, "0"), (350, "1"), (450, "2"), (500, "|")], unit: 10))
  }

  @Test("A consumer that falls behind gets the ticks it missed, none skipped, none drifting")
  func lateConsumerCatchesUp() async {
    let clock = TestClock()
    var ticks = AsyncTimerSequence.interval(.seconds(1), clock: clock).makeAsyncIterator()
    async let first = ticks.next()
    await clock.advance(by: .seconds(3))
    #expect(await first == 0)
    // Two more deadlines (2 s, 3 s) have passed: they come at once, without time moving.
    #expect(await ticks.next() == 1)
    #expect(await ticks.next() == 2)
  }
}

@Suite("RxSwift's vectors: buffer(timeSpan:count:)", .testBubble)
struct BufferVectorTests {
  static let xs: [(time: Int, symbol: String)] = [
    (205, "1"), (210, "2"), (240, "3"), (280, "4"), (320, "5"), (350, "6"), (370, "7"), (420, "8"), (470, "9"),
  ]

  static func buffer(_ xs: [(time: Int, symbol: String)]) async -> String {
    await Marble.run(["xs": rxDiagram(xs, unit: 5)], tick: .milliseconds(5), extraTicks: 0) { inputs, clock in
      inputs["xs"].buffer(timeSpan: .milliseconds(70), count: 3, clock: clock).map { $0.isEmpty ? "e" : $0.joined() }
    }
  }

  @Test("testBufferWithTimeOrCount_Basic: full windows at once, timed ones (empty too), the rest at the end")
  func basic() async {
    let expected = rxDiagram(
      [
        (240, "[123]"), (310, "4"), (370, "[567]"), (440, "8"), (510, "9"), (580, "e"), (600, "e"), (600, "|"),
      ], unit: 5)
    #expect(await Self.buffer(Self.xs + [(600, "|")]) == expected)
  }

  @Test("testBufferWithTimeOrCount_Error: the error at 600 drops the open window")
  func error() async {
    let expected = rxDiagram(
      [(240, "[123]"), (310, "4"), (370, "[567]"), (440, "8"), (510, "9"), (580, "e"), (600, "^")], unit: 5)
    #expect(await Self.buffer(Self.xs + [(600, "^")]) == expected)
  }

  @Test("testBufferWithTimeOrCount_Disposed: ended at 375 (RxTest disposes at 370, after the 370 window)")
  func disposed() async {
    let inputs: KeyValuePairs<String, String> = [
      "xs": rxDiagram(Self.xs + [(600, "|")], unit: 5), "stop": rxDiagram([(375, "s")], unit: 5),
    ]
    let output = await Marble.run(inputs, tick: .milliseconds(5), extraTicks: 0) { inputs, clock in
      inputs["xs"].buffer(timeSpan: .milliseconds(70), count: 3, clock: clock).map { $0.isEmpty ? "e" : $0.joined() }
        .take(until: inputs["stop"])
    }
    #expect(output == rxDiagram([(240, "[123]"), (310, "4"), (370, "[567]"), (375, "|")], unit: 5))
  }
}

@Suite("RxSwift's vectors: debug", .testBubble)
struct DebugVectorTests {
  static func debugged(_ xs: [(time: Int, symbol: String)]) async -> (output: String, lines: [String]) {
    let lines = Locked<[String]>([])
    let output = await Marble.run(["xs": rxDiagram(xs, unit: 10)], tick: .milliseconds(10)) { inputs, clock in
      inputs["xs"].debug("xs", clock: clock) { line in lines.withLock { $0.append(line) } }
    }
    return (output, lines.withLock { $0 })
  }

  @Test("testDebug_Completed: events pass through; the log says what happened, on virtual time")
  func completed() async {
    let (output, lines) = await Self.debugged([(210, "0"), (600, "|")])
    #expect(output == rxDiagram([(210, "0"), (600, "|")], unit: 10))
    #expect(
      lines == [
        "+0ms xs -> subscribed", "+10ms xs -> Event next(0)", "+400ms xs -> Event completed", "+400ms xs -> isDisposed",
      ])
  }

  @Test("testDebug_Error: the error passes through and is logged")
  func error() async {
    let (output, lines) = await Self.debugged([(210, "0"), (600, "^")])
    #expect(output == rxDiagram([(210, "0"), (600, "^")], unit: 10))
    #expect(lines.count == 4)
    #expect(lines[2].hasPrefix("+400ms xs -> Event error("))
    #expect(lines[3] == "+400ms xs -> isDisposed")
  }

  @Test("A cancelled consumer's chain logs isDisposed once")
  func cancelled() async {
    let lines = Locked<[String]>([])
    let clock = TestClock()
    await TestBubble.task {
      for await _ in Stubborn().debug("s", clock: clock, log: { line in lines.withLock { $0.append(line) } }) {
        withUnsafeCurrentTask { $0?.cancel() }
      }
    }.value
    #expect(lines.withLock { $0 } == ["+0ms s -> subscribed", "+0ms s -> Event next(1)", "+0ms s -> isDisposed"])
  }

  @Test("An iterator dropped unfinished logs isDisposed")
  func dropped() async {
    let lines = Locked<[String]>([])
    do {
      var iterator = Stubborn().debug("s", clock: TestClock(), log: { line in lines.withLock { $0.append(line) } })
        .makeAsyncIterator()
      _ = await iterator.next()
    }
    #expect(lines.withLock { $0 }.last == "+0ms s -> isDisposed")
  }
}

/// A marble input as a sequence that never throws (its error ends it), to
/// trigger a sequence whose `Failure` is `Never`.
struct NeverFailing<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable {
  typealias Element = Base.Element
  typealias Failure = Never
  let base: Base

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    mutating func next() async -> Base.Element? { try? await base.next() }
  }

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }
}
