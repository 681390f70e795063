// @ts-check
// The documents of PROTOCOL.md as JSDoc types. This module exports nothing at run time;
// other modules import these names with `@typedef {import('./types.js').PanelState} PanelState`.

/**
 * @typedef {"initial" | "loading" | "loaded" | "error"} Phase
 */

/**
 * @typedef {object} Field
 * @property {string} label
 * @property {string} value
 */

/**
 * @typedef {object} ItemAction
 * @property {string} id
 * @property {string} label
 * @property {string} [role] "primary" | "secondary" | "destructive" | …
 */

/**
 * @typedef {object} Item
 * @property {string} id
 * @property {string} title
 * @property {string} [subtitle]
 * @property {ItemAction[]} [actions]
 */

/**
 * Display-ready data: the page draws it, never interprets it.
 * @typedef {object} Info
 * @property {string | null} [summary]
 * @property {Field[] | null} [fields]
 * @property {Item[] | null} [items]
 * @property {string | null} [image] a URL
 * @property {string | null} [imageAlt] optional alternative text for `image`
 * @property {string | null} [text]
 */

/**
 * @typedef {object} RecoveryOption
 * @property {string} id
 * @property {string} label
 * @property {"primary" | "secondary" | "cancel" | "destructive"} role
 */

/**
 * The universal error view configuration, built by the server: the page draws it as sent.
 * @typedef {object} ErrorCard
 * @property {string} kind
 * @property {string} title
 * @property {string} description
 * @property {string} icon
 * @property {boolean} showPreloader
 * @property {string | null} [failureReason]
 * @property {string | null} [recoverySuggestion]
 * @property {string | null} [detail]
 * @property {RecoveryOption[]} options
 */

/**
 * The deck-level notice (`notice` in the state document and the `notice` event): an ErrorCard
 * about the server itself ("Can't save history"), drawn as a banner above the panels. `message`
 * stands in for `description` when only it is sent; options are not drawn (no route runs them).
 * @typedef {Omit<ErrorCard, "description" | "icon" | "showPreloader" | "options"> & {description?: string | null,
 *   message?: string | null, icon?: string | null, showPreloader?: boolean, options?: RecoveryOption[]}} Notice
 */

/**
 * One loading presentation (how a panel is drawn while it loads) with its options.
 * @typedef {object} LoadingPresentation
 * @property {"material" | "horizontal" | "vertical" | "overCurrentContent" | "redacted" | "custom"} type
 * @property {string} [position] horizontal: "leading" | "trailing"; vertical: "top" | "bottom"
 * @property {string} [alignment] horizontal: "top" | "center" | "bottom"; vertical: "leading" | "center" | "trailing";
 *   material and overCurrentContent: "topLeading" | "top" | "topTrailing" | "leading" | "center" | "trailing" |
 *   "bottomLeading" | "bottom" | "bottomTrailing"
 * @property {number} [contentOpacity] 0…1
 * @property {number} [spacing] CSS pixels
 * @property {string} [message] custom: the text beside the indicator
 * @property {string} [icon] custom: an icon name
 */

/**
 * @typedef {object} Presentations
 * @property {LoadingPresentation} [initialLoading]
 * @property {LoadingPresentation} [loadingAfterInfo]
 * @property {LoadingPresentation} [loadingAfterError]
 */

/**
 * @typedef {object} Retry
 * @property {number} attempt
 * @property {number} of
 * @property {string | null} [nextAt] ISO time of the next automatic attempt
 */

/**
 * @typedef {object} HistoryEntry
 * @property {Phase} state
 * @property {string} at ISO time
 */

/** @typedef {"up" | "down" | "loading" | "unknown"} PanelHealth */

/**
 * @typedef {object} PanelState
 * @property {string} id
 * @property {string} title
 * @property {string | null} [group] the id of the group it is drawn under
 * @property {string | null} [since] when the newest state began (ISO 8601)
 * @property {boolean} [queued] the load waits for its turn behind its source's limit
 * @property {Phase} phase
 * @property {PanelHealth} health whether the source is up, as the server decided it: down from an error
 *   until a result says otherwise, a dismissed card (and the stale info shown after it) included
 * @property {boolean} isInitialLoading
 * @property {boolean} isLoading
 * @property {Info | null} [latestValidInfo]
 * @property {Info | null} [latestInfo]
 * @property {ErrorCard | null} [latestValidError]
 * @property {ErrorCard | null} [latestError]
 * @property {{info?: Info, error?: ErrorCard} | null} [latestNonLoading]
 * @property {string[] | null} [modifyingIds]
 * @property {HistoryEntry[]} [history]
 * @property {Presentations} [presentation]
 * @property {Info | null} [placeholder]
 * @property {Retry | null} [retry]
 * @property {boolean} [debugPinned]
 * @property {boolean} [stale] the shown info is the last good one, kept after a dismissed error card
 * @property {boolean} [restored] what the panel shows is from before the server restarted; false once
 *   the first load since the restart has ended
 * @property {PanelLocation[] | null} [locations] how the panel fares from each place it is checked from,
 *   the server's own first; null while it is checked from the server's place only
 * @property {string | null} [locationsSummary] the server's one line over `locations`
 * @property {number | null} [loadMs] how long the newest load ran, in ms; sent with each change, never
 *   alone (a check whose result is the one shown sends no event)
 * @property {Field[] | null} [readings] the newest load's measurements (a ping's round trips and
 *   loss), sent like `loadMs`: with each change, never alone; null after an error
 * @property {HeartbeatStatus | null} [heartbeat] a heartbeat panel's expectation and where it stands;
 *   null for a panel that loads
 * @property {string[]} [dependsOn] the ids of the panels it depends on, as declared
 * @property {string[]} [probableCauses] the ids of its dependencies that are down while it is down
 *   itself: a failing panel with some is a consequence, one without a root cause
 * @property {FlappingStatus | null} [flapping] since when its health keeps changing; null while steady
 * @property {MaintenanceMark | null} [maintenance] the maintenance window the panel is under; null otherwise
 */

/**
 * A flapping panel's `flapping` field: its health changed between up and down more often than the
 * deck's rule allows.
 * @typedef {object} FlappingStatus
 * @property {string} since ISO time of the change that began flapping
 * @property {number} changes the changes of health within `within` of the newest
 * @property {string} within the rule's window as the server writes it: "10 min"
 */

/**
 * The maintenance window a panel is under (its `maintenance` field).
 * @typedef {object} MaintenanceMark
 * @property {string} id
 * @property {string} reason
 * @property {string} until ISO time
 */

/**
 * A maintenance window, or the stretch of a recurring one.
 * @typedef {object} MaintenanceWindow
 * @property {string} id
 * @property {string} reason
 * @property {string[]} panels the ids it covers, groups spelled out
 * @property {string} from ISO time
 * @property {string} until ISO time
 * @property {"deck" | "api"} source
 * @property {string} [schedule] a recurring window's schedule and zone
 */

/**
 * The windows holding now and the next of each the deck file declares (the state document's and the
 * `maintenance` event's; a `window` event carries one of them).
 * @typedef {{active: MaintenanceWindow[], next: MaintenanceWindow[]}} MaintenanceStatus
 */

/**
 * A heartbeat panel's expectation of its job and where it stands (its `heartbeat` field).
 * @typedef {object} HeartbeatStatus
 * @property {string} expects the expectation and its grace as the server writes them: "every 1 h, 10 min grace"
 * @property {number} graceMs how late a run may come, and how long a started one may take
 * @property {boolean} hasPingURL whether its job pings it at a URL (false when the deck's own code
 *   pings the panel); the URL holds the ping's key, so only an operator reads it (GET /api/panels/{id}/ping)
 * @property {string | null} [lastPing] ISO time of the newest ping of any kind
 * @property {string | null} [runningSince] ISO time the run in progress began
 * @property {string | null} [lateAt] ISO time the panel goes down unless a ping comes first; null
 *   while it waits for its first
 */

/**
 * How a panel fares from one place (the server's own, or a remote probe's).
 * @typedef {object} PanelLocation
 * @property {string} name
 * @property {"up" | "down" | "loading" | "noData"} health noData: the place stopped reporting
 * @property {string | null} [summary] the info's summary while up, the error's title while down
 * @property {string | null} [since] ISO time its health began (noData: its last report)
 * @property {number | null} [uptime] percent of the checked time it saw the panel up
 */

/**
 * A panel's health now (`current` of the uptime report).
 * @typedef {object} CurrentHealth
 * @property {"up" | "down" | "loading" | "unknown"} state
 * @property {string} since ISO time
 * @property {string} [watchedSince] ISO time: the health is known without a break since then
 */

/**
 * A stretch of time, such as one StateDeck did not watch.
 * @typedef {{from: string, to: string}} TimeStretch
 */

/**
 * One slot of a timeline, as the server tallied it.
 * @typedef {object} UptimeSlot
 * @property {string} from ISO time
 * @property {string} to ISO time
 * @property {"up" | "down" | "degraded" | "loading" | "maintenance" | "none"} state
 * @property {number} upMs
 * @property {number} downMs
 * @property {number} loadingMs
 * @property {number} [maintenanceMs] time under a maintenance window, counted in no ratio
 * @property {number} loads
 * @property {number} failures
 * @property {number} [avgMs] absent when no load in the slot was timed
 * @property {number} [p95Ms]
 * @property {number} [maxMs]
 */

/**
 * `GET /api/panels/{id}/uptime`: up ratios over 24 h, 7 d and 30 d (0…1, null without data), the
 * health now, each slot's length, and the timeline, oldest slot first.
 * @typedef {{"24h": number | null, "7d": number | null, "30d": number | null, current: CurrentHealth | null,
 *   slotMs: number, slots: UptimeSlot[], unwatched?: TimeStretch[]}} UptimeReport
 */

/**
 * One stored change of a panel (`GET /api/panels/{id}/history`).
 * @typedef {object} StoredChange
 * @property {string} at ISO time
 * @property {Phase} state
 * @property {number} [durationMs] how long the load ran, for a load's result
 * @property {string} [errorKind]
 * @property {string} [title] the error card's heading
 * @property {string} [summary] the info's summary, or the error's message
 * @property {string} [detail] the error's technical detail
 * @property {boolean} [debug] forced by a debug command
 */

/**
 * A page of stored changes, newest first; `next` reads the page after it.
 * @typedef {object} HistoryPage
 * @property {StoredChange[]} entries
 * @property {string | null} next
 */

/**
 * The state document as it was at a moment (GET /api/state?at=): `at` the instant asked, and
 * `watched` false while no process ran the deck then.
 * @typedef {StateDocument & {at: string, watched: boolean}} Moment
 */

/**
 * What one side of a deck-wide change showed.
 * @typedef {object} ChangeSide
 * @property {string} phase
 * @property {PanelHealth} health
 * @property {string} summary
 */

/**
 * One panel's change of phase, health or summary (GET /api/changes).
 * @typedef {object} DeckChange
 * @property {string} at ISO time
 * @property {string} panel its id
 * @property {string} title
 * @property {ChangeSide | null} from null for the first form kept of the panel
 * @property {ChangeSide} to
 */

/**
 * A page of the deck's changes, oldest first; `next` reads the page after it.
 * @typedef {object} ChangesPage
 * @property {DeckChange[]} changes
 * @property {string | null} next
 * @property {string | null} oldest ISO time: the oldest instant a moment is rebuilt for, whatever
 *   the range asked; null while nothing is kept yet
 */

/**
 * What the server decides about the timeline on the cards; null in `Settings.history` when the
 * server keeps no history.
 * @typedef {object} HistorySettings
 * @property {number} timelineSpanMs
 * @property {number} timelineSlots
 */

/**
 * @typedef {object} ToastAction
 * @property {string} id
 * @property {string} label
 */

/**
 * @typedef {object} Toast
 * @property {string} id
 * @property {"success" | "error" | "info"} style
 * @property {string} message
 * @property {string} [panelId]
 * @property {number} durationMs
 * @property {"top" | "bottom"} position
 * @property {ToastAction | null} [action]
 */

/**
 * The `/api/state` document, also the data of the `snapshot` event.
 * What the server decides about drawing before any panel tells it.
 * @typedef {object} Settings
 * @property {number} pingIntervalMs the longest the stream stays silent while idle
 * @property {{durationMs: number, position: "top" | "bottom"}} toast
 * @property {string[]} errorKinds the kinds the debug dialog offers
 * @property {{initialLoading: LoadingPresentation, loadingAfterInfo: LoadingPresentation,
 *   loadingAfterError: LoadingPresentation}} presentation a panel's presentations when it names none
 * @property {LoadingPresentation[]} presentationTypes every type with its default options
 * @property {HistorySettings | null} [history] the cards' timeline; null when the server keeps no history
 * @property {{name: string}[]} [notifyTargets] the deck's notify targets, each name once
 */

/**
 * A heading panels are drawn under.
 * @typedef {object} PanelGroup
 * @property {string} id
 * @property {string} title
 */

/**
 * @typedef {object} StateDocument
 * @property {string} title
 * @property {boolean} debug
 * @property {Replay | null} [replay] only from `statedeck --replay`: the fixture served frozen
 * @property {Settings} [settings]
 * @property {PanelGroup[]} [groups] in the order of their first panels
 * @property {number} lastEventId
 * @property {PanelState[]} panels
 * @property {Toast | null} [toast]
 * @property {Notice | null} [notice] the deck-level notice, null when there is none
 * @property {MaintenanceStatus} [maintenance] the windows holding now and next
 * @property {Incident[]} [incidents] open, and resolved less than 24 h ago, newest opened first
 */

/**
 * The fixture a replay serves: its file's name and the instant it shows.
 * @typedef {object} Replay
 * @property {string} file
 * @property {string} at ISO time
 */

/** @typedef {"investigating" | "identified" | "monitoring" | "resolved"} IncidentStatus */

/**
 * One step of an incident, as its author wrote it.
 * @typedef {object} IncidentUpdate
 * @property {string} at ISO time
 * @property {IncidentStatus} status the status it moved to
 * @property {string} message plain text
 * @property {string} author
 */

/**
 * An incident over some panels, or an announcement (no panels): PROTOCOL.md's incident document.
 * @typedef {object} Incident
 * @property {string} id
 * @property {string} title
 * @property {string[]} panels the ids of the panels it affects
 * @property {IncidentStatus} status its last update's
 * @property {string} openedAt ISO time
 * @property {string | null} resolvedAt ISO time, null while open
 * @property {IncidentUpdate[]} updates oldest first
 */

/**
 * A panel went down, is still down, is up again, or flaps: the data of the `notification` event,
 * as the server decided it (PROTOCOL.md, "Notifications").
 * @typedef {object} DeckNotification
 * @property {string} [id] its own id, the same each time it is sent
 * @property {"failure" | "reminder" | "recovery" | "flapping" | "test"} event
 * @property {string} panel the panel's id
 * @property {string} title
 * @property {string | null} [group]
 * @property {{kind: string, title: string, message: string} | null} [error] absent in a recovery
 * @property {string} downSince
 * @property {number} downSeconds
 * @property {string} at
 * @property {string} message one line: "API is down: Timed out"
 * @property {string[]} [dependents] in a failure, the panels failing with it that depend on it
 */

/**
 * Notifications decided within one gathering window, told as one: the data of the `notification`
 * event when more than one was gathered (PROTOCOL.md, "Notifications").
 * @typedef {object} GatheredNotification
 * @property {string} id a digest of its notifications' ids
 * @property {"failure" | "reminder" | "recovery" | "flapping" | "mixed"} event
 * @property {string} at
 * @property {number} count
 * @property {DeckNotification[]} notifications each as it is told alone
 * @property {string} message one line: "14 panels down: API, Web, Worker, and 11 more"
 */

/**
 * What one target made of a test notification (POST /api/notify/test).
 * @typedef {object} NotifyTestResult
 * @property {string} target
 * @property {"sent" | "failed"} outcome
 * @property {string | null} error what the target said, when it failed
 * @property {number} ms how long it took
 */

/** @typedef {{results: NotifyTestResult[]}} NotifyTestAnswer one result per target of the name */

/**
 * One line of the notification log (GET /api/notify/log).
 * @typedef {object} NotifyLogEntry
 * @property {string} at
 * @property {string} event "failure", "reminder", "recovery", "test", …
 * @property {string[]} panels
 * @property {string} message
 * @property {string} target
 * @property {string} outcome "sent", "failed", "dropped", "gathered", "waiting", "held", "silent", …
 * @property {string | null} why
 */

/** @typedef {{entries: NotifyLogEntry[]}} NotifyLog newest first */

/**
 * An action a person took, signed (GET /api/audit). The page draws who (`actor`), what was done
 * (`what`) and what they wrote (`subject`) apart, never `text`: a reason may itself read "… by alice".
 * @typedef {object} AuditEntry
 * @property {string} id
 * @property {string} at
 * @property {string} actor
 * @property {string} role
 * @property {string} action "retry", "recover", "item_action", "debug_state", "maintenance_started", …
 * @property {string | null} panel null for an action on the whole deck
 * @property {string} subject what they wrote or chose, its direction controls written out ("[U+202E]")
 * @property {string} detail
 * @property {string} what "Started maintenance": without who nor `subject`
 * @property {string} text "Maintenance 'Database upgrade' started by alice", for logs and scripts
 */

/** @typedef {{entries: AuditEntry[]}} AuditLog newest first */

/**
 * The stream's health as the page sees it.
 * @typedef {object} ConnectionState
 * @property {"connecting" | "open" | "down"} status
 * @property {number} attempt failed attempts since the stream was last healthy
 * @property {number | null} downSince epoch ms when the stream was lost, null while open
 * @property {number | null} nextRetryAt epoch ms of the next scheduled attempt, when one is scheduled
 */

export {};
