extension Templates {
    /// The page frame. `main` is HTML rendered by the other templates (never feed text).
    static let layout = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>{{title}}</title>
        <link rel="stylesheet" href="/static/style.css?v={{assetVersion}}">
        <link rel="icon" href="/static/favicon.svg?v={{assetVersion}}" type="image/svg+xml">
        {{#isTable}}<script src="/static/cells.js?v={{assetVersion}}" defer></script>{{/isTable}}
        <script src="/static/times.js?v={{assetVersion}}" defer></script>
        <script src="/static/app.js?v={{assetVersion}}" defer></script>
        </head>
        <body class="{{bodyClass}}" data-stream="{{stream}}"{{#waiting}} data-waiting{{/waiting}}>
        <a class="skip" href="#main">Skip to content</a>
        <header class="masthead">
        <div class="masthead-inner">
        <a class="brand" href="/"><span class="brand-mark" aria-hidden="true"></span>{{brand}}</a>
        <nav class="primary" aria-label="Primary">
        <a href="/"{{#navLatest}} aria-current="page"{{/navLatest}}>{{listLabel}}</a>
        <a href="/stats"{{#navStats}} aria-current="page"{{/navStats}}>Stats</a>
        <a href="/kiosk">Kiosk</a>
        </nav>
        {{>badge}}
        </div>
        </header>
        {{#past}}{{>pastBanner}}{{/past}}
        <main id="main" tabindex="-1">
        {{{main}}}
        </main>
        <footer class="site-footer">
        <p>{{footer}}</p>
        </footer>
        </body>
        </html>

        """#

    /// What a page of the past says: which moment it shows, and the way back to live.
    static let pastBanner = #"""
        <p class="past-banner" id="past" role="note">As of <time datetime="{{timeMachine}}" data-clock>{{timeText}}</time> <span class="past-id">(change {{id}})</span> — <a href="{{liveHref}}">back to live</a></p>
        """#

    /// The upstream status badge, with what went wrong upstream while it is not connected;
    /// swapped whole by the page script.
    static let badge = #"""
        <p class="badge badge-{{badge.kind}}" id="status" role="status" aria-live="polite">
        <span class="badge-dot" aria-hidden="true"></span><span class="badge-label">{{badge.label}}</span>
        {{#badge.problem}}<span class="badge-problem" title="{{badge.problem}}">{{badge.problem}}</span>{{/badge.problem}}
        {{#updatedMachine}}<span class="badge-updated">updated <time datetime="{{updatedMachine}}" data-relative="seconds">{{updatedText}}</time></span>{{/updatedMachine}}
        </p>
        """#
}
