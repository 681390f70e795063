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

    /// Runs `body` with exclusive access to the value; throws what `body` throws, typed.
    @inlinable
    public func withLock<Answer, Failure: Error>(_ body: (inout Value) throws(Failure) -> Answer) throws(Failure) -> Answer {
        // The storage's accessor only rethrows untyped errors, so the error crosses it as a value.
        let outcome = storage.withUnsafeMutablePointers { value, mutex -> Result<Answer, Failure> in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            do throws(Failure) {
                return .success(try body(&value.pointee))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
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
