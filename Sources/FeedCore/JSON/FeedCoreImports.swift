// JSONValue.swift says `import Collections`, but since swift-collections 1.6 the
// `Collections` module only declares typealiases for `OrderedDictionary`; its members live
// in `OrderedCollections`. Without this re-export, the `@inlinable` accessors in
// JSONValue.swift fail to compile ("subscript cannot be used in an '@inlinable' function
// because 'OrderedCollections' was not imported by this file"). Only a re-export in a
// sibling file satisfies that check (a plain or `public import` does not). Clients of
// FeedCore get `OrderedDictionary`'s API as a side effect, which `JSONObject` needs anyway.
@_exported import OrderedCollections

#if canImport(Glibc)
    // The stdlib's Double rounding, used by `Int64(exactly:)` in JSONValue.swift, calls libm
    // on baseline x86-64; importing Glibc autolinks it, so FeedCore links on its own.
    import Glibc
#endif
