extension Panel {
    /// `info` with the panel's item actions offered on every item that lists none of its own.
    func offeringItemActions(in info: Info) -> Info {
        guard !itemActions.isEmpty, let items = info.items else { return info }
        var decorated = info
        decorated.items = items.map { item in
            var item = item
            item.actions = item.actions ?? itemActions.map(\.button)
            return item
        }
        return decorated
    }

    /// The action `actionId` offered on `item`.
    func itemAction(_ actionId: String, offeredOn item: Info.Item) -> ItemAction? {
        guard item.actions?.contains(where: { $0.id == actionId }) == true else { return nil }
        return itemActions.first { $0.id == actionId }
    }
}
