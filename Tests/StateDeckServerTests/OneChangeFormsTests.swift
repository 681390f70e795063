import Foundation
import StateDeck
import StateDeckHistory
import StateDeckSQLite
@testable import StateDeckServer
import TestSupport
import Testing

/// The history forms an incident's or a window's change keeps: that one item, whatever the lists
/// hold, while the moment still rebuilds the whole lists (a deck on a virtual wall clock, its
/// history saved when told).
@Suite struct OneChangeFormsTests {
    @Test func aChangeKeepsTheFormOfThatItemAloneAndTheMomentHasThemAll() async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/statedeck-one-change-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wall = MomentsTests.VirtualWall()
        let store = try MomentsTests.store(in: folder, wall)
        let server = try await MomentsTests.server(store, wall)
        var ids: [String] = []
        for number in 1...30 {
            wall.advance(by: 1)
            ids.append(try await server.deck.openIncident(title: "Number \(number)", panels: ["db"], status: .investigating,
                                                          message: String(repeating: "m", count: 2_000), author: "ana").id)
        }
        _ = try await server.deck.startMaintenance(panels: ["api"], groups: [], for: .seconds(3_600), reason: "Swap")
        store.flush()
        wall.advance(by: 10)
        let before = try store.moment(at: wall.now).forms
        wall.advance(by: 10)
        let updated = try await server.deck.updateIncident(ids[4], status: .identified, message: "Found", author: "bo")
        // Over a panel a longer window covers already: the panel's mark stays that one's.
        let window = try await server.deck.startMaintenance(panels: ["api"], groups: [], for: .seconds(600), reason: "Disk")
        store.flush()
        let after = try store.moment(at: wall.now).forms

        let changed = Set(after.keys.filter { after[$0]?.json != before[$0]?.json })
        let key = "\(window.id)@\(DeckJSON.timestamp(window.from))"
        #expect(changed == [.incident(updated.id), .activeWindow(key)], "one form each change, not the lists")
        let form = try #require(after[.incident(updated.id)])
        #expect(form.json.utf8.count < 3_000, "one incident of the 30: \(form.json.utf8.count) bytes")
        #expect(after[.incidents] == nil && after[.maintenance] == nil, "no whole list is kept")

        let moment = try await MomentsTests.get(server, "/api/state?at=\(wall.now.millisecondsSince1970)")
        let live = try await MomentsTests.get(server, "/api/state")
        #expect(MomentsTests.comparable(moment.text) == MomentsTests.comparable(live.text), "the lists whole at the moment")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(moment.body)) as? [String: Any])
        #expect((document["incidents"] as? [[String: Any]])?.count == 30)
        await server.stop()
        store.close()
    }
}
