/// The password of the users of every database server the tests start: a word found nowhere
/// else, so that a test can tell it is shown nowhere.
let testPassword = "Pa55-w0rd-4-tests"
