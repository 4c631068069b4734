import Foundation

/// How the geocoder matches a name: against each of a place's names, its
/// own and its Korean one, with case and diacritics folded.
enum Gazetteer {
  /// The Korean names of the places the embedded world holds that have one
  /// (every South Korean city of the gazetteer, and the seeds' other
  /// cities), by GeoNames id: the articles are Korean, and so are their readers.
  static let koreanNames: [Int: String] = [
    1_835_848: "서울", 1_838_524: "부산", 1_843_564: "인천", 1_835_329: "대구", 1_835_235: "대전",
    1_841_811: "광주", 1_835_553: "수원", 1_833_747: "울산", 1_842_485: "고양", 1_846_326: "창원",
    1_897_000: "성남", 1_845_604: "청주", 1_838_716: "부천", 1_845_759: "천안", 1_843_847: "화성",
    1_845_457: "전주", 1_846_918: "안산", 1_846_898: "안양",
    1_850_147: "도쿄", 2_643_743: "런던", 2_988_507: "파리", 5_128_581: "뉴욕", 4_781_708: "리치먼드",
    5_387_428: "리치먼드", 6_122_085: "리치먼드", 5_879_400: "앵커리지", 4_487_042: "롤리",
  ]

  /// `text` lowercased, without diacritics, as names are compared.
  static func folded(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
  }

  /// Every name `city` answers to, folded.
  static func names(of city: City) -> [String] {
    [folded(city.name)] + (koreanNames[city.id].map { [folded($0)] } ?? [])
  }
}
