/// Where a line of text inks, in whole pixels from the start of its baseline, y growing down: the first
/// and last columns and rows holding ink (a top above the baseline is negative).
struct InkExtent: Hashable {
    var left: Int
    var top: Int
    var right: Int
    var bottom: Int

    var width: Int { right - left + 1 }
    var height: Int { bottom - top + 1 }
}
