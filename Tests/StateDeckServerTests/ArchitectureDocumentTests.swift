import Foundation
import Testing

/// `docs/ARCHITECTURE.md` opens with a picture of the targets and who calls whom, then a table of
/// the modules: both are read against `Package.swift`, so neither can fall behind it.
@Suite struct ArchitectureDocumentTests {
    @Test func pictureAndTableAgreeWithPackageSwift() throws {
        let manifest = try PackageManifest(text: RepositoryFile.text("Package.swift"))
        let document = ArchitectureDocument(markdown: try RepositoryFile.text("docs/ARCHITECTURE.md"))
        #expect(manifest.targets.count > 20, "Package.swift read as \(manifest.targets.map(\.name))")
        #expect(!document.picture.isEmpty && !document.tableModules.isEmpty)
        for difference in document.differences(from: manifest) {
            Issue.record("docs/ARCHITECTURE.md: \(difference)")
        }
    }

    static let manifest = """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "Example",
            products: [.library(name: "Top", targets: ["Top"])],  // `targets:` here is not the package's
            dependencies: [.package(url: "https://github.com/apple/swift-log", from: "1.0.0")],
            targets: [
                /* C */ .systemLibrary(name: "CThing", pkgConfig: "thing"),
                .target(name: "Base"),
                // "Middle" is not a target: a comment.
                .target(name: "Middle", dependencies: ["Base", "CThing", .product(name: "Logging", package: "swift-log")]),
                .target(
                    name: "Top",
                    dependencies: [
                        "Middle", "Base",
                        .target(name: "CThing"),
                    ]
                ),
                .target(name: "Helper", dependencies: ["Top"], path: "Tests/Helper"),
                .testTarget(name: "TopTests", dependencies: ["Top", "Helper"]),
            ]
        )
        """

    @Test func readsTargetsTheirDependenciesAndProductsFromTheManifestsText() throws {
        let manifest = try PackageManifest(text: Self.manifest)
        #expect(manifest.targets.map(\.name) == ["CThing", "Base", "Middle", "Top", "Helper", "TopTests"])
        #expect(manifest["Middle"]?.dependencies == ["Base", "CThing"])
        #expect(manifest["Middle"]?.products == ["Logging"])
        #expect(manifest["Top"]?.dependencies == ["Middle", "Base", "CThing"])
        #expect(manifest["CThing"]?.kind == "systemLibrary")
        #expect(manifest.targets.filter(\.isTestCode).map(\.name) == ["Helper", "TopTests"])
    }

    @Test func refusesAManifestItDoesNotRead() {
        #expect(throws: ManifestExpression.SyntaxError.self) {
            _ = try PackageManifest(text: "let package = Package(name: \"A\", targets: shared)")
        }
        #expect(throws: ManifestExpression.SyntaxError.self) {
            _ = try PackageManifest(text: "let package = Package(name: \"A\", targets: [.target(name: \"A\")] + more)")
        }
        #expect(throws: ManifestExpression.SyntaxError.self) {
            _ = try PackageManifest(text: "let package = Package(name: \"A\", targets: [])\npackage.targets.append(extra)")
        }
    }

    static func document(picture: String, table: String) -> ArchitectureDocument {
        ArchitectureDocument(markdown: "# A\n\n```\n\(picture)\n```\n\nModules:\n\n```\n\(table)\n```\n")
    }

    static let table = """
        Top          the top
        Middle       the middle,
                     in two lines
        Base         the base
        CThing       C
        """

    @Test func aTruePictureHasNoDifferences() throws {
        let document = Self.document(picture: """
            Top     → Middle
            Middle  → Base, CThing, (Logging)

            Base
            CThing
            """, table: Self.table)
        #expect(document.tableModules == ["Top", "Middle", "Base", "CThing"])
        #expect(document.differences(from: try PackageManifest(text: Self.manifest)) == [])
    }

    @Test func namesEachDifference() throws {
        let document = Self.document(picture: """
            Top     → Middle, Base, Absent
            Middle  → Base, (Logging)
            Gone
            Base
            Base
            Top    -> Middle
            """, table: Self.table.replacingOccurrences(of: "Base ", with: "Bass "))
        let differences = document.differences(from: try PackageManifest(text: Self.manifest))
        #expect(differences.sorted() == [
            "the picture has a line that is not `Name → Dependency, (Product)`: Top    -> Middle",
            "the picture lacks CThing, a target of Package.swift",
            "the picture lacks Middle → CThing: Package.swift's Middle depends on CThing, and on nothing that reaches it",
            "the picture names Base twice",
            "the picture names Gone, which is not a target of Package.swift (tests and their helpers aside)",
            "the picture says Top → Absent, but Top does not depend on Absent in Package.swift",
            "the picture says Top → Base, which Top also reaches through Middle: drop the arrow",
            "the table of modules lacks Base, a target of Package.swift",
            "the table of modules names Bass, which is not a target of Package.swift (tests and their helpers aside)",
        ])
    }
}
