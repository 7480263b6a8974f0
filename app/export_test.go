package app

// ImportBackoff is the pause of a failing source, for app_test.
var ImportBackoff = backoff
