import StateDeck

extension MaintenanceWindow.Recurrence {
    /// A window that holds for `duration` from each time `schedule` names in `zone`, read as
    /// "0 3 * * 0 (Europe/Paris)": a deck file's `schedule:`, or a deck declared in code.
    public init(_ schedule: CronSchedule, duration: Duration, in zone: ZoneRules) {
        self.init(schedule: "\(schedule.expression) (\(zone.name))", duration: duration,
                  latestStart: { schedule.previous(atOrBefore: $0, in: zone) }, nextStart: { schedule.next(after: $0, in: zone) })
    }
}
