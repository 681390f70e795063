import FoundationEssentials
import StateDeck
import StateDeckHistory

/// The status page as HTML, whole: readable without JavaScript (`/status/status.js` only fetches
/// it again), styled by `/status/status.css`, no inline script or style (its policy forbids both).
///
/// A line's 90 days are one small SVG: a rect per run of days in one state (a day in trouble is a
/// run of its own, with a tooltip of its time down), so a page of a thousand steady lines stays small.
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
        html += "<section class=\"lines\" aria-labelledby=\"systems\"><h2 id=\"systems\">Systems</h2>\n<ul>\n"
        html += facts.lines.map { line(_: $0, firstDay: facts.firstDay) }.joined()
        html += "</ul>\n"
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

    private static func line(_ line: StatusFacts.Line, firstDay: Date?) -> String {
        var html = """
            <li class="line state-\(line.state.name)"><div class="line-head"><span class="name">\(text(line.name))</span>\
            <span class="state">\(line.state.words)</span></div>

            """
        if let days = line.days, let firstDay {
            let uptime = line.uptime.map { percent($0) + " uptime" } ?? "no data"
            html += bar(days, firstDay: firstDay, label: "\(line.name), last 90 days: \(uptime)")
            html += "<p class=\"span\"><span>90 days ago</span><span class=\"uptime\">\(uptime)</span><span>Today</span></p>\n"
        }
        return html + "</li>\n"
    }

    /// The days as one SVG, a rect per run of days in one state, its tooltip the run's dates and
    /// time down in all.
    private static func bar(_ days: [Tally], firstDay: Date, label: String) -> String {
        var svg = "<svg class=\"days\" viewBox=\"0 0 \(days.count) 10\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(text(label))\">"
        var start = 0
        while start < days.count {
            let state = dayState(days[start])
            var run = days[start]
            var end = start + 1
            while end < days.count, dayState(days[end]) == state {
                run.merge(days[end])
                end += 1
            }
            let from = day(firstDay, plus: start)
            let dates = end - start == 1 ? from : "\(from) to \(day(firstDay, plus: end - 1))"
            svg += "<rect class=\"day-\(state)\" x=\"\(start)\" width=\"\(end - start)\" height=\"10\"><title>\(dates): \(dayWords(run))</title></rect>"
            start = end
        }
        return svg + "</svg>\n"
    }

    /// A day's state as the uptime report's slots name them, the first load counted as no data.
    static func dayState(_ tally: Tally) -> String {
        tally.state == "loading" ? "none" : tally.state
    }

    private static func dayWords(_ tally: Tally) -> String {
        switch dayState(tally) {
        case "up": return "no downtime"
        case "down", "degraded": return "down \(minutes(tally.downMs))" + (tally.upRatio.map { ", \(percent($0)) up" } ?? "")
        case "maintenance": return "under maintenance"
        default: return "no data"
        }
    }

    private static func minutes(_ milliseconds: Int64) -> String {
        let minutes = (milliseconds + 59_999) / 60_000
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
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

    /// `2026-11-27`: day `offset` of the days that start at `first`.
    private static func day(_ first: Date, plus offset: Int) -> String {
        String(iso(first.addingTimeInterval(Double(offset) * 86_400)).prefix(10))
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
