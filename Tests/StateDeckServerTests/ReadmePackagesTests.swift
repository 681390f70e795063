import Foundation
import Testing

/// The README says which Debian packages `make run` and `make test` install: read against the
/// Makefile and the scripts its goals run, so the lists cannot fall behind them.
@Suite struct ReadmePackagesTests {
    static func makefile() throws -> Makefile {
        Makefile(text: try RepositoryFile.text("Makefile")) { path in
            guard FileManager.default.fileExists(atPath: RepositoryFile.root.appendingPathComponent(path).path) else { return nil }
            return try? RepositoryFile.text(path)
        }
    }

    /// The names in backticks after "the Debian packages" in `heading`'s section, up to the end of
    /// the clause (`;`, `)` or `.`).
    static func debianPackages(namedIn readme: String, under heading: String) -> [String] {
        let readme = "\n" + readme
        guard let section = readme.range(of: "\n\(heading)\n") else { return [] }
        let rest = readme[section.upperBound...]
        let text = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        guard let phrase = text.range(of: "the Debian packages") else { return [] }
        let clause = text[phrase.upperBound...].prefix { ![";", ")", "."].contains($0) }
        return clause.matches(of: /`([^`]+)`/).map { String($0.1) }
    }

    @Test func runNamesEveryPackageMakeRunInstalls() throws {
        let installed = try Self.makefile().debianPackages(installedBy: "run")
        let named = Self.debianPackages(namedIn: try RepositoryFile.text("README.md"), under: "## Run it")
        #expect(installed.contains("libmicrohttpd-dev"), "Makefile read as installing \(installed)")
        #expect(named.sorted() == installed.sorted(), "README.md, Run it: names \(named); `make run` installs \(installed)")
    }

    @Test func testNamesEveryPackageMakeTestInstallsBeyondThose() throws {
        let makefile = try Self.makefile()
        let run = makefile.debianPackages(installedBy: "run")
        let installed = makefile.debianPackages(installedBy: "test").filter { !run.contains($0) }
        let named = Self.debianPackages(namedIn: try RepositoryFile.text("README.md"), under: "## Test it")
        #expect(installed.contains("chromium"), "Makefile read as installing \(installed)")
        #expect(named.sorted() == installed.sorted(),
                "README.md, Test it: names \(named); `make test` installs, beyond `make run`'s, \(installed)")
    }

    @Test func followsPrerequisitesVariablesIncludesAndScripts() {
        let files = [
            "more.mk": "EXTRA := from-include\nextra:\n\t@scripts/ensure-packages.sh $(EXTRA)\n",
            "scripts/setup.sh": "#!/bin/sh\n# scripts/ensure-packages.sh in a comment-only line\nscripts/ensure-packages.sh strace && echo done\n",
        ]
        let makefile = Makefile(text: """
            # A comment: scripts/ensure-packages.sh nothing
            DEBS   := one two \\
                      three
            LATER  ?= four
            LATER  ?= not-this
            .PHONY: run deps
            run: deps extra
            \t$(SWIFT) build
            \tscripts/setup.sh --quick
            deps:
            \t@scripts/ensure-packages.sh $(DEBS) $(LATER)
            unrelated:
            \tscripts/ensure-packages.sh five
            include more.mk
            """) { files[$0] }
        #expect(makefile.debianPackages(installedBy: "run") == ["strace", "one", "two", "three", "four", "from-include"])
    }

    @Test func readsTheBacktickedNamesOfTheSection() {
        let readme = """
            ## Run it

            Text (as root; it installs the Debian packages `a-dev`, `b` and `c4` if missing): `make run`.

            ## Test it

            It installs (the Debian packages `d`; Playwright in `.venv`).
            """
        #expect(Self.debianPackages(namedIn: readme, under: "## Run it") == ["a-dev", "b", "c4"])
        #expect(Self.debianPackages(namedIn: readme, under: "## Test it") == ["d"])
    }
}
