// FeedCore re-exports OrderedCollections: `JSONObject` is an `OrderedDictionary`, and its
// clients (WebUI, the tests) use its API. The package depends on swift-collections'
// DequeModule and OrderedCollections products only: the whole `Collections` product built
// five more modules (BitCollections, HashTreeCollections, _RopeModule, HeapModule and
// Collections itself) that nothing here uses.
@_exported import OrderedCollections

#if canImport(Glibc)
    // The stdlib's Double rounding, used by `Int64(exactly:)` in JSONValue.swift, calls libm
    // on baseline x86-64; importing Glibc autolinks it, so FeedCore links on its own.
    import Glibc
#endif
