# Sourced by scripts/test and scripts/leak-check: the JWT core's test suites (key loading,
# verification, attacks, vectors, interop). scripts/test runs them once, in the leak check's
# pass, and skips them in its other passes.
# Not among them: KeyLoadingLeakTests, which measures the resident set and is disabled under
# the sanitizer (its quarantine grows the resident set whatever the code does); it runs in
# scripts/test's "everything else" pass.
# shellcheck disable=SC2034
core_suites='^(TokenKitCryptoTests|TokenKitTests)\.(?!KeyLoadingLeakTests)'
