import Testing
@testable import StateDeckSources

@Suite("DeckFile problems")
struct DeckFileProblemTests {
    /// A broken deck file and the one problem it must report.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let yaml: String
        let problem: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a typo in a top-level key", yaml: """
            titel: Stack
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: "deck.yaml:1: titel: unknown key; did you mean title?"),
        Case(name: "no panels", yaml: "title: Stack", problem: "deck.yaml:1: panels: is required"),
        Case(name: "an empty panel list", yaml: "panels: []", problem: "deck.yaml:1: panels: needs at least one panel"),
        Case(name: "panels as a mapping", yaml: "panels: { api: 1 }", problem: "deck.yaml:1: panels: must be a list"),
        Case(name: "a panel without id", yaml: """
            panels:
              - tcp: { host: localhost, port: 5432 }
            """, problem: "deck.yaml:2: panels[0].id: is required"),
        Case(name: "an id with capitals", yaml: """
            panels:
              - id: API
                tcp: { host: localhost, port: 5432 }
            """, problem: #"deck.yaml:2: panels[0].id: "API" must be lowercase letters, digits and dashes, like api-health"#),
        Case(name: "a reused id", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432 }
              - id: db
                tcp: { host: localhost, port: 5433 }
            """, problem: "deck.yaml:4: panels[1].id: db is already the id of panels[0]"),
        Case(name: "a panel without source", yaml: """
            panels:
              - id: db
                title: Database
            """, problem: "deck.yaml:2: panels[0]: needs a source: one of http, tcp, dns, tls, ping, domain, docker, smtp, websocket, grpc, postgres, mysql, redis, command, file, heartbeat"),
        Case(name: "a panel with two sources", yaml: """
            panels:
              - id: db
                http: { url: "http://localhost/" }
                tcp: { host: localhost, port: 5432 }
            """, problem: "deck.yaml:4: panels[0].tcp: a panel has exactly one source, and this one already has http"),
        Case(name: "a URL that is not http", yaml: """
            panels:
              - id: api
                title: API
                http:
                  url: ftp://files.local/health
            """, problem: "deck.yaml:5: panels[0].http.url: must be an http or https URL"),
        Case(name: "an unset environment variable", yaml: """
            panels:
              - id: api
                http: { url: "${API_URL}/health" }
            """, problem: "deck.yaml:3: panels[0].http.url: environment variable API_URL is not set (give a default with ${API_URL:-value})"),
        Case(name: "a typo in an http key", yaml: """
            panels:
              - id: api
                http: { url: "http://localhost/", expectedStatus: 200 }
            """, problem: "deck.yaml:3: panels[0].http.expectedStatus: unknown key; did you mean expectStatus?"),
        Case(name: "a header value with a line break", yaml: """
            panels:
              - id: api
                http: { url: "http://localhost/", headers: { X-Token: "a\\r\\nX-Admin: yes" } }
            """, problem: "deck.yaml:3: panels[0].http.headers.X-Token: a header value cannot hold a line break"),
        Case(name: "a header name with a space", yaml: """
            panels:
              - id: api
                http: { url: "http://localhost/", headers: { "X Token": abc } }
            """, problem: "deck.yaml:3: panels[0].http.headers.X Token: must be a header name: letters, digits and !#$%&'*+-.^_`|~"),
        Case(name: "a status out of range", yaml: """
            panels:
              - id: api
                http: { url: "http://localhost/", expectStatus: [200, 999] }
            """, problem: "deck.yaml:3: panels[0].http.expectStatus[1]: must be a whole number from 100 to 599, not 999"),
        Case(name: "an unknown method", yaml: """
            panels:
              - id: api
                http: { url: "http://localhost/", method: fetch }
            """, problem: "deck.yaml:3: panels[0].http.method: FETCH is not a method (GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS)"),
        Case(name: "a pointer without slash", yaml: """
            panels:
              - id: api
                http:
                  url: "http://localhost/"
                  check: { pointer: status, equals: ok }
            """, problem: #"deck.yaml:5: panels[0].http.check.pointer: "status" is not a JSON pointer; it starts with /, like /status"#),
        Case(name: "a check of both kinds", yaml: """
            panels:
              - id: api
                http:
                  url: "http://localhost/"
                  check: { contains: ok, pointer: /status, equals: ok }
            """, problem: "deck.yaml:5: panels[0].http.check.pointer: a check is either contains, or pointer with equals, not both"),
        Case(name: "a port out of range", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 70000 }
            """, problem: "deck.yaml:3: panels[0].tcp.port: must be a whole number from 1 to 65535, not 70000"),
        Case(name: "a ping of too many requests", yaml: """
            panels:
              - id: gateway
                ping: { host: 192.0.2.1, count: 50 }
            """, problem: "deck.yaml:3: panels[0].ping.count: must be a whole number from 1 to 10, not 50"),
        Case(name: "a ping given a port", yaml: """
            panels:
              - id: gateway
                ping: { host: 192.0.2.1, port: 80 }
            """, problem: "deck.yaml:3: panels[0].ping.port: unknown key (expected host, count, timeout, expect)"),
        Case(name: "a refresh that is no duration", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432 }
                refresh: 5 seconds
            """, problem: #"deck.yaml:4: panels[0].refresh: "5 seconds" is neither manual nor a duration like 30s or 5m"#),
        Case(name: "a timeout without unit", yaml: """
            defaults:
              timeout: 5
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: #"deck.yaml:2: defaults.timeout: "5" is not a duration; write it like 500ms, 5s, 2m, 1h or 7d"#),
        Case(name: "no retry at all", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432 }
                retry: { attempts: 0 }
            """, problem: "deck.yaml:4: panels[0].retry.attempts: must be a whole number from 1 to 20, not 0"),
        Case(name: "an unknown loading type", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432 }
                loading: { initial: spinner }
            """, problem: #"deck.yaml:4: panels[0].loading.initial: "spinner" is not allowed here (expected material, horizontal, vertical, overCurrentContent, redacted, custom)"#),
        Case(name: "an option of another loading type", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432 }
                loading:
                  afterInfo: { type: material, spacing: 4 }
            """, problem: "deck.yaml:5: panels[0].loading.afterInfo.spacing: is not an option of material"),
        Case(name: "both run and shell", yaml: """
            panels:
              - id: jobs
                command:
                  run: [ls]
                  shell: ls
            """, problem: "deck.yaml:5: panels[0].command.shell: give either run (a program and its arguments) or shell (a script), not both"),
        Case(name: "a command line as run", yaml: """
            panels:
              - id: jobs
                command: { run: ls -l }
            """, problem: "deck.yaml:3: panels[0].command.run: must be a list"),
        Case(name: "an unknown output format", yaml: """
            panels:
              - id: status
                file: { path: status.yaml, format: yaml }
            """, problem: #"deck.yaml:3: panels[0].file.format: "yaml" is not allowed here (expected auto, json, text, lines)"#),
        Case(name: "the catalogue's retry given a command", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432 }
                recovery:
                  - { id: try-again, label: Again, run: [true] }
            """, problem: "deck.yaml:5: panels[0].recovery[0].run: try-again is the catalogue's retry, which runs nothing: give it only a label and a role"),
        Case(name: "a recovery option for a kind that does not exist", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432 }
                recovery:
                  - { id: restart, label: Restart, run: [true], kinds: [unreachable, offline] }
            """, problem: #"deck.yaml:5: panels[0].recovery[0].kinds[1]: "offline" is not allowed here (expected noNetwork, unreachable, timeout, serverError, serverMaintenance, notFound, unauthorized, invalidResponse, checkFailed, commandFailed, outOfSpace, updateAvailable, updateRequired, dnsNameNotFound, dnsServerFailure, dnsAnswerTooLarge, certificateExpiring, certificateUntrusted, pingMissed, jobFailed, domainExpiring, domainExpired, domainNotRegistered, noRDAPServer, containerNotRunning, containerUnhealthy, containerNotFound, queryFailed, serviceNotServing, unknown)"#),
        Case(name: "an alignment a presentation beside the content cannot draw", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432 }
                loading: { afterInfo: { type: horizontal, alignment: topLeading } }
            """, problem: #"deck.yaml:4: panels[0].loading.afterInfo.alignment: "topLeading" is not allowed here (expected top, center, bottom)"#),
        Case(name: "an unknown toast position", yaml: """
            toasts: { position: middle }
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: #"deck.yaml:1: toasts.position: "middle" is not allowed here (expected top, bottom)"#),
        Case(name: "history kept less than an hour", yaml: """
            history: { changes: 10m }
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: "deck.yaml:1: history.changes: must be at least 60 min"),
        Case(name: "history kept past ten years", yaml: """
            history: { days: 4000d }
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: "deck.yaml:1: history.days: must be at most 3660 days"),
        Case(name: "a panel taking the id of StateDeck's own panel", yaml: """
            panels:
              - { id: db, tcp: { host: localhost, port: 5432 } }
              - { id: statedeck, http: { url: "http://127.0.0.1:8080/api/state" } }
            """, problem: #"deck.yaml:3: panels[1].id: statedeck is the id of StateDeck's own panel, "StateDeck itself"; choose another, or leave that panel out with statedeckPanel: false"#),
        Case(name: "a panel in the group of StateDeck's own panel", yaml: """
            panels:
              - id: db
                group: statedeck
                tcp: { host: localhost, port: 5432 }
            """, problem: "deck.yaml:3: panels[0].group: statedeck is the group of StateDeck's own panel; choose another, or leave that panel out with statedeckPanel: false"),
        Case(name: "statedeckPanel that is not true or false", yaml: """
            statedeckPanel: sometimes
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: "deck.yaml:1: statedeckPanel: must be true or false, not sometimes"),
        Case(name: "an unknown history key", yaml: """
            history: { raw: 7d }
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: "deck.yaml:1: history.raw: unknown key (expected changes, minutes, hours, days)"),
        Case(name: "an item action without label", yaml: """
            panels:
              - id: jobs
                command: { run: [ls] }
                actions:
                  - id: remove
                    shell: 'rm -- "$STATEDECK_ITEM_ID"'
            """, problem: "deck.yaml:5: panels[0].actions[0].label: is required"),
        Case(name: "a typo in toasts", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432 }
                toasts: { succes: Back }
            """, problem: "deck.yaml:4: panels[0].toasts.succes: unknown key; did you mean success?"),
        Case(name: "a YAML syntax error", yaml: """
            panels:
              - id: db
                tcp: { host: localhost, port: 5432
            """, problem: "deck.yaml:4: YAML syntax: did not find expected ',' or '}' (while parsing a flow mapping on line 3)"),
        Case(name: "a key given twice", yaml: """
            title: One
            title: Two
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: "deck.yaml:2: the key title is given again (first on line 1)"),
        Case(name: "an empty file", yaml: "", problem: "deck.yaml: the file is empty; a deck file needs at least a list of panels"),
        Case(name: "a key without a value", yaml: """
            title:
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: "deck.yaml:1: title: needs a value"),
        Case(name: "a group not among the groups", yaml: """
            groups: [{ id: payments }, { id: search }]
            panels:
              - id: api
                group: paymnts
                tcp: { host: localhost, port: 5432 }
            """, problem: "deck.yaml:4: panels[0].group: no group paymnts in groups; did you mean payments?"),
        Case(name: "a reused group id", yaml: """
            groups:
              - id: payments
              - id: payments
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: "deck.yaml:3: groups[1].id: payments is already the id of groups[0]"),
        Case(name: "a group default that is not a setting", yaml: """
            groups:
              - id: payments
                defaults: { colour: red }
            panels: [{ id: db, tcp: { host: localhost, port: 5432 } }]
            """, problem: "deck.yaml:3: groups[0].defaults.colour: unknown key (expected refresh, timeout, retry, minimumLoading, loading, notify, dependsOn)"),
        Case(name: "an alias without anchor", yaml: """
            panels: *databases
            """, problem: "deck.yaml:1: YAML syntax: found undefined alias"),
        Case(name: "a notify entry with two targets", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify:
                  - { webhook: { url: "http://127.0.0.1:9/" }, command: { run: [true] } }
            """, problem: "deck.yaml:5: panels[0].notify[0]: give one target, webhook or command, not both"),
        Case(name: "a notify entry without a target", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify: [{ after: { failures: 2 } }]
            """, problem: "deck.yaml:4: panels[0].notify[0]: needs a target: webhook or command"),
        Case(name: "a webhook that is not http", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify: [{ webhook: { url: "ftp://example.com/" } }]
            """, problem: "deck.yaml:4: panels[0].notify[0].webhook.url: must be an http or https URL"),
        Case(name: "after without a condition", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify: [{ command: { run: [true] }, after: {} }]
            """, problem: "deck.yaml:4: panels[0].notify[0].after: needs failures (loads in a row), down (a time), or both; and successes for the way up"),
        Case(name: "reminders more often than a minute", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify: [{ command: { run: [true] }, remind: { every: 10s, times: 3 } }]
            """, problem: "deck.yaml:4: panels[0].notify[0].remind.every: must be at least 1 min"),
        Case(name: "a gathering window of a day", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify: [{ command: { run: [true] }, gather: 1d }]
            """, problem: "deck.yaml:4: panels[0].notify[0].gather: must be at most 1 h, or off"),
        Case(name: "a gathering window that is no time", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify: [{ command: { run: [true] }, gather: soon }]
            """, problem: #"deck.yaml:4: panels[0].notify[0].gather: "soon" is not a duration; write it like 500ms, 5s, 2m, 1h or 7d"#),
        Case(name: "a placeholder in a notify command's shell script", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify: [{ command: { shell: 'notify-send "{title}" "{message}"' } }]
            """, problem: #"deck.yaml:4: panels[0].notify[0].command.shell: "{title}", "{message}" are not filled into arguments; read $STATEDECK_TITLE, $STATEDECK_MESSAGE instead (for example shell: 'echo "$STATEDECK_TITLE"')"#),
        Case(name: "a placeholder in the script of a shell a notify command runs", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify:
                  - command: { run: [/bin/bash, -eu, -c, "echo {event} >> log"] }
            """, problem: #"deck.yaml:5: panels[0].notify[0].command.run[3]: "{event}" is not filled into arguments; read $STATEDECK_EVENT instead (for example shell: 'echo "$STATEDECK_EVENT"')"#),
        Case(name: "a placeholder in an argument of a notify command run directly", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify:
                  - command: { run: [apprise, -b, "{message}", "mailto://ops"] }
            """, problem: #"deck.yaml:5: panels[0].notify[0].command.run[2]: "{message}" is not filled into arguments; read $STATEDECK_MESSAGE instead (for example shell: 'echo "$STATEDECK_MESSAGE"')"#),
        Case(name: "a placeholder in the script of a shell a notify command runs through timeout", yaml: """
            panels:
              - id: api
                tcp: { host: localhost, port: 1 }
                notify:
                  - command: { run: [timeout, "10", sh, -c, "echo {message} >> f"] }
            """, problem: #"deck.yaml:5: panels[0].notify[0].command.run[4]: "{message}" is not filled into arguments; read $STATEDECK_MESSAGE instead (for example shell: 'echo "$STATEDECK_MESSAGE"')"#),
        Case(name: "a placeholder in the defaults' notify command", yaml: """
            defaults:
              notify: [{ command: { run: [notify-send, "{panel} is {event}"] } }]
            panels: [{ id: api, tcp: { host: localhost, port: 1 } }]
            """, problem: #"deck.yaml:2: defaults.notify[0].command.run[1]: "{panel}", "{event}" are not filled into arguments; read $STATEDECK_PANEL, $STATEDECK_EVENT instead (for example shell: 'echo "$STATEDECK_PANEL"')"#),
        Case(name: "a placeholder in a group's notify command", yaml: """
            groups:
              - id: payments
                defaults: { notify: [{ command: { run: [env, bash, -c, "echo {title}"] } }] }
            panels: [{ id: api, group: payments, tcp: { host: localhost, port: 1 } }]
            """, problem: #"deck.yaml:3: groups[0].defaults.notify[0].command.run[3]: "{title}" is not filled into arguments; read $STATEDECK_TITLE instead (for example shell: 'echo "$STATEDECK_TITLE"')"#),
        Case(name: "a placeholder in an incident target's command", yaml: """
            panels: [{ id: api, tcp: { host: localhost, port: 1 } }]
            incidents:
              notify:
                - command: { run: [python3, -c, "print('{message}')"] }
            """, problem: #"deck.yaml:4: incidents.notify[0].command.run[2]: "{message}" is not filled into arguments; read $STATEDECK_MESSAGE instead (for example shell: 'echo "$STATEDECK_MESSAGE"')"#),
        Case(name: "a placeholder in an item action's shell script", yaml: """
            panels:
              - id: jobs
                command: { run: [ls] }
                actions:
                  - { id: remove, label: Remove, shell: "rm -- {item}" }
            """, problem: #"deck.yaml:5: panels[0].actions[0].shell: "{item}" is not filled into arguments; read $STATEDECK_ITEM_ID instead (for example shell: 'echo "$STATEDECK_ITEM_ID"')"#),
        Case(name: "a placeholder in an argument of an item action run directly", yaml: """
            panels:
              - id: jobs
                command: { run: [ls] }
                actions:
                  - { id: restart, label: Restart, run: [docker, restart, "{item}"] }
            """, problem: #"deck.yaml:5: panels[0].actions[0].run[2]: "{item}" is not filled into arguments; read $STATEDECK_ITEM_ID instead (for example shell: 'echo "$STATEDECK_ITEM_ID"')"#),
        Case(name: "a heartbeat with neither period nor schedule", yaml: """
            panels:
              - id: backup
                heartbeat: { grace: 10m }
            """, problem: #"deck.yaml:3: panels[0].heartbeat: needs period (such as 1h) or schedule (a cron line such as "0 3 * * *")"#),
        Case(name: "a heartbeat with both period and schedule", yaml: """
            panels:
              - id: backup
                heartbeat: { period: 1h, schedule: "0 3 * * *", grace: 10m }
            """, problem: "deck.yaml:3: panels[0].heartbeat.schedule: give either period or schedule, not both"),
        Case(name: "a heartbeat without grace", yaml: """
            panels:
              - id: backup
                heartbeat: { period: 1h }
            """, problem: "deck.yaml:3: panels[0].heartbeat.grace: is required"),
        Case(name: "a cron schedule with four fields", yaml: """
            panels:
              - id: backup
                heartbeat:
                  schedule: "0 3 * *"
                  grace: 30m
            """, problem: #"deck.yaml:4: panels[0].heartbeat.schedule: "0 3 * *" is not a cron schedule: 5 fields expected (minute hour day-of-month month day-of-week), found 4"#),
        Case(name: "a time zone the system does not know", yaml: """
            panels:
              - id: backup
                heartbeat: { schedule: "0 3 * * *", timezone: Europe/Atlantis, grace: 30m }
            """, problem: "deck.yaml:3: panels[0].heartbeat.timezone: time zone Europe/Atlantis (/usr/share/zoneinfo/Europe/Atlantis): cannot open: No such file or directory (no such zone, or the tzdata package is not installed)"),
        Case(name: "a ping key too short to be a secret", yaml: """
            panels:
              - id: backup
                heartbeat: { period: 1d, grace: 1h, key: abc }
            """, problem: "deck.yaml:3: panels[0].heartbeat.key: a ping key is at least 16 letters, digits, - or _ (it is the ping's only credential)"),
        Case(name: "a dns record type it does not ask for", yaml: """
            panels:
              - id: sip
                dns: { name: example.com, type: SRV }
            """, problem: #"deck.yaml:3: panels[0].dns.type: "SRV" is not allowed here (expected A, AAAA, CNAME, MX, TXT, NS)"#),
        Case(name: "a dns server given by name", yaml: """
            panels:
              - id: site
                dns: { name: example.com, type: A, server: dns.example }
            """, problem: #"deck.yaml:3: panels[0].dns.server: "dns.example" is not a server's IP address, with an optional port (203.0.113.53, 203.0.113.53:5353, [2001:db8::53]:5353)"#),
        Case(name: "a dns server with a port out of range", yaml: """
            panels:
              - id: site
                dns: { name: example.com, type: A, server: "127.0.0.1:70000" }
            """, problem: #"deck.yaml:3: panels[0].dns.server: "127.0.0.1:70000" is not a server's IP address, with an optional port (203.0.113.53, 203.0.113.53:5353, [2001:db8::53]:5353)"#),
        Case(name: "a tls source without its host", yaml: """
            panels:
              - id: certificate
                tls: { port: 8443 }
            """, problem: "deck.yaml:3: panels[0].tls.host: is required"),
        Case(name: "a tls key misspelt", yaml: """
            panels:
              - id: certificate
                tls: { host: example.com, serverName: www.example.com }
            """, problem: "deck.yaml:3: panels[0].tls.serverName: unknown key; did you mean servername?"),
        Case(name: "a certificate condition without validFor", yaml: """
            panels:
              - id: api
                http: { url: "https://example.com/", expect: [{ certificate: {} }] }
            """, problem: "deck.yaml:3: panels[0].http.expect[0].certificate.validFor: is required"),
        Case(name: "an empty dns name", yaml: """
            panels:
              - id: site
                dns: { name: "", type: A }
            """, problem: "deck.yaml:3: panels[0].dns.name: must not be empty"),
        Case(name: "a dns expectation without its text", yaml: """
            panels:
              - id: site
                dns: { name: example.com, type: A, expect: {} }
            """, problem: "deck.yaml:3: panels[0].dns.expect.contains: is required"),
    ]

    @Test(arguments: cases)
    func aBrokenFileNamesTheProblem(_ broken: Case) {
        #expect(deckFileProblems(broken.yaml) == [broken.problem])
    }

    @Test func everyProblemIsReportedInLineOrder() {
        let report = deckFileProblems("""
            title: Stack
            panels:
              - id: api
                http: { url: "localhost:3000" }
                refresh: often
              - id: db
                tcp: { host: localhost, port: 0 }
              - id: jobs
                command: { run: [], output: csv }
                colour: red
            """)
        #expect(report == [
            "deck.yaml:4: panels[0].http.url: must be an http or https URL",
            #"deck.yaml:5: panels[0].refresh: "often" is neither manual nor a duration like 30s or 5m"#,
            "deck.yaml:7: panels[1].tcp.port: must be a whole number from 1 to 65535, not 0",
            "deck.yaml:9: panels[2].command.run: needs at least the program to run",
            #"deck.yaml:9: panels[2].command.output: "csv" is not allowed here (expected auto, json, text, lines)"#,
            "deck.yaml:10: panels[2].colour: unknown key (expected id, title, group, http, tcp, dns, tls, ping, domain, docker, smtp, websocket, grpc, postgres, mysql, redis, command, file, heartbeat, refresh, timeout, retry, minimumLoading, loading, notify, dependsOn, placeholder, toasts, recovery, actions)",
        ])
    }

    @Test func theErrorDescriptionIsTheWholeReport() {
        do {
            _ = try DeckFile.parse("panels: [{ id: A }]", file: "stack.yaml", folder: "/")
            Issue.record("a broken file loaded")
        } catch {
            #expect(error.description == """
                stack.yaml:1: panels[0]: needs a source: one of http, tcp, dns, tls, ping, domain, docker, smtp, websocket, grpc, postgres, mysql, redis, command, file, heartbeat
                stack.yaml:1: panels[0].id: "A" must be lowercase letters, digits and dashes, like api-health
                """)
        }
    }
}
