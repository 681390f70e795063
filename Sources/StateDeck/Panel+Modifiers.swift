extension Panel {
    /// Draws the panel under `group`'s heading.
    public func group(_ group: PanelGroup) -> Panel {
        with { $0.group = group }
    }

    /// Loads again each time `interval` after the previous load ended.
    public func refresh(every interval: Duration) -> Panel {
        with { $0.refresh = .every(interval) }
    }

    /// Loads on the given schedule.
    public func refresh(_ refresh: Refresh) -> Panel {
        with { $0.refresh = refresh }
    }

    /// The longest one attempt may take (10 s by default).
    public func timeout(_ timeout: Duration) -> Panel {
        with { $0.timeout = timeout }
    }

    /// How failures are retried before they are shown (3 attempts from 1 s by default).
    public func retry(_ policy: RetryPolicy) -> Panel {
        with { $0.retryPolicy = policy }
    }

    /// The shortest time `loading` is shown (500 ms by default).
    public func minimumLoadingTime(_ duration: Duration) -> Panel {
        with { $0.minimumLoadingTime = duration }
    }

    /// How loading is drawn; a nil argument keeps the current presentation.
    public func presentation(
        initialLoading: LoadingPresentation? = nil,
        loadingAfterInfo: LoadingPresentation? = nil,
        loadingAfterError: LoadingPresentation? = nil
    ) -> Panel {
        with {
            $0.presentation.initialLoading = initialLoading ?? $0.presentation.initialLoading
            $0.presentation.loadingAfterInfo = loadingAfterInfo ?? $0.presentation.loadingAfterInfo
            $0.presentation.loadingAfterError = loadingAfterError ?? $0.presentation.loadingAfterError
        }
    }

    /// Info drawn as a redacted skeleton before the first load.
    public func placeholder(_ info: Info) -> Panel {
        with { $0.placeholder = info }
    }

    /// The panel's own options on its error cards, after the error's own and before the
    /// catalogue's for the kind; `.tryAgain` here makes Try again the primary action on every
    /// card, whatever the catalogue offers.
    public func recovery(_ options: RecoveryOption...) -> Panel {
        with { $0.recoveryOptions = options }
    }

    /// Offers an action on every item that does not list its own; the panel reloads once it worked.
    ///
    /// Disfavoured so that a closure that only throws, or returns info, picks the other overload.
    @_disfavoredOverload
    public func itemAction(
        _ id: String,
        _ label: String,
        role: ActionRole? = nil,
        message: String? = nil,
        _ handler: @escaping @Sendable (_ itemId: String) async throws -> Void
    ) -> Panel {
        itemAction(id, label, role: role, message: message) { itemId -> Info? in
            try await handler(itemId)
            return nil
        }
    }

    /// Offers an action on every item that does not list its own; the info it returns is shown.
    public func itemAction(
        _ id: String,
        _ label: String,
        role: ActionRole? = nil,
        message: String? = nil,
        _ handler: @escaping @Sendable (_ itemId: String) async throws -> Info?
    ) -> Panel {
        with { $0.itemActions.append(ItemAction(id: id, label: label, role: role, message: message, handler: handler)) }
    }

    /// The message of the panel's success toasts, such as "Thanks for your rating!"; nil keeps the
    /// default.
    public func successMessage(_ message: @escaping @Sendable (Info) -> String?) -> Panel {
        with { $0.successMessage = message }
    }

    /// The message of the panel's failure toasts; nil keeps the default.
    public func failureMessage(_ message: @escaping @Sendable (PanelError) -> String?) -> Panel {
        with { $0.failureMessage = message }
    }

    /// Calls `handler` on the deck whenever the panel records info.
    public func onLoaded(_ handler: @escaping @Sendable (Info) -> Void) -> Panel {
        with { $0.loadedHandler = handler }
    }

    /// Calls `handler` on the deck whenever the panel records an error.
    public func onError(_ handler: @escaping @Sendable (PanelError) -> Void) -> Panel {
        with { $0.errorHandler = handler }
    }

    /// Tells the panel's outages to `target` by `rule` (three failed loads in a row by default); each
    /// call adds a target. The page's desktop notifications follow the first target's rule.
    public func notify(_ target: any NotificationTarget, _ rule: NotifyRule = NotifyRule()) -> Panel {
        with { $0.notify = .entries($0.notify.entries + [NotifyEntry(target: target, rule: rule)]) }
    }

    /// Replaces what the panel declares about notifications: `.notify(.none)` tells its outages to
    /// no one, the page included.
    public func notify(_ declaration: NotifyDeclaration<NotifyEntry>) -> Panel {
        with { $0.notify = declaration }
    }

    /// Declares that the panel depends on the panels `ids` (each once): while one of them is down
    /// and the panel is too, the page names it as the probable cause.
    public func depends(on ids: String...) -> Panel {
        with { panel in
            for id in ids where !panel.dependsOn.contains(id) { panel.dependsOn.append(id) }
        }
    }

    private func with(_ change: (inout Panel) -> Void) -> Panel {
        var copy = self
        change(&copy)
        return copy
    }
}
