# Sourced by scripts/test and scripts/leak-check: the JWT core's test suites (key loading,
# verification, attacks, vectors, interop). scripts/test runs them once, in the leak check's
# pass, and skips them in its other passes.
# shellcheck disable=SC2034
core_suites='^(TokenKitCryptoTests|TokenKitTests)\.'
