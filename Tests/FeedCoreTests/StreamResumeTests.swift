import Foundation
import Testing

@testable import FeedCore

/// ``StreamResume`` without I/O: where a Kubernetes watch and CouchDB's changes feed say they
/// resume, how that is held as a position, and the URL the next request asks for.
@Suite("Stream resume")
struct StreamResumeTests {
    static let append = MessageProtocol(mode: .append(keep: 7))

    static func resume(_ text: String, in messages: MessageProtocol = append) -> StreamResume? {
        messages.read(.text(text)).resume
    }

    static func at(_ name: String, _ value: String) -> StreamResume {
        .at(.init(name: name, value: value))
    }

    @Test("a watch resumes at the last object's resourceVersion, a bookmark's too; 410 starts over")
    func kubernetes() {
        let pod = #"{"kind":"Pod","metadata":{"uid":"u1","name":"web-1","resourceVersion":"4711"}}"#
        for type in ["ADDED", "MODIFIED", "DELETED"] {
            #expect(Self.resume(#"{"type":"\#(type)","object":\#(pod)}"#) == Self.at("resourceVersion", "4711"))
        }
        #expect(
            Self.resume(#"{"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"4800"}}}"#)
                == Self.at("resourceVersion", "4800"))
        #expect(
            Self.resume(#"{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}}"#) == .startOver)
        #expect(Self.resume(#"{"type":"ERROR","object":{"kind":"Status","code":500,"reason":"InternalError"}}"#) == nil)
        #expect(Self.resume(#"{"type":"ADDED","object":{"kind":"Pod","metadata":{"uid":"u1"}}}"#) == nil)
        #expect(
            Self.resume(#"{"type":"ADDED","object":\#(pod)}"#, in: MessageProtocol(mode: .document)) == nil,
            "a document is not resumed")
    }

    @Test("a changes feed resumes since the last seq, text or number, and the last line's last_seq")
    func couch() {
        #expect(
            Self.resume(#"{"seq":"12-g1AAAAB","id":"ada","changes":[{"rev":"2-x"}],"doc":{"_id":"ada"}}"#)
                == Self.at("since", "12-g1AAAAB"))
        #expect(Self.resume(#"{"seq":12,"id":"ada","changes":[{"rev":"2-x"}]}"#) == Self.at("since", "12"))
        #expect(Self.resume(#"{"seq":"13-g1B","id":"ada","changes":[],"deleted":true}"#) == Self.at("since", "13-g1B"))
        #expect(Self.resume(#"{"last_seq":"14-g1C","pending":0}"#) == Self.at("since", "14-g1C"))
        #expect(Self.resume(#"{"seq":"15","title":"not a change"}"#) == nil)
        #expect(Self.resume(#"{"id":"m1","time":1,"event":"message","title":"ntfy"}"#) == nil)
    }

    @Test("ntfy's stream resumes since its last message's id; its open and keepalive name none")
    func ntfy() {
        #expect(
            Self.resume(#"{"id":"sPs71M8A2T","time":1643935928,"event":"message","topic":"alerts","message":"hi"}"#)
                == Self.at("since", "sPs71M8A2T"))
        #expect(Self.resume(#"{"id":"o1","time":1643935928,"event":"open","topic":"alerts"}"#) == nil)
        #expect(Self.resume(#"{"id":"k1","time":1643935958,"event":"keepalive","topic":"alerts"}"#) == nil)
        #expect(Self.resume(#"{"id":"x","event":"message","message":"no topic, no time"}"#) == nil)
    }

    @Test("Docker's events resume since one nanosecond after the last event's timeNano")
    func docker() {
        func event(_ nanoseconds: String) -> String {
            #"{"status":"start","id":"4f5a","Type":"container","Action":"start","Actor":{"ID":"4f5a","Attributes":{"name":"web"}},"scope":"local","time":1733360000,"timeNano":\#(nanoseconds)}"#
        }
        #expect(Self.resume(event("1733360000123456789")) == Self.at("since", "1733360000.123456790"))
        #expect(Self.resume(event("1733360000000000000")) == Self.at("since", "1733360000.000000001"))
        #expect(Self.resume(event("1733360000999999999")) == Self.at("since", "1733360001.000000000"))
        #expect(Self.resume(event(#""1733360000123456789""#)) == nil, "timeNano as text")
        #expect(
            Self.resume(#"{"Type":"container","Action":"start","time":1733360000,"timeNano":1}"#) == nil, "no Actor")
    }

    @Test("a resume point as a position, and back; other positions are not one")
    func positions() throws {
        let query = StreamResume.ResumeQuery(name: "since", value: "12-g1A\"&x")
        let position = UpstreamPosition.encode(query)
        #expect(UpstreamPosition.resumeQuery(from: position) == query)
        #expect(UpstreamPosition.validators(from: position) == nil)
        #expect(UpstreamPosition.resumeQuery(from: "42") == nil)
        #expect(UpstreamPosition.resumeQuery(from: "feedweb-7") == nil)
        #expect(UpstreamPosition.resumeQuery(from: #"{"etag":"\"v1\""}"#) == nil)
        #expect(UpstreamPosition.resumeQuery(from: "") == nil)
    }

    @Test("the next URL: the parameter set in place, a second of its name gone, or added last; values encoded")
    func urls() throws {
        func applied(_ name: String, _ value: String, to url: String) throws -> String {
            let url = try #require(URL(string: url))
            return StreamResume.ResumeQuery(name: name, value: value).applied(to: url).absoluteString
        }
        #expect(
            try applied("since", "7-g1A", to: "http://db:5984/d/_changes?feed=continuous&since=now&heartbeat=5000")
                == "http://db:5984/d/_changes?feed=continuous&since=7-g1A&heartbeat=5000")
        #expect(
            try applied("resourceVersion", "88", to: "https://k8s:6443/api/v1/pods?watch=1&labelSelector=app%3Dweb")
                == "https://k8s:6443/api/v1/pods?watch=1&labelSelector=app%3Dweb&resourceVersion=88")
        #expect(
            try applied("resourceVersion", "9", to: "http://k/api/v1/pods?resourceVersion=1&watch=1&resourceVersion=2")
                == "http://k/api/v1/pods?resourceVersion=9&watch=1")
        #expect(
            try applied("since", "a&b=c+d#e f", to: "http://db/d/_changes")
                == "http://db/d/_changes?since=a%26b%3Dc%2Bd%23e%20f")
    }

    @Test("a watch's list: which URLs watch, each page's URL, what a page holds")
    func kubernetesList() throws {
        func url(_ text: String) throws -> URL { try #require(URL(string: text)) }
        #expect(KubernetesList.isWatch(try url("https://k/api/v1/pods?watch=1")))
        #expect(KubernetesList.isWatch(try url("https://k/api/v1/pods?labelSelector=a&watch=true")))
        #expect(KubernetesList.isWatch(try url("https://k/api/v1/pods?watch")))
        #expect(!KubernetesList.isWatch(try url("https://k/api/v1/pods?watch=false")))
        #expect(!KubernetesList.isWatch(try url("https://k/api/v1/pods")))
        #expect(!KubernetesList.isWatch(try url("http://db/d/_changes?feed=continuous")))
        let watch = try url(
            "https://k/api/v1/namespaces/prod/pods?watch=1&labelSelector=app%3Dweb&resourceVersion=5&allowWatchBookmarks=true&timeoutSeconds=300"
        )
        #expect(
            KubernetesList.pageURL(of: watch, continuing: nil).absoluteString
                == "https://k/api/v1/namespaces/prod/pods?labelSelector=app%3Dweb&limit=500")
        #expect(
            KubernetesList.pageURL(of: watch, continuing: "eyJ2Ijoi+/=").absoluteString
                == "https://k/api/v1/namespaces/prod/pods?labelSelector=app%3Dweb&limit=500&continue=eyJ2Ijoi%2B%2F%3D")
        let page = try JSONValue(
            parsing: #"{"kind":"PodList","metadata":{"resourceVersion":"77","continue":"t2"},"items":[{"a":1}]}"#)
        #expect(KubernetesList.page(page) == .init(items: [.object(["a": .int(1)])], resourceVersion: "77", next: "t2"))
        let last = try JSONValue(
            parsing: #"{"kind":"PodList","metadata":{"resourceVersion":"77","continue":""},"items":[]}"#)
        #expect(KubernetesList.page(last) == .init(items: [], resourceVersion: "77", next: nil))
        #expect(KubernetesList.page(try JSONValue(parsing: #"{"type":"ADDED","object":{}}"#)) == nil)
        #expect(KubernetesList.page(try JSONValue(parsing: #"{"items":[],"metadata":{}}"#)) == nil)
    }
}
