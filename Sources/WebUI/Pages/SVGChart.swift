import Foundation

/// A line chart drawn on the server as SVG: a grid with labelled axes, one polyline per
/// series, vertical markers with a tooltip each. No script, no inline style: colours come
/// from classes styled by `Public/style.css` (so light, dark and the kiosk all work under
/// the strict Content-Security-Policy), with plain presentation attributes as a fallback.
///
/// Geometry: the plot spans ``plot``; value slot `i` of `n` sits at the middle of the
/// `i`-th of `n` equal columns; a value `v` sits at `plot.bottom − v ÷ yMax × plot.height`,
/// where `yMax` is the top grid line, a whole number of "nice" steps (1, 2 or 5 × 10ᵏ).
/// Coordinates are written with one decimal.
///
/// Every string is escaped here (``escape(_:)``): the result is well-formed XML, safe to
/// embed in HTML as it is.
struct SVGChart {
    struct Series {
        /// Its class (`series-NAME`), for its colour.
        let name: String
        /// One value per slot, oldest first; `nil` where there is no data (the line breaks).
        let values: [Double?]
        /// Whether the area under the line is shaded.
        var filled = false
    }

    struct Marker {
        /// Where, from 0 (left edge of the plot) to 1 (right edge).
        let position: Double
        /// Its class (`marker-KIND`), for its colour.
        let kind: String
        /// The tooltip (plain text).
        let title: String
    }

    struct Tick {
        /// From 0 (left) to 1 (right).
        let position: Double
        let label: String
    }

    struct Rect {
        let left: Double
        let top: Double
        let right: Double
        let bottom: Double
        var width: Double { right - left }
        var height: Double { bottom - top }
    }

    static let width = 640.0
    static let height = 300.0
    let plot = Rect(left: 80, top: 40, right: width - 18, bottom: height - 50)

    /// Unique within the page: prefixes the ids of the title and description.
    let id: String
    let title: String
    let summary: String
    let series: [Series]
    var markers: [Marker] = []
    let xTicks: [Tick]
    let xLabel: String
    let yLabel: String
    /// How a value on the y axis reads (`12`, `300 kB`).
    let yFormat: (Double) -> String
    /// The smallest top of the y axis, so an idle chart still has a sensible scale.
    var minimumTop: Double = 1

    /// The step between y grid lines and the top of the axis.
    var yScale: (step: Double, top: Double) {
        let largest = series.flatMap { $0.values.compactMap { $0 } }.filter(\.isFinite).max() ?? 0
        let target = max(largest, minimumTop, .leastNormalMagnitude)
        let step = Self.niceStep(target / 4)
        return (step, (target / step).rounded(.up) * step)
    }

    /// The x of slot `index` of `count`.
    func x(slot index: Int, of count: Int) -> Double {
        plot.left + plot.width * (Double(index) + 0.5) / Double(max(1, count))
    }

    /// The y of `value` on an axis topped at `top`.
    func y(_ value: Double, top: Double) -> Double {
        plot.bottom - plot.height * min(max(value, 0), top) / top
    }

    func render() -> String {
        let (step, top) = yScale
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" viewBox="0 0 \(Self.n(Self.width)) \
            \(Self.n(Self.height))" role="img" aria-labelledby="\(id)-title \(id)-desc">\
            <title id="\(id)-title">\(Self.escape(title))</title><desc id="\(id)-desc">\(Self.escape(summary))</desc>
            """
        // Horizontal grid with the y labels.
        svg += "<g class=\"chart-grid\">"
        for gridLine in 0...Int((top / step).rounded()) {
            let value = Double(gridLine) * step
            let y = Self.n(y(value, top: top))
            svg +=
                "<line class=\"grid\" x1=\"\(Self.n(plot.left))\" y1=\"\(y)\" x2=\"\(Self.n(plot.right))\" y2=\"\(y)\""
            svg += " stroke=\"#888\" stroke-opacity=\"0.3\"/>"
            svg += "<text class=\"tick-y\" x=\"\(Self.n(plot.left - 10))\" y=\"\(y)\" text-anchor=\"end\""
            svg += " dominant-baseline=\"middle\" data-value=\"\(Self.n(value))\">\(Self.escape(yFormat(value)))</text>"
        }
        for tick in xTicks {
            let x = Self.n(plot.left + plot.width * tick.position)
            svg +=
                "<line class=\"grid grid-x\" x1=\"\(x)\" y1=\"\(Self.n(plot.top))\" x2=\"\(x)\" y2=\"\(Self.n(plot.bottom))\""
            svg += " stroke=\"#888\" stroke-opacity=\"0.15\"/>"
            let anchor = tick.position <= 0 ? "start" : (tick.position >= 1 ? "end" : "middle")
            svg += "<text class=\"tick-x\" x=\"\(x)\" y=\"\(Self.n(plot.bottom + 22))\" text-anchor=\"\(anchor)\">"
            svg += "\(Self.escape(tick.label))</text>"
        }
        svg += "</g>"
        svg += "<line class=\"chart-axis\" x1=\"\(Self.n(plot.left))\" y1=\"\(Self.n(plot.bottom))\""
        svg += " x2=\"\(Self.n(plot.right))\" y2=\"\(Self.n(plot.bottom))\" stroke=\"#888\"/>"
        svg += "<text class=\"axis-label\" x=\"\(Self.n(plot.left + plot.width / 2))\" y=\"\(Self.n(Self.height - 6))\""
        svg += " text-anchor=\"middle\">\(Self.escape(xLabel))</text>"
        // The y axis says what it counts above it, level with the text: readable on a TV.
        svg += "<text class=\"axis-label\" x=\"6\" y=\"\(Self.n(plot.top - 18))\""
        svg += " text-anchor=\"start\">\(Self.escape(yLabel))</text>"
        // The series, each a polyline per unbroken run of values.
        for line in series {
            let count = line.values.count
            var runs: [[(Double, Double)]] = []
            var run: [(Double, Double)] = []
            for (index, value) in line.values.enumerated() {
                guard let value, value.isFinite else {
                    if !run.isEmpty { runs.append(run) }
                    run = []
                    continue
                }
                run.append((x(slot: index, of: count), y(value, top: top)))
            }
            if !run.isEmpty { runs.append(run) }
            svg += "<g class=\"series series-\(Self.escape(line.name))\">"
            for points in runs {
                let list = points.map { "\(Self.n($0.0)),\(Self.n($0.1))" }.joined(separator: " ")
                if line.filled, let first = points.first, let last = points.last {
                    let base = Self.n(plot.bottom)
                    svg +=
                        "<polygon class=\"area\" points=\"\(Self.n(first.0)),\(base) \(list) \(Self.n(last.0)),\(base)\""
                    svg += " fill=\"currentColor\" fill-opacity=\"0.12\"/>"
                }
                svg += "<polyline class=\"line\" points=\"\(list)\" fill=\"none\" stroke=\"currentColor\""
                svg += " stroke-width=\"2.5\" stroke-linejoin=\"round\"/>"
            }
            if let last = runs.last?.last {
                svg += "<circle class=\"dot\" cx=\"\(Self.n(last.0))\" cy=\"\(Self.n(last.1))\" r=\"5\""
                svg += " fill=\"currentColor\"/>"
            }
            svg += "</g>"
        }
        // Markers last, on top, each with its tooltip.
        if !markers.isEmpty {
            svg += "<g class=\"markers\">"
            for marker in markers {
                let x = Self.n(plot.left + plot.width * min(max(marker.position, 0), 1))
                svg +=
                    "<g class=\"marker marker-\(Self.escape(marker.kind))\"><title>\(Self.escape(marker.title))</title>"
                svg += "<line class=\"marker-hit\" x1=\"\(x)\" y1=\"\(Self.n(plot.top))\" x2=\"\(x)\""
                svg += " y2=\"\(Self.n(plot.bottom))\" stroke=\"transparent\" stroke-width=\"14\"/>"
                svg += "<line class=\"marker-line\" x1=\"\(x)\" y1=\"\(Self.n(plot.top + 6))\" x2=\"\(x)\""
                svg +=
                    " y2=\"\(Self.n(plot.bottom))\" stroke=\"currentColor\" stroke-width=\"2\" stroke-dasharray=\"5 4\"/>"
                svg += "<circle class=\"marker-dot\" cx=\"\(x)\" cy=\"\(Self.n(plot.top + 6))\" r=\"6\""
                svg += " fill=\"currentColor\"/></g>"
            }
            svg += "</g>"
        }
        svg += "</svg>"
        return svg
    }

    // MARK: - Helpers

    /// The smallest of 1, 2 or 5 × 10ᵏ that is at least `value` (at least 1e-9).
    static func niceStep(_ value: Double) -> Double {
        let value = max(value, 1e-9)
        let magnitude = pow(10, (log10(value)).rounded(.down))
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= value * (1 - 1e-12) {
            return factor * magnitude
        }
        return 10 * magnitude
    }

    /// A coordinate with one decimal, no trailing `.0`.
    static func n(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        if rounded == rounded.rounded() {
            return abs(rounded) < 1e15 ? String(Int64(rounded)) : String(format: "%.0f", rounded)
        }
        return String(format: "%.1f", rounded)
    }

    /// `text` escaped for XML text and quoted attributes (``HTMLEscaping/escape(_:)``).
    static func escape(_ text: String) -> String { HTMLEscaping.escape(text) }
}
