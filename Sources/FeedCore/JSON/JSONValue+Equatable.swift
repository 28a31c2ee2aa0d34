/// JSON equality, as RFC 6902's `test` operation defines it.
///
/// - Strings compare by code points (their UTF-8 bytes), as RFC 6902 requires, not by
///   Swift's canonical equivalence: `"é"` (U+00E9) differs from `"e\u{301}"`. (Object *keys*
///   are looked up by `OrderedDictionary`, which uses Swift's `String` equality.)
/// - Numbers compare by exact numeric value, whatever their case: `.int(1) == .double(1.0)`,
///   and `.int(9_007_199_254_740_993) != .double(9_007_199_254_740_992)` (no rounding
///   through `Double`). `-0.0 == 0`. A NaN (which the parser never produces) equals nothing.
/// - Objects compare as unordered sets of members: same keys, equal values.
/// - Arrays compare element by element, in order.
/// - Values of different kinds (other than the two number cases) are never equal.
extension JSONValue: Equatable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch lhs {
        case .null:
            if case .null = rhs { return true }
            return false
        case .bool(let a):
            if case .bool(let b) = rhs { return a == b }
            return false
        case .int(let a):
            switch rhs {
            case .int(let b): return a == b
            case .double(let b): return _exactInt64(b) == a
            default: return false
            }
        case .double(let a):
            switch rhs {
            case .double(let b): return a == b
            case .int(let b): return _exactInt64(a) == b
            default: return false
            }
        case .string(let a):
            if case .string(let b) = rhs { return _utf8Equal(a, b) }
            return false
        case .array(let a):
            if case .array(let b) = rhs { return elementsEqual(a, b) }
            return false
        case .object(let a):
            if case .object(let b) = rhs { return membersEqual(a, b) }
            return false
        }
    }

    /// Element-by-element comparison that borrows the elements in place (no copies) and
    /// returns at once for shared storage.
    static func elementsEqual(_ a: [JSONValue], _ b: [JSONValue]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                if x.baseAddress == y.baseAddress { return true }
                for i in 0..<x.count where !(x[i] == y[i]) {
                    return false
                }
                return true
            }
        }
    }

    /// Unordered comparison of two objects' members.
    static func membersEqual(_ a: JSONObject, _ b: JSONObject) -> Bool {
        guard a.count == b.count else { return false }
        // Fast path: the same keys in the same order, the usual case for documents from one
        // source. (Both `==` below return at once for shared storage.)
        if a.keys.elements == b.keys.elements {
            return elementsEqual(a.values.elements, b.values.elements)
        }
        for (key, value) in a {
            guard let other = b[key], other == value else { return false }
        }
        return true
    }
}

/// Hashing consistent with ``JSONValue``'s `==`: equal values hash equally.
///
/// A number hashes as its `Int64` value when it has one (so `.int(2)` and `.double(2.0)`
/// agree), otherwise as its `Double`. A string hashes its UTF-8 bytes (matching the
/// code-point equality above). An object's hash does not depend on member order.
extension JSONValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let b):
            hasher.combine(1 as UInt8)
            hasher.combine(b)
        case .int(let i):
            hasher.combine(2 as UInt8)
            hasher.combine(i)
        case .double(let d):
            if let i = _exactInt64(d) {
                hasher.combine(2 as UInt8)
                hasher.combine(i)
            } else {
                hasher.combine(3 as UInt8)
                hasher.combine(d)
            }
        case .string(let s):
            hasher.combine(4 as UInt8)
            var s = s
            s.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            }
        case .array(let a):
            hasher.combine(5 as UInt8)
            hasher.combine(a.count)
            for element in a {
                element.hash(into: &hasher)
            }
        case .object(let o):
            hasher.combine(6 as UInt8)
            hasher.combine(o.count)
            // Order-independent: combine the members' own hashes with a commutative operation.
            var sum: UInt = 0
            for (key, value) in o {
                var memberHasher = Hasher()
                memberHasher.combine(key)
                value.hash(into: &memberHasher)
                sum &+= UInt(bitPattern: memberHasher.finalize())
            }
            hasher.combine(sum)
        }
    }
}

/// `Int64(exactly:)` without the stdlib's libm-based rounding: the truncating conversion is
/// one instruction, and a value is integral exactly when it converts back unchanged.
@inline(__always)
func _exactInt64(_ d: Double) -> Int64? {
    guard d >= -0x1p63 && d < 0x1p63 else { return nil }  // also false for NaN
    let i = Int64(d)
    return Double(i) == d ? i : nil
}

/// Code-point (UTF-8 byte) equality of two strings.
@inline(__always)
func _utf8Equal(_ a: String, _ b: String) -> Bool {
    let count = a.utf8.count
    guard b.utf8.count == count else { return false }
    var a = a
    var b = b
    return a.withUTF8 { x in
        b.withUTF8 { y in
            guard let p = x.baseAddress, let q = y.baseAddress else { return true }
            var i = 0
            while i &+ 8 <= count {
                if UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                    != UnsafeRawPointer(q + i).loadUnaligned(as: UInt64.self)
                {
                    return false
                }
                i &+= 8
            }
            while i < count {
                if p[i] != q[i] { return false }
                i &+= 1
            }
            return true
        }
    }
}

// MARK: - Fast structural hash

/// A fast 64-bit hash consistent with ``JSONValue``'s `==` (equal values, equal hashes),
/// for internal use where many values are hashed at once (``JSONDiff``'s alignment). Not
/// seeded per process like `Hasher`, so never used for `Hashable`: a crafted collision only
/// costs extra equality checks there.
enum _FastHash {
    static let p0: UInt64 = 0xA076_1D64_78BD_642F
    static let p1: UInt64 = 0xE703_7ED1_A0B4_28DB
    static let p2: UInt64 = 0x8EBC_6AF0_9C88_C6E3
    static let p3: UInt64 = 0x5899_65CC_7537_4CC3

    @inline(__always)
    static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    static func hash(_ value: JSONValue) -> UInt64 {
        switch value {
        case .null:
            return p0
        case .bool(let b):
            return b ? p1 : p2
        case .int(let i):
            return mix(UInt64(bitPattern: i) ^ p0, p3)
        case .double(let d):
            if let i = _exactInt64(d) {
                return mix(UInt64(bitPattern: i) ^ p0, p3)
            }
            return mix(d.bitPattern ^ p1, p3)
        case .string(let s):
            return hash(s)
        case .array(let elements):
            var h = mix(UInt64(truncatingIfNeeded: elements.count) ^ p2, p1)
            for element in elements {
                h = mix(h ^ hash(element), p1 ^ p3)
            }
            return h
        case .object(let members):
            // Order-independent: a sum of per-member hashes.
            var sum: UInt64 = 0
            let keys = members.keys
            let values = members.values
            for i in 0..<keys.count {
                sum &+= mix(hash(keys[i]) ^ p2, hash(values[i]) ^ p3)
            }
            return mix(sum ^ UInt64(truncatingIfNeeded: keys.count), p0 ^ p1)
        }
    }

    static func hash(_ string: String) -> UInt64 {
        var string = string
        return string.withUTF8 { bytes in
            let count = bytes.count
            var h = mix(UInt64(truncatingIfNeeded: count) ^ p0, p1)
            guard let base = bytes.baseAddress else { return h }
            var i = 0
            while i &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                h = mix(h ^ word ^ p2, p1)
                i &+= 8
            }
            if i < count {
                var tail: UInt64 = 0
                var shift: UInt64 = 0
                while i < count {
                    tail |= UInt64(base[i]) << shift
                    shift &+= 8
                    i &+= 1
                }
                h = mix(h ^ tail ^ p3, p1)
            }
            return h
        }
    }
}
