// Simulates a deck's history on a virtual clock through the real SQLite store, and prints the
// file's size as time passes: `statedeck-history-year PANELS DAYS FOLDER [REPLICAS]`; with
// `moments PANELS DAYS FOLDER`, the forms moments are rebuilt from instead (Moments.swift).
//
// Each panel loads every 15 s, staggered; a load takes 20 ms plus an exponential wait (mean
// 30 ms); about once in 4,000 loads (17 hours) its source goes down for 2 to 40 loads. A load
// that changes the result is recorded; the others only count their duration, as in the deck.
// The store saves once a simulated minute (its writer saves every second; the rows are the same).
// The simulation ends now. With REPLICAS, the panels' rows are then copied until the file holds
// that many panels, named p0, p1, …: a file of that size and shape for start-up and query timing.
import FoundationEssentials
import SQLite
import StateDeck
import StateDeckHistory
import StateDeckSQLite

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
if arguments.count >= 5, arguments[1] == "moments", let panels = Int(arguments[2]), let days = Int(arguments[3]) {
    try simulateMoments(panels: panels, days: days, folder: arguments[4])
    exit(0)
}
guard arguments.count >= 4, let panels = Int(arguments[1]), let days = Int(arguments[2]) else {
    print("usage: statedeck-history-year PANELS DAYS FOLDER [REPLICAS] | moments PANELS DAYS FOLDER")
    exit(2)
}
let folder = arguments[3]
let replicas = arguments.count > 4 ? Int(arguments[4]) ?? panels : panels

/// A small, fast, seeded generator, so runs are repeatable.
struct SplitMix {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}

let interval: Int64 = 15_000
let (store, clock, start, end) = try simulatedStore(in: folder, days: days)
let up = Info(summary: "All good")
let down = PanelError(.serverError, detail: "HTTP 503")
var random = SplitMix(state: 42)
var outageLeft = [Int](repeating: 0, count: panels)
var checkpoints: Set<Int> = [1, 7, 30, 90, 180, 365, 730]
let began = ContinuousClock.now

/// Mebibytes with one decimal.
func mebibytes(_ bytes: Int) -> String {
    let tenths = (bytes * 10 + 524_288) / 1_048_576
    return "\(tenths / 10).\(tenths % 10)"
}

/// The file's size once its write-ahead log is folded in (the log itself stays under 4 MiB).
func fileSize() throws -> Int {
    try Database(path: store.path, mode: .readWrite(create: false)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    var info = stat()
    return stat(store.path, &info) == 0 ? Int(info.st_size) : 0
}

print("| simulated days | history.sqlite3 (MiB) | per panel (KiB) |")
print("| --- | --- | --- |")
var tick = start
var ticks = 0
while tick < end {
    for panel in 0..<panels {
        let at = tick + Int64(panel) * interval / Int64(panels)
        let wasDown = outageLeft[panel] > 0
        if wasDown {
            outageLeft[panel] -= 1
        } else if random.next() < 1.0 / 4_000 {
            outageLeft[panel] = 2 + Int(random.next() * 39)
        }
        let isDown = outageLeft[panel] > 0
        let milliseconds = 20 + Int64(-30 * log(1 - random.next()))
        let state: ViewState = isDown ? .error(down) : .loaded(up)
        store.record(PanelChange(panel: "p\(panel)", at: Date(millisecondsSince1970: at + milliseconds), state: state,
                                 cause: .load(.milliseconds(milliseconds)), health: isDown ? .down : .up,
                                 recorded: isDown != wasDown || tick == start))
    }
    tick += interval
    ticks += 1
    if ticks % 4 == 0 {
        clock.now = Date(millisecondsSince1970: tick)
        store.flush()
        let day = Int((tick - start) / 86_400_000)
        if (tick - start) % 86_400_000 == 0, checkpoints.remove(day) != nil {
            let size = try fileSize()
            print("| \(day) | \(mebibytes(size)) | \((size / panels + 512) / 1024) |")
        }
    }
}
store.close()
let simulated = began.duration(to: .now)
print("\nSimulated \(days) days of \(panels) panels in \(simulated).")

if replicas > panels {
    let database = try Database(path: store.path, mode: .readWrite(create: false))
    try database.transaction { () throws(SQLiteError) in
        for copy in 1..<(replicas / panels) {
            let shift = copy * panels
            try database.execute("""
                INSERT INTO panels (id, name) SELECT id + \(shift), 'p' || (id - 1 + \(shift)) FROM panels WHERE id <= \(panels);
                INSERT INTO changes SELECT panel + \(shift), at, state, duration_ms, error_kind, title, summary, detail, debug
                    FROM changes WHERE panel <= \(panels);
                INSERT INTO tallies SELECT panel + \(shift), resolution, start, watch, up_ms, down_ms, loading_ms, loads,
                    failures, min_ms, max_ms, total_ms, durations, counted_to, maintenance_ms FROM tallies
                    WHERE panel <= \(panels);
                INSERT INTO latest SELECT panel + \(shift), shown, info, error, stale, health, since, forced, last_run,
                    maintenance FROM latest WHERE panel <= \(panels);
                """)
        }
    }
    try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    var info = stat()
    _ = stat(store.path, &info)
    print("\nCopied to \(replicas) panels: \(mebibytes(Int(info.st_size))) MiB.")
}

/// The virtual wall clock the store reads.
/// A store in `folder` that saves only when told, on a virtual clock at the start of `days` days
/// that end now (at the minute): the store, its clock, and the start and end in milliseconds.
func simulatedStore(in folder: String, days: Int) throws -> (SQLiteHistoryStore, ManagedClock, Int64, Int64) {
    let end = Date().millisecondsSince1970 / 60_000 * 60_000
    let start = end - Int64(days) * 86_400_000
    let clock = ManagedClock(start)
    var configuration = SQLiteHistoryStore.Configuration()
    configuration.startsWriter = false
    configuration.now = { clock.now }
    return (try SQLiteHistoryStore(folder: folder, configuration: configuration), clock, start, end)
}

final class ManagedClock: @unchecked Sendable {
    var now: Date
    init(_ milliseconds: Int64) { now = Date(millisecondsSince1970: milliseconds) }
}
