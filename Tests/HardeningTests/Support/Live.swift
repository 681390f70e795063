import Testing

/// Every suite of this target, one test at a time. The live ones share the machine's two cores
/// with the servers they start and bound how long things may take; the fuzz runs would take
/// those cores from them.
@Suite(.serialized) enum Live {}
