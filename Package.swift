// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "StateDeck",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "statedeck", targets: ["statedeck"]),
        .library(name: "StateDeck", targets: ["StateDeck"]),
        .library(name: "StateDeckServer", targets: ["StateDeckServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // C: libmicrohttpd, plus static inline bridges for what Swift cannot call.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // C: libcurl's headers, a loader (dlopen, not linked) and bridges for its variadic functions.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // C: libyaml's parser, whose events the YAML target composes into nodes.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // C: c-ares, which asks DNS servers for the dns source, and libresolv's parser of its answers.
        .systemLibrary(name: "CAres", pkgConfig: "libcares", providers: [.apt(["libc-ares-dev"])]),
        // C: Linux's epoll and eventfd, for the TCP probe loop (Glibc's module lacks them).
        .systemLibrary(name: "CEpoll"),
        // C: SQLite, the history store's embedded database.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // C: libpq, PostgreSQL's client library, for the shared store of several processes.
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // C: MariaDB Connector/C, the mysql source's client of MariaDB and MySQL servers.
        .systemLibrary(name: "CMariaDB", pkgConfig: "libmariadb", providers: [.apt(["libmariadb-dev"])]),
        // C: OpenSSL's TLS client, for the websocket source's wss:// connections on the probe loop.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // C: PCRE2, the regular expressions of conditions, matched under limits of steps and depth.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        // C: the argc and argv glibc passes the executable's initializers, kept before a preloaded
        // library can move `environ`, where the Swift runtime looks for them.
        .target(name: "CLaunchArguments"),
        .target(name: "Locking"),
        // A thread of its own for blocking work.
        .target(name: "Threading", dependencies: ["Locking"]),
        .testTarget(name: "ThreadingTests", dependencies: ["Threading", "Locking", "TestSupport"]),
        // Transport: the HTTP server; with HTTPClient, YAML, PCRE2 and StateDeckSources (epoll, c-ares), the modules
        // that touch C.
        .target(
            name: "MicroHTTP",
            dependencies: ["CMicroHTTPD", "Locking", "Threading", .product(name: "Logging", package: "swift-log")]
        ),
        // The http source's client: libcurl behind a small async API.
        .target(name: "HTTPClient", dependencies: ["CCurl", "Locking", "Threading"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "Locking", "TestSupport"]),
        // Server-sent events in pure Swift.
        .target(name: "EventStream", dependencies: ["Locking", "Threading"]),
        // The state core: no HTTP, no C.
        .target(name: "StateDeck", dependencies: ["Locking", "Threading"]),
        // libyaml's parser and the node trees composed from its events, for the deck file and the access file.
        .target(name: "YAML", dependencies: ["CYAML"]),
        .testTarget(name: "YAMLTests", dependencies: ["YAML"]),
        // PCRE2's compiler and matcher as one Swift type: patterns compiled once, matches bounded.
        .target(name: "PCRE2", dependencies: ["CPCRE2"]),
        .testTarget(name: "PCRE2Tests", dependencies: ["PCRE2", "TestSupport"]),
        // Loaders (http, tcp, dns, command, file) and the deck file.
        .target(
            name: "StateDeckSources",
            dependencies: [
                "StateDeck", "StateDeckHistory", "HTTPClient", "YAML", "PCRE2", "CEpoll", "CAres", "COpenSSL", "CPostgres", "CMariaDB",
                "Locking", "Threading",
            ]
        ),
        // SQLite's C API as a connection and its statements.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        // libpq's sessions, statements and notifications as Swift types, typed errors.
        .target(name: "Postgres", dependencies: ["CPostgres", "Locking", "Threading"]),
        // What a history store is: the protocol, its documents and the tallies of time up and down.
        .target(name: "StateDeckHistory", dependencies: ["StateDeck", "StateDeckNotifications", "Locking", "Threading"]),
        // Notifications: when a panel's outage is told, and to which targets.
        .target(name: "StateDeckNotifications", dependencies: ["StateDeck", "Locking"]),
        // The embedded history store: one SQLite file, written by one thread in batches; it also
        // keeps the notifications' ledger.
        .target(
            name: "StateDeckSQLite",
            dependencies: ["StateDeckHistory", "StateDeckNotifications", "StateDeck", "SQLite", "Locking", "Threading"]
        ),
        // The history store in PostgreSQL, for a history kept off the machine or shared: the same
        // shape as the SQLite store, over libpq.
        .target(
            name: "StateDeckPostgres",
            dependencies: [
                "StateDeckHistory", "StateDeckNotifications", "StateDeck", "Postgres", "Locking", "Threading",
            ]
        ),
        // The built-in demo deck: every loading, error and toast case, simulated.
        .target(name: "StateDeckDemo", dependencies: ["StateDeck", "Locking"]),
        // Serves a deck: routes, the state mirror and its event stream, static files, the gate.
        // The page's files (`Public/`), compiled in at build time: the binary alone serves the page.
        .executableTarget(name: "PageEmbedder"),
        .plugin(name: "EmbedPage", capability: .buildTool(), dependencies: ["PageEmbedder"]),
        .target(name: "StateDeckPage", plugins: ["EmbedPage"]),
        .target(
            name: "StateDeckServer",
            dependencies: [
                "MicroHTTP", "EventStream", "StateDeck", "StateDeckHistory", "StateDeckNotifications", "StateDeckPage",
                "Locking", "CLaunchArguments",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // Several servers sharing one deck through PostgreSQL: the leader's lock, its events, the replicas' feed.
        .target(
            name: "StateDeckCluster",
            dependencies: [
                "StateDeckServer", "StateDeck", "StateDeckHistory", "EventStream", "Postgres", "Locking", "Threading",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The app: which deck is served (the demo or a deck file, reloaded as it is edited), and who
        // may reach it (the access file).
        .target(
            name: "StateDeckApp",
            dependencies: [
                "StateDeckServer", "StateDeckCluster", "StateDeck", "StateDeckSources", "StateDeckDemo", "StateDeckHistory",
                "StateDeckSQLite", "StateDeckPostgres", "StateDeckNotifications", "YAML", "Locking",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "StateDeckAppTests", dependencies: ["StateDeckApp", "StateDeckServer"]),
        .executableTarget(
            name: "statedeck",
            dependencies: [
                "StateDeckApp", "StateDeckServer", "StateDeck", "StateDeckSources", "StateDeckHistory", "StateDeckSQLite",
                "StateDeckPostgres", "StateDeckCluster", "StateDeckNotifications", "Locking",
                "Threading",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The README's example of embedding StateDeck in a program.
        .executableTarget(
            name: "statedeck-embedded-example",
            dependencies: ["StateDeckServer", "StateDeck"],
            path: "examples/embedded"
        ),
        // The deterministic simulation (`make sim`): the real deck, notifier and history store in a
        // world of faults a seed decides, on a clock and an executor it drives, against a model.
        .target(
            name: "StateDeckSimulation",
            dependencies: [
                "StateDeckServer", "StateDeckSQLite", "StateDeckPostgres", "StateDeckHistory", "StateDeckNotifications",
                "StateDeck", "Postgres", "Locking",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
            ]
        ),
        .executableTarget(name: "statedeck-sim", dependencies: ["StateDeckSimulation"]),
        .testTarget(name: "SimulationTests", dependencies: ["StateDeckSimulation", "Postgres", "TestSupport"]),
        // Benchmarks (`make bench`).
        .executableTarget(
            name: "statedeck-churn",
            dependencies: ["StateDeckServer", "StateDeck"],
            path: "Benchmarks/DeckChurn"
        ),
        .executableTarget(
            name: "statedeck-history-year",
            dependencies: ["StateDeckSQLite", "StateDeckHistory", "StateDeck", "SQLite"],
            path: "Benchmarks/HistoryYear"
        ),

        // Test helpers: the raw client socket, HTTP and SSE clients, a keep-alive server, polling without fixed sleeps.
        .target(name: "TestSupport", dependencies: ["StateDeck"], path: "Tests/TestSupport"),
        // The live dashboard the server and hardening suites test against.
        .target(
            name: "DeckTestSupport",
            dependencies: [
                "StateDeckServer", "StateDeckCluster", "StateDeck", "StateDeckHistory", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/DeckTestSupport"
        ),
        // The scenarios every history store runs, whatever its database.
        .target(
            name: "HistoryStoreTestSupport",
            dependencies: ["StateDeckHistory", "StateDeckNotifications", "StateDeck", "Locking"],
            path: "Tests/HistoryStoreTestSupport"
        ),
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "TestSupport", "Locking"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport"]),
        .testTarget(
            name: "StateDeckClusterTests",
            dependencies: ["StateDeckCluster", "StateDeckServer", "StateDeck", "StateDeckNotifications", "Postgres", "DeckTestSupport", "TestSupport"]
        ),
        .testTarget(
            name: "StateDeckPostgresTests",
            dependencies: [
                "StateDeckPostgres", "StateDeckHistory", "StateDeckNotifications", "StateDeck", "Postgres", "Locking",
                "TestSupport", "HistoryStoreTestSupport",
            ]
        ),
        .testTarget(name: "EventStreamTests", dependencies: ["EventStream", "Locking", "TestSupport"]),
        .testTarget(
            name: "StateDeckTests",
            dependencies: [
                "StateDeck", "StateDeckNotifications", "TestSupport", "Locking",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "StateDeckSourcesTests",
            dependencies: [
                "StateDeckSources", "StateDeck", "StateDeckHistory", "StateDeckNotifications", "YAML", "HTTPClient", "Threading",
                "Locking", "TestSupport", .product(name: "Clocks", package: "swift-clocks"),
            ],
            // Deck files the fuzz run mutates, read by path.
            exclude: ["DeckFileCorpus"]
        ),
        .testTarget(
            name: "StateDeckHistoryTests",
            dependencies: [
                "StateDeckHistory", "StateDeckSQLite", "StateDeckNotifications", "SQLite", "StateDeck", "Locking",
                "HistoryStoreTestSupport",
            ]
        ),
        .testTarget(
            name: "StateDeckServerTests",
            dependencies: [
                "StateDeckServer", "StateDeckCluster", "StateDeck", "StateDeckHistory", "StateDeckSQLite",
                "StateDeckSources", "SQLite", "MicroHTTP", "DeckTestSupport", "TestSupport", "Locking",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // `statedeck` itself, run as a child process.
        .testTarget(name: "CommandLineTests", dependencies: ["TestSupport", "Postgres"]),
        .testTarget(
            name: "HardeningTests",
            dependencies: [
                "StateDeckServer", "StateDeck", "StateDeckSources", "StateDeckDemo", "MicroHTTP", "EventStream",
                "DeckTestSupport", "TestSupport", "Locking",
            ]
        ),
    ]
)
