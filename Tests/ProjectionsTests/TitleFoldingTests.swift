import Foundation
import PropertyBased
import Testing

@testable import Projections

@Suite("Title folding")
struct TitleFoldingTests {
    static func foundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    @Test("ASCII titles fold as Foundation folds them, without asking it; others are Foundation's")
    func asciiFoldsAsFoundation() async {
        for scalar in 0..<128 {
            let text = String(UnicodeScalar(UInt8(scalar)))
            #expect(TitleFolding.fold(text) == Self.foundation(text), "\(scalar)")
        }
        await propertyCheck(count: 500, input: Gen.int(in: 0...127).array(of: 0...40)) { scalars in
            let text = String(String.UnicodeScalarView(scalars.map { UnicodeScalar(UInt8($0)) }))
            #expect(TitleFolding.fold(text) == Self.foundation(text))
        }
        #expect(TitleFolding.fold("Été à CAFÉ") == "ete a cafe")
    }
}
