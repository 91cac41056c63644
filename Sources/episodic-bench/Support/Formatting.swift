import Foundation

extension Double {
    /// `1234567.8` as `1,234,568`: rates are easier to compare with their thousands marked.
    func grouped(decimals: Int = 0) -> String {
        let plain = String(format: "%.\(decimals)f", self)
        let sign = plain.hasPrefix("-") ? "-" : ""
        let unsigned = plain.dropFirst(sign.count)
        let whole = unsigned.prefix { $0 != "." }
        let fraction = unsigned.dropFirst(whole.count)
        var marked = ""
        for (i, digit) in whole.enumerated() {
            if i > 0 && (whole.count - i) % 3 == 0 { marked.append(",") }
            marked.append(digit)
        }
        return sign + marked + fraction
    }
}

extension Int {
    func grouped() -> String { Double(self).grouped() }
}

extension UInt64 {
    /// Bytes in MiB, for sizes of logs and memory.
    var mebibytes: String { (Double(self) / 1_048_576).grouped(decimals: 1) + " MiB" }
}
