import StateDeck

extension HistoryState {
    /// Keeps `form` to save, unless a moment at its time reads it already: its part's newest
    /// form is the same and not after it. Past `unsavedLimit` waiting (saving has failed for
    /// long), the oldest is dropped.
    public mutating func keep(form: MomentForm, unsavedLimit: Int) {
        let newest = newestForms[form.part]
        if let newest, newest.json == form.json, newest.at <= form.at { return }
        var kept = form
        kept.previous = lastKeptForms[form.part]?.headline
        kept.position = nextFormPosition
        nextFormPosition += 1
        if newest.map({ kept.isNewer(than: $0) }) ?? true { newestForms[form.part] = kept }
        lastKeptForms[form.part] = kept
        unsavedForms.append(kept)
        if unsavedForms.count > unsavedLimit { unsavedForms.removeFirst() }
    }

    /// Keeps `forms`, the whole document as a deck followed anew shows it: each part the history
    /// knows that is not among them, and not gone by its newest form, is gone from then on (a
    /// form of no JSON, which a moment leaves out), so a removed panel is not drawn in the moments
    /// after it.
    public mutating func keep(everyForm forms: [MomentForm], at: Int64, unsavedLimit: Int) {
        let shown = Set(forms.map(\.part))
        let gone = newestForms.values.filter { $0.json != MomentForm.gone && !shown.contains($0.part) }
        for form in gone.sorted(by: { $0.position < $1.position }) {
            keep(form: MomentForm(part: form.part, at: at, json: MomentForm.gone), unsavedLimit: unsavedLimit)
        }
        for form in forms { keep(form: form, unsavedLimit: unsavedLimit) }
    }

    /// The newest form of each part waiting to be saved at or before `at` (milliseconds since
    /// 1970): the latest by time, of two at one time the one kept last, as the saved are read
    /// (after the wall clock was set back, a form kept later may hold from an earlier time).
    func unsavedForms(atOrBefore at: Int64) -> [MomentForm.Part: MomentForm] {
        var found: [MomentForm.Part: MomentForm] = [:]
        for form in unsavedForms where form.at <= at && found[form.part].map({ form.isNewer(than: $0) }) ?? true {
            found[form.part] = form
        }
        return found
    }

    /// The panel forms waiting to be saved that are changes in `range`.
    func unsavedChanges(in range: FormChangeRange) -> [MomentForm] {
        unsavedForms.filter { form in
            form.isChange && (range.from...range.to).contains(form.at) && range.isPastCursor(at: form.at, position: form.position)
        }
    }

    /// `panel`'s newest form (as ``unsavedForms(atOrBefore:)`` reads them) waiting to be saved at
    /// or before `at` that changed its health.
    func unsavedPanelForm(of panel: String, atOrBefore at: Int64, changingHealthTo health: String?) -> MomentForm? {
        unsavedForms.filter { form in
            form.part == .panel(panel) && form.at <= at
                && health.map { form.changesHealth && form.headline?.health == $0 } ?? true
        }.max { $1.isNewer(than: $0) }
    }

    /// When the oldest form waiting to be saved holds from, nil for none: the earliest by time,
    /// which after the wall clock was set back is not the first kept.
    var oldestUnsavedForm: Int64? { unsavedForms.lazy.map(\.at).min() }

    /// Whether a process ran the deck at `at` (milliseconds since 1970): a watch covered it, or it
    /// is in the one going on. A stop or a `kill -9` ends a watch where it was last saved.
    func isWatched(_ at: Int64) -> Bool {
        guard let current = watches.last else { return false }
        return at >= current.started || watches.contains { $0.started <= at && at <= $0.watchedTo }
    }
}
