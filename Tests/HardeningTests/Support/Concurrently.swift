import TestSupport

/// Runs `work(index)` for every index on `threads` threads at once; the results in index order.
func concurrently<Value: Sendable>(
    _ count: Int, threads: Int, _ work: @escaping @Sendable (Int) -> Value
) async -> [Value] {
    let results = await withTaskGroup(of: [(Int, Value)].self) { group in
        for lane in 0..<threads {
            group.addTask {
                (try? await offPool {
                    stride(from: lane, to: count, by: threads).map { ($0, work($0)) }
                }) ?? []
            }
        }
        var all: [(Int, Value)] = []
        for await part in group { all += part }
        return all
    }
    return results.sorted { $0.0 < $1.0 }.map(\.1)
}
