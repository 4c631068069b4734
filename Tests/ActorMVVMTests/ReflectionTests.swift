import ActorMVVMSupport
import Testing

@Suite("Reflection: canonical descriptions")
struct ReflectionTests {
  struct Basket: Equatable {
    enum Kind: Equatable { case fruit, mixed(labels: Set<String>) }
    var kind: Kind
    var counts: [String: Int]
    var note: String?
  }

  @Test("Equal sets print alike only canonically: their storage order differs between instances")
  func equalSetsPrintAlike() {
    let sets = (0..<100).map { seed in Set((0..<16).map { ($0 * 7 + seed) % 16 }) }
    #expect(Set(sets).count == 1)
    // `String(reflecting:)` follows each instance's storage (seeded per
    // instance): a hundred equal sets print more than one way.
    #expect(Set(sets.map { String(reflecting: $0) }).count > 1)
    #expect(Set(sets.map(Reflection.canonicalDescription)).count == 1)
  }

  @Test("Fields, cases, optionals, collections: shown as declared; sets and dictionaries sorted")
  func shape() {
    let basket = Basket(kind: .mixed(labels: ["b", "a"]), counts: ["pear": 2, "apple": 1], note: nil)
    #expect(
      Reflection.canonicalDescription(basket)
        == #"Basket(kind: .mixed((labels: Set(["a", "b"]))), counts: ["apple": 1, "pear": 2], note: nil)"#)
    #expect(Reflection.canonicalDescription([Basket.Kind.fruit]) == "[.fruit]")
    #expect(Reflection.canonicalDescription([String: Int]()) == "[:]")
    #expect(Reflection.canonicalDescription((1, label: "x")) == #"(1, label: "x")"#)
  }
}
