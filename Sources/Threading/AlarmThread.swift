#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Alarms for any number of deadlines on one thread: a min-heap of deadlines, a table of their
/// actions, and a condition variable the thread waits on until the earliest
/// (`pthread_cond_timedwait` on `CLOCK_MONOTONIC`). Each action runs on that thread when its
/// deadline has passed, so it must be short: resume a waiter, start a task.
///
/// Cheaper than a Dispatch timer per deadline (what `Task.sleep` arms) at thousands of deadlines a
/// second, most of them cancelled before they are due (a load's timeout):
/// setting one is a heap insertion, cancelling one a removal from the table, and neither wakes a
/// thread unless the earliest deadline moves up. Dispatch reprograms a timer file and wakes its
/// manager thread for each.
public final class AlarmThread: @unchecked Sendable {
    /// A set alarm, to cancel it.
    public struct Alarm: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// A deadline as nanoseconds since ``origin``: a plain integer, where `ContinuousClock.Instant`
    /// is a type of the resilient standard library, copied and compared through its value
    /// witnesses at every step of the heap.
    private struct Entry {
        var deadline: Int64
        var id: UInt64
    }

    /// When the first alarm was set; deadlines count from it.
    private let origin = ContinuousClock.now

    /// The alarms of the whole process.
    public static let shared = AlarmThread(name: "alarms")

    // Guarded by `mutex`. The heap keeps cancelled entries until they reach its top; an entry is
    // live while its id is in `actions`.
    private var heap: [Entry] = []
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var lastID: UInt64 = 0
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>

    private init(name: String) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        wake = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(wake, &attributes)
        pthread_condattr_destroy(&attributes)
        DetachedThread.run { [self] in
            DetachedThread.nameCurrentThread(name)
            serve()
        }
    }

    /// Runs `action` on the alarm thread once `deadline` has passed, unless cancelled first.
    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Alarm {
        pthread_mutex_lock(mutex)
        lastID += 1
        let id = lastID
        actions[id] = action
        heap.append(Entry(deadline: nanoseconds(until: deadline), id: id))
        siftUp(heap.count - 1)
        let isEarliest = heap[0].id == id
        pthread_mutex_unlock(mutex)
        if isEarliest { pthread_cond_signal(wake) }
        return Alarm(id: id)
    }

    /// Cancels `alarm`: its action will not run. Returns false when it ran or is running already.
    @discardableResult
    public func cancel(_ alarm: Alarm) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return actions.removeValue(forKey: alarm.id) != nil
    }

    private func serve() -> Never {
        pthread_mutex_lock(mutex)
        while true {
            while let top = heap.first, actions[top.id] == nil { removeTop() }
            guard let earliest = heap.first?.deadline else {
                pthread_cond_wait(wake, mutex)
                continue
            }
            let now = nanoseconds(until: .now)
            guard earliest <= now else {
                var until = Self.monotonicTime(after: .nanoseconds(earliest - now))
                pthread_cond_timedwait(wake, mutex, &until)
                continue
            }
            var due: [@Sendable () -> Void] = []
            while let top = heap.first, top.deadline <= now {
                removeTop()
                if let action = actions.removeValue(forKey: top.id) { due.append(action) }
            }
            pthread_mutex_unlock(mutex)
            for action in due { action() }
            pthread_mutex_lock(mutex)
        }
    }

    /// Saturating: a deadline centuries away (a timeout of `.seconds(.max)`) stays the latest.
    private func nanoseconds(until instant: ContinuousClock.Instant) -> Int64 {
        let (seconds, attoseconds) = origin.duration(to: instant).components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return sumOverflow ? .max : sum
    }

    /// `CLOCK_MONOTONIC`'s time `delay` from now, for `pthread_cond_timedwait`.
    private static func monotonicTime(after delay: Duration) -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(time.tv_nsec) + Int(attoseconds / 1_000_000_000) + 1
        time.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        time.tv_nsec = nanoseconds % 1_000_000_000
        return time
    }

    // MARK: The heap, earliest deadline at index 0

    private func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ index: Int) {
        var parent = index
        while true {
            var smallest = parent
            let left = 2 * parent + 1, right = left + 1
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
