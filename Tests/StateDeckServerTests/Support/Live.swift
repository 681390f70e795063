import Testing

/// Every live suite, one test at a time: they share the machine's two cores with the server
/// they start, and several measure how fast something arrives.
@Suite(.serialized) enum Live {}
