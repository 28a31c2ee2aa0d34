import FeedCore
import Foundation
import Testing

@testable import WebUI

/// A cell's text from a value, for values the table's page tests do not reach.
@Suite("Cell formatting")
struct CellFormattingTests {

    @Test("a share as a percentage to a tenth, whole ones without it")
    func fractions() {
        #expect(CellFormatting.fraction(0.371) == "37.1 %")
        #expect(CellFormatting.fraction(1) == "100 %")
        #expect(CellFormatting.fraction(0) == "0 %")
        #expect(CellFormatting.fraction(0.05) == "5 %")
        // A `--column`'s fraction of any size is written, never a crash.
        #expect(CellFormatting.fraction(1e300).hasSuffix(" %"))
    }

    @Test("a number below a thousandth with four significant digits and a point; below 10⁻¹² its exponent")
    func smallNumbers() {
        #expect(CellFormatting.grouped(.double(0.00000987), 0.00000987) == "0.00000987")
        #expect(CellFormatting.grouped(.double(-7e-06), -7e-06) == "−0.000007")
        #expect(CellFormatting.grouped(.double(0.000123), 0.000123) == "0.000123")
        #expect(CellFormatting.readable(0.0000123456789) == "0.00001235", "four significant digits")
        #expect(CellFormatting.readable(0.00000987, decimals: 8) == "0.00000987")
        // Padded to a column's decimals no further than each number's size warrants.
        #expect(CellFormatting.readable(0.6159, decimals: 9) == "0.615900")
        #expect(CellFormatting.readable(43164.60393628, decimals: 8) == "43,164.60")
        #expect(CellFormatting.grouped(.double(1e-13), 1e-13) == "1e-13")
        #expect(CellFormatting.readable(-1e-13) == "-1e-13", "not rounded to nothing")
        #expect(NumberDecimals.written(.double(9.87e-06)) == 8)
        #expect(NumberDecimals.written(.string("0.00000987")) == 8)
        #expect(NumberDecimals.written(.double(1e-13)) == nil)
        #expect(NumberDecimals.written(.double(1e16)) == nil)
        #expect(NumberDecimals.warranted(by: 0) == 6)
    }

    @Test("ports as docker ps and kubectl write them; things that name themselves listed, up to eight")
    func portsAndNames() throws {
        let docker = try JSONValue(
            parsing:
                #"[{"IP": "0.0.0.0", "PrivatePort": 80, "PublicPort": 8080, "Type": "tcp"}, {"PrivatePort": 443, "Type": "tcp"}]"#
        )
        #expect(CellFormatting.summary(docker) == "8080→80/tcp, 443/tcp")
        let service = try JSONValue(
            parsing:
                #"[{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"}, {"name": "dns", "port": 53, "targetPort": 53, "protocol": "UDP"}]"#
        )
        #expect(CellFormatting.summary(service) == "80→8080/TCP, 53/UDP")
        let labels = try JSONValue(
            parsing:
                #"[{"name": "bug"}, {"name": "p1"}, {"name": "crash"}, {"name": "macros"}, {"name": "needs triage"}]"#)
        #expect(CellFormatting.summary(labels) == "bug, p1, crash, macros, needs triage")
        // A lone small thing by its texts, its id and icon left out (OpenWeather's weather).
        let weather = try JSONValue(
            parsing: #"[{"id": 800, "main": "Clear", "description": "clear sky", "icon": "01d"}]"#)
        #expect(CellFormatting.summary(weather) == "Clear, clear sky")
        // A host and its port are an address, no mapping.
        #expect(CellFormatting.summary(try JSONValue(parsing: #"[{"host": "db1", "port": 5432}]"#)) == "db1, 5432")
        // Objects that are neither are counted.
        #expect(CellFormatting.summary(try JSONValue(parsing: #"[{"a": 1, "b": 2}, {"a": 3, "b": 4}]"#)) == "2 items")
    }

    @Test("an object by its name, else a few plain values by their labels, else a count of its fields")
    func objects() throws {
        func summary(_ json: String) throws -> String { CellFormatting.summary(try JSONValue(parsing: json)) }
        #expect(try summary(#"{"login": "octocat", "id": 583231, "site_admin": false, "type": "User"}"#) == "octocat")
        #expect(try summary(#"{"speed_kmh": 12, "dir": "NW"}"#) == "Speed 12 km/h, Dir NW")
        #expect(try summary(#"{"lat": 47.3769, "lon": 8.5417, "alt": null}"#) == "Lat 47.3769, Lon 8.5417")
        #expect(try summary(#"{"bytes": 1500000, "cached": true}"#) == "Bytes 1,500,000, Cached yes")
        #expect(try summary(#"{"a": 1, "b": 2, "c": 3, "d": 4}"#) == "4 fields", "more than three")
        #expect(try summary(#"{"a": 1, "tags": ["x"]}"#) == "2 fields", "not all plain")
        #expect(try summary(#"{"note": "\#(String(repeating: "long ", count: 8))"}"#) == "1 field", "a long text")
        #expect(try summary(#"{"gone": null}"#) == "1 field")
    }

    @Test("times in micro- and nanoseconds are moments; an array's nulls are no values")
    func epochUnitsAndNulls() throws {
        let seconds = 1_796_000_000.0
        for (value, unit) in [(seconds * 1000, "ms"), (seconds * 1_000_000, "µs"), (seconds * 1_000_000_000, "ns")] {
            let date = CellFormatting.date(.int(Int64(value)))
            #expect(date?.timeIntervalSince1970 == seconds, "\(unit)")
        }
        #expect(CellFormatting.date(.double(seconds)).map { $0.timeIntervalSince1970 } == seconds)
        #expect(CellFormatting.date(.double(1e30)) == nil)
        let unit = try JSONValue(parsing: #"[{"name": "percent", "short_name": "%"}, null]"#)
        #expect(CellFormatting.summary(unit) == "percent")
        #expect(CellFormatting.summary(try JSONValue(parsing: "[null, null]")) == "none")
    }
}
