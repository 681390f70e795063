import FoundationEssentials
import Locking
import StateDeck
import StateDeckDemo
import StateDeckServer
import StateDeckSources

/// The built-in demo deck as `statedeck` serves it without a deck file: the demo's simulated
/// panels, and StateDeck's own panel, which reads the server running it.
public enum ServedDemoDeck {
    /// The demo deck. Its one real panel, ``StateDeckPanel``, reads this server's own health once
    /// `server` holds the running server; its backup job pings `/ping/` and `backupPingKey`; its
    /// nightly maintenance window is read in the machine's time zone (`TZ` in `environment`, else
    /// `/etc/localtime`), as a deck file's `schedule:` is.
    public static func make(seed: UInt64?, server: Locked<DeckServer?>, backupPingKey: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> Deck {
        DemoDeck.make(seed: seed, itself: StateDeckPanel(server: server).makePanel(),
                      vacuum: MaintenanceWindow.Recurrence(vacuumSchedule, duration: DemoDeck.vacuumDuration,
                                                           in: .local(environment: environment)),
                      backupPingPath: "/ping/" + backupPingKey)
    }

    /// ``DemoDeck/vacuumSchedule``, read as cron.
    private static let vacuumSchedule: CronSchedule = {
        do {
            return try CronSchedule(parsing: DemoDeck.vacuumSchedule)
        } catch {
            preconditionFailure("DemoDeck.vacuumSchedule is no cron line: \(error)")
        }
    }()
}
