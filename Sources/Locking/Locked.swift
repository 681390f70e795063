#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex. Copies share the value and the lock.
///
/// A pthread mutex rather than `Synchronization.Mutex`: ThreadSanitizer reports false races
/// inside `Mutex` on this toolchain, and the sanitizer runs are part of the test suite.
///
/// The value and its mutex live in one allocation (`Storage`), since a lock is made for every
/// request and every stream. Both are inlinable, so that each caller's closure is specialized
/// and inlined and the storage's class metadata is found once per call site instead of looked
/// up on every call: they run on every request and every stream write, across module
/// boundaries.
public struct Locked<Value>: @unchecked Sendable {
    @usableFromInline let storage: Storage

    @inlinable
    public init(_ value: Value) {
        storage = Storage.make(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    /// A copy of the value, read under the lock.
    @inlinable
    public var current: Value { withLock { $0 } }
}

extension Locked {
    /// The value as the buffer's header, the mutex as its one element: the element's address
    /// is stable for the buffer's life, as a pthread mutex requires.
    @usableFromInline
    final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        @inlinable
        static func make(_ value: Value) -> Storage {
            let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_init($0, nil) }
            return storage
        }

        deinit {
            withUnsafeMutablePointerToElements { _ = pthread_mutex_destroy($0) }
        }
    }
}
