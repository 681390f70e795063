import Testing
@testable import StateDeckSimulation

/// The defects the simulation found in the history and the notifier, each as the shortest steps
/// of the seed that found it (they failed before the fix): a user's year that bent a number.
@MainActor
@Suite(.serialized) struct SimulationRegressionTests {
    /// Runs `steps` in a world of `panels` panels and records every divergence found; `seed`
    /// picks the instants the checks read the past at.
    private func expectHolds(seed: UInt64 = 1, panels: Int = 2, _ steps: [SimulationStep],
                             sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let found = try await Simulator(Scenario(seed: seed, panelCount: panels, steps: steps)).run()
        #expect(found.isEmpty, "\(found.map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    /// The wall clock ten days ahead for a while and back: retention ran at the jumped time and
    /// deleted the hour before it.
    @Test func aWallClockSetForwardForAWhileAndBackDeletesNothing() async throws {
        try await expectHolds([
            .pass(.seconds(3_600)), .jump(.seconds(864_000)), .pass(.seconds(90)), .jump(.seconds(-864_000)),
            .pass(.seconds(3_600)), .check,
        ])
    }

    /// Thirty minutes back: the new watch counted the half hour again, an hour's slot held 90 min.
    @Test func aWallClockSetBackCountsNoInstantTwice() async throws {
        try await expectHolds([.pass(.seconds(3_600)), .jump(.seconds(-1_800)), .pass(.seconds(3_600)), .check])
    }

    /// Seed 1: a panel removed went on counting in its last health, and came back with the time
    /// it was away counted up.
    @Test func aRemovedPanelStopsCountingAndComesBackAsANewWatch() async throws {
        try await expectHolds(panels: 4, [.remove(panel: 0), .pass(.seconds(826)), .add(panel: 0), .check])
    }

    /// Removed while down and added back healthy: its outage was remembered by position and its
    /// recovery told.
    @Test func aPanelRemovedWhileDownAndAddedBackHealthyIsToldNoRecovery() async throws {
        try await expectHolds([
            .pass(.seconds(3_600)), .source(panel: 0, up: false), .pass(.seconds(600)), .remove(panel: 0),
            .source(panel: 0, up: true), .pass(.seconds(3_600)), .add(panel: 0), .pass(.seconds(600)), .check,
        ])
    }

    /// Seed 12: a failure sent while the disk was full, its ledger write lost; a stop that could
    /// not save, and the next run told the same outage again.
    @Test func aFailureTheLedgerCannotKeepIsNotToldTwice() async throws {
        try await expectHolds(panels: 4, [
            .disk(full: true), .source(panel: 0, up: false), .pass(.seconds(458)), .restart, .pass(.seconds(1_375)), .check,
        ])
    }

    /// Seed 2: the wall clock set back most of a day, so retention's now ran ahead of it and
    /// deleted minutes the 24-hour timeline still showed: its oldest hour held 59 minutes.
    @Test func aTimelineSlotPastTheMinutesRetentionKeptIsSummedFromItsHour() async throws {
        try await expectHolds(panels: 4, [
            .pass(.seconds(37_060)), .jump(.seconds(-1_593)), .pass(.seconds(191)), .kill, .pass(.seconds(50_531)),
            .jump(.seconds(-73_150)), .pass(.seconds(240)), .check,
        ])
    }

    /// Seeds 4 and 12: the wall clock set back past the start, a form kept later holding from an
    /// earlier time; while the disk was full, a moment took the form waiting that was kept last
    /// rather than the latest by time, as the saved ones are read.
    @Test func aMomentTakesTheLatestFormByTimeSavedOrWaiting() async throws {
        try await expectHolds(seed: 12, panels: 3, [
            .pass(.seconds(39_554)), .jump(.seconds(-82_839)), .pass(.seconds(4_886)), .jump(.seconds(17_098)),
            .pass(.seconds(2_528)), .disk(full: true), .pass(.seconds(37)), .remove(panel: 2), .pass(.seconds(1_542)),
            .source(panel: 1, up: false), .pass(.seconds(18_214)), .check, .check,
        ])
    }

    /// Seed 2: a panel removed, the wall clock set back and the panel added again; after a kill,
    /// the store opened took the form newest by time (its removal) as the one before the next,
    /// and listed the same health again as a change, twice.
    @Test func aFormFollowsTheOneKeptLastNotTheNewestByTime() async throws {
        try await expectHolds(seed: 2, panels: 4, [
            .pass(.seconds(21_752)), .check, .remove(panel: 2), .jump(.seconds(-47_171)), .pass(.seconds(108)), .check,
            .add(panel: 2), .pass(.seconds(1_540)), .check, .source(panel: 2, up: false), .kill, .restart, .pass(.seconds(221)),
            .jump(.seconds(-5_997)), .pass(.seconds(5_451)), .check, .pass(.seconds(164)), .jump(.seconds(-4_573)),
            .pass(.seconds(28_309)), .check,
        ])
    }

    /// Seed 8: a recovery kept in the ledger and held by a full disk for more than an hour, then
    /// a kill: the next run dropped it as too old, so the target, told "down", heard "down" again.
    @Test func aRecoveryOfAToldFailureIsSentHoweverOld() async throws {
        try await expectHolds(seed: 8, panels: 4, [
            .source(panel: 1, up: false), .pass(.seconds(522)), .source(panel: 1, up: true), .pass(.seconds(50)),
            .disk(full: true), .pass(.seconds(4_131)), .kill, .disk(full: false), .source(panel: 1, up: false),
            .pass(.seconds(499)), .check,
        ])
    }

    /// Seed 52: a panel removed while the disk was full, then a kill: the next start marked it
    /// gone again, as a moment shows it; the model had lost the removal with the kill and shown
    /// it present after the clock was set back past it.
    @Test func aPanelAbsentAtAStartIsGoneInTheMomentsFromThere() async throws {
        try await expectHolds(seed: 52, panels: 2, [
            .pass(.seconds(1_795)), .disk(full: true), .remove(panel: 0), .kill, .pass(.seconds(2_515)),
            .jump(.seconds(-11_762)), .pass(.seconds(12)), .jump(.seconds(-1_400)), .pass(.seconds(10_119)), .add(panel: 0),
            .pass(.seconds(1_083)), .check, .pass(.seconds(498)), .check,
        ])
    }

    /// Seeds 19 and 2: a run with the wall clock ahead deleted the minutes retention keeps no more
    /// by its clock; the clock set back and a new run opened behind that, summed the 24-hour
    /// timeline's hours from the minutes left, and its oldest hour held nothing, or 59 minutes.
    @Test func aRunOpenedBehindWhatAnEarlierRunDeletedSumsTheSlotFromItsHour() async throws {
        try await expectHolds(panels: 4, [
            .pass(.seconds(8)), .jump(.seconds(54_095)), .restart, .pass(.seconds(36_697)), .jump(.seconds(-58_036)),
            .restart, .check,
        ])
        try await expectHolds(panels: 4, [
            .pass(.seconds(37_060)), .jump(.seconds(-1_593)), .pass(.seconds(191)), .kill, .pass(.seconds(49_997)),
            .jump(.seconds(-73_150)), .pass(.seconds(746)), .restart, .check,
        ])
    }

    /// Seed 15 (and 6): a run killed with the disk full, and the wall clock set back at once by the
    /// next: its watch kept only its start, later than the check, and was taken for one that
    /// counted time after it, so the ratios ended at the start of the hour, short of its minutes.
    @Test func aWatchThatWatchedNothingDoesNotEndTheFiguresBeforeNow() async throws {
        try await expectHolds(panels: 4, [
            .source(panel: 0, up: false), .pass(.seconds(3_905)), .disk(full: true), .pass(.seconds(1_061)), .kill,
            .jump(.seconds(-992)), .check,
        ])
    }

    /// Seed 19: the wall clock forward for most of a day and back, so the hour of the check holds
    /// time counted after it and ends the 24-hour ratio at its start: the window moved back by
    /// that hour with its end, and counted an hour more than 24 before the check.
    @Test func aRatioEndedEarlyByTimeCountedAfterNowKeepsItsStart() async throws {
        try await expectHolds(panels: 4, [
            .pass(.seconds(39_769)), .jump(.seconds(54_095)), .pass(.seconds(55_906)), .jump(.seconds(-58_036)),
            .pass(.seconds(1_627)), .source(panel: 1, up: false), .pass(.seconds(240)), .check,
        ])
    }

    /// Seed 47: the wall clock set back 31 s, less than had run since the store last read it, so
    /// no jump was seen; a load stamped just before it was counted ahead of the new wall time, and
    /// the day's slot held the half minute the clock had not reached again.
    @Test func aWallClockSetBackByLessThanRanSinceTheLastReadingIsAJump() async throws {
        try await expectHolds(panels: 3, [.pass(.seconds(599)), .kill, .pass(.seconds(1_001)), .jump(.seconds(-31)), .check])
    }

    /// Seeds 33 and 36: a panel removed from the deck and added back within a minute, then a
    /// restart: its hour and day, saved holding the minute at the removal, were finished with the
    /// minute added again, and its slot held its seconds twice, more than it spans.
    @Test func aPanelRemovedAndAddedBackWithinAMinuteCountsItOnceAfterARestart() async throws {
        try await expectHolds([.pass(.seconds(8)), .remove(panel: 1), .add(panel: 1), .restart, .check])
        try await expectHolds(panels: 5, [
            .jump(.seconds(139_006)), .pass(.seconds(580)), .remove(panel: 3), .add(panel: 3), .restart, .check,
        ])
    }

    /// Seeds 12 and 14: a message sent to a hanging target before its panel's removal is told
    /// then, whenever the target answers; the panel added back starts an outage of its own.
    @Test func aMessageHeldByAHangingTargetIsToldWhenSent() async throws {
        try await expectHolds(seed: 14, panels: 3, [
            .target(.hanging), .pass(.seconds(898)), .source(panel: 2, up: false), .pass(.seconds(200)), .remove(panel: 2),
            .target(.answering), .add(panel: 2), .pass(.seconds(38)), .check,
        ])
        try await expectHolds(seed: 12, panels: 4, [
            .source(panel: 3, up: false), .pass(.seconds(511)), .source(panel: 3, up: true), .target(.hanging),
            .pass(.seconds(2_525)), .remove(panel: 3), .target(.failing), .check,
        ])
    }

    /// Seed 1: a recovery a hanging target answered once the disk was full; a kill before any
    /// commit lost the ledger's note that it was done, and the next run sent it again: the one
    /// repeat the ledger allows, widened by the full disk.
    @Test func aMessageWhoseEndTheLedgerCouldNotKeepMayBeToldOnceMore() async throws {
        try await expectHolds(seed: 1, panels: 4, [
            .source(panel: 3, up: false), .restart, .pass(.seconds(10)), .source(panel: 3, up: true), .target(.hanging),
            .remove(panel: 1), .pass(.seconds(38)), .disk(full: true), .target(.answering), .pass(.seconds(73)), .kill,
            .disk(full: false), .pass(.seconds(12)), .check,
        ])
    }

    /// Seed 101: the disk full from the start and the wall clock set back at once: the oldest form
    /// waiting to be saved was taken as the first kept, later by time than a change after the
    /// jump, and a moment between them was refused as before the oldest instant kept.
    @Test func theOldestFormWaitingIsTheEarliestByTime() async throws {
        try await expectHolds(seed: 101, panels: Scenario(seed: 101, days: 3).panelCount, [
            .disk(full: true), .jump(.seconds(-70_543)), .source(panel: 1, up: false), .pass(.seconds(638)), .check,
        ])
    }

    /// Seed 11: a failure held for hours by a full disk, then a deck edit: the notifier after it
    /// dropped the failure as too old to tell, and told its recovery, of an outage never told.
    @Test func aFailureHeldPastTheHorizonOfAnOutageStillOpenIsToldBeforeItsRecovery() async throws {
        try await expectHolds(panels: 3, [
            .source(panel: 1, up: false), .disk(full: true), .pass(.seconds(8_668)), .remove(panel: 2), .pass(.seconds(100)),
            .disk(full: false), .source(panel: 1, up: true), .pass(.seconds(312)), .check,
        ])
    }

    /// Seed 16: up at a restart and down again at once, then a deck edit: the new failure took
    /// the place of the recovery waiting to go out, and the target heard "down" twice.
    @Test func aFailureAfterARecoveryNotYetSentWithdrawsItAndIsNotToldAgain() async throws {
        try await expectHolds([
            .source(panel: 1, up: false), .pass(.seconds(11_393)), .source(panel: 1, up: true), .kill,
            .source(panel: 1, up: false), .remove(panel: 0), .pass(.seconds(4_497)), .check,
        ])
    }

    /// Seed 8: a recovery held by a full disk past the horizon, then a deck edit: the notifier
    /// after it dropped the recovery as too old, and told the next failure as a second one.
    @Test func aDeckEditDropsNothingOwedHoweverOld() async throws {
        try await expectHolds(panels: 4, [
            .source(panel: 1, up: false), .pass(.seconds(345)), .disk(full: true), .source(panel: 1, up: true),
            .pass(.seconds(3_166)), .jump(.seconds(895)), .source(panel: 1, up: false), .remove(panel: 3),
            .disk(full: false), .pass(.seconds(34)), .check,
        ])
    }

    /// Seeds 3 and 13: a panel removed while down and the disk full, then killed: the removal
    /// that forgot its outage was never committed, and the outage told stands again. The next
    /// process, with the panel still removed, forgets it again.
    @Test func aRemovalAKillLostLeavesTheOutageAsTheHistoryKeptIt() async throws {
        try await expectHolds([
            .source(panel: 1, up: false), .kill, .pass(.seconds(63)), .disk(full: true), .remove(panel: 1),
            .add(panel: 1), .kill, .source(panel: 1, up: true), .pass(.seconds(424)), .disk(full: false),
            .pass(.seconds(353)), .check,
        ])
        try await expectHolds([
            .source(panel: 1, up: false), .restart, .pass(.seconds(30)), .disk(full: true), .remove(panel: 1),
            .restart, .disk(full: false), .add(panel: 1), .pass(.seconds(33)), .check,
        ])
    }

    /// Seed 77: the wall clock set back more than a day, three times: retention's now ran ahead,
    /// so the 24-hour timeline summed its slots from hours, and the check, 2 s into an hour an
    /// earlier watch had counted from its 50th minute on, summed its last slot of 2 s from that
    /// hour, with the 10 min counted after it.
    @Test func aSlotSummedFromAnHourHoldingTimeCountedAfterNowEndsTheTimelineAtItsStart() async throws {
        try await expectHolds(seed: 77, panels: 3, [
            .pass(.seconds(50)), .jump(.seconds(-44_614)), .pass(.seconds(4_879)), .jump(.seconds(-83_335)),
            .pass(.seconds(3_717)), .jump(.seconds(-37_757)), .pass(.seconds(31_062)), .check,
        ])
    }

    /// A `kill -9` mid-outage loses only what came after the last commit, and tells nothing twice.
    @Test func aKillMidOutageKeepsTheUptimeAndTellsNothingTwice() async throws {
        try await expectHolds([
            .pass(.seconds(3_600)), .source(panel: 0, up: false), .pass(.seconds(1_830)), .kill, .pass(.seconds(3_600)), .check,
            .source(panel: 0, up: true), .pass(.seconds(3_600)), .check,
        ])
    }

    /// Seed 3: after the wall clock was set back, a past `to`'s `current` was the health of the
    /// latest change by time, while the moment at that instant showed a form kept after it.
    @Test func theHealthAtAPastInstantIsTheMomentsAfterAClockSetBack() async throws {
        try await expectHolds(seed: 3, [
            .pass(.seconds(680)), .dependencies, .pass(.seconds(683)), .jump(.seconds(-1_742)), .pass(.seconds(618)),
            .source(panel: 1, up: false), .pass(.seconds(787)), .check, .check,
        ])
    }

    /// Seed 9: a custom range up to a past instant, its start older than a day, was read from
    /// minute tallies retention had deleted: its first slots held nothing.
    @Test func aPastRangeOlderThanTheMinutesKeptIsReadFromHours() async throws {
        try await expectHolds(seed: 9, panels: 4, [
            .pass(.seconds(27_945)), .check, .pass(.seconds(28_710)), .check, .check, .pass(.seconds(37_670)), .check,
        ])
    }

    /// Seed 11: a failure a window kept quiet, the window ending while the panel's dependency was
    /// down: its recovery was told of an outage the target never heard of.
    @Test func anOutageAWindowKeptQuietEndsUntoldUnderADependency() async throws {
        try await expectHolds(seed: 11, panels: 3, [
            .dependencies, .source(panel: 1, up: false), .maintenance(panel: 1, minutes: 165), .pass(.seconds(916)),
            .source(panel: 0, up: false), .pass(.seconds(8_791)), .source(panel: 1, up: true), .pass(.seconds(500)), .check,
        ])
    }

    /// Seed 21: a failure that withdrew a recovery began a new outage, so a restart past the
    /// horizon dropped the failure still going out as stale and told the recovery alone.
    @Test func aFailureThatWithdrawsARecoveryGoesOnWithTheOutageTold() async throws {
        try await expectHolds(seed: 21, [
            .source(panel: 0, up: false), .target(.hanging), .pass(.seconds(312)), .source(panel: 0, up: true),
            .pass(.seconds(215)), .source(panel: 0, up: false), .pass(.seconds(3_425)), .source(panel: 0, up: true), .kill,
            .pass(.seconds(981)), .target(.answering), .check,
        ])
    }

    /// Seed 27: a recovery under way when its panel was removed was sent again after a kill,
    /// once the panel was back: the removal had forgotten its outage, not what was owed.
    @Test func aRemovedPanelsDeliveryUnderWayIsNotSentAgainAfterAKill() async throws {
        try await expectHolds(seed: 27, panels: 4, [
            .notify([0, 1]), .source(panel: 1, up: false), .pass(.seconds(290)), .target(.hanging), .pass(.seconds(198)),
            .source(panel: 1, up: true), .pass(.seconds(121)), .remove(panel: 1), .add(panel: 1), .kill, .pass(.seconds(73)),
            .target(.failing), .check,
        ])
    }

    /// Seed 39: a restart took up what was owed by wall time; the clock set back between, a
    /// failure came before the recovery decided earlier, and the two were told as one outage.
    @Test func whatIsOwedIsTakenUpInTheOrderItWasDecided() async throws {
        try await expectHolds(seed: 39, panels: 5, [
            .source(panel: 1, up: false), .pass(.seconds(2_219)), .source(panel: 1, up: true), .target(.hanging), .kill,
            .jump(.seconds(-55_336)), .source(panel: 1, up: false), .pass(.seconds(453)), .restart, .source(panel: 1, up: true),
            .target(.answering), .pass(.seconds(368)), .check,
        ])
    }

    /// Seed 97: a window's start and end are part of what a moment shows (the panel's state is
    /// kept anew), after a rename too; the clock set back first puts them before the first form.
    @Test func aMaintenanceWindowsMarkIsKeptInTheMomentsWithTheTitleOfTheTime() async throws {
        try await expectHolds(seed: 97, panels: 3, [
            .jump(.seconds(-3_585)), .maintenance(panel: 0, minutes: 74), .rename(panel: 0), .pass(.seconds(22_892)), .check,
        ])
    }

    /// Seed 110: retention folded a panel's old forms into the one kept last, where a moment
    /// reads the newest by time; the clock set back before a removal made them differ, and the
    /// moments after the cutoff showed the panel gone.
    @Test func retentionKeepsTheFormAMomentAtItsCutoffShows() async throws {
        try await expectHolds(seed: 110, panels: 3, [
            .source(panel: 1, up: false), .regroup, .jump(.seconds(-6_470)), .remove(panel: 1), .jump(.seconds(760_084)),
            .add(panel: 1), .restart, .jump(.seconds(-33_504)), .pass(.seconds(773)), .check,
        ])
    }

    /// Seed 406: a target removed from a panel's `notify:` and then the panel removed, neither
    /// committed (a full disk) before a stop: the history still owed the target its recovery,
    /// where the checker had undone the panel's removal after the target's, forgetting it again.
    @Test func removalsAStopLostAreUndoneLatestFirst() async throws {
        try await expectHolds(seed: 406, panels: 5, [
            .source(panel: 4, up: false), .notify([1, 0]), .pass(.seconds(587)), .disk(full: true), .notify([0]),
            .remove(panel: 4), .add(panel: 4), .notify([1, 0]), .restart, .disk(full: false), .source(panel: 4, up: true),
            .pass(.seconds(609)), .check,
        ])
    }

    /// Seed 848: a revived panel's target that the deck file no longer listed was forgotten by
    /// the next process with the disk still full; a second stop lost that too, and the target,
    /// listed again, was owed its recovery after all.
    @Test func aForgettingTheNextProcessCouldNotCommitIsLostWithIt() async throws {
        try await expectHolds(seed: 848, panels: 4, [
            .source(panel: 3, up: false), .pass(.seconds(789)), .disk(full: true), .remove(panel: 3), .notify([1]),
            .add(panel: 3), .restart, .source(panel: 3, up: true), .notify([0]), .restart, .disk(full: false),
            .pass(.seconds(142)), .check,
        ])
    }

    /// Seed 1915: a recovery sent to a hanging target was lost at a stop; the next process owed
    /// it, then a recovery telling a whole outage replaced it and a failure replaced that: the
    /// target heard "down" twice and never "up".
    @Test func aRecoveryTellingAWholeOutageDoesNotReplaceOneWhoseFailureWentOut() async throws {
        try await expectHolds(seed: 1915, panels: 4, [
            .source(panel: 2, up: false), .restart, .source(panel: 2, up: true), .pass(.seconds(85)), .target(.hanging),
            .pass(.seconds(661)), .source(panel: 2, up: false), .pass(.seconds(19_487)), .source(panel: 2, up: true),
            .rename(panel: 3), .restart, .source(panel: 2, up: false), .remove(panel: 3), .target(.answering),
            .pass(.seconds(18)), .check,
        ])
    }

    /// Seed 303: a panel down names its dependency that is down as a probable cause, so its state
    /// was kept anew when the dependency went down, with the title of the time; the model had no
    /// form there, and after the wall clock was set back and the panel renamed, it read the new
    /// title where the history rightly showed the old.
    @Test func aDependencyGoingDownKeepsItsDependentsStateAnew() async throws {
        try await expectHolds(seed: 303, panels: 2, [
            .dependencies, .source(panel: 1, up: false), .rename(panel: 0), .pass(.seconds(6_822)), .source(panel: 0, up: false),
            .pass(.seconds(1_777)), .jump(.seconds(-16_271)), .rename(panel: 1), .pass(.seconds(98)), .notify([0]),
            .pass(.seconds(327)), .source(panel: 1, up: true), .pass(.seconds(6_981)), .source(panel: 1, up: false),
            .pass(.seconds(8_291)), .check, .pass(.seconds(422)), .check,
        ])
    }

    /// Seed 104: a removal stamped before the panel's first form (the wall clock set back), then
    /// retention made that first form the panel's checkpoint; the process that reopened the
    /// history took it for the form kept last, kept the panel gone once more at a kill's restart,
    /// and the panel added back after another jump back was missing from every moment after that.
    /// A part's newest form by time, which retention keeps, decides what is kept next.
    @Test func whatIsKeptNextFollowsThePartsNewestFormByTime() async throws {
        try await expectHolds(seed: 104, panels: 3, [
            .pass(.seconds(1_210)), .disk(full: true), .check, .remove(panel: 1), .jump(.seconds(-26_205)), .restart,
            .jump(.seconds(9_008_021)), .disk(full: false), .restart, .pass(.seconds(22_168)), .check, .kill,
            .jump(.seconds(-16_817)), .add(panel: 1), .pass(.seconds(37_574)), .check,
        ])
    }

    /// Seed 524: a maintenance window started while another still covered the panel (the wall
    /// clock set back past the first) marks it anew, with the panel's title of the time; the model
    /// kept a form only when a window began or ended with none before or after, and read an older
    /// title and health there.
    @Test func aWindowStartedUnderAnotherKeepsThePanelsStateAnew() async throws {
        try await expectHolds(seed: 524, panels: 4, [
            .rename(panel: 0), .pass(.seconds(13_191)), .maintenance(panel: 0, minutes: 96), .pass(.seconds(428)), .rename(panel: 0),
            .source(panel: 0, up: false), .pass(.seconds(356)), .jump(.seconds(39)), .pass(.seconds(1_117)), .jump(.seconds(-15_129)),
            .maintenance(panel: 0, minutes: 28), .pass(.seconds(486)), .check,
        ])
    }
}
