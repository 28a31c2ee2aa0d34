/// How a feed's items lie at their profile's ``ItemProfile/itemsPath``: what
/// ``ItemExtractor/elements(of:)`` reads each item's JSON object from.
public enum ItemsForm: Sendable, Equatable {
    /// An array's elements; those that are objects are the items.
    case elements
    /// An object's members that are objects (`{"bitcoin": {"usd": …}, "ether": {"usd": …}}`,
    /// as many price and health APIs and Firebase send them): each carries its member's
    /// name under `nameMember`, as its first member and in place of any member of its own
    /// by that name; its name is its identity (``ItemExtractor/memberItems(of:nameMember:)``).
    case members(nameMember: String)
    /// An object's arrays of values side by side, one per member (`{"time": ["…", "…"],
    /// "temperature_2m": [2.1, 1.8]}`, as Open-Meteo and many chart APIs send a series):
    /// item `i` holds each array's element `i` under the array's name
    /// (``ItemExtractor/series(of:)``).
    case series
    /// An array of rows, each an array of values, named in order by `names`: a table sent
    /// as a spreadsheet sends it (`{"values": [["Name", "Score"], ["Ann", 3]]}`, the Google
    /// Sheets API, with `header`: the array's first row holds the names and is no item) or
    /// beside its column names (`{"columns": ["id", "name"], "rows": [[1, "a"]]}`, Datasette)
    /// (``ItemExtractor/rows(of:names:header:)``).
    case rows(names: [String], header: Bool)
    /// An object's members that are plain values (`{"rates": {"AUD": 1.65, "USD": 1.06}}`,
    /// as exchange-rate, counter and settings APIs send them): each member is an item of
    /// two members, its name under `nameMember` (its identity) and its value under
    /// `valueMember` (``ItemExtractor/valueItems(of:nameMember:valueMember:)``).
    case values(nameMember: String, valueMember: String)
    /// An array of texts (`["web-1", "web-2"]`: Prometheus' label values, a registry's
    /// repositories, who is online): each text is an item of one member, the text under
    /// `valueMember`, which keys it (``ItemExtractor/textItems(of:valueMember:)``).
    case texts(valueMember: String)

    /// The member each item carries its member's name under (``members(nameMember:)``,
    /// ``values(nameMember:valueMember:)``): the item's identity.
    public var nameMember: String? {
        switch self {
        case .members(let name), .values(let name, _): name
        case .elements, .series, .rows, .texts: nil
        }
    }

    /// Whether the items are an array's elements themselves (not made by the extractor).
    public var isElements: Bool { self == .elements }
}
