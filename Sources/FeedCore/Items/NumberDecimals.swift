/// How many decimals a number is shown with: the ones it was written with, to at most what
/// its size warrants, and in a column of numbers at least the column's, so that the points
/// line up (`76.20` above `50.52`, not `76.2`).
///
/// The value itself is never changed: sorting, the item page's raw JSON and the API use it
/// as the feed sent it.
public enum NumberDecimals {
    /// The most decimals any number is shown with: a number smaller than
    /// ``smallestWithAPoint`` is written with an exponent instead.
    public static let mostDecimals = 15
    /// The smallest magnitude written with a point and ``mostDecimals`` or fewer decimals,
    /// four of its digits significant (`0.000000000001234`).
    public static let smallestWithAPoint = 1e-12

    /// The most decimals a person reads in a number of `magnitude`: two from 1,000 up, four
    /// from 1, six below; below a thousandth, as many as keep four significant digits
    /// (a token's price of `0.00000987`: nine, not the six that would show `0.000010`), to
    /// at most ``mostDecimals``.
    public static func warranted(by magnitude: Double) -> Int {
        if magnitude >= 1000 { return 2 }
        if magnitude >= 1 { return 4 }
        guard magnitude < 0.001, magnitude > 0, magnitude.isFinite else { return 6 }
        // 0.000123: its first significant digit is the fourth decimal, so 4 + 3.
        var firstDigit = 0
        var scaled = magnitude
        while scaled < 1, firstDigit < mostDecimals {
            scaled *= 10
            firstDigit += 1
        }
        return min(mostDecimals, max(6, firstDigit + 3))
    }

    /// `number` rounded to the decimals its size warrants (``warranted(by:)``); one smaller
    /// than ``smallestWithAPoint`` as it is.
    public static func rounded(_ number: Double) -> Double {
        guard number.magnitude >= smallestWithAPoint else { return number }
        let scale = (0..<warranted(by: number.magnitude)).reduce(1.0) { scale, _ in scale * 10 }
        return (number * scale).rounded() / scale
    }

    /// Whether `text`, a double's shortest writing, has more significant digits than a
    /// double holds exactly: arithmetic's noise (a sum's `0.30000000000000004`, a market
    /// cap's `43563019499.99999`), which ``rounded(_:)`` takes away.
    public static func carriesNoise(_ text: String) -> Bool {
        text.drop(while: { $0 == "0" || $0 == "." }).filter(\.isNumber).count > 14
    }

    /// The decimals of a number as it was written: none for an integer, those of a double's
    /// shortest writing (`76.2`: 1; `9.87e-06`: 8), of a reading's text (`"43210.1234"`:
    /// 4), each to at most ``warranted(by:)``; `nil` for anything else, or a number too
    /// large or too small to be written with a point (`1e+16`, `1e-13`).
    public static func written(_ value: JSONValue) -> Int? {
        switch value {
        case .int:
            return 0
        case .double(let number):
            guard number.isFinite else { return nil }
            var text = String(number.magnitude)
            // Noise: the decimals of the number rounded as its size warrants.
            if carriesNoise(text) { text = String(rounded(number).magnitude) }
            return fraction(of: text, magnitude: number.magnitude)
        case .string(let text):
            guard ItemShapeDetector.isReading(text), let number = Double(text), number.isFinite else { return nil }
            return fraction(of: text, magnitude: number.magnitude)
        default:
            return nil
        }
    }

    /// The decimals a column whose items hold `samples` shows its numbers with: the most any
    /// of them was written with (``written(_:)``), 0 when none is a number.
    public static func column(of samples: [JSONValue]) -> Int {
        samples.lazy.compactMap(written).max() ?? 0
    }

    /// The digits after `text`'s point but its trailing zeros (a double's `2.0`, CoinCap's
    /// `"19576543.0000000000000000"`: none), to at most what `magnitude` warrants; for an
    /// exponent's writing, those it has written out with a point (`9.87e-06`: 8); `nil` for
    /// a number too large or too small for that.
    private static func fraction(of text: String, magnitude: Double) -> Int? {
        var mantissa = Substring(text)
        var shift = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let exponent = Int(text[text.index(after: e)...]), exponent < 0,
                magnitude >= smallestWithAPoint
            else { return nil }
            mantissa = text[..<e]
            shift = -exponent
        }
        guard let dot = mantissa.firstIndex(of: ".") else { return min(shift, warranted(by: magnitude)) }
        let digits = mantissa[mantissa.index(after: dot)...].reversed().drop { $0 == "0" }.count
        return min(digits + shift, warranted(by: magnitude))
    }
}
