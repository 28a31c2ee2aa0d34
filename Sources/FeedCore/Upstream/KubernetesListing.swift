/// What is held of a Kubernetes list while its pages are read: the id of every object, and
/// only the objects that putting the list in place can keep. A list of a large cluster
/// (tens of thousands of objects) is never held whole, only one page at a time.
///
/// Putting `items` in place (``FeedStore/putItems(_:idAt:keep:position:arrival:)``)
/// replaces each kept object with its listed one, and of the others keeps the newest
/// `keep`. So ``items`` is, in the list's order: every listed object whose id is kept now,
/// and the last `keep` of the rest. Putting those gives the document that putting every
/// listed object would, at a memory of at most twice `keep` objects.
struct KubernetesListing {
    /// The id of every object listed.
    private(set) var listedIDs = Set<JSONValue>()
    /// The listed objects whose ids were kept when the list began, each with its place.
    private var keptOnes: [(place: Int, item: JSONValue)] = []
    /// The newest `keep` of the other listed objects, each with its place, oldest first
    /// from `ringStart`.
    private var others: [(place: Int, item: JSONValue)] = []
    private var ringStart = 0
    /// How many objects were listed.
    private(set) var count = 0

    /// The ids kept when the list began.
    private let keptIDs: Set<JSONValue>
    /// Where an object keeps its id.
    private let idPath: JSONPointer
    /// The most of the other objects held.
    private let keep: Int

    init(keptIDs: Set<JSONValue>, idAt idPath: JSONPointer, keep: Int) {
        self.keptIDs = keptIDs
        self.idPath = idPath
        self.keep = max(1, keep)
    }

    /// Takes a page's objects, in the list's order.
    mutating func add(_ items: [JSONValue]) {
        for item in items {
            defer { count += 1 }
            let id = item.value(at: idPath).flatMap { $0.isNull ? nil : $0 }
            if let id {
                listedIDs.insert(id)
                if keptIDs.contains(id) {
                    keptOnes.append((count, item))
                    continue
                }
            }
            if others.count < keep {
                others.append((count, item))
            } else {
                others[ringStart] = (count, item)
                ringStart = (ringStart + 1) % keep
            }
        }
    }

    /// The objects to put, in the list's order.
    var items: [JSONValue] {
        let newest = Array(others[ringStart...] + others[..<ringStart])
        var merged: [JSONValue] = []
        merged.reserveCapacity(keptOnes.count + newest.count)
        var kept = 0
        var other = 0
        while kept < keptOnes.count || other < newest.count {
            if other == newest.count || (kept < keptOnes.count && keptOnes[kept].place < newest[other].place) {
                merged.append(keptOnes[kept].item)
                kept += 1
            } else {
                merged.append(newest[other].item)
                other += 1
            }
        }
        return merged
    }
}
