import NIOConcurrencyHelpers

/// The template set pages and frames are rendered from now, and its reloads: `--templates
/// DIR` read again on SIGHUP, all of it or none (a folder that does not load keeps the set
/// in use, and says why: ``lastFailure``).
public final class TemplateLibrary: Sendable {
    /// What the library holds. A leaf lock: nothing is taken while it is held; a set is
    /// loaded outside it.
    private struct State: Sendable {
        var current: TemplateSet
        /// Why the last reload kept the set in use (`nil`: it did not fail).
        var lastFailure: TemplateLoadError?
    }

    /// The folder reloads read (`nil`: the built-ins alone, nothing to reload).
    public let directory: String?
    /// The table rows rendered lately, for every page and frame rendered from this library
    /// (each kept for the set it was rendered from: ``TableRowShape/templates``).
    let tableRows = TableRowCache()
    /// The list entries rendered lately, likewise (``StoryShape/templates``).
    let stories = StoryFragmentCache()
    private let state: NIOLockedValueBox<State>

    /// The built-in templates alone.
    public convenience init() {
        self.init(.builtin)
    }

    /// `set`, and its folder for reloads.
    public init(_ set: TemplateSet) {
        directory = set.directory
        state = NIOLockedValueBox(State(current: set))
    }

    /// The set in use.
    public var current: TemplateSet { state.withLockedValue { $0.current } }

    /// Why the last reload kept the set in use, if it did.
    public var lastFailure: TemplateLoadError? { state.withLockedValue { $0.lastFailure } }

    /// Reads the folder again: the new set when it loads (and is now the one in use), else
    /// the error (and the set in use is kept). `nil` without a folder.
    public func reload() -> Result<TemplateSet, TemplateLoadError>? {
        guard let directory else { return nil }
        do throws(TemplateLoadError) {
            let set = try TemplateSet.load(directory: directory)
            state.withLockedValue {
                $0.current = set
                $0.lastFailure = nil
            }
            return .success(set)
        } catch {
            state.withLockedValue { $0.lastFailure = error }
            return .failure(error)
        }
    }
}
