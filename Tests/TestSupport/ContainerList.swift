import FeedCore

/// The one builder of test documents shaped as Docker Engine's `GET /containers/json` (its
/// members capitalised as Go writes them): container `n` is named `/web`, `/db`, `/worker`
/// or `/cache`, keyed by a 64-digit id, its image's digest `sha256:` and the same digits.
public enum ContainerList {
    public static let names = ["web", "db", "worker", "cache"]

    /// One container per state, in order (at most ``names``' count).
    public static func document(states: [String]) -> JSONValue {
        .array(
            states.enumerated().map { index, state in
                let id = String(repeating: "4b5e57f6eb2f\(index)", count: 5)
                return .object([
                    "Id": .string(id), "Names": .array([.string("/" + names[index])]),
                    "Image": .string("img\(index):1"), "ImageID": .string("sha256:" + id),
                    "Created": .int(1_796_000_000), "State": .string(state), "Status": .string("Up \(index) hours"),
                    "Labels": .object(["com.docker.compose.project": .string("shop")]),
                ])
            })
    }
}
