import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// What a kiosk tile puts first when something calls for attention: a departure is led by
/// its status, not by the number of its terminal; a charge that failed says so first among
/// its facts, wherever the feed puts its status.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct TileAttentionTests {
    /// The `data-col` of the lead and of each fact of the tile of item `key`, in order.
    static func tile(_ key: String, in kiosk: String) throws -> [String] {
        let tile = try #require(try Regex(#"id="item-\#(key)"[\s\S]*?</li>"#).firstMatch(in: kiosk))
        let text = String(kiosk[tile.range])
        return text.matches(of: /(?:tile-lead|<div class="cell)[^>]*data-col="([^"]+)"/).map { String($0.output.1) }
    }

    @Test("a departure's tile is led by its status; its terminal and gate are names, not quantities")
    func departuresLedByStatus() async throws {
        func departure(_ flight: String, _ status: String, terminal: String, gate: Int) -> JSONValue {
            .object([
                "flight": .string(flight), "destination": .string("Frankfurt"),
                "scheduled": .string("2026-11-30T11:20:00Z"), "gate": .int(Int64(gate)),
                "terminal": .string(terminal), "status": .string(status),
            ])
        }
        let server = try TestServer(
            document: .object([
                "departures": .array([
                    departure("BA 117", "Boarding", terminal: "5", gate: 1032),
                    departure("LH 903", "Delayed", terminal: "2", gate: 2010),
                ])
            ]), detection: .init())
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let leads = kiosk.matches(of: /class="tile-lead[^"]*" data-col="([^"]+)"/).map { String($0.output.1) }
        #expect(leads == ["status", "status"], "\(leads)")
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        #expect(table.contains(">1032<") && !table.contains("1,032"), "a gate's number is not grouped")
    }

    @Test("a failed charge's status is its tile's first fact; a succeeded one keeps the facts in column order")
    func failedChargeSaysSoFirst() async throws {
        func charge(_ id: String, _ status: String) -> JSONValue {
            .object([
                "id": .string(id), "amount": .int(2000), "amount_captured": .int(0), "amount_refunded": .int(0),
                "currency": .string("usd"), "description": .string("Plan " + id), "customer": .string("cus_1"),
                "status": .string(status),
            ])
        }
        let server = try TestServer(
            document: .object(["data": .array([charge("ch_1", "succeeded"), charge("ch_2", "failed")])]),
            detection: .init())
        let kiosk = try await HTTPTestClient.get(port: server.port, "/kiosk").text
        let failed = try Self.tile("ch_2", in: kiosk)
        #expect(failed.first == "amount" && failed.dropFirst().first == "status", "\(failed)")
        let succeeded = try Self.tile("ch_1", in: kiosk)
        #expect(succeeded.first == "amount" && !succeeded.prefix(2).contains("status"), "\(succeeded)")
    }
}
