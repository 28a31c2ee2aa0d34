import Foundation

/// Something worth a marker on the update-rate chart, with when it happened.
public struct NotableEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The upstream connection was opened again (after an end of stream, an error, a
        /// rejected patch or, when polling, a failed poll).
        case reconnect
        /// An upstream patch (or document) could not be applied and was rejected whole.
        case rejectedPatch = "rejected-patch"
        /// A section appeared in the published view for the first time since start.
        case newSection = "new-section"
        /// The version guard kept the published view back: the mirror's version went
        /// below the published one (a lagging cache served an older state).
        case guardRegression = "guard-regression"
        /// An item came to match a chart mark (`--mark`); ``label`` is the
        /// mark's.
        case mark
        /// Cluster mode: a node took the lead (after the last one stopped, hung, or lost
        /// the database).
        case leaderChange = "leader-change"
    }

    /// The longest ``detail`` kept, in characters (feed text can be any length).
    public static let maxDetailLength = 200

    public let kind: Kind
    public let time: Date
    /// Feed or upstream text (a section name, an error message, a marked item's title):
    /// hostile until escaped.
    public let detail: String?
    /// The chart mark's label, for ``Kind/mark`` (`nil` for the other kinds, which have
    /// fixed names).
    public let label: String?

    public init(kind: Kind, time: Date, detail: String? = nil, label: String? = nil) {
        self.kind = kind
        self.time = time
        self.detail = detail.map { String($0.prefix(Self.maxDetailLength)) }
        self.label = label.map { String($0.prefix(Self.maxDetailLength)) }
    }
}
