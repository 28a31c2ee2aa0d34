import Foundation
import Testing

@testable import FeedCore

/// ``KubernetesListing``: what is held of a list while its pages are read. Putting what it
/// holds must give the document that putting every listed object gives, whatever was kept
/// before, whatever `keep` is and however the list is paged; and it holds at most the kept
/// objects and `keep` others.
@Suite("Kubernetes listing")
struct KubernetesListingTests {
    static let uid = JSONPointer(tokens: ["metadata", "uid"])

    /// A pod with `uid` (none when `nil`) at `version`.
    static func pod(_ uid: String?, _ version: Int) -> JSONValue {
        var metadata: JSONObject = ["resourceVersion": .string(String(version))]
        if let uid { metadata["uid"] = .string(uid) }
        return .object(["metadata": .object(metadata)])
    }

    /// A store that kept `pods` (put one batch at a time, as a watch's bursts came).
    static func store(keeping batches: [[JSONValue]], keep: Int) -> FeedStore {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        for batch in batches { store.putItems(batch, idAt: uid, keep: keep) }
        return store
    }

    @Test("putting what is held gives the document putting the whole list gives, across 400 seeded cases")
    func heldListPutsAsTheWholeList() throws {
        var random = SplitMix64(seed: 44)
        for round in 0..<400 {
            let keep = Int.random(in: 1...8, using: &random)
            // What was kept: objects of a pool of 12 uids (some without one), in bursts.
            var batches: [[JSONValue]] = []
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                batches.append(
                    (0..<Int.random(in: 1...6, using: &random)).map { _ in
                        let n = Int.random(in: 0..<13, using: &random)
                        return Self.pod(n == 12 ? nil : "u\(n)", round)
                    })
            }
            // The list: distinct uids of the same pool (and some objects without one), newer.
            var pool = Array(0..<12).shuffled(using: &random)
            pool.removeLast(Int.random(in: 0...12, using: &random))
            var listed = pool.map { Self.pod("u\($0)", 1000 + round) }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                listed.insert(Self.pod(nil, 2000 + round), at: Int.random(in: 0...listed.count, using: &random))
            }

            let whole = Self.store(keeping: batches, keep: keep)
            whole.replaceItems(
                listed, listedIDs: Set(listed.compactMap { $0.value(at: Self.uid) }), idAt: Self.uid, keep: keep)

            let paged = Self.store(keeping: batches, keep: keep)
            let keptIDs = paged.keptIDs(at: Self.uid)
            var listing = KubernetesListing(keptIDs: keptIDs, idAt: Self.uid, keep: keep)
            var rest = listed[...]
            while !rest.isEmpty {
                let size = Int.random(in: 1...4, using: &random)
                listing.add(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            #expect(listing.count == listed.count)
            #expect(listing.items.count <= keptIDs.count + keep, "round \(round): held \(listing.items.count)")
            paged.replaceItems(listing.items, listedIDs: listing.listedIDs, idAt: Self.uid, keep: keep)
            #expect(
                paged.snapshot?.document == whole.snapshot?.document,
                "round \(round), keep \(keep): \(String(describing: paged.snapshot?.document))")

            // The objects' recency is the same too: a later put lets go of the same one.
            let later = Self.pod("u\(Int.random(in: 0..<16, using: &random))", 3000 + round)
            whole.putItems([later], idAt: Self.uid, keep: keep)
            paged.putItems([later], idAt: Self.uid, keep: keep)
            #expect(paged.snapshot?.document == whole.snapshot?.document, "round \(round), after a later put")
        }
    }

    @Test("a list of 10,000 objects with keep 5 holds the kept ones and the last 5, in the list's order")
    func largeListHoldsLittle() {
        var listing = KubernetesListing(keptIDs: [.string("u17"), .string("u9000")], idAt: Self.uid, keep: 5)
        for page in stride(from: 0, to: 10_000, by: 500) {
            listing.add((page..<page + 500).map { Self.pod("u\($0)", $0) })
        }
        #expect(listing.count == 10_000)
        #expect(listing.listedIDs.count == 10_000)
        #expect(
            listing.items.compactMap { $0.value(at: Self.uid)?.stringValue }
                == ["u17", "u9000", "u9995", "u9996", "u9997", "u9998", "u9999"])
    }

    @Test("a watch in the older form, by path: a watch, and its list's URL without the segment")
    func pathWatch() throws {
        func url(_ text: String) throws -> URL { try #require(URL(string: text)) }
        #expect(KubernetesList.isWatch(try url("https://k/api/v1/watch/pods")))
        #expect(KubernetesList.isWatch(try url("https://k/apis/apps/v1/watch/namespaces/web/deployments")))
        #expect(KubernetesList.isWatch(try url("http://127.0.0.1:8001/k8s/api/v1/watch/namespaces/a/pods")))
        #expect(!KubernetesList.isWatch(try url("https://k/api/v1/namespaces/watch/pods")), "a namespace named watch")
        #expect(!KubernetesList.isWatch(try url("https://k/watch/api/v1/pods")))
        #expect(
            KubernetesList.pageURL(
                of: try url(
                    "https://k/apis/apps/v1/watch/namespaces/web/deployments?labelSelector=t%3D1&resourceVersion=4"),
                continuing: nil
            ).absoluteString == "https://k/apis/apps/v1/namespaces/web/deployments?labelSelector=t%3D1&limit=500")
        #expect(
            KubernetesList.pageURL(of: try url("https://k/api/v1/watch/pods"), continuing: "c", limit: 125)
                .absoluteString == "https://k/api/v1/pods?limit=125&continue=c")
    }

    @Test("a page too large is asked for with half as many objects, down to the smallest")
    func smallerPages() {
        var limits: [Int] = []
        var limit: Int? = KubernetesList.pageLimit
        while let current = limit {
            limits.append(current)
            limit = KubernetesList.smallerLimit(than: current)
        }
        #expect(limits == [500, 250, 125, 62, 31, 15, 10])
    }
}
