extension Templates {
    /// `/`: the list of stories, newest first.
    static let list = #"""
        <div class="page-head">
        <h1>{{heading}}</h1>
        <p class="count" id="count">{{countText}}</p>
        </div>
        {{#hasSections}}
        <nav class="sections" aria-label="Sections">
        <ul>
        <li><a href="/"{{^section}} aria-current="page"{{/section}}>All</a></li>
        {{#sections}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{name}}</a></li>
        {{/sections}}
        </ul>
        </nav>
        {{/hasSections}}
        <ol class="stories" id="stories" data-section="{{section}}">
        {{#stories}}{{>story}}{{/stories}}
        </ol>
        {{^stories}}<p class="empty" id="empty">{{emptyText}}</p>{{/stories}}
        """#

    /// One story in the list: the fragment the page stream also sends.
    static let story = #"""
        <li class="story{{^hasMedia}} no-media{{/hasMedia}}" id="{{domID}}" data-key="{{key}}">
        <article>
        {{#hasMedia}}<a class="story-media" href="{{href}}" tabindex="-1" aria-hidden="true">{{#hasThumbnail}}<img src="{{thumbnail}}" alt="" loading="lazy" decoding="async" width="210" height="140" data-fallback="{{placeholder}}">{{/hasThumbnail}}{{^hasThumbnail}}<img src="{{placeholder}}" alt="" width="210" height="140">{{/hasThumbnail}}</a>{{/hasMedia}}
        <div class="story-body">
        {{#hasKicker}}<p class="kicker">{{kicker}}</p>{{/hasKicker}}
        <h2 class="story-title"><a href="{{href}}">{{title}}</a></h2>
        {{#hasAbstract}}<p class="abstract">{{abstract}}</p>{{/hasAbstract}}
        <p class="meta">{{#hasByline}}<span class="byline">{{byline}}</span>{{/hasByline}}{{#hasTime}}<time datetime="{{timeMachine}}" data-relative>{{timeText}}</time>{{/hasTime}}</p>
        </div>
        </article>
        </li>

        """#
}
