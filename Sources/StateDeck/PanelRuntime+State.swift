extension PanelRuntime {
    /// The document the page draws, its probable causes and flapping (which the deck decides
    /// from beyond the panel) as given.
    func state(probableCauses: [String] = [], flapping: FlappingStatus? = nil) -> PanelState {
        let showPreloader = recovering != nil
        return PanelState(PanelState.Fields(
            id: panel.id,
            title: panel.title,
            group: panel.group?.id,
            phase: history.phase,
            health: shownHealth,
            isInitialLoading: history.isInitialLoading,
            isLoading: history.isLoading,
            latestValidInfo: history.latestValidInfo,
            latestInfo: history.latestInfo,
            latestValidError: history.latestValidError.map { presenter.card(for: $0, showPreloader: showPreloader) },
            latestError: history.latestError.map { presenter.card(for: $0, showPreloader: showPreloader) },
            modifyingIds: history.modifyingIds,
            history: history.entries,
            presentation: panel.presentation,
            placeholder: panel.placeholder,
            retry: retry,
            debugPinned: debugPinned,
            stale: stale,
            restored: restored,
            queued: load?.turn.isWaiting ?? false,
            locations: locations,
            locationsSummary: locations.map(PanelLocation.summary(of:)),
            loadMs: latestLoadDuration.map { Int(($0 / .milliseconds(1)).rounded()) },
            readings: latestReadings,
            heartbeat: panel.heartbeat?.status(pings),
            maintenance: maintenance,
            dependsOn: panel.dependsOn,
            probableCauses: probableCauses,
            flapping: flapping
        ))
    }

    /// The deck's own location first, then the others by name; nil while no other reports.
    private var locations: [PanelLocation]? {
        guard !remoteLocations.isEmpty else { return nil }
        return [ownRecord.location(named: location)] + remoteLocations
    }
}
