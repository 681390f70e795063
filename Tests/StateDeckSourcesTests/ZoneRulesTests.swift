import Foundation
import Testing
@testable import StateDeckSources

/// Time zone rules read from TZif bytes and the system's tz database, checked against glibc.
@Suite("ZoneRules")
struct ZoneRulesTests {
    /// Seconds since 1970 of an ISO 8601 text with its offset.
    static func second(_ text: String) throws -> Int { Int(try Date(text, strategy: .iso8601).timeIntervalSince1970) }

    static func bigEndian(_ value: Int, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// A TZif header and data block: `transitions` as (instant, type index), `offsets` one per type.
    static func tzifBlock(version: UInt8, timeSize: Int, transitions: [(Int, UInt8)], offsets: [Int]) -> [UInt8] {
        var bytes = Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
        for count in [0, 0, 0, transitions.count, offsets.count, 1] { bytes += bigEndian(count, size: 4) }
        for (instant, _) in transitions { bytes += bigEndian(instant, size: timeSize) }
        bytes += transitions.map(\.1)
        for offset in offsets { bytes += bigEndian(offset, size: 4) + [0, 0] }
        return bytes + [0]
    }

    /// A version 2 file: a minimal 32-bit block, the 64-bit block, then the footer.
    static func tzif2(transitions: [(Int, UInt8)], offsets: [Int], footer: String) -> [UInt8] {
        tzifBlock(version: UInt8(ascii: "2"), timeSize: 4, transitions: [], offsets: [0])
            + tzifBlock(version: UInt8(ascii: "2"), timeSize: 8, transitions: transitions, offsets: offsets)
            + Array("\n\(footer)\n".utf8)
    }

    static func loadError(_ bytes: [UInt8]) -> String? {
        do {
            _ = try ZoneRules(name: "Test/Zone", tzif: bytes)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func readsVersion1Bytes() throws {
        let bytes = Self.tzifBlock(version: 0, timeSize: 4, transitions: [(-100, 1), (1000, 2), (2000, 2)], offsets: [600, 3600, -1800])
        let zone = try ZoneRules(name: "Test/Zone", tzif: bytes)
        #expect(zone.offset(at: -101) == 600, "before the first transition: the first type")
        #expect(zone.offset(at: -100) == 3600)
        #expect(zone.offset(at: 999) == 3600)
        #expect(zone.offset(at: 1000) == -1800)
        #expect(zone.offset(at: 5_000_000_000) == -1800, "without a footer the last offset stays")
        #expect(zone.transitions.count == 2, "a transition to the same offset changes nothing")
    }

    @Test func readsVersion2BytesAndTheirFooter() throws {
        let year2100 = try Self.second("2100-01-01T00:00:00Z")
        let bytes = Self.tzif2(transitions: [(0, 1), (year2100, 0)], offsets: [3600, 7200], footer: "CET-1CEST,M3.5.0,M10.5.0/3")
        let zone = try ZoneRules(name: "Test/Zone", tzif: bytes)
        #expect(zone.offset(at: 0) == 7200, "a 32-bit block without transitions is skipped for the 64-bit one")
        #expect(zone.offset(at: year2100 - 1) == 7200)
        #expect(zone.offset(at: year2100) == 3600)
        #expect(zone.offset(at: try Self.second("2100-03-28T00:59:59Z")) == 3600)
        #expect(zone.offset(at: try Self.second("2100-03-28T01:00:00Z")) == 7200, "the footer's rule after the last transition")
        #expect(zone.offset(at: try Self.second("2100-10-31T00:59:59Z")) == 7200)
        #expect(zone.offset(at: try Self.second("2100-10-31T01:00:00Z")) == 3600)
    }

    @Test func refusesBadBytesWithAClearReason() throws {
        #expect(Self.loadError([]) == "time zone Test/Zone: not a TZif file (it starts with \"\" at byte 0, not \"TZif\")")
        #expect(Self.loadError(Array("<html>".utf8)) == "time zone Test/Zone: not a TZif file (it starts with \"<htm\" at byte 0, not \"TZif\")")
        #expect(Self.loadError(Array("TZif2".utf8)) == "time zone Test/Zone: truncated: the header needs 20 bytes at byte 0, the file has 5")
        let paris = Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Paris")))
        #expect(try ZoneRules(name: "Europe/Paris", tzif: paris) == ZoneRules.named("Europe/Paris"))
        let cut = try #require(Self.loadError(Array(paris.prefix(200))))
        #expect(cut.hasPrefix("time zone Test/Zone: truncated: the version 1 data block needs "), "\(cut)")
        let withoutFooter = try #require(Self.loadError(Array(paris.dropLast(28))))
        #expect(withoutFooter.hasPrefix("time zone Test/Zone: truncated: "), "\(withoutFooter)")
        var secondMagic = Self.tzif2(transitions: [], offsets: [0], footer: "UTC0")
        secondMagic[52] = UInt8(ascii: "X")
        #expect(Self.loadError(secondMagic) == "time zone Test/Zone: not a TZif file (it starts with \"TXif\" at byte 51, not \"TZif\")")
        #expect(Self.loadError(Self.tzif2(transitions: [(0, 3)], offsets: [0], footer: ""))
            == "time zone Test/Zone: transition 0 names local time type 3, the file has 1")
        #expect(Self.loadError(Self.tzif2(transitions: [(10, 0), (5, 0)], offsets: [0], footer: ""))
            == "time zone Test/Zone: transition times out of order at transition 1")
        #expect(Self.loadError(Self.tzif2(transitions: [], offsets: [0], footer: "CET-1CEST"))
            == "time zone Test/Zone: TZ rule CET-1CEST: summer time without the dates it starts and ends")
        var noTypes = Self.tzifBlock(version: 0, timeSize: 4, transitions: [], offsets: [0])
        noTypes[39] = 0
        #expect(Self.loadError(noTypes) == "time zone Test/Zone: no local time types (typecnt is 0)")
    }

    @Test func namesAreRelativeAndMissingZonesNameTheirFile() {
        for name in ["../../etc/passwd", "Europe/../../etc/passwd", "/etc/localtime", ""] {
            #expect(throws: ZoneRules.LoadError.self, "\(name)") { try ZoneRules.named(name) }
            do {
                _ = try ZoneRules.named(name)
            } catch {
                #expect(error.description == "time zone \(name): not a zone name (such as Europe/Paris): names are relative, without ..")
            }
        }
        do {
            _ = try ZoneRules.named("Nowhere/Atlantis")
            Issue.record("Nowhere/Atlantis loaded")
        } catch {
            #expect(error.description == "time zone Nowhere/Atlantis (/usr/share/zoneinfo/Nowhere/Atlantis): cannot open: "
                + "No such file or directory (no such zone, or the tzdata package is not installed)")
        }
        do {
            _ = try ZoneRules.named("Europe")
            Issue.record("Europe loaded")
        } catch {
            #expect(error.description == "time zone Europe (/usr/share/zoneinfo/Europe): cannot read: Is a directory")
        }
        do {
            _ = try ZoneRules.named("zone1970.tab")
            Issue.record("zone1970.tab loaded")
        } catch {
            #expect(error.file == "/usr/share/zoneinfo/zone1970.tab")
            #expect(error.reason.hasPrefix("not a TZif file (it starts with \"#"), "\(error)")
        }
    }

    @Test func utcNeedsNoFile() throws {
        #expect(try ZoneRules.named("UTC") == .utc)
        #expect(ZoneRules.utc.offset(at: Date(timeIntervalSince1970: 1e9)) == 0)
        #expect(try ZoneRules.named("Etc/UTC").offset(at: try Self.second("2100-07-01T00:00:00Z")) == 0)
    }

    @Test func offsetsOfNamedZones() throws {
        let paris = try ZoneRules.named("Europe/Paris")
        #expect(paris.offset(at: try Self.second("2026-01-15T12:00:00Z")) == 3600)
        #expect(paris.offset(at: try Self.second("2026-03-29T00:59:59Z")) == 3600)
        #expect(paris.offset(at: try Self.second("2026-03-29T01:00:00Z")) == 7200)
        #expect(paris.offset(at: try Self.second("2026-10-25T00:59:59Z")) == 7200)
        #expect(paris.offset(at: try Self.second("2026-10-25T01:00:00Z")) == 3600)
        #expect(paris.offset(at: try Date("2026-07-01T00:00:00.75Z", strategy: .iso8601)) == 7200)
        let newYork = try ZoneRules.named("America/New_York")
        #expect(newYork.offset(at: try Self.second("2026-03-08T06:59:59Z")) == -18000)
        #expect(newYork.offset(at: try Self.second("2026-03-08T07:00:00Z")) == -14400)
        #expect(newYork.offset(at: try Self.second("2026-11-01T06:00:00Z")) == -18000)
        #expect(try ZoneRules.named("Asia/Kolkata").offset(at: try Self.second("2026-06-01T00:00:00Z")) == 19800)
        let lordHowe = try ZoneRules.named("Australia/Lord_Howe")
        #expect(lordHowe.offset(at: try Self.second("2026-07-01T00:00:00Z")) == 37800)
        #expect(lordHowe.offset(at: try Self.second("2026-12-01T00:00:00Z")) == 39600)
        let year2100 = try Self.second("2100-01-01T00:00:00Z")
        #expect(try #require(paris.transitions.last).instant < year2100, "2100 is past the file's table")
        #expect(paris.offset(at: try Self.second("2100-03-28T00:59:59Z")) == 3600)
        #expect(paris.offset(at: try Self.second("2100-03-28T01:00:00Z")) == 7200)
        #expect(lordHowe.offset(at: try Self.second("2100-10-02T15:29:59Z")) == 37800)
        #expect(lordHowe.offset(at: try Self.second("2100-10-02T15:30:00Z")) == 39600)
    }

    @Test func wallClockTimesInGapsAndOverlaps() throws {
        let paris = try ZoneRules.named("Europe/Paris")
        let local = { (text: String) throws -> Int in try Self.second(text + "Z") }
        #expect(paris.instants(atLocal: try local("2026-03-29T02:30:00")) == .skipped(transition: try Self.second("2026-03-29T01:00:00Z")))
        #expect(paris.instants(atLocal: try local("2026-03-29T01:59:59")) == .unique(try Self.second("2026-03-29T00:59:59Z")))
        #expect(paris.instants(atLocal: try local("2026-03-29T03:00:00")) == .unique(try Self.second("2026-03-29T01:00:00Z")))
        #expect(paris.instants(atLocal: try local("2026-10-25T02:30:00"))
            == .repeated(first: try Self.second("2026-10-25T00:30:00Z"), second: try Self.second("2026-10-25T01:30:00Z")))
        #expect(paris.instants(atLocal: try local("2026-10-25T03:00:00")) == .unique(try Self.second("2026-10-25T02:00:00Z")))
        #expect(paris.latestLocalSeconds(upTo: try Self.second("2026-10-25T01:10:00Z")) == (try local("2026-10-25T02:59:59")),
                "after the clock is set back, the latest reading shown is from before")
        #expect(paris.latestLocalSeconds(upTo: try Self.second("2026-10-25T02:10:00Z")) == (try local("2026-10-25T03:10:00")))
    }

    @Test func wallClockTimesBetweenTwoTransitionsHoursApart() {
        // Two hours ahead for six hours: a gap of two hours, then the same two hours again.
        let forward = 864_000
        let back = forward + 6 * 3600
        let zone = ZoneRules(name: "Test/Zone", transitions: [
            .init(instant: forward, offsetBefore: 0, offsetAfter: 7200), .init(instant: back, offsetBefore: 7200, offsetAfter: 0),
        ], initialOffset: 0, rule: nil)
        #expect(zone.instants(atLocal: forward + 3600) == .skipped(transition: forward))
        #expect(zone.instants(atLocal: forward + 7200) == .unique(forward))
        #expect(zone.instants(atLocal: back + 3600) == .repeated(first: back - 3600, second: back + 3600))
        #expect(zone.instants(atLocal: back + 7200) == .unique(back + 7200))
        #expect(zone.latestLocalSeconds(upTo: back + 1800) == back + 7199)
        #expect(zone.latestLocalSeconds(upTo: forward + 1800) == forward + 9000)
    }

    @Test func readsPOSIXRules() throws {
        let july = try Self.second("2026-07-01T00:00:00Z")
        #expect(try ZoneRules.POSIXRule(parsing: "IST-5:30").offset(at: july) == 19800)
        #expect(try ZoneRules.POSIXRule(parsing: "<-03>3").offset(at: july) == -10800)
        #expect(try ZoneRules.POSIXRule(parsing: "<+0545>-5:45").offset(at: july) == 20700)
        let newYork = try ZoneRules.POSIXRule(parsing: "EST5EDT,M3.2.0,M11.1.0")
        #expect(newYork.offset(at: try Self.second("2026-03-08T06:59:59Z")) == -18000)
        #expect(newYork.offset(at: try Self.second("2026-03-08T07:00:00Z")) == -14400)
        #expect(newYork.offset(at: try Self.second("2026-11-01T05:59:59Z")) == -14400)
        #expect(newYork.offset(at: try Self.second("2026-11-01T06:00:00Z")) == -18000)
        // Times beyond 24 hours and below 0: summer time from Saturday 23:00 (-02) to Sunday 00:00 (-01).
        let nuuk = try ZoneRules.POSIXRule(parsing: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.offset(at: try Self.second("2026-03-29T00:59:59Z")) == -7200)
        #expect(nuuk.offset(at: try Self.second("2026-03-29T01:00:00Z")) == -3600)
        #expect(nuuk.offset(at: try Self.second("2026-10-25T00:59:59Z")) == -3600)
        #expect(nuuk.offset(at: try Self.second("2026-10-25T01:00:00Z")) == -7200)
        // Julian days: J60 is March 1 in every year; 59 (from 0) is February 29 in a leap year.
        let julian = try ZoneRules.POSIXRule(parsing: "AAA0BBB-1,J60/0,59/0")
        #expect(julian.offset(at: try Self.second("2028-02-28T23:59:59Z")) == 0, "summer from March 1 to February 29 (day 59) in 2028")
        #expect(julian.offset(at: try Self.second("2028-03-01T00:00:00Z")) == 3600)
        #expect(julian.offset(at: try Self.second("2027-03-01T00:30:00Z")) == 3600, "day 59 in 2027 is March 1 too, at 00:00 summer time")
        let southern = try ZoneRules.POSIXRule(parsing: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(southern.offset(at: try Self.second("2026-01-01T00:00:00Z")) == 39600)
        #expect(southern.offset(at: try Self.second("2026-07-01T00:00:00Z")) == 37800)
        let refusals = [
            "CET": "TZ rule CET: standard offset expected as [+-]hh[:mm[:ss]], hours from -24 to 24",
            "C-1": "TZ rule C-1: zone abbreviation of fewer than 3 letters",
            "<CET-1": "TZ rule <CET-1: unclosed < in a zone abbreviation",
            "CET-1:75": "TZ rule CET-1:75: standard offset has minutes or seconds beyond 59",
            "CET-1CEST,M13.5.0,M10.5.0": "TZ rule CET-1CEST,M13.5.0,M10.5.0: Mm.w.d needs m within 1-12, w within 1-5, d within 0-6",
            "CET-1CEST,M3.5.0": "TZ rule CET-1CEST,M3.5.0: summer time without the date it ends",
            "CET-1CEST,J0,J365": "TZ rule CET-1CEST,J0,J365: Jn needs n within 1-365",
            "CET-1CEST,M3.5.0,M10.5.0/3x": "TZ rule CET-1CEST,M3.5.0,M10.5.0/3x: unexpected text after the end date",
        ]
        for (rule, message) in refusals {
            do {
                _ = try ZoneRules.POSIXRule(parsing: rule)
                Issue.record("\(rule) accepted")
            } catch {
                #expect(error.reason == message)
            }
        }
    }
}

/// Offsets against glibc's, which reads the same files its own way.
extension ZoneRulesTests {
    /// glibc's offsets at `instants` in `zone`, from `date -f` (one process for them all).
    static func glibcOffsets(in zone: String, at instants: [Int]) throws -> [Int] {
        let input = FileManager.default.temporaryDirectory
            .appendingPathComponent("zone-oracle-\(getpid())-\(zone.replacingOccurrences(of: "/", with: "-")).txt")
        try instants.map { "@\($0)" }.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/date")
        process.arguments = ["-f", input.path, "+%::z"]
        process.environment = ["TZ": zone]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            // +hh:mm:ss
            let parts = line.dropFirst().split(separator: ":").compactMap { Int($0) }
            try #require(parts.count == 3, "\(line)")
            return (line.first == "-" ? -1 : 1) * (parts[0] * 3600 + parts[1] * 60 + parts[2])
        }
    }

    @Test func offsetsMatchGlibcFrom2020To2040() throws {
        let zones = [
            "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Europe/Dublin", "America/St_Johns",
            "Pacific/Chatham", "America/Nuuk", "America/Santiago", "Africa/Casablanca", "Asia/Tehran", "America/Sao_Paulo",
        ]
        let start = try Self.second("2020-01-01T00:00:00Z")
        let end = try Self.second("2041-01-01T00:00:00Z")
        // A fixed pseudo-random walk, so a failure repeats.
        var state: UInt64 = 0x5DEE_CE66
        let spread = (0..<2500).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return start + Int((state >> 33) % UInt64(end - start))
        }
        for zone in zones {
            let rules = try ZoneRules.named(zone)
            var instants = spread
            var second = start
            while let transition = rules.transition(after: second), transition.instant < end {
                instants += [transition.instant - 1, transition.instant]
                second = transition.instant
            }
            let expected = try Self.glibcOffsets(in: zone, at: instants)
            try #require(expected.count == instants.count)
            let mismatches = zip(instants, expected).filter { rules.offset(at: $0) != $1 }
            #expect(mismatches.isEmpty, "\(zone): \(mismatches.prefix(5).map { "at \($0): ours \(rules.offset(at: $0)), glibc \($1)" })")
            #expect(instants.count > spread.count || ["Asia/Kolkata", "Asia/Tehran", "America/Sao_Paulo"].contains(zone),
                    "\(zone): transitions checked on both sides")
        }
    }
}
