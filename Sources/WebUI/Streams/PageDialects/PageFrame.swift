/// One frame of one page-stream view: what changed, with every fragment rendered once,
/// before a ``PageDialect`` writes it as events. A value of strings alone: the dialects'
/// encoders are pure functions of it, and one frame serves every dialect of its view.
struct PageFrame: Sendable {
    /// The view's name (``PageEventStream/Channel/spec``), as feedweb's own events say it.
    let view: String
    /// The id of its events: the published view's `EPOCH-SEQ`.
    let id: String
    /// What the frame changes, in the order feedweb's own events carry it.
    var parts: [Part]

    /// One element of a page, by its id, as a whole fragment whose root carries that id.
    struct Fragment: Sendable, Equatable {
        let id: String
        let html: String
    }

    enum Part: Sendable {
        /// The entries of a list, a table or the kiosk (`#stories`).
        case entries(Entries)
        /// The item page's `#detail`, whole.
        case detail(String)
        /// The item left the feed: its page's `#gone` notice is to be shown (the text).
        case gone(String)
        /// Parts of `/stats` (each its element, whole).
        case stats([Fragment])
        /// Parts of `/inspect`: elements swapped whole, and the event log's rows.
        case inspect([Fragment], rows: Rows?)
        /// The status badge, `#status`, whole.
        case status(String)

        /// The part without its entries' notice (``Entries/notice``), which is unchanged.
        var keepingNotice: Part {
            guard case .entries(var entries) = self else { return self }
            entries.notice = nil
            return .entries(entries)
        }
    }

    /// Rows of a table body edited in place (`/inspect`'s event log): some put on top,
    /// some removed, some swapped by id.
    struct Rows: Sendable {
        /// The `<tbody>`'s id.
        let container: String
        /// Rows to put on top, in this order (top first).
        let prepend: [Fragment]
        /// Ids of rows to remove.
        let remove: [String]
        /// Rows to swap by their ids.
        let replace: [Fragment]

        /// Whether it changes no row.
        var isEmpty: Bool { prepend.isEmpty && remove.isEmpty && replace.isEmpty }
    }

    /// A frame of a view's entries (`#stories`'s children).
    struct Entries: Sendable {
        /// The page the entries are on: what their container is and what else it has.
        enum Page: Sendable {
            /// `/`: an `<ol id="stories">` of `<li>`, a `#count`.
            case list
            /// `/` for items that are not news: a `<tbody id="stories">` of `<tr>`, a
            /// `<thead id="columns">`, a `#count` and a `#problem` notice.
            case table
            /// `/kiosk`: an `<ol id="stories">` of `<li>`, nothing else.
            case kiosk
        }

        /// How feedweb's own `items` event orders the entries.
        enum Order: Sendable, Equatable {
            /// Every entry, top first (dom ids).
            case whole([String])
            /// New entries on top (top first) and gone ones, the rest in place (dom ids).
            case delta(prepend: [String], remove: [String])
        }

        let page: Page
        let order: Order
        /// The entries new or changed in this frame (every one in a whole state), in the
        /// order they were rendered.
        let html: [Fragment]
        /// The count as the page shows it (`#count`).
        let count: String
        /// What the document holds instead of items, or "" (`#problem`); `nil` in a frame of a
        /// change that left it as it was, so the page keeps the one it shows.
        var notice: String?
        /// How a page of the dialects, which cannot move an element without its HTML, gets
        /// from the last frame's entries to these.
        let edit: EntryEdit
        /// The entries of a frame of a change that match a `--mark`, by dom id, with their
        /// labels (empty in a whole state): feedweb's own `items` event names them in
        /// `"marks"` for the attention of boards and kiosks.
        var marks: [String: [String]] = [:]
        /// A table's header row (`#columns`' content) in a whole state, so that a page of the
        /// dialects need not know the columns; "" in any other frame (feedweb's own page
        /// renders its header itself).
        var head = ""
        /// The fragments of entries that `edit` moves but `html` lacks (unchanged entries
        /// that moved), rendered only when a dialect client needs them.
        var moved: [Fragment] = []

        /// The fragments of `ids`, by dom id (looked up once each).
        func fragments(_ ids: [String]) -> [String] {
            var byID: [String: String] = [:]
            for fragment in html { byID[fragment.id] = fragment.html }
            for fragment in moved where byID[fragment.id] == nil { byID[fragment.id] = fragment.html }
            return ids.compactMap { byID[$0] }
        }
    }
}
