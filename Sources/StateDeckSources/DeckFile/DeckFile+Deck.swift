import StateDeck

extension DeckFile {
    /// The core's panels, in the file's order. Recovery options and item actions run their
    /// commands with `runner`.
    public func makePanels(runner: CommandRunner = CommandRunner()) -> [Panel] {
        panels.map { $0.makePanel(runner: runner) }
    }

    /// The deck of the file's title, toast settings and panels; panels in `memories` continue
    /// from the deck this one replaces.
    public func makeDeck(
        configuration: Deck.Configuration = Deck.Configuration(),
        memories: [String: PanelMemory] = [:]
    ) -> Deck {
        var configuration = configuration
        configuration.toastDuration = toastDuration
        configuration.toastPosition = toastPosition
        return Deck(title, configuration: configuration, panels: makePanels(), memories: memories)
    }

    /// Reloads each file panel of `deck` that watches its file whenever the file changes, until
    /// the calling task is cancelled. Run it beside the deck, e.g. in a task ended on shutdown.
    ///
    /// A reload is the deck's `refresh`: it joins a load in flight, toasts only a transition, and
    /// a panel pinned by a debug state ignores it (the next change asks again).
    public func watchFiles(reloading deck: Deck) async {
        await withTaskGroup(of: Void.self) { group in
            for panel in panels {
                guard case .file(let source) = panel.source, source.watch else { continue }
                group.addTask {
                    for await _ in source.watcher().changes() {
                        try? await deck.refresh(panel: panel.id)
                    }
                }
            }
        }
    }
}
