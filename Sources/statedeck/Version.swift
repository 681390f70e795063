/// StateDeck's version: what `statedeck --version` prints, and so what `make deb` names the
/// package it builds (it asks the binary). Kept here alone.
enum Version {
    static let current = "0.9.0"
}
