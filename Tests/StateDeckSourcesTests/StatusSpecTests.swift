import Foundation
import StateDeck
import Testing
@testable import StateDeckSources

@Suite struct StatusSpecTests {
    static let panels = """
        title: Private deck
        panels:
          - { id: web, tcp: { host: localhost, port: 80 } }
          - { id: stripe, group: pay, tcp: { host: localhost, port: 443 } }
          - { id: ledger, group: pay, tcp: { host: localhost, port: 5432 } }
        """

    static func file(_ status: String) throws(DeckFileError) -> DeckFile {
        try DeckFile.parse(panels + "\nstatus:\n" + status, file: "deck.yaml", folder: "/stack")
    }

    @Test func thePageListsPanelsThenGroupsUnderTheirPublicNames() throws {
        let file = try Self.file("""
              title: Acme status
              description: How Acme runs
              logo: https://cdn.example.com/logo.png
              links: [{ title: Support, url: "https://example.com/help" }]
              panels: [{ id: web, name: Website }]
              groups: [{ id: pay, name: Payments }]
            """)
        let page = try #require(file.status)
        #expect(page.title == "Acme status")
        #expect(page.description == "How Acme runs")
        #expect(page.logo == "https://cdn.example.com/logo.png")
        #expect(page.links == [StatusPage.Link(title: "Support", url: "https://example.com/help")])
        #expect(page.components.map(\.name) == ["Website", "Payments"])
        let deck = file.makeDeck()
        #expect(deck.statusPage?.components.map(\.panels) == [["web"], ["stripe", "ledger"]])
        #expect(deck.statusPage?.publicPanels == ["web"])
    }

    /// The deck's title names the dashboard, which the page keeps private like everything else.
    @Test func aPageWithoutTitleIsHeadedStatusNeverByTheDecksTitle() throws {
        let file = try Self.file("  panels: [{ id: web, name: Website }]")
        #expect(file.title == "Private deck")
        #expect(file.status?.title == "Status")
    }

    @Test func aFileWithoutStatusHasNoPage() throws {
        #expect(try DeckFile.parse(Self.panels, file: "deck.yaml", folder: "/stack").status == nil)
    }

    @Test(arguments: [
        ("  panels: [{ id: wbe, name: Website }]", "deck.yaml:7: status.panels[0].id: no panel wbe in the file's panels; did you mean web?"),
        ("  groups: [{ id: payy, name: Payments }]", "deck.yaml:7: status.groups[0].id: no group payy in the file's groups; did you mean pay?"),
        ("  panels: [{ id: web }]", "deck.yaml:7: status.panels[0].name: is required"),
        ("  panels: [{ id: web, name: A }, { id: web, name: B }]", "deck.yaml:7: status.panels[1].id: web is already the id of status.panels[0]"),
        ("  panels: [{ id: web, name: Site }]\n  groups: [{ id: pay, name: Site }]", "deck.yaml:8: status.groups[0].name: Site is already the name of status.panels[0]"),
        ("  title: x", "deck.yaml:7: status: needs panels or groups: what the public sees"),
        ("  logo: http://cdn.example.com/a.png\n  panels: [{ id: web, name: W }]", "deck.yaml:7: status.logo: must be an https URL"),
        ("  links: [{ title: Help, url: \"ftp://example.com\" }]\n  panels: [{ id: web, name: W }]", "deck.yaml:7: status.links[0].url: must be an http or https URL"),
        ("  panels: [{ id: web, name: W }]\n  colour: red", "deck.yaml:8: status.colour: unknown key (expected title, description, logo, links, panels, groups)"),
        ("  title: \(String(repeating: "t", count: 201))\n  panels: [{ id: web, name: W }]",
         "deck.yaml:7: status.title: must have at most 200 characters and 1,000 bytes, not 201 characters and 201 bytes"),
        ("  description: \(String(repeating: "e\u{0301}\u{0301}", count: 4_001))\n  panels: [{ id: web, name: W }]",
         "deck.yaml:7: status.description: must have at most 5,000 characters and 20,000 bytes, not 4,001 characters and 20,005 bytes"),
        ("  panels: [{ id: web, name: \(String(repeating: "日", count: 334)) }]",
         "deck.yaml:7: status.panels[0].name: must have at most 200 characters and 1,000 bytes, not 334 characters and 1,002 bytes"),
        ("  links: [{ title: \(String(repeating: "l", count: 201)), url: \"https://example.com\" }]\n  panels: [{ id: web, name: W }]",
         "deck.yaml:7: status.links[0].title: must have at most 200 characters and 1,000 bytes, not 201 characters and 201 bytes"),
    ])
    func aBadPageIsReportedWithItsLineAndKey(status: String, problem: String) {
        do {
            _ = try Self.file(status)
            Issue.record("read without a problem")
        } catch {
            #expect(error.problems.count == 1, "\(error.description)")
            #expect(error.description == problem)
        }
    }
}
