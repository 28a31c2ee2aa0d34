extension Templates {
    /// `/stats`: live charts of the feed. Each part is a partial with a stable id, rendered
    /// alone for the page stream too. `svg` is drawn and escaped by ``SVGChart``.
    static let stats = #"""
        <div class="page-head">
        <h1>Stats</h1>
        <p class="count">the last 10 minutes, in 5-second windows</p>
        </div>
        {{>statsTicker}}
        {{>statsSummary}}
        <div class="charts">
        {{#rate}}{{>statsChart}}{{/rate}}
        {{#bytes}}{{>statsChart}}{{/bytes}}
        </div>
        {{>statsEvents}}
        """#

    /// The latest published story and when it came.
    static let statsTicker = #"""
        <section class="ticker" id="stats-ticker" aria-label="Latest story" aria-live="polite">
        {{#ticker}}
        <p class="ticker-label">{{label}}</p>
        <p class="ticker-title"><a href="{{href}}">{{title}}</a></p>
        <p class="ticker-time"><time datetime="{{timeMachine}}" data-clock>{{clock}}</time> · <time datetime="{{timeMachine}}" data-relative>{{timeText}}</time></p>
        {{/ticker}}
        {{^ticker}}<p class="ticker-label">Latest story</p><p class="ticker-empty">Nothing published yet.</p>{{/ticker}}
        </section>
        """#

    /// The figures in big type.
    static let statsSummary = #"""
        <dl class="tiles" id="stats-summary">
        {{#tiles}}<div class="tile"><dt>{{label}}</dt><dd class="tile-value">{{value}}</dd><dd class="tile-note">{{note}}</dd></div>
        {{/tiles}}
        </dl>
        """#

    /// One chart with its heading and legend.
    static let statsChart = #"""
        <figure class="chart" id="{{id}}">
        <figcaption><span class="chart-title">{{heading}}</span> <span class="chart-note">{{note}}</span></figcaption>
        <div class="chart-frame">{{{svg}}}</div>
        <ul class="legend">{{#legend}}<li class="legend-{{name}}"><span class="swatch" aria-hidden="true"></span>{{label}}</li>{{/legend}}</ul>
        </figure>
        """#

    /// The most recent notable events, newest first (the markers, in words).
    static let statsEvents = #"""
        <section class="notable" id="stats-events" aria-labelledby="stats-events-heading">
        <h2 id="stats-events-heading">Notable events</h2>
        {{#hasEvents}}<ol class="notable-list">{{#events}}<li class="notable-{{kind}}"><span class="swatch" aria-hidden="true"></span><span class="notable-label">{{label}}</span>{{#detail}}<span class="notable-detail">{{detail}}</span>{{/detail}}<time datetime="{{timeMachine}}" data-relative>{{timeText}}</time></li>
        {{/events}}</ol>{{/hasEvents}}
        {{^hasEvents}}<p class="notable-empty">Nothing notable in the last 10 minutes: no reconnect, no rejected patch, no new section, no older version.</p>{{/hasEvents}}
        </section>
        """#
}
