import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// Quantities an Ethereum node writes in hexadecimal (its blocks' `number`, `gasUsed`,
/// `timestamp`): shown as the numbers and times they are, sorted as numbers; hashes,
/// addresses and zero-padded data stay as written.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct HexQuantityTests {
    /// A block header as `eth_subscribe` to `newHeads` sends one.
    static func block(_ number: Int, gasUsed: Int, at seconds: Int) -> JSONValue {
        .object([
            "number": .string("0x" + String(number, radix: 16)),
            "hash": .string("0x" + String(repeating: String(number % 10), count: 64)),
            "miner": .string("0x95222290dd7278aa3ddd389cc1e1d165cc4bafe5"),
            "gasUsed": .string("0x" + String(gasUsed, radix: 16)), "nonce": .string("0x0000000000000000"),
            "timestamp": .string("0x" + String(seconds, radix: 16)),
        ])
    }

    @Test("formats: a block's number and gas numbers, its timestamp a time; its hash, miner and nonce text")
    func formats() throws {
        let now = Int(Date().timeIntervalSince1970)
        let samples = [
            Self.block(21_000_001, gasUsed: 9_000_000, at: now), Self.block(21_000_002, gasUsed: 30, at: now),
        ]
        func format(_ name: String) -> ItemColumn.Format {
            ItemShapeDetector.shownFormat(named: name, samples: samples.compactMap { $0[name] })
        }
        #expect(format("number") == .number)
        #expect(format("gasUsed") == .number)
        #expect(format("timestamp") == .relative)
        #expect(format("nonce") != .number && format("hash") != .number && format("miner") != .number)
        #expect(ItemShapeDetector.hexQuantity("0x0") == 0 && ItemShapeDetector.hexQuantity("0x1b4") == 436)
        for other in ["0x", "0x01", "0xg1", "1b4", "0x" + String(repeating: "f", count: 16), "0X1b4"] {
            #expect(ItemShapeDetector.hexQuantity(other) == nil, "\(other)")
        }
    }

    @Test(
        "the table shows decimal numbers and a time, sorts blocks by their gas as numbers, and links the key as written"
    )
    func table() async throws {
        let now = Int(Date().timeIntervalSince1970)
        let server = try TestServer(
            document: .object([
                "items": .array([
                    Self.block(21_000_003, gasUsed: 0x9, at: now - 30),
                    Self.block(21_000_002, gasUsed: 0x1c9c380, at: now - 42),
                    Self.block(21_000_001, gasUsed: 0x10, at: now - 54),
                ])
            ]), detection: .init())
        let page = try await HTTPTestClient.get(port: server.port, "/?sort=gasUsed&order=desc").text
        let gas = page.matches(of: /data-col="gasUsed" data-value="[^"]+">([^<]+)</).map { String($0.output.1) }
        #expect(gas == ["30,000,000", "16", "9"], "sorted by the numbers, not the texts: \(gas)")
        // The block's number is its key here (unique, first): an id, linked as written.
        #expect(page.contains(#"href="/items/0x1406f43">0x1406f43</a>"#))
        let time = try #require(page.firstMatch(of: /data-col="timestamp"><time datetime="([^"]+)"/))
        let shown = ISO8601DateFormatter().date(from: String(time.output.1))
        #expect(
            shown.map { Int($0.timeIntervalSince1970) } == now - 30
                || shown.map { Int($0.timeIntervalSince1970) } == now - 42)
        #expect(page.contains("0x0000000000000000"), "the nonce as written")
    }
}
