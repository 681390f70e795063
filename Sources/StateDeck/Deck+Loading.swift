extension Deck {
    /// Starts the first load of every panel; later loads follow each panel's refresh schedule.
    ///
    /// Panels that share a refresh interval spread their refreshes evenly over it: in declaration
    /// order, the first refresh of the k-th of n comes (k + ½) / n + ½ of an interval after its
    /// first load, from half an interval to one and a half, one on average. After that each keeps
    /// its interval, so 10,000 panels on `refresh: 15s` make about 667 loads a second instead of
    /// 10,000 at once every 15 s.
    public func start() {
        guard !isStarted else { return }
        isStarted = true
        var sharing: [Duration: [Int]] = [:]
        for index in panels.indices {
            if case .every(let interval) = panels[index].panel.refresh { sharing[interval, default: []].append(index) }
        }
        for indices in sharing.values {
            for (position, index) in indices.enumerated() {
                panels[index].firstRefreshSpread = (Double(position) + 0.5) / Double(indices.count) + 0.5
            }
        }
        waitingToStart = ArraySlice(panels.indices.filter { panels[$0].panel.heartbeat == nil })
        startNextWave()
        startHeartbeats()
        refreshMaintenance(keeping: [])
        refreshIncidents(keeping: [])
        startFlapWatches()
    }

    /// How many first loads may run at once while a deck starts: the next panels start 50 ms
    /// later, as many as there is room for, so that a deck's first loads never all wait at once
    /// behind the limits of their sources, each holding a task and its memory. Past such a burst
    /// glibc keeps the memory it freed: 10,000 first loads at once left 200 MB resident for a
    /// deck that uses 63, and waves on a timer alone still piled up on a busy machine.
    static let startWave = 250
    /// First loads started every 50 ms however many run: a deck of slow sources (10,000 hosts
    /// that time out) still starts within 20 s.
    static let startFloor = 25

    /// Starts the first loads of the panels waiting to start, as many as ``startWave`` leaves room
    /// for (``startFloor`` at least), and comes back 50 ms later for the rest. A panel loaded
    /// meanwhile (a retry) is skipped.
    private func startNextWave() {
        startWaveAlarm = nil
        guard isStarted else { return }
        var room = max(Self.startWave - loadsInFlight, Self.startFloor)
        while room > 0, let index = waitingToStart.popFirst() {
            guard panels[index].load == nil, !loadSchedule.contains(index) else { continue }
            reload(index)
            room -= 1
        }
        guard !waitingToStart.isEmpty else { return }
        startWaveAlarm = clock.alarm(at: clock.now + Self.scheduleLeeway) { [weak self] in await self?.startNextWave() }
    }

    /// Cancels all work: loads (so a command loader can kill its process), schedules, heartbeats'
    /// and flapping's alarms, recovery handlers, item actions and the toast expiry.
    public func stop() {
        isStarted = false
        isStopped = true
        for index in panels.indices {
            // Only a load in flight (its retry, a recovery by retry) changes what a panel shows as
            // it stops: the others are not built again, and a deck of 100,000 stops at once.
            let loading = panels[index].load != nil || panels[index].retry != nil
            abandonLoad(index)
            panels[index].pings.cancelAlarm()
            panels[index].flaps.cancelAlarm()
            if loading { publish(index) }
        }
        loadSchedule.removeAll()
        startWaveAlarm?.cancel()
        maintenance.alarm?.cancel()
        maintenance.alarm = nil
        incidents.alarm?.cancel()
        incidents.alarm = nil
        waitingToStart = []
        toastExpiry?.cancel()
        for activity in activities.values { activity.cancel() }
        activities = [:]
    }

    /// Loads the panel again now; a retry while it loads joins that load instead, and one within
    /// `manualLoadFloor` of the previous retry's load joins a load at the floor. A panel pinned by
    /// a debug state is released first: a retry pressed on a forced card runs the real retry.
    @discardableResult
    public func retry(panel id: String) throws(DeckError) -> RetryResult {
        let index = try index(of: id)
        guard panels[index].panel.heartbeat == nil else {
            throw .conflict("panel \(id) is a heartbeat: only its job's next ping changes what it shows")
        }
        release(index)
        if panels[index].load == nil, let last = panels[index].lastManualLoadStart,
            case let floor = last + configuration.manualLoadFloor, floor > clock.now {
            if !panels[index].manualLoadPending {
                panels[index].manualLoadPending = true
                schedule(index, at: floor)
            }
            return RetryResult(coalesced: true)
        }
        return startLoad(index, manual: true)
    }

    /// Loads the panel again now as a scheduled load would (a watched file changed, say): quietly
    /// (see ``startLoad(_:manual:quietly:)``), with no outcome toast unless the outcome is a
    /// transition, and nothing while a debug state pins it.
    public func refresh(panel id: String) throws(DeckError) {
        reload(try index(of: id), quietly: true)
    }

    /// Starts a load of panel `index` unless one is in flight (single flight). A retry waiting
    /// for the floor joins whichever load comes first.
    ///
    /// A quiet load of a panel that shows a result is a check: nothing of it is shown while it
    /// runs (no `loading`, no turn waited for, no retry planned), and it records only its result,
    /// nothing at all when the result is the one shown. So a panel refreshed every second sends no
    /// event and writes no history while its source does not change, however slow the source
    /// or however many attempts a check takes. A person asking for a load meanwhile shows it.
    @discardableResult
    func startLoad(_ index: Int, manual: Bool, quietly: Bool = false) -> RetryResult {
        let manual = manual || panels[index].manualLoadPending
        panels[index].manualLoadPending = false
        if let load = panels[index].load {
            panels[index].load?.manual = load.manual || manual
            if manual, load.quiet { showLoading(index, ticket: load.ticket) }
            return RetryResult(coalesced: true)
        }
        issuedTickets += 1
        let ticket = issuedTickets
        let start = clock.now
        if manual { panels[index].lastManualLoadStart = start }
        let panel = panels[index].panel
        let quiet = quietly && !manual && panels[index].history.latestNonLoading != nil
        let turn = TurnWait(shown: !quiet)
        let task = Task { [runner] in
            let answer = await runner.run(panel, startedAt: start, holdingMinimum: !quiet) { waiting in
                if turn.set(waiting) { await self.showWaiting(index: index, ticket: ticket) }
            } willRetry: { retry in
                await self.plan(retry, index: index, ticket: ticket)
            }
            self.finishLoad(index, ticket: ticket, answer: answer)
        }
        loadsInFlight += 1
        panels[index].load = PanelRuntime.Load(
            ticket: ticket, startedAt: start, manual: manual, quiet: quiet, task: task, turn: turn)
        if !quiet { record(.loading, in: index, cause: .view) }
        return RetryResult(coalesced: false)
    }

    /// Records `loading` for the quiet load `ticket`, which a person asked for too.
    private func showLoading(_ index: Int, ticket: Int) {
        guard let load = panels[index].load, load.ticket == ticket, load.quiet else { return }
        panels[index].load?.quiet = false
        load.turn.show()
        record(.loading, in: index, cause: .view)
    }

    /// The load `ticket` of panel `index`, shown as loading, started or stopped waiting for its
    /// turn (``TurnWait``): the panel's state says so. A quiet load's wait is sent once it shows
    /// loading, so a refresh nobody sees still sends nothing.
    private func showWaiting(index: Int, ticket: Int) {
        guard panels[index].load?.ticket == ticket else { return }
        publish(index)
    }

    /// Loads panel `index` on the deck's own initiative, unless a debug state pins it; `quietly`
    /// for the loads nobody asked for (schedules, watched files).
    func reload(_ index: Int, quietly: Bool = false) {
        if !panels[index].debugPinned, !isStopped, panels[index].panel.heartbeat == nil {
            startLoad(index, manual: false, quietly: quietly)
        }
    }

    /// Cancels the load in flight, whose result will be discarded.
    func abandonLoad(_ index: Int) {
        panels[index].load?.task.cancel()
        endLoad(index)
    }

    /// Forgets panel `index`'s load, finished or abandoned.
    private func endLoad(_ index: Int) {
        if panels[index].load != nil { loadsInFlight -= 1 }
        panels[index].endLoad()
    }

    /// Shows the retry coming next, unless the load is a quiet check.
    private func plan(_ retry: Runner.Retry, index: Int, ticket: Int) {
        guard let load = panels[index].load, load.ticket == ticket, !load.quiet else { return }
        let nextAt = configuration.now().addingTimeInterval((retry.startsAt - clock.now) / .seconds(1))
        update(index) {
            $0.retry = RetryStatus(attempt: retry.attempt, of: $0.panel.retryPolicy.attempts, nextAt: nextAt)
        }
    }

    private func finishLoad(_ index: Int, ticket: Int, answer: Runner.Answer?) {
        guard let load = panels[index].load, load.ticket == ticket, let answer else { return }
        endLoad(index)
        let result: ViewState = switch answer.outcome {
        case .success(let info): .loaded(info)
        case .failure(let error): .error(error)
        }
        let state = panels[index].takeReadings(of: result)
        // From the start to the answer, retries included: not the minimum loading time it was held.
        let duration = answer.answeredAt - load.startedAt
        panels[index].latestLoadDuration = duration
        let cause = PanelChange.Cause.load(duration)
        panels[index].notBefore = if case .error(let error) = state { error.retryAfter.map { clock.now + $0 } } else { nil }
        if load.quiet, panels[index].shows(state) {
            emitChange(state, on: index, at: configuration.now(), cause: cause, recorded: false)
            publish(index)
        } else {
            record(state, in: index, cause: cause, manual: load.manual)
        }
        scheduleNextLoad(index)
    }

    func scheduleNextLoad(_ index: Int) {
        let deadline = panels[index].nextScheduledLoad(after: clock.now)
        panels[index].firstRefreshSpread = 1
        guard let deadline else {
            loadSchedule.remove(index)
            return
        }
        schedule(index, at: deadline)
    }

    /// How much later than planned a scheduled load may start (on the alarm clock): the loads of
    /// thousands of panels due within 50 ms of each other start together, in one wakeup of the
    /// deck's threads rather than one each, and no panel's refresh moves by more than that.
    static let scheduleLeeway = Duration.milliseconds(50)

    /// Schedules panel `index`'s next load at `deadline` (on the grid of ``scheduleLeeway``), in
    /// place of the one it had. Waiting alarms hold the deck weakly: a deck its owner dropped
    /// without `stop()` ends instead of refreshing forever. `quietly` as ``reload(_:quietly:)``
    /// takes it: a refresh is quiet, a first load is not.
    private func schedule(_ index: Int, at deadline: Duration, quietly: Bool = true) {
        guard isStarted else {
            loadSchedule.remove(index)
            return
        }
        let time = clock.ringTime(for: deadline, leeway: Self.scheduleLeeway)
        guard loadSchedule.add(index, at: time, quietly: quietly) else { return }
        loadSchedule.setAlarm(clock.alarm(at: time) { [weak self] in await self?.runScheduledLoads(at: time) }, at: time)
    }

    private func runScheduledLoads(at time: Duration) {
        for (index, quietly) in loadSchedule.take(time) {
            panels[index].notBefore = nil
            reload(index, quietly: quietly)
        }
    }
}
