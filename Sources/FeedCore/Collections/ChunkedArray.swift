/// An array whose copies share their elements in chunks, so that a copy followed by a
/// small change (an item on top, the oldest one gone) costs work in proportion to the
/// change and a chunk, not to the array.
///
/// The store keeps one version per accepted change and readers hold older ones: with a
/// plain `Array`, each change would copy (retain, later release) every element. Here a
/// copy retains one reference per chunk, and a change copies only the chunks it touches.
///
/// Invariants: no chunk is empty; no chunk holds more than ``maxChunkCount`` elements;
/// `starts[i]` is the position of `chunks[i]`'s first element, and `count` is the sum of
/// the chunks' counts.
public struct ChunkedArray<Element> {
    /// The most elements one chunk holds; a chunk that would grow past it is split in two.
    public static var maxChunkCount: Int { 64 }

    private var chunks: [[Element]]
    private var starts: [Int]
    public private(set) var count: Int

    public init() {
        chunks = []
        starts = []
        count = 0
    }

    public init(_ elements: some Sequence<Element>) {
        self.init()
        var chunk: [Element] = []
        chunk.reserveCapacity(Self.maxChunkCount / 2)
        for element in elements {
            chunk.append(element)
            if chunk.count == Self.maxChunkCount / 2 {
                append(chunk: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { append(chunk: chunk) }
    }

    private mutating func append(chunk: [Element]) {
        starts.append(count)
        chunks.append(chunk)
        count += chunk.count
    }

    /// The chunk holding `position` and the offset in it; `position` may be `count` (then
    /// the end of the last chunk). The array must not be empty.
    private func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        precondition(position >= 0 && position <= count, "ChunkedArray index \(position) out of 0...\(count)")
        // The last chunk whose start is <= position.
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (low, position - starts[low])
    }

    /// Recomputes `starts` from chunk `first` on.
    private mutating func reindex(from first: Int) {
        var start = first == 0 ? 0 : starts[first - 1] + chunks[first - 1].count
        for index in first..<chunks.count {
            starts[index] = start
            start += chunks[index].count
        }
    }

    /// Inserts `element` so that it is at `position` (`0...count`).
    public mutating func insert(_ element: Element, at position: Int) {
        guard !chunks.isEmpty else {
            precondition(position == 0, "ChunkedArray index \(position) out of 0...0")
            append(chunk: [element])
            return
        }
        let (chunk, offset) = locate(position)
        chunks[chunk].insert(element, at: offset)
        count += 1
        if chunks[chunk].count > Self.maxChunkCount {
            let half = chunks[chunk].count / 2
            let tail = Array(chunks[chunk][half...])
            chunks[chunk].removeSubrange(half...)
            chunks.insert(tail, at: chunk + 1)
            starts.insert(0, at: chunk + 1)
        }
        reindex(from: chunk)
    }

    /// Removes and returns the element at `position` (`0..<count`).
    @discardableResult
    public mutating func remove(at position: Int) -> Element {
        precondition(position >= 0 && position < count, "ChunkedArray index \(position) out of 0..<\(count)")
        let (chunk, offset) = locate(position)
        let element = chunks[chunk].remove(at: offset)
        count -= 1
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            starts.remove(at: chunk)
        }
        if chunk < chunks.count { reindex(from: chunk) }
        return element
    }

    /// Removes and returns the last element. The array must not be empty.
    @discardableResult
    public mutating func removeLast() -> Element {
        remove(at: count - 1)
    }

    /// Appends `element`.
    public mutating func append(_ element: Element) {
        insert(element, at: count)
    }

    /// The chunks as stored, in order, none empty. A chunk a copy did not change is the same
    /// array buffer in both (what lets a reader cache work per chunk: ``EncodedChunks``).
    public var storedChunks: [[Element]] { chunks }
}

extension ChunkedArray: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "ChunkedArray index \(position) out of 0..<\(count)")
            let (chunk, offset) = locate(position)
            return chunks[chunk][offset]
        }
        set {
            precondition(position >= 0 && position < count, "ChunkedArray index \(position) out of 0..<\(count)")
            let (chunk, offset) = locate(position)
            chunks[chunk][offset] = newValue
        }
    }

    /// Walks chunk by chunk: no search per element.
    public struct Iterator: IteratorProtocol {
        private var chunks: IndexingIterator<[[Element]]>
        private var current: IndexingIterator<[Element]>?

        fileprivate init(_ chunks: [[Element]]) {
            self.chunks = chunks.makeIterator()
        }

        public mutating func next() -> Element? {
            while true {
                if let element = current?.next() { return element }
                guard let chunk = chunks.next() else { return nil }
                current = chunk.makeIterator()
            }
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(chunks)
    }

    public var underestimatedCount: Int { count }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension ChunkedArray: Equatable where Element: Equatable {
    public static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: CustomStringConvertible {
    public var description: String { Array(self).description }
}
