import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// Amounts of money as people write them: on the table, the kiosk's tiles and the item
/// page, each in its row's currency; and the arithmetic of writing one.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct MoneyCellTests {
    @Test("an amount in its currency: sign or code, the minor unit's decimals, cents counted, more decimals kept")
    func written() {
        func money(_ amount: Double, _ units: ItemColumn.MoneyUnits, _ code: String?) -> String {
            CellFormatting.money(amount, units: units, currency: code.flatMap(Currency.init(code:)))
        }
        #expect(money(2015, .minor, "usd") == "$20.15")
        #expect(money(129_900, .minor, "jpy") == "¥129,900")
        #expect(money(1234, .minor, "KWD") == "1.234 KWD")
        #expect(money(-350, .minor, "eur") == "−€3.50")
        #expect(money(1_234_567.5, .whole, "CHF") == "1,234,567.50 CHF")
        #expect(money(0.000_123_45, .whole, "BTC") == "0.00012345 BTC")
        #expect(money(199, .whole, "USD") == "$199.00")
        #expect(money(-0.001, .whole, "GBP") == "−£0.001")
        #expect(money(-0.0001, .minor, "USD") == "$0.00", "no minus before nothing")
        #expect(money(20.15, .whole, nil) == "20.15")
        #expect(money(.nan, .whole, "USD") == "nan")
        #expect(money(1e300, .whole, "USD") == String(1e300))
    }

    @Test("Stripe's charges over HTTP: each amount in its currency on /, a tile led by it, the item page; sorted by it")
    func stripeChargesShown() async throws {
        func charge(_ id: String, _ amount: Int, _ currency: String, _ description: String) -> JSONValue {
            .object([
                "id": .string(id), "object": .string("charge"), "amount": .int(Int64(amount)),
                "amount_refunded": .int(0), "currency": .string(currency), "description": .string(description),
                "status": .string("succeeded"),
            ])
        }
        let server = try TestServer(
            document: .object([
                "object": .string("list"),
                "data": .array([
                    charge("ch_1", 2015, "usd", "Pro plan"), charge("ch_2", 129_900, "jpy", "Annual"),
                    charge("ch_3", 500, "gbp", "Trial"),
                ]),
            ]), detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        for written in ["$20.15", "¥129,900", "£5.00", "£0.00"] {
            #expect(table.contains(written), "\(written) on /")
        }
        #expect(!table.contains(#"data-col="currency""#), "each amount shows its currency")
        #expect(table.contains(#"data-col="amount" data-value="2015""#), "the value compared is the feed's")
        let sorted = try await HTTPTestClient.get(port: server.port, "/?sort=amount&order=desc").text
        let order = ["ch_2", "ch_1", "ch_3"].map { sorted.range(of: "id=\"item-\($0)\"")?.lowerBound }
        #expect(
            order.allSatisfy { $0 != nil }
                && order == order.sorted { ($0 ?? sorted.endIndex) < ($1 ?? sorted.endIndex) })
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        #expect(try TablePageTests.tileLead(of: "ch_1", in: kiosk)?.column == "amount")
        #expect(kiosk.contains("$20.15"))
        let detail = try await HTTPTestClient.get(port: server.port, "/items/ch_2").text
        #expect(detail.contains("¥129,900"))
    }
}
