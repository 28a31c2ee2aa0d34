/// One block of a post's text as a page shows it: a paragraph, a heading or a list's item,
/// in plain text (pages escape it like any value). What ``HTMLPlainText/blocks(_:)`` and
/// ``ItemText/blocks(of:at:)`` read a post's HTML or text into.
public struct TextBlock: Sendable, Equatable {
    /// What the block was in the post.
    public enum Kind: Sendable, Equatable {
        /// A paragraph (or any other block: a quotation, a `div`, a table's row).
        case paragraph
        /// A heading (`h1` … `h6`).
        case heading
        /// An item of a list (`li` in a `ul`).
        case listItem
        /// An item of a numbered list (`li` in an `ol`).
        case numberedItem
    }

    public let kind: Kind
    /// Never empty, and never begins or ends with white space.
    public let text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }
}
