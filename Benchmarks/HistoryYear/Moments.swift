// `statedeck-history-year moments PANELS DAYS FOLDER`: simulates the forms a deck's state document
// takes, through the real SQLite store on a virtual clock, then rebuilds moments from them.
//
// Each panel is an http panel checked every 15 s that goes down about once in 17 hours (one load
// in 4,000) for 2 to 40 loads, as the year's simulation has it: a form is kept when its result
// changes (down, then up again), so about three a panel-day. Each form is a compact form of the
// size the live document writes for such a panel (its info, and after the first outage the newest
// error card). The store saves once a simulated minute. The simulation ends now; then 30 moments
// at random instants of the last day are rebuilt by the store (every panel's newest form at or
// before the instant) and their forms joined into a document. Prints one Markdown row.
import FoundationEssentials
import StateDeck
import StateDeckHistory
import StateDeckSQLite

#if canImport(Glibc)
import Glibc
#endif

private let errorCard = #"{"kind":"serverError","title":"Unexpected server issue","description":"The service ran into a problem while answering.","icon":"server","showPreloader":false,"detail":"HTTP 503","options":[{"id":"try-again","label":"Try again","role":"primary"},{"id":"cancel","label":"Dismiss","role":"cancel"}]}"#

/// Panel `index`'s form at `at`: up (with its newest error card once it failed) or down.
private func form(_ index: Int, at: Int64, down: Bool, failedBefore: Bool) -> MomentForm {
    let since = DeckJSON.timestamp(Date(millisecondsSince1970: at))
    let head = #"{"id":"p\#(index)","title":"Service \#(index)","phase":"\#(down ? "error" : "loaded")","health":"\#(down ? "down" : "up")","since":"\#(since)""#
    let info = #"{"summary":"HTTP 200 in 42 ms","items":[{"id":"status","title":"Status","value":"200 OK"}]}"#
    let body = down
        ? #","latestInfo":\#(info),"latestValidError":\#(errorCard)}"#
        : #","latestValidInfo":\#(info)"# + (failedBefore ? #","latestError":\#(errorCard)}"# : "}")
    return MomentForm(part: .panel("p\(index)"), at: at, json: head + body,
                      headline: MomentHeadline(title: "Service \(index)", phase: down ? "error" : "loaded",
                                               health: down ? "down" : "up",
                                               summary: down ? "The service ran into a problem while answering." : "HTTP 200 in 42 ms"))
}

/// `value` with one decimal.
private func tenths(_ value: Double) -> String {
    let rounded = Int((value * 10).rounded())
    return "\(rounded / 10).\(rounded % 10)"
}

private func fileBytes(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
}

func simulateMoments(panels: Int, days: Int, folder: String) throws {
    let interval: Int64 = 15_000
    let (store, clock, start, end) = try simulatedStore(in: folder, days: days)
    var random = SplitMix(state: 42)

    // Every panel's forms, by time: the first at the start, then each outage's two.
    var forms: [(at: Int64, index: Int, down: Bool, failedBefore: Bool)] = []
    for index in 0..<panels {
        forms.append((start, index, false, false))
        var at = start
        var failed = false
        while true {
            // Loads until the next outage: geometric, one in 4,000.
            at += Int64((-log(1 - random.next()) * 4_000).rounded(.up)) * interval
            guard at < end else { break }
            let loads = 2 + Int(random.next() * 39)
            forms.append((at, index, true, failed))
            failed = true
            at += Int64(loads) * interval
            guard at < end else { break }
            forms.append((at, index, false, true))
        }
    }
    forms.sort { ($0.at, $0.index) < ($1.at, $1.index) }

    let began = ContinuousClock.now
    var minute = start / 60_000
    for kept in forms {
        if kept.at / 60_000 != minute {
            minute = kept.at / 60_000
            clock.now = Date(millisecondsSince1970: minute * 60_000)
            store.flush()
        }
        clock.now = Date(millisecondsSince1970: kept.at)
        store.keep(form: form(kept.index, at: kept.at, down: kept.down, failedBefore: kept.failedBefore))
    }
    clock.now = Date(millisecondsSince1970: end)
    store.flush()
    let simulated = began.duration(to: .now)

    // Everything is saved: a moment reads every form from the file, as a server started on it would.
    var times: [Double] = []
    var documentBytes = 0
    for _ in 0..<31 {
        let at = end - 86_400_000 + Int64(random.next() * 86_399_000)
        let began = ContinuousClock.now
        let moment = try store.moment(at: Date(millisecondsSince1970: at))
        let document = "[" + (0..<panels).compactMap { moment.forms[.panel("p\($0)")]?.json }.joined(separator: ",") + "]"
        times.append(Double(began.duration(to: .now) / .microseconds(1)) / 1_000)
        documentBytes = document.utf8.count
    }
    store.close()
    times.removeFirst()
    times.sort()
    let size = fileBytes(store.path) + fileBytes(store.path + "-wal")

    let formsPerPanelDay = Double(forms.count) / Double(panels * days)
    let median = times[times.count / 2]
    let p95 = times[min(times.count - 1, times.count * 95 / 100)]
    let cells: [String] = [
        "\(panels)", "\(days)", "\(forms.count)", tenths(formsPerPanelDay), tenths(Double(size) / 1_048_576),
        "\(size / (panels * days))", tenths(median), tenths(p95), "\(documentBytes / 1024)",
        "\(Int(simulated / .seconds(1)))",
    ]
    print("| " + cells.joined(separator: " | ") + " |")
}
