import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// The page stream's kiosk keeps the items in trouble from view to view
/// (``KioskTilesMemo``): after every change its tiles are those a pass over every item
/// chooses (``PageRenderer/kioskItems(_:section:)``, what `/kiosk` renders), while it reads
/// only the items each change touched, also across views it was not asked for.
@Suite(.onThreadsOfItsOwn) struct KioskTilesTests {
    static func row(_ id: Int, state: String) -> JSONValue {
        .object([
            "id": .string("h" + String(id).leftPadded(to: 3)), "name": .string("Host \(id)"),
            "region": .string(["eu", "us", "ap"][id % 3]), "load": .double(Double(id % 7) / 7),
            "state": .string(state),
        ])
    }

    @Test("a kiosk that keeps its trouble from the view before chooses the tiles a pass over every item chooses")
    func keptTroubleChoosesAsAFullPass() throws {
        var random = SplitMix64(seed: 44)
        var hosts: [(id: Int, state: String)] = (0..<40).map { ($0, $0 % 4 == 1 ? "pending" : "up") }
        var nextID = hosts.count
        let store = FeedStore(configuration: .init(profile: .generic, detection: .init()), epoch: "e")
        store.replaceDocument(.object(["hosts": .array(hosts.map { Self.row($0.id, state: $0.state) })]))
        let memo = KioskTilesMemo()
        var shownBad: Set<Int> = []
        var sections = 0
        for step in 0..<400 {
            // The first half mostly calm, the second with more hosts down than tiles.
            let downChance = step < 200 ? 0.04 : 0.5
            func state() -> String {
                Double.random(in: 0..<1, using: &random) < downChance
                    ? "down" : ["up", "pending", "up", "up"][Int.random(in: 0..<4, using: &random)]
            }
            let place = Int.random(in: 0..<hosts.count, using: &random)
            let patch: JSONValue
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                hosts[place].state = state()
                patch = Patch.replace("/hosts/\(place)/state", .string(hosts[place].state))
            case 6...7 where hosts.count < 60:
                hosts.insert((nextID, state()), at: place)
                nextID += 1
                patch = Patch.add("/hosts/\(place)", Self.row(hosts[place].id, state: hosts[place].state))
            case 6...8 where hosts.count > 20:
                hosts.remove(at: place)
                patch = Patch.remove("/hosts/\(place)")
            default:
                // Another host in its place: one removed, one added.
                hosts[place] = (nextID, state())
                nextID += 1
                patch = Patch.replace("/hosts/\(place)", Self.row(hosts[place].id, state: hosts[place].state))
            }
            try store.apply(JSONPatch(json: .array([patch])))
            let view = try #require(store.snapshot?.published)
            #expect(view.profile.layout == .table)
            #expect(view.items.count == hosts.count)
            sections = max(sections, view.sections.count)
            // A page stream's frames are paced: some views are never asked for.
            guard Int.random(in: 0..<3, using: &random) > 0 else { continue }
            for section in [nil] + view.sections {
                let kept = memo.tiles(of: view, section: section).map(\.key)
                let read = PageRenderer.kioskItems(view, section: section).map(\.key)
                #expect(kept == read, "step \(step), section \(section ?? "all")")
                if section == nil {
                    shownBad.insert(read.filter { view.item(forKey: $0)?.raw["state"] == .string("down") }.count)
                }
            }
        }
        #expect(shownBad.contains(0) && shownBad.contains(PageRenderer.kioskTileLimit), "\(shownBad.sorted())")
        #expect(shownBad.contains { $0 > 0 && $0 < PageRenderer.kioskTileLimit }, "\(shownBad.sorted())")
        #expect(
            memo.fullReadings == 1 + sections,
            "every item read once per kiosk, at its first view: \(memo.fullReadings) for \(sections) sections")
    }
}
