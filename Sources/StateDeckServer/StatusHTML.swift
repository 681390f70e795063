import FoundationEssentials
import StateDeck
import StateDeckHistory

/// The status page as HTML, whole: readable without JavaScript (`/status/status.js` only fetches
/// it again), styled by `/status/status.css`, no inline script or style (its policy forbids both).
///
/// A line's 90 days are an image of their own (`/status/days/{line}.svg`, ``daysImage(_:)``), loaded
/// as it scrolls into view: the page itself is a few lines of markup a line, so a phone reads a
/// status page of many lines without downloading every day of every one.
enum StatusHTML {
    /// Seconds between the script's fetches of the page.
    static let refreshSeconds = 10

    static func render(_ facts: StatusFacts) -> [UInt8] {
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(text(facts.title))</title>
            <link rel="stylesheet" href="/status/status.css">
            <link rel="alternate" type="application/atom+xml" title="\(text(facts.title))" href="/status/feed.atom">
            <script type="module" src="/status/status.js"></script>
            </head>
            <body>

            """
        html += masthead(facts)
        html += "<main id=\"status\" data-refresh=\"\(refreshSeconds)\">\n"
        html += "<p class=\"overall state-\(facts.overall.name)\" role=\"status\">\(text(facts.summary))</p>\n"
        if !facts.openIncidents.isEmpty {
            html += "<section class=\"incidents\" aria-labelledby=\"current\"><h2 id=\"current\">Now</h2>\n"
            html += facts.openIncidents.map(incident).joined()
            html += "</section>\n"
        }
        html += "<section class=\"lines\" aria-labelledby=\"systems\"><h2 id=\"systems\">Systems</h2>\n"
        if let firstDay = facts.firstDay {
            html += "<p class=\"span\"><span>\(date(firstDay))</span><span>Last 90 days</span><span>Today</span></p>\n"
        }
        html += "<ul>\n" + facts.lines.enumerated().map { line($1, index: $0) }.joined() + "</ul>\n"
        if let note = facts.historyNote { html += "<p class=\"note\">\(text(note))</p>\n" }
        html += "</section>\n" + pastIncidents(facts)
        html += """
            <footer><p>Updated <time datetime="\(iso(facts.generatedAt))">\(when(facts.generatedAt))</time> ·
            <a href="/status/feed.atom">Atom feed</a> · <a href="/status/state.json">JSON</a></p></footer>
            </main>
            </body>
            </html>

            """
        return Array(html.utf8)
    }

    private static func masthead(_ facts: StatusFacts) -> String {
        var html = "<header class=\"masthead\">\n"
        if let logo = facts.logo {
            html += "<img class=\"logo\" src=\"\(text(logo))\" alt=\"\" width=\"40\" height=\"40\">\n"
        }
        html += "<h1>\(text(facts.title))</h1>\n"
        if let description = facts.description { html += "<p class=\"description\">\(text(description))</p>\n" }
        if !facts.links.isEmpty {
            html += "<nav><ul>"
            html += facts.links.map { "<li><a href=\"\(text($0.url))\" rel=\"noopener\">\(text($0.title))</a></li>" }.joined()
            html += "</ul></nav>\n"
        }
        return html + "</header>\n"
    }

    private static func line(_ line: StatusFacts.Line, index: Int) -> String {
        var html = "<li class=\"\(line.state.name)\"><b>\(text(line.name))</b> <span>\(line.state.words)</span>"
        if line.days != nil {
            let uptime = line.uptime.map { percent($0) + " uptime" } ?? "no data"
            html += "<img src=\"/status/days/\(index).svg\" alt=\"\" loading=\"lazy\"><small>\(uptime)</small>"
        }
        return html + "</li>\n"
    }

    /// A line's days as SVG: a rect per run of days in one state, in colours that read on a light
    /// and a dark page (an image takes no style from the page).
    static func daysImage(_ days: [Tally]) -> [UInt8] {
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(days.count) 10\" preserveAspectRatio=\"none\">"
        var start = 0
        while start < days.count {
            let state = dayState(days[start])
            var end = start + 1
            while end < days.count, dayState(days[end]) == state { end += 1 }
            svg += "<rect x=\"\(start)\" width=\"\(end - start)\" height=\"10\" fill=\"\(dayColours[state] ?? "#8a94a6")\"/>"
            start = end
        }
        return Array((svg + "</svg>").utf8)
    }

    private static let dayColours = ["up": "#2f9e5a", "down": "#d63c3c", "degraded": "#e08a1e", "maintenance": "#1f8fb0"]

    /// A day's state as the uptime report's slots name them, the first load counted as no data.
    static func dayState(_ tally: Tally) -> String {
        tally.state == "loading" ? "none" : tally.state
    }

    private static func incident(_ incident: StatusFacts.PublicIncident) -> String {
        var html = "<article class=\"incident status-\(incident.status.rawValue)\"><h3>\(text(incident.title))</h3>\n"
        let kind = incident.isAnnouncement ? "Announcement" : "Affects " + incident.affects.joined(separator: ", ")
        html += "<p class=\"affects\">\(text(kind))</p>\n<ol class=\"updates\">"
        for update in incident.updates.reversed() {
            html += """
                <li><strong>\(update.status.rawValue.capitalized)</strong> <time datetime="\(iso(update.at))">\(when(update.at))</time>\
                <p>\(text(update.message))</p></li>
                """
        }
        return html + "</ol></article>\n"
    }

    private static func pastIncidents(_ facts: StatusFacts) -> String {
        var html = "<section class=\"history\" aria-labelledby=\"past\"><h2 id=\"past\">Past incidents</h2>\n"
        html += facts.pastIncidents.isEmpty ? "<p class=\"note\">No incidents in the last 90 days.</p>\n"
            : facts.pastIncidents.map(incident).joined()
        return html + "</section>\n"
    }

    /// "99.95 %", hundredths rounded down as the badges round them.
    static func percent(_ ratio: Double) -> String {
        let hundredths = Int((ratio * 10_000 + 1e-9).rounded(.down))
        return String(BadgeRoute.percent(hundredths: hundredths).dropLast()) + " %"
    }

    /// `2026-11-27T23:40:12Z`.
    static func iso(_ date: Date) -> String {
        Date.ISO8601FormatStyle().format(date)
    }

    /// `2026-11-27 23:40 UTC`.
    static func when(_ date: Date) -> String {
        let iso = iso(date)
        return "\(iso.prefix(10)) \(iso.dropFirst(11).prefix(5)) UTC"
    }

    /// `2026-11-27`.
    static func date(_ date: Date) -> String {
        String(iso(date).prefix(10))
    }

    /// `value` safe in HTML and XML text and quoted attributes, control characters as spaces.
    static func text(_ value: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            let isControl = (scalar.value < 0x20 && scalar != "\n") || (0x7F..<0xA0).contains(scalar.value)
                || scalar.value == 0xFFFE || scalar.value == 0xFFFF
            scalars.append(isControl ? " " : scalar)
        }
        return BadgeSVG.escaped(String(scalars))
    }
}
