import FoundationEssentials

extension Deck {
    /// Takes a ping of heartbeat panel `id` (``Panel/heartbeat``), `body` being what the job sent:
    /// the info of a run that ended well, the detail of one that failed. The rules are in
    /// ``Heartbeat``'s table. While a debug state pins the panel, the newest result waits for the
    /// release, as a push does.
    public func ping(panel id: String, _ signal: PingSignal, body: String) throws(DeckError) {
        let index = try index(of: id)
        guard panels[index].panel.heartbeat != nil else {
            throw .conflict("panel \(id) loads its own info; only heartbeat panels take pings")
        }
        let date = configuration.now()
        panels[index].pings.last = date
        guard signal != .start else {
            panels[index].pings.started = (date, clock.now)
            watchHeartbeat(index)
            publish(index)
            return
        }
        let duration = panels[index].pings.started.map { clock.now - $0.at }
        panels[index].pings.started = nil
        panels[index].pings.lastRun = date
        if let duration { panels[index].latestLoadDuration = duration }
        let state: ViewState = switch signal {
        case .failure(let status): .error(jobFailed(index, exitStatus: status, at: date, body: body))
        default: .loaded(Self.pingInfo(body))
        }
        watchHeartbeat(index)
        takeResult(state, in: index, at: date, cause: .ping(duration))
    }

    /// Takes `pings` in order, each as ``ping(panel:_:body:)`` takes it, in one turn of the deck's
    /// actor: pings that arrive together cost one hop, not one each. Returns each one's outcome,
    /// in the same order.
    public func ping(_ pings: [Ping]) -> [Result<Void, DeckError>] {
        pings.map { ping in Result { () throws(DeckError) in try self.ping(panel: ping.panel, ping.signal, body: ping.body) } }
    }

    /// Starts watching every heartbeat panel from its last run, restored from an earlier server
    /// run or deck. One that showed a result without a known last run (a history kept before runs
    /// were) is counted from now: it goes down no sooner than a run and its grace after the start,
    /// never for a ping it may have had while nothing watched.
    func startHeartbeats() {
        let date = configuration.now()
        for index in panels.indices where panels[index].panel.heartbeat != nil {
            if panels[index].history.latestNonLoading != nil, panels[index].pings.lastRun == nil {
                panels[index].pings.lastRun = date
            }
            watchHeartbeat(index)
        }
    }

    /// Sets heartbeat panel `index`'s alarm at the time it goes down unless a ping comes first:
    /// the end of the grace after the run in progress began, or after the next run is due. A panel
    /// waiting for its first ping has none. An alarm set for no later than that time stays: when
    /// it rings it finds the time moved and is set again, so a job that pings on time costs about
    /// one alarm a run rather than one a ping.
    func watchHeartbeat(_ index: Int) {
        guard let heartbeat = panels[index].panel.heartbeat else { return }
        let pings = panels[index].pings
        let grace = heartbeat.grace / .seconds(1)
        let lateAt = if let started = pings.started {
            started.date.addingTimeInterval(grace)
        } else {
            pings.lastRun.flatMap(heartbeat.nextDue)?.addingTimeInterval(grace)
        }
        panels[index].pings.lateAt = lateAt
        guard let lateAt, isStarted else { return panels[index].pings.cancelAlarm() }
        if let armed = pings.armedFor, armed <= lateAt { return }
        panels[index].pings.cancelAlarm()
        let deadline = clock.now + .seconds(max(0, lateAt.timeIntervalSince(configuration.now())))
        panels[index].pings.alarm = clock.alarm(at: deadline) { [weak self] in await self?.heartbeatLate(index, lateAt) }
        panels[index].pings.armedFor = lateAt
    }

    /// Heartbeat panel `index`'s alarm set for `armed` rang: unless another replaced it, the panel
    /// is down once its time has come, and the alarm is set again for a time a ping moved later
    /// (or a wall clock set back since the alarm was set).
    private func heartbeatLate(_ index: Int, _ armed: Date) {
        guard panels[index].pings.armedFor == armed else { return }
        (panels[index].pings.alarm, panels[index].pings.armedFor) = (nil, nil)
        guard let lateAt = panels[index].pings.lateAt, configuration.now() >= lateAt else { return watchHeartbeat(index) }
        takeResult(.error(missedPing(index)), in: index, at: configuration.now(), cause: .deadline)
    }

    /// Records a heartbeat's result, unless it is what the panel shows (then it only counts, as a
    /// check whose result is the one shown) or a debug state pins the panel.
    private func takeResult(_ state: ViewState, in index: Int, at date: Date, cause: PanelChange.Cause) {
        if panels[index].debugPinned {
            panels[index].heldWhilePinned = state
            publish(index)
        } else if panels[index].shows(state) {
            emitChange(state, on: index, at: date, cause: cause, recorded: false)
            publish(index)
        } else {
            record(state, in: index, cause: cause)
        }
    }

    /// The info of a run that ended well: the body it sent, its first line as the summary.
    static func pingInfo(_ body: String) -> Info {
        let text = body.trimmed()
        guard !text.isEmpty else { return Info(summary: "Ran") }
        let firstLine = text.split(separator: "\n", maxSplits: 1).first.map { $0.trimmed() } ?? text
        return Info(summary: firstLine, text: text == firstLine ? nil : text)
    }

    private func jobFailed(_ index: Int, exitStatus: Int?, at date: Date, body: String) -> PanelError {
        let panel = panels[index].panel
        let what = exitStatus.map { "exited with status \($0)" } ?? "reported a failure"
        let text = body.trimmed()
        return PanelError(.jobFailed, message: "\(panel.title) \(what) at \(panel.heartbeat!.clockTime(date)).",
                          detail: text.isEmpty ? nil : text)
    }

    private func missedPing(_ index: Int) -> PanelError {
        let panel = panels[index].panel
        let heartbeat = panel.heartbeat!
        let pings = panels[index].pings
        if let started = pings.started {
            return PanelError(.pingMissed, message: "Started \(heartbeat.clockTime(started.date)), still running after "
                              + "\(heartbeat.grace.lengthText).")
        }
        let since = pings.last.map { "since \(heartbeat.clockTime($0))" } ?? "since StateDeck started"
        let expected = pings.lateAt.map { "; expected by \(heartbeat.clockTime($0))" } ?? ""
        return PanelError(.pingMissed, message: "No ping from \(panel.title) \(since)\(expected).")
    }
}

/// A heartbeat panel's pings, and the alarm that says it is late.
struct HeartbeatPings {
    /// The newest ping of any kind.
    var last: Date?
    /// When the newest run ended (a ping or a failure): the next is due after it.
    var lastRun: Date?
    /// The run in progress: when it began, on the wall and on the deck's clock.
    var started: (date: Date, at: Duration)?
    /// When the panel goes down unless a ping comes first.
    var lateAt: Date?
    var alarm: DeckClock.Alarm?
    /// The `lateAt` the alarm was set for: no later than `lateAt`.
    var armedFor: Date?

    mutating func cancelAlarm() {
        alarm?.cancel()
        (alarm, armedFor) = (nil, nil)
    }
}
