/// What one ``DemoNewswire/advance(now:)`` step did to the demo feed, for logging.
///
/// The JSON Patch itself is not described here: the caller diffs the document before
/// and after the step.
public enum DemoChange: Sendable, Hashable, CustomStringConvertible {
    /// A new story was published at the top of `results` (index 0), with `num_results`
    /// one higher; when the list was full, the oldest story dropped off the bottom.
    case added(title: String)

    /// A story was revised in place (same position, same `uri`), its `updated_date`
    /// bumped to the step's time and `num_results` one higher. `title` is the title
    /// after the edit.
    case edited(title: String, edit: Edit)

    /// A story was withdrawn from `results`, with `num_results` one higher.
    case removed(title: String)

    /// The document went back to an older copy, as a lagging cache upstream would serve:
    /// `num_results` dropped from `latestNumResults` to `servedNumResults`.
    case staleRegression(servedNumResults: Int64, latestNumResults: Int64)

    /// The step after a ``staleRegression(servedNumResults:latestNumResults:)``: the
    /// newest state is back, with one more fresh change (`then`) applied on top, so
    /// `num_results` is higher than it was before the regression.
    indirect case recovered(then: DemoChange)

    /// The kinds of in-place revision.
    public enum Edit: String, Sendable, Hashable, CaseIterable {
        /// A typo in the headline was fixed.
        case titleCorrected
        /// The headline and abstract were rewritten as the story developed.
        case headlineRevised
        /// A sentence was added to the abstract.
        case abstractUpdated
        /// Another reporter was added to the byline.
        case bylineExpanded
    }

    /// The change with any ``recovered(then:)`` wrapper removed.
    public var underlying: DemoChange {
        if case .recovered(let then) = self { return then.underlying }
        return self
    }

    public var description: String {
        switch self {
        case .added(let title):
            return "added “\(title)”"
        case .edited(let title, let edit):
            return "edited “\(title)” (\(edit.rawValue))"
        case .removed(let title):
            return "removed “\(title)”"
        case .staleRegression(let served, let latest):
            return "stale regression: served num_results \(served) instead of \(latest)"
        case .recovered(let then):
            return "recovered from stale copy, then \(then)"
        }
    }
}
