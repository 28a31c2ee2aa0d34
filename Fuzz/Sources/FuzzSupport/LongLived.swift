#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Builds state that a fuzz target keeps for its whole run (a router, a document to look
/// pointers up in) with LeakSanitizer looking away, so that what it allocates is never
/// reported as a leak.
///
/// Why: Swift keeps tag bits in some references (a multi-payload enum's payload, such as a
/// `JSONValue` array or object; a native `String`'s storage), which LeakSanitizer does not
/// take for pointers. Memory that long-lived state reaches only through such references
/// looks unreachable, and libFuzzer's leak check, run after any input whose allocations
/// and frees do not balance, would report it. What each input allocates stays checked.
public func longLived<T>(_ build: () -> T) -> T {
    sanitizerCall("__lsan_disable")
    defer { sanitizerCall("__lsan_enable") }
    return build()
}

/// Calls the sanitizer runtime's `void name(void)`, when the runtime is linked in.
private func sanitizerCall(_ name: String) {
    guard let program = dlopen(nil, RTLD_NOW) else { return }
    defer { dlclose(program) }
    guard let symbol = dlsym(program, name) else { return }
    unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)()
}
