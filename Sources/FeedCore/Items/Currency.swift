/// A currency named by its ISO 4217 code, as payment APIs send one beside an amount
/// (Stripe's `"currency": "usd"`, Adyen's `{"value": 2000, "currency": "EUR"}`, PayPal's
/// `currency_code`): how many decimals its minor unit has and how people write it.
///
/// Invariant: ``code`` is three upper-case ASCII letters.
public struct Currency: Sendable, Hashable {
    /// The code, upper-cased (`USD`).
    public let code: String

    /// Names of the member that holds an amount's currency, lower-cased, in order of
    /// preference.
    public static let memberNames = ["currency", "currency_code", "currencycode", "currency_iso", "iso_currency_code"]

    /// Currencies without a minor unit (Stripe's and ISO 4217's zero-decimal ones): `2000`
    /// yen is ¥2,000.
    static let zeroDecimal: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV", "XAF",
        "XOF", "XPF",
    ]
    /// Currencies whose minor unit is a thousandth.
    static let threeDecimal: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]
    /// Signs written before an amount, for the currencies dashboards show most; any other is
    /// written after it as its code (`12.50 CHF`).
    static let signs: [String: String] = [
        "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩", "CNY": "CN¥", "CAD": "CA$",
        "AUD": "A$", "NZD": "NZ$", "HKD": "HK$", "MXN": "MX$", "BRL": "R$", "ILS": "₪", "NGN": "₦", "PHP": "₱",
        "TRY": "₺", "UAH": "₴", "VND": "₫", "THB": "฿",
    ]

    /// The currency `code` names, in any case; `nil` unless it is three ASCII letters.
    public init?(code: String) {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) }) else { return nil }
        self.code = code.uppercased()
    }

    /// How many decimals the minor unit has: 0 (yen), 3 (dinars) or 2.
    public var minorDigits: Int {
        Self.zeroDecimal.contains(code) ? 0 : Self.threeDecimal.contains(code) ? 3 : 2
    }

    /// The sign written before an amount (`$`, `€`), or `nil`: the code is written after it.
    public var sign: String? { Self.signs[code] }

    /// The currency of the amount at `pointer` in `item`: the first member of
    /// ``memberNames`` (any case) beside it, in the same object, that names one.
    public static func beside(_ pointer: JSONPointer, in item: JSONValue) -> Currency? {
        guard let parent = pointer.parent, case .object(let members)? = item.value(at: parent) else { return nil }
        return memberName(in: members).flatMap { members[$0]?.stringValue }.flatMap(Currency.init(code:))
    }

    /// The name of the member of `members` that holds a currency (``memberNames``, any
    /// case), if there is one; of a large object only the first ``maxMembersRead`` members
    /// are read.
    static func memberName(in members: JSONObject) -> String? {
        var best: (rank: Int, name: String)?
        for name in members.keys.prefix(maxMembersRead) where name.utf8.count <= 17 {
            guard let rank = memberNames.firstIndex(of: name.lowercased()), rank < best?.rank ?? .max else { continue }
            best = (rank, name)
        }
        return best?.name
    }

    /// The most members of one object read for its currency.
    static let maxMembersRead = 64
}
