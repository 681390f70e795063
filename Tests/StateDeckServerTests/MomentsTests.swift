import DeckTestSupport
import Foundation
import Locking
import StateDeck
import StateDeckHistory
import StateDeckSQLite
@testable import StateDeckServer
import TestSupport
import Testing

/// `GET /api/state?at=` and `GET /api/changes`: a deck driven through a scripted day on a virtual
/// wall clock, the live document captured at random instants, each compared with the moment the
/// history rebuilds for the same instant.
@Suite(.serialized) struct MomentsTests {
    /// The wall clock of the deck and of its history, moved by the test alone.
    final class VirtualWall: Sendable {
        private let date = Locked(Date(timeIntervalSince1970: 1_795_000_000))

        var now: Date { date.current }

        func set(_ instant: Date) { date.withLock { $0 = instant } }

        func advance(by seconds: Int) { date.withLock { $0 = $0.addingTimeInterval(TimeInterval(seconds)) } }
    }

    /// A live document captured at `at`; `lost` when a `kill -9` came before it was saved.
    struct Capture {
        let at: Date
        let document: String
        var lost = false
    }

    /// Three panels whose first load succeeds and whose next comes a day later: the script pushes
    /// every other state, so nothing changes on its own. Without `jobs`, the deck file as it is
    /// reloaded late in the day.
    static func deck(_ wall: VirtualWall, withJobs: Bool = true) -> Deck {
        let panels = [
            Panel("api", title: "API") { Info(summary: "API OK") },
            Panel("db", title: "Database") { Info(summary: "Database OK") },
            Panel("jobs", title: "Jobs") { Info(summary: "2 jobs") }.depends(on: "db"),
        ]
        return Deck("Moments", configuration: Deck.Configuration(now: { wall.now }),
                    panels: panels.filter { withJobs || $0.id != "jobs" }.map {
                        $0.refresh(every: .seconds(86_400)).retry(.none).minimumLoadingTime(.zero)
                    })
    }

    /// A store in `folder` on `wall`, saving only when told.
    static func store(in folder: String, _ wall: VirtualWall) throws -> SQLiteHistoryStore {
        var configuration = SQLiteHistoryStore.Configuration()
        configuration.startsWriter = false
        configuration.now = { wall.now }
        return try SQLiteHistoryStore(folder: folder, configuration: configuration)
    }

    /// A server of the deck over `store`, once its first loads ended.
    static func server(_ store: SQLiteHistoryStore, _ wall: VirtualWall) async throws -> RoutedDeckServer {
        var options = LiveDeckServer.Options()
        options.history = store
        let server = try await RoutedDeckServer(deck: deck(wall), options: options)
        let loaded = await eventually { await server.deck.snapshot().panels.allSatisfy { $0.phase == .loaded } }
        try #require(loaded, "the first loads did not end")
        return server
    }

    static func get(_ server: RoutedDeckServer, _ target: String) async throws -> HTTPTestResponse {
        try await server.request("GET", target, headers: [("Host", server.hostHeader)])
    }

    /// The document without what a moment does not keep or adds:
    ///
    /// | removed | why |
    /// | --- | --- |
    /// | `lastEventId` (set to 0) | a position in one process's event stream, renumbered by a restart, not a state |
    /// | `toast` | a passing message that expires by itself; moments keep none |
    /// | each panel's `loadMs` | a measurement each load changes without a change of state; keeping it would keep a form a load |
    /// | `at`, `watched` | what the moment adds |
    static func comparable(_ document: String) -> String {
        var text = document.replacingOccurrences(of: #""lastEventId":\d+"#, with: #""lastEventId":0"#, options: .regularExpression)
        text = text.replacingOccurrences(of: #","loadMs":\d+"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: #","at":"[^"]*","watched":(true|false)"#, with: "", options: .regularExpression)
        // `toast` is the document's last member; a string cannot hold `,"toast":` unescaped.
        if let toast = text.range(of: #","toast":"#, options: .backwards) { text = String(text[..<toast.lowerBound]) }
        return text
    }

    /// The scripted day: every step moves the clock on, changes something, and captures the live
    /// document at instants before the next step.
    final class Day {
        let wall: VirtualWall
        var random = SeededRandom(seed: 20_261_127)
        var captures: [Capture] = []
        var server: RoutedDeckServer
        var store: SQLiteHistoryStore
        /// The stores stopped, closed at the end (a crashed one is not closed before).
        var stopped: [SQLiteHistoryStore] = []
        /// Each start's folder.
        var folders: [String]

        init(wall: VirtualWall, folder: String) async throws {
            self.wall = wall
            folders = [folder]
            store = try MomentsTests.store(in: folder, wall)
            server = try await MomentsTests.server(store, wall)
        }

        /// Starts another server on the store's file as it is now (as a close or a `kill -9` left
        /// it: copied before the server stops, since a stop saves what waits), `seconds` later. A
        /// store holds its folder's lock for as long as this process keeps it, so the next one
        /// opens a copy of the file and its log in a folder of its own, as another process would
        /// open the file itself.
        func restart(after seconds: Int) async throws {
            let folder = folders[0] + "-\(folders.count)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store.path + suffix) {
                try FileManager.default.copyItem(atPath: store.path + suffix, toPath: folder + "/" + SQLiteHistoryStore.fileName + suffix)
            }
            await server.stop()
            stopped.append(store)
            folders.append(folder)
            wall.advance(by: seconds)
            store = try MomentsTests.store(in: folder, wall)
            server = try await MomentsTests.server(store, wall)
        }

        var deck: Deck { server.deck }

        /// Captures the live document at `count` instants within the next `seconds`, then moves
        /// the clock past them.
        func sample(_ count: Int, within seconds: Int, lost: Bool = false) async throws {
            let start = wall.now
            let offsets = (0..<count).map { _ in random.int(1...(seconds * 1000 - 1)) }.sorted()
            for offset in offsets {
                wall.set(start.addingTimeInterval(Double(offset) / 1000))
                let live = try await MomentsTests.get(server, "/api/state")
                captures.append(Capture(at: wall.now, document: live.text, lost: lost))
            }
            wall.set(start.addingTimeInterval(TimeInterval(seconds)))
        }

        func push(_ panel: String, _ state: ViewState) async throws {
            try await deck.push(state, panel: panel)
        }
    }

    @Test func eachMomentOfADayIsTheLiveDocumentOfItsInstant() async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/statedeck-moments-\(UUID().uuidString)"
        defer {
            for suffix in ["", "-1", "-2"] { try? FileManager.default.removeItem(atPath: folder + suffix) }
        }
        let wall = VirtualWall()
        let opened = wall.now
        let day = try await Day(wall: wall, folder: folder)
        var gaps: [(from: Date, to: Date, document: String)] = []

        var panels = ["api", "db", "jobs"]
        for step in 0..<36 {
            let panel = panels[day.random.int(0..<panels.count)]
            switch step {
            case 6:
                _ = try await day.deck.startMaintenance(panels: ["db"], groups: [], for: .seconds(86_400), reason: "Upgrade")
            case 9:
                _ = try await day.deck.openIncident(title: "Slow jobs", panels: ["jobs"], status: .investigating,
                                                    message: "Looking", author: "ana")
            case 12:
                let id = try #require(await day.deck.maintenanceStatus().active.first?.id)
                _ = try await day.deck.endMaintenance(id)
            case 15:
                // A restart: stopped and closed, started again 20 minutes later.
                let stopped = try await Self.get(day.server, "/api/state").text
                let from = wall.now
                day.store.close()
                try await day.restart(after: 1_200)
                gaps.append((from, wall.now, stopped))
            case 18:
                let id = try #require(await day.deck.incidentList(limit: 10).first?.id)
                _ = try await day.deck.updateIncident(id, status: .resolved, message: "Fixed", author: "ana")
            case 24:
                // A `kill -9`: saved at 24, two more steps lost, nothing closed; started again
                // from the file as the crash left it, 30 minutes later.
                day.store.flush()
                let saved = try await Self.get(day.server, "/api/state").text
                let from = wall.now
                try await day.push("api", .error(PanelError(.serverError)))
                try await day.sample(2, within: 300, lost: true)
                try await day.push("db", .loaded(Info(summary: "Database lost")))
                try await day.sample(2, within: 300, lost: true)
                try await day.restart(after: 1_800 - 600)
                gaps.append((from, wall.now, saved))
            case 30:
                // The deck file reloaded without `jobs`: the moments after leave it out.
                await day.server.server.replaceDeck(with: Self.deck(wall, withJobs: false))
                panels = ["api", "db"]
                let loaded = await eventually { await day.deck.snapshot().panels.allSatisfy { $0.phase != .loading } }
                try #require(loaded, "the reloaded deck's first loads did not end")
            default:
                if day.random.chance(0.4) {
                    try await day.push(panel, .error(PanelError([.serverError, .timeout, .unreachable][day.random.int(0..<3)])))
                } else {
                    try await day.push(panel, .loaded(Info(summary: "\(panel) at step \(step)")))
                }
            }
            try await day.sample(3, within: day.random.int(60...3_600))
            if step % 4 == 0 { day.store.flush() }
        }
        for capture in day.captures where !capture.lost {
            let moment = try await Self.get(day.server, "/api/state?at=\(capture.at.millisecondsSince1970)")
            #expect(moment.status == 200, "\(moment.text)")
            #expect(moment.text.contains(#""watched":true"#), "at \(capture.at)")
            #expect(Self.comparable(moment.text) == Self.comparable(capture.document), "at \(capture.at)")
        }
        for gap in gaps {
            for _ in 0..<3 {
                let at = gap.from.addingTimeInterval(Double(day.random.int(1...Int(gap.to.timeIntervalSince(gap.from) * 1000) - 1)) / 1000)
                let moment = try await Self.get(day.server, "/api/state?at=\(DeckJSON.timestamp(at))")
                #expect(moment.text.contains(#""watched":false"#), "at \(at): no process ran the deck")
                #expect(Self.comparable(moment.text) == Self.comparable(gap.document), "at \(at): what it showed last")
            }
        }
        #expect(day.captures.contains { $0.lost }, "the crash lost captures, which show what was saved before it")

        let before = try await Self.get(day.server, "/api/state?at=\(opened.millisecondsSince1970 - 1)")
        #expect(before.status == 400)
        #expect(before.apiError?.message.contains(DeckJSON.timestamp(opened)) == true, "\(before.text)")
        let future = try await Self.get(day.server, "/api/state?at=\(wall.now.millisecondsSince1970 + 60_000)")
        #expect(future.status == 400)
        #expect(try await Self.get(day.server, "/api/state?at=yesterday").status == 400)

        try await Self.expectFixture(of: day, at: try #require(day.captures.last { !$0.lost }))
        try await Self.expectChanges(of: day, from: opened)
        await day.server.stop()
        day.store.close()
        for store in day.stopped { store.close() }
    }

    /// `GET /api/state?at=&format=fixture`: the moment of `capture` as a fixture file, the same
    /// panels as the live document captured then; another format is a 400 as for the live one.
    static func expectFixture(of day: Day, at capture: Capture) async throws {
        let response = try await get(day.server, "/api/state?at=\(capture.at.millisecondsSince1970)&format=fixture")
        #expect(response.status == 200)
        let fixture = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(fixture["format"] as? String == "statedeck-fixture")
        #expect(fixture["at"] as? String == DeckJSON.timestamp(capture.at))
        let live = try #require(try JSONSerialization.jsonObject(with: Data(capture.document.utf8)) as? [String: Any])
        let ids = { (document: [String: Any]) in (document["panels"] as? [[String: Any]])?.compactMap { $0["id"] as? String } }
        #expect(ids(fixture) == ids(live) && ids(live)?.isEmpty == false)
        #expect(try await get(day.server, "/api/state?at=\(capture.at.millisecondsSince1970)&format=yaml").status == 400)
    }

    /// `GET /api/changes` of the day: in pages or at once the same changes, oldest first, each
    /// a change of phase, health or summary from what the panel was before; every page names the
    /// oldest instant kept, the one the 400 before it names, whatever the range asked.
    static func expectChanges(of day: Day, from opened: Date) async throws {
        let range = "from=\(opened.millisecondsSince1970)&to=\(day.wall.now.millisecondsSince1970)"
        let whole = try await get(day.server, "/api/changes?\(range)&limit=500")
        #expect(whole.status == 200)
        let all = try #require(try JSONSerialization.jsonObject(with: Data(whole.body)) as? [String: Any])
        let changes = try #require(all["changes"] as? [[String: Any]])
        #expect(changes.count > 30, "every push that changed something")
        #expect(all["next"] is NSNull)
        #expect(all["oldest"] as? String == DeckJSON.timestamp(opened))
        #expect(try await get(day.server, "/api/state?at=\(DeckJSON.timestamp(opened))").status == 200, "the oldest instant is served")
        let times = changes.compactMap { $0["at"] as? String }
        #expect(times == times.sorted())
        for change in changes {
            let to = try #require(change["to"] as? [String: Any])
            if let from = change["from"] as? [String: Any] {
                #expect(!NSDictionary(dictionary: from).isEqual(to: to), "\(change)")
            }
        }
        #expect(!changes.contains { ($0["to"] as? [String: Any])?["summary"] as? String == "Database lost" },
                "a change never saved is lost with the crash")
        var paged: [[String: Any]] = []
        var cursor = ""
        repeat {
            let page = try await get(day.server, "/api/changes?\(range)&limit=7\(cursor)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
            paged += try #require(document["changes"] as? [[String: Any]])
            #expect(document["oldest"] as? String == DeckJSON.timestamp(opened))
            cursor = (document["next"] as? String).map { "&cursor=\($0)" } ?? ""
        } while !cursor.isEmpty
        #expect(NSArray(array: paged).isEqual(to: changes))
        var backwards: [[String: Any]] = []
        cursor = ""
        repeat {
            let page = try await get(day.server, "/api/changes?\(range)&limit=7&order=newest\(cursor)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
            backwards += try #require(document["changes"] as? [[String: Any]])
            cursor = (document["next"] as? String).map { "&cursor=\($0)" } ?? ""
        } while !cursor.isEmpty
        #expect(NSArray(array: backwards.reversed()).isEqual(to: changes), "newest first, page by page: the same changes")
        let sideways = try await get(day.server, "/api/changes?order=sideways")
        #expect(sideways.status == 400 && sideways.text.contains("order must be oldest or newest, not 'sideways'"), "\(sideways.text)")
        let lastMinute = try await get(day.server, "/api/changes?from=\(day.wall.now.millisecondsSince1970 - 60_000)")
        let recent = try #require(try JSONSerialization.jsonObject(with: Data(lastMinute.body)) as? [String: Any])
        #expect(recent["oldest"] as? String == DeckJSON.timestamp(opened), "the history's oldest, not the range's")
        #expect(try await get(day.server, "/api/changes?limit=0").status == 400)
    }

    @Test func withoutAHistoryAMomentIsAConflictSayingHistoryIsOff() async throws {
        try await RoutedServer.run { server in
            for target in ["/api/state?at=2026-11-25T10:00:00Z", "/api/changes"] {
                let response = try await server.get(target)
                #expect(response.status == 409)
                #expect(response.apiError?.code == "history_off")
            }
            #expect(try await server.get("/api/state").status == 200, "the live document needs no history")
        }
    }
}
