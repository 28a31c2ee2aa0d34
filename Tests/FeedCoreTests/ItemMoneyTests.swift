import FeedCore
import Testing

/// Amounts of money beside their currency, as payment and shop APIs send them: found as
/// money, in cents where the API counts cents, and the currency read row by row.
@Suite("Items: amounts of money")
struct ItemMoneyTests {
    private func columns(_ text: String) throws -> [String: ItemColumn] {
        let reading = ItemShapeDetector.reading(of: try JSONValue(parsing: text), overrides: .init())
        #expect(reading.origin == .found, "\(reading.notes)")
        return Dictionary(reading.profile.columns.map { ($0.pointer.description, $0) }) { first, _ in first }
    }

    @Test("Stripe's charges: every amount in cents (a lower-case currency), the currency's column left out")
    func stripeCharges() throws {
        let found = try columns(
            #"""
            {"object": "list", "data": [
              {"id": "ch_1", "object": "charge", "amount": 2015, "amount_refunded": 0, "currency": "usd", "attempt_count": 1,
               "customer": "cus_1", "description": "Pro plan", "status": "succeeded"},
              {"id": "ch_2", "object": "charge", "amount": 129900, "amount_refunded": 5000, "currency": "jpy", "attempt_count": 2,
               "customer": "cus_2", "description": "Annual", "status": "succeeded"},
              {"id": "ch_3", "object": "charge", "amount": 500, "amount_refunded": 0, "currency": "gbp", "attempt_count": 1,
               "customer": "cus_3", "description": "Trial", "status": "failed"}
            ]}
            """#)
        #expect(found["/amount"]?.format == .money(.minor))
        #expect(found["/amount_refunded"]?.format == .money(.minor))
        #expect(found["/attempt_count"]?.format == .number, "a count beside a currency is no amount")
        #expect(found["/currency"] == nil, "each amount shows its currency")
        #expect(found["/object"] == nil, "the same type in every item tells nothing")
        #expect(found["/id"]?.format != .money(.minor))
    }

    @Test("Adyen's and Square's amounts in an object: in minor units, headed by the object's name")
    func amountObjects() throws {
        let adyen = try columns(
            #"""
            {"payments": [
              {"pspReference": "8812", "amount": {"value": 2000, "currency": "EUR"}, "status": "Authorised"},
              {"pspReference": "8813", "amount": {"value": 1599, "currency": "USD"}, "status": "Refused"}
            ]}
            """#)
        #expect(adyen["/amount/value"]?.format == .money(.minor))
        #expect(adyen["/amount/value"]?.label == "Amount")
        #expect(adyen["/amount/currency"] == nil)
        let square = try columns(
            #"""
            {"payments": [
              {"id": "p1", "amount_money": {"amount": 100, "currency": "USD"}, "status": "COMPLETED"},
              {"id": "p2", "amount_money": {"amount": 2550, "currency": "USD"}, "status": "FAILED"}
            ]}
            """#)
        #expect(square["/amount_money/amount"]?.format == .money(.minor))
    }

    @Test(
        "amounts sent with decimals, as text (Shopify, PayPal) or as numbers, or whole under another name, are whole units"
    )
    func wholeUnits() throws {
        let shop = try columns(
            #"""
            {"orders": [
              {"id": 1, "total_price": "199.00", "total_tax": "19.00", "currency": "USD", "line_items": 3},
              {"id": 2, "total_price": "45.50", "total_tax": "5.50", "currency": "EUR", "line_items": 1}
            ]}
            """#)
        #expect(shop["/total_price"]?.format == .money(.whole))
        #expect(shop["/total_tax"]?.format == .money(.whole))
        #expect(shop["/line_items"]?.format != .money(.whole))
        let prices = try columns(
            #"{"rooms": [{"name": "Twin", "price": 120, "currency": "USD"}, {"name": "Suite", "price": 340, "currency": "USD"}]}"#
        )
        #expect(prices["/price"]?.format == .money(.whole), "a price in upper-case dollars is not cents")
    }

    @Test("no currency beside it, or one in too few items, or a value that is no number: not money")
    func notMoney() throws {
        let bare = try columns(#"{"rows": [{"name": "a", "amount": 20}, {"name": "b", "amount": 30}]}"#)
        #expect(bare["/amount"]?.format == .number)
        let sparse = try columns(
            #"""
            {"rows": [{"name": "a", "total": 1.5, "currency": "USD"}, {"name": "b", "total": 2.5},
                      {"name": "c", "total": 3.5}, {"name": "d", "total": 4.5}]}
            """#)
        #expect(sparse["/total"]?.format != .money(.whole))
        let notACode = try columns(
            #"{"rows": [{"name": "a", "total": 1.5, "currency": "dollars"}, {"name": "b", "total": 2, "currency": "dollars"}]}"#
        )
        #expect(notACode["/total"]?.format != .money(.whole))
        #expect(notACode["/currency"] != nil)
    }

    @Test("a currency's code, minor unit and sign")
    func currencies() {
        #expect(Currency(code: "usd")?.code == "USD")
        #expect(Currency(code: "usd")?.minorDigits == 2)
        #expect(Currency(code: "JPY")?.minorDigits == 0)
        #expect(Currency(code: "kwd")?.minorDigits == 3)
        #expect(Currency(code: "EUR")?.sign == "€")
        #expect(Currency(code: "CHF")?.sign == nil)
        for bad in ["", "US", "USDT", "U$D", "12A", "ÄBC"] { #expect(Currency(code: bad) == nil, "\(bad)") }
        let item = try? JSONValue(parsing: #"{"amount": {"value": 5, "Currency_Code": "eur"}, "currency": "usd"}"#)
        #expect(item.flatMap { Currency.beside(JSONPointer(tokens: ["amount", "value"]), in: $0) }?.code == "EUR")
        #expect(item.flatMap { Currency.beside(JSONPointer(tokens: ["total"]), in: $0) }?.code == "USD")
        #expect(item.flatMap { Currency.beside(JSONPointer(tokens: []), in: $0) } == nil)
    }

    @Test("--column takes money and money-minor")
    func formatNames() throws {
        #expect(ItemColumn.Format(name: "money") == .money(.whole))
        #expect(ItemColumn.Format(name: "money-minor") == .money(.minor))
        #expect(ItemColumn.Format.money(.minor).name == "money-minor")
        #expect(try ItemColumn(parsing: "Amount=/amount:money-minor").format == .money(.minor))
    }
}
