extension Deck {
    /// Runs action `actionId` on item `itemId` of the panel's latest info.
    ///
    /// The item is in `modifyingIds` while the action runs; then the info the action returns is
    /// shown (or the panel reloads), and a toast reports the outcome. While a debug state pins the
    /// panel, the returned info waits for the release instead of replacing the forced state.
    ///
    /// - Throws: `unknownItem`, `unknownAction`, or `conflict` when an action already runs on the item.
    /// - Returns: The work as its toasts name it: the action's label and the item's title.
    @discardableResult
    public func perform(action actionId: String, item itemId: String, panel id: String) throws(DeckError) -> String {
        let index = try index(of: id)
        let runtime = panels[index]
        guard let item = runtime.history.latestInfo?.items?.first(where: { $0.id == itemId }) else {
            throw .unknownItem(panel: id, item: itemId)
        }
        guard let action = runtime.panel.itemAction(actionId, offeredOn: item) else {
            throw .unknownAction(panel: id, item: itemId, action: actionId)
        }
        guard !runtime.runningActions.contains(itemId) else {
            throw .conflict("An action on item '\(itemId)' of panel '\(id)' is already running.")
        }
        update(index) { $0.startModifying(itemId) }
        runActivity { deck in
            let result = await Result { try await action.handler(itemId) }
            deck.itemActionEnded(index, item: item, action: action, result: result)
        }
        return Self.work(action, on: item)
    }

    /// An item action's work as its toasts and its audit entry name it: "Restart api-2".
    private static func work(_ action: ItemAction, on item: Info.Item) -> String {
        "\(action.label) \(item.title)"
    }

    private func itemActionEnded(_ index: Int, item: Info.Item, action: ItemAction, result: Result<Info?, any Error>) {
        panels[index].endModifying(item.id)
        let panel = panels[index].panel
        let work = Self.work(action, on: item)
        switch result {
        case .success(let info):
            if let info {
                recordUnlessPinned(checked(.loaded(info)), in: index)
            } else {
                publish(index)
                reload(index)
            }
            show(.done(work, in: panel, message: action.message))
        case .failure(let error):
            publish(index)
            show(.failed(work, in: panel, with: PanelError(error)))
        }
    }
}
