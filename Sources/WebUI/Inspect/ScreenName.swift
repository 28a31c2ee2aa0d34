/// The name a page gives itself with `?screen=lobby-left` (its page stream carries it, and
/// its board reports what it showed under it): 1 to 64 of `A-Z a-z 0-9 . _ : -`, as
/// `Public/app.js` checks it too.
enum ScreenName {
    /// Whether `name` is a screen's name.
    static func isValid(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x3A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
    }
}
