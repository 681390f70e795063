import Locking
import StateDeck

extension DemoDeck {
    /// The id of Postgres's panel, which User profile and Rate a movie depend on.
    static let postgresId = "postgres"
    /// The id of the heartbeat panel the backup job pings.
    public static let backupId = "backup"
    /// When Postgres's nightly maintenance window begins: a cron line, read in the machine's time
    /// zone as a deck file's `schedule:` is.
    public static let vacuumSchedule = "0 3 * * *"
    /// How long each night's window holds.
    public static let vacuumDuration: Duration = .seconds(30 * 60)

    /// A database other panels depend on: it answers at once, except for a scripted outage of a
    /// minute about every ten, the first some five minutes after start, during which User profile
    /// and Rate a movie fail too and name it as their probable cause. A state forced on it with
    /// the debug tools takes them down and up with it the same way (``DemoDatabase``).
    static func postgres(seed: UInt64, database: DemoDatabase, vacuum: MaintenanceWindow.Recurrence) -> Panel {
        let simulation = Simulation(seed: seed, panel: postgresId)
        let loads = Locked(0)
        return Panel(postgresId, title: "Postgres") {
            try await simulation.latency(50...250)
            let load = loads.withLock { count in
                count += 1
                return count
            }
            // Loads every 10 s: the 31st to the 36th of every 60 fail.
            guard !(30..<36).contains((load - 1) % 60) else {
                throw PanelError(.unreachable, failureReason: "A scripted outage: Postgres is down for a minute every 10 min.",
                                 detail: "connect to postgres:5432: Connection refused")
            }
            return Info(summary: "Accepting connections", fields: [
                Info.Field("Used by", "User profile, Rate a movie"),
                Info.Field("Nightly maintenance", "\(vacuum.schedule), \(vacuum.duration.lengthText)"),
                demoField("Dependencies and maintenance windows"),
            ])
        }
        .refresh(every: .seconds(10))
        .retry(.none)
        .onLoaded { _ in database.panelShows(up: true) }
        .onError { _ in database.panelShows(up: false) }
    }

    /// Postgres's nightly maintenance window: its time counts in no uptime ratio, its panel's
    /// state says so while it holds, and the state document's `maintenance.next` lists it.
    static func vacuumWindow(_ vacuum: MaintenanceWindow.Recurrence) -> MaintenanceWindow {
        MaintenanceWindow(id: "nightly-vacuum", reason: "Nightly vacuum", panels: [postgresId], timing: .recurring(vacuum))
    }

    /// A heartbeat: nobody pings it but whoever runs the demo (the card and the start-up output
    /// give its URL and a curl line), so it waits for a first ping, is up after one, and goes
    /// down when the next does not come in time.
    static func backup(pingPath: String) -> Panel {
        Panel(backupId, title: "Backup job", heartbeat: .every(.seconds(120), grace: .seconds(30), pingPath: pingPath))
    }
}
