/// The demo's offline thumbnails: hand-written SVGs that feedweb serves itself from
/// `Public/demo/<name>.svg`, so the demo shows pictures with no network at all.
///
/// Each file is a flat-colour 3:2 illustration (`viewBox="0 0 300 200"`), under 2 KB,
/// with no text, no script and no external reference.
enum DemoImage: String, Sendable, CaseIterable {
    case globe, skyline, capitol, chart, microscope, heart, leaf, waves
    case vinyl, screen, frame, book, ball, plate, mountain, cloud

    /// The URL a story's `multimedia[].url` and `thumbnail_standard` carry: a path
    /// relative to the dashboard's origin.
    var url: String { "/static/demo/\(rawValue).svg" }

    /// The file name under `Public/demo/`.
    var fileName: String { "\(rawValue).svg" }
}
