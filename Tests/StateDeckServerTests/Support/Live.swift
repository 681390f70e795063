import Testing

/// Every live suite, one test at a time: they share the machine's two cores with the server
/// they start, and several measure how fast something arrives.
@Suite(.serialized) enum Live {}

/// Every router-level suite: requests asked of `DeckServer`'s responder, without a socket
/// (`RoutedServer`, `RoutedDeckServer`). They bind nothing, so they may run beside each other.
enum Routed {}
